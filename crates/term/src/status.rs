//! The state of the table as short texts, from the human's view only: the scoreboard,
//! the hand, the lance and the bet standing. Line mode prints them as a block; the
//! full-screen table places them around the table.

use tapete_mus::narrate::{
    cards_text, hand_summary, in_pair_order, jugada_of, position_name, PAIR_ORDER,
};
use tapete_mus::view::Phase;
use tapete_mus::{Lance, MusView};
use tapete_table::Seat;

/// "nosotros" for the human's pair, "ellos" for the other.
pub(crate) fn pair_name(view: &MusView, pair: usize) -> &'static str {
    if view.seat.map(|s| s % 2) == Some(pair % 2) {
        "nosotros"
    } else {
        "ellos"
    }
}

/// How a seat relates to the human: "you", "partner", "left", "right".
///
/// Play goes to the right; seat `me + 1` speaks after the human, so it sits on the right.
pub(crate) fn relation(me: Seat, seat: Seat) -> &'static str {
    match (seat + 4 - me) % 4 {
        0 => "you",
        1 => "right",
        2 => "partner",
        _ => "left",
    }
}

/// Scoreboard rows: a header and one aligned row per pair, in pair order (pair 0–2
/// first, as the view's scores and the outcome name them), each named for the human.
pub(crate) fn score_rows(view: &MusView) -> Vec<String> {
    let s = &view.scores;
    let mut rows = vec![format!(
        "{:<14}{:>8}{:>8}{:>7}   (game to {})",
        "", "piedras", "juegos", "vacas", view.rules.target
    )];
    for pair in [0, 1] {
        rows.push(format!(
            "{:<14}{:>8}{:>8}{:>7}",
            format!("{} {}–{}", pair_name(view, pair), pair, pair + 2),
            s.piedras[pair],
            s.games[pair],
            s.vacas[pair]
        ));
    }
    rows
}

/// The end of the match in a few lines: who won, then the final score in pair order,
/// the same convention as the outcome's summary and the narration.
pub(crate) fn end_lines(view: &MusView) -> Vec<String> {
    let s = &view.scores;
    let who = match view.winner {
        Some(p) => format!("{} win the match", pair_name(view, p)),
        None => "the match did not finish".into(),
    };
    vec![
        who,
        format!("{PAIR_ORDER}:"),
        format!(
            "vacas {} · juegos {}",
            in_pair_order(s.vacas),
            in_pair_order(s.games)
        ),
        format!("piedras {}", in_pair_order(s.piedras)),
    ]
}

/// The human's cards with their jugada and what they hold: "12o 3c 11e 1b   RRCA   (…)".
pub(crate) fn hand_text(view: &MusView) -> String {
    let cards = cards_text(&view.cards);
    match jugada_of(&view.cards, view.rules.mode) {
        Some(j) => format!("{cards}   {j}   ({})", hand_summary(j)),
        None => match view.my_discard {
            Some(d) => format!("{cards}   (discarded {d}, waiting to be served)"),
            None => cards,
        },
    }
}

/// Where the hand stands: the phase and lance, and the bet on the table.
pub(crate) fn phase_text(view: &MusView) -> String {
    match view.phase {
        Phase::Mus => {
            if view.mus_rounds == 0 {
                "mus? say mus or no hay mus".into()
            } else {
                format!(
                    "mus? (after {} discard round{})",
                    view.mus_rounds,
                    if view.mus_rounds == 1 { "" } else { "s" }
                )
            }
        }
        Phase::Discard => "everybody said mus: discard 1–4 cards".into(),
        Phase::Senas => "señas: pass one to your partner (seña dos reyes, seña ninguna…)".into(),
        Phase::Declare { lance } => format!("declaring {lance}"),
        Phase::Bet { lance } => format!("{lance} · {}", bet_text(view)),
        Phase::Over => "the match is over".into(),
    }
}

/// The bet standing: "no bet yet", "ellos envidan 5 (declined: 2)", "órdago by nosotros".
pub(crate) fn bet_text(view: &MusView) -> String {
    match view.bet {
        None => "no bet yet".into(),
        Some(b) if b.ordago => format!("órdago by {}", pair_name(view, b.pair)),
        Some(b) => format!(
            "{} bet {} (if declined: {})",
            pair_name(view, b.pair),
            b.total,
            b.deje
        ),
    }
}

/// Declarations heard this hand: "pares: sí 0 2, no 1 3 · juego: …", or `None`.
pub(crate) fn declarations_text(view: &MusView) -> Option<String> {
    let part = |lance: Lance, decl: &[Option<bool>; 4]| -> Option<String> {
        if decl.iter().all(Option::is_none) {
            return None;
        }
        let list = |want: bool| -> String {
            let seats: Vec<String> = (0..4)
                .filter(|&s| decl[s] == Some(want))
                .map(|s| relation_short(view, s))
                .collect();
            if seats.is_empty() {
                "nobody".into()
            } else {
                seats.join(", ")
            }
        };
        Some(format!("{lance} sí: {} / no: {}", list(true), list(false)))
    };
    let parts: Vec<String> = [
        part(Lance::Pares, &view.pares),
        part(Lance::Juego, &view.juego),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The señas between partners this hand, as only this seat may know them.
pub(crate) fn senas_text(view: &MusView) -> Option<String> {
    match (view.partner_sena, view.my_sena) {
        (None, None) => None,
        (Some(p), None) => Some(format!("partner signals {p}")),
        (None, Some(m)) => Some(format!("you signalled {m}")),
        (Some(p), Some(m)) => Some(format!("partner signals {p} · you signalled {m}")),
    }
}

fn relation_short(view: &MusView, seat: Seat) -> String {
    match view.seat {
        Some(me) => relation(me, seat).to_string(),
        None => format!("seat {seat}"),
    }
}

/// The whole status block for line mode, aligned.
pub(crate) fn block(view: &MusView) -> Vec<String> {
    let me = view.seat.unwrap_or(0);
    let mut out = vec![format!(
        "── hand {} · game {} · mano: {} ──",
        view.hand_number,
        view.game_number,
        if view.mano == me {
            "you".to_string()
        } else {
            format!("seat {} ({})", view.mano, relation(me, view.mano))
        }
    )];
    out.extend(score_rows(view).into_iter().map(|r| format!("  {r}")));
    out.push(format!(
        "  {:<9} seat {me} ({}), partner seat {}",
        "you",
        position_name(view.position_of(me)),
        (me + 2) % 4
    ));
    out.push(format!("  {:<9} {}", "cards", hand_text(view)));
    out.push(format!("  {:<9} {}", "now", phase_text(view)));
    if let Some(d) = declarations_text(view) {
        out.push(format!("  {:<9} {d}", "declared"));
    }
    if let Some(t) = senas_text(view) {
        out.push(format!("  {:<9} {t}", "señas"));
    }
    out
}
