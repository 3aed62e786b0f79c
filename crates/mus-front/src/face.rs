//! Mus at the terminal: the scoreboard by pairs (nosotros and ellos), the four seats with
//! their calls and discards, the lance and the bet in the middle, your four cards with
//! their jugada, la cuenta after each hand, the words and keys a player uses, and the
//! pares and juego declarations made without asking (they are truthful).

use crate::MusHost;
use tapete_cards::{Card, Suit};
use tapete_host::face::{
    at_places, CardFace, Centre, Face, HandScene, Ink, Line, Panel, Pick, Scene, SeatScene,
    Shortcut, Span, Tone, Vantage,
};
use tapete_mus::events::Showdown;
use tapete_mus::narrate::{
    cards_text, hand_summary, in_pair_order, jugada_of, legal_summary, position_name, PAIR_ORDER,
};
use tapete_mus::view::Phase;
use tapete_mus::{Action, Event, Lance, LanceStatus, Mode, MusView};
use tapete_table::{Outcome, Seat};

/// What the table remembers of this hand beyond the view.
#[derive(Clone, Debug, Default)]
pub struct MusNotes {
    /// Each seat's last call this hand, with its lance: "grande: envido 5".
    last_call: [Option<String>; 4],
    /// Cards each seat discarded in the latest mus round.
    discarded: [Option<u8>; 4],
    /// The hands shown at the end of the last hand.
    shown: Option<Showdown>,
    /// The lance being bet, as last announced.
    lance: Option<Lance>,
}

impl Face for MusHost {
    type Notes = MusNotes;

    fn notes(_view: &MusView) -> MusNotes {
        MusNotes::default()
    }

    fn note(notes: &mut MusNotes, event: &Event) -> bool {
        match event {
            Event::HandStarted { .. } => {
                notes.last_call = Default::default();
                notes.discarded = [None; 4];
                notes.lance = None;
            }
            Event::Said { seat, action } => {
                let call = match notes.lance {
                    Some(l) if !matches!(action, Action::Pares(_) | Action::Juego(_)) => {
                        format!("{l}: {action}")
                    }
                    _ => action.to_string(),
                };
                if let Some(slot) = notes.last_call.get_mut(*seat) {
                    *slot = Some(call);
                }
                if matches!(action, Action::Mus) && notes.discarded.iter().all(Option::is_some) {
                    notes.discarded = [None; 4];
                }
            }
            Event::Discarded { seat, count } => {
                if let Some(slot) = notes.discarded.get_mut(*seat) {
                    *slot = Some(*count);
                }
            }
            Event::LanceStarted { lance } => notes.lance = Some(*lance),
            Event::Showdown(s) => {
                notes.shown = Some(s.clone());
                return true;
            }
            Event::GameWon { .. } => return true,
            _ => {}
        }
        false
    }

    fn scene(view: &MusView, notes: &MusNotes, at: &Vantage) -> Scene {
        let me = at.me;
        let seats = (0..4)
            .map(|seat| SeatScene {
                label: Span::new(relation(me, seat), pair_tone(view, seat)),
                detail: format!("seat {seat} · {}", position_name(view.position_of(seat))),
                cards: shown(notes, at, seat).map(faces).unwrap_or_default(),
                cards_note: shown(notes, at, seat)
                    .map(|cards| jugada_text(&cards, view.rules.mode))
                    .unwrap_or_default(),
                facts: seat_facts(notes, view, seat),
            })
            .collect();
        Scene {
            header: HEADER_FORMS
                .iter()
                .map(|&form| header_line(view, form))
                .collect(),
            seats,
            centre: centre(view, at),
            hand: hand(view, notes, at),
            reveal: notes.shown.as_ref().map(|s| reveal(view, s, me)),
            end: (view.phase == Phase::Over).then(|| end_lines(view)),
        }
    }

    fn intro(_view: &MusView, at: &Vantage, bots: &[Option<String>]) -> String {
        let me = at.me;
        let name = |seat: Seat| -> &str { bots.get(seat).and_then(|b| b.as_deref()).unwrap_or("") };
        let (partner, right, left) = (name((me + 2) % 4), name((me + 1) % 4), name((me + 3) % 4));
        let who = if partner == right && right == left {
            partner.to_string()
        } else if right == left {
            format!("partner {partner}, rivals {right}")
        } else {
            format!("partner {partner}, right {right}, left {left}")
        };
        format!(
            "tapete · mus — you are seat {me}, your partner seat {}; bots: {who}",
            (me + 2) % 4
        )
    }

    fn status(view: &MusView, _at: &Vantage) -> Vec<String> {
        block(view)
    }

    fn prompt(_view: &MusView, legal: &[Action]) -> String {
        legal_summary(legal)
    }

    /// Besides the engine's own words (`descarto 12o 1b`), discards may name the cards by
    /// their place in the hand as shown: `descarto 1 3` (or just `1 3` while discarding).
    fn parse_command(text: &str, view: &MusView) -> Result<Action, String> {
        let t = text.trim();
        let lower = t.to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let places: &[&str] = match words.as_slice() {
            ["descarto", rest @ ..] if !rest.is_empty() => rest,
            all if view.phase == Phase::Discard => all,
            _ => &[],
        };
        if !places.is_empty() && places.iter().all(|w| w.chars().all(|c| c.is_ascii_digit())) {
            let mut numbers = Vec::with_capacity(places.len());
            for w in places {
                let place: usize = w
                    .parse()
                    .map_err(|_| format!("`{w}` is not a place in your hand: use 1–4"))?;
                numbers.push(place);
            }
            return discard_by_place(&numbers, view);
        }
        t.parse::<Action>().map_err(|e| e.to_string())
    }

    fn help() -> Vec<String> {
        [
            "mus | no hay mus (or corto)     — at the start of a hand",
            "descarto 12o 1b | descarto 1 3  — after mus: cards by name or by place 1–4",
            "paso | envido [N] | órdago      — with no bet standing (envido alone is 2)",
            "quiero | no quiero | reenvido N — facing a bet (N more; also `N más`)",
            "pares and juego are declared for you: declarations are truthful",
            "cards: number + suit letter: o oros, c copas, e espadas, b bastos; 10 sota, 11 caballo, 12 rey",
            "help shows this; quit leaves the table",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    /// A declaration (pares, juego) with one legal form is made for the player.
    fn forced(legal: &[Action]) -> Option<Action> {
        match legal {
            [only @ (Action::Pares(_) | Action::Juego(_))] => Some(only.clone()),
            _ => None,
        }
    }

    /// Short forms, each a letter run with Enter: `y` and `s` are quiero, never a way out;
    /// `e` and `r` put a bet of 2 on the input line to be changed or confirmed.
    fn key(key: char, view: &MusView) -> Option<Shortcut<Action>> {
        let first = |a: &[Action]| Some(Shortcut::First(a.to_vec()));
        match key {
            'm' => first(&[Action::Mus]),
            'n' => first(&[Action::NoHayMus, Action::NoQuiero]),
            'c' => first(&[Action::NoHayMus]),
            'p' => first(&[Action::Paso]),
            's' | 'y' => first(&[Action::Quiero]),
            'o' => first(&[Action::Ordago]),
            'e' | 'r' => Some(Shortcut::Type {
                text: if view.bet.is_some() {
                    "reenvido 2"
                } else {
                    "envido 2"
                }
                .into(),
                hint: "Enter bets; change the amount first if you like".into(),
            }),
            _ => None,
        }
    }

    fn key_bar() -> Vec<(&'static str, &'static str)> {
        vec![
            ("m⏎", "mus"),
            ("n⏎", "no"),
            ("p⏎", "paso"),
            ("e⏎", "envido"),
            ("s⏎", "quiero"),
            ("o⏎", "órdago"),
            ("1 3⏎", "discard"),
        ]
    }

    fn key_help() -> Vec<String> {
        [
            "m mus · n no hay mus / no quiero",
            "p paso · e envido (puts `envido 2` on the line)",
            "s quiero · o órdago",
            "discarding, places `1 3` mark cards; Enter throws them",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    fn pick(view: &MusView) -> Result<Pick, String> {
        if view.phase != Phase::Discard || view.my_discard.is_some() {
            return Err(
                "cards are chosen by place (1–4) only when discarding, after everybody says mus"
                    .into(),
            );
        }
        Ok(Pick {
            places: view.cards.len(),
            hint: "Enter discards the selected cards".into(),
        })
    }

    fn picked(view: &MusView, places: &[usize]) -> Result<Action, String> {
        if places.is_empty() {
            return Err("type the places of the cards to throw (1–4), then Enter".into());
        }
        discard_by_place(places, view)
    }

    fn own_lines(action: &Action) -> Vec<String> {
        match action {
            Action::Descarto(cards) => vec![format!("you throw {cards}")],
            _ => Vec::new(),
        }
    }

    /// After a serve the player learns which cards came in.
    fn news(before: &MusView, after: &MusView, events: &[Event]) -> Vec<String> {
        if !events.iter().any(|e| matches!(e, Event::Served)) {
            return Vec::new();
        }
        let fresh: Vec<Card> = after
            .cards
            .iter()
            .filter(|c| !before.cards.contains(c))
            .copied()
            .collect();
        if fresh.is_empty() {
            Vec::new()
        } else {
            vec![format!("your new cards: {}", cards_text(&fresh))]
        }
    }

    fn log_tone(line: &str) -> Tone {
        if line.starts_with("you") {
            Tone::Own
        } else if line.contains("scores") || line.contains(" win") {
            Tone::Strong
        } else if line.contains(": betting starts") || line.starts_with("hand ") {
            Tone::Faint
        } else {
            Tone::Plain
        }
    }

    /// The score by pairs (pair 0–2 first) and who won, with the outcome's summary.
    fn final_lines(view: &MusView, at: &Vantage, outcome: Option<&Outcome>) -> Vec<String> {
        let mut lines: Vec<String> = score_rows(view)
            .into_iter()
            .map(|r| format!("  {r}"))
            .collect();
        lines.push(match outcome {
            Some(o) => format!(
                "{} — {}",
                if o.winners.contains(&at.me) {
                    "nosotros win"
                } else {
                    "ellos win"
                },
                o.summary
            ),
            None => "the match did not finish".into(),
        });
        lines
    }
}

/// "nosotros" for the player's pair, "ellos" for the other.
fn pair_name(view: &MusView, pair: usize) -> &'static str {
    if view.seat.map(|s| s % 2) == Some(pair % 2) {
        "nosotros"
    } else {
        "ellos"
    }
}

/// The tone of a seat's (or pair's) name: the player's pair, or the rivals.
fn pair_tone(view: &MusView, pair: usize) -> Tone {
    if view.seat.map(|s| s % 2) == Some(pair % 2) {
        Tone::Own
    } else {
        Tone::Rival
    }
}

/// How a seat relates to the player: "you", "partner", "left", "right".
///
/// Play goes to the right; seat `me + 1` speaks after the player, so it sits on the right.
fn relation(me: Seat, seat: Seat) -> &'static str {
    match (seat + 4 - me % 4) % 4 {
        0 => "you",
        1 => "right",
        2 => "partner",
        _ => "left",
    }
}

/// Scoreboard rows: a header and one aligned row per pair, in pair order (pair 0–2
/// first, as the view's scores and the outcome name them), each named for the player.
fn score_rows(view: &MusView) -> Vec<String> {
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
fn end_lines(view: &MusView) -> Vec<String> {
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

/// The player's cards with their jugada and what they hold: "12o 3c 11e 1b   RRCA   (…)".
fn hand_text(view: &MusView) -> String {
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
fn phase_text(view: &MusView) -> String {
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

/// The bet standing: "no bet yet", "ellos bet 5 (if declined: 2)", "órdago by nosotros".
fn bet_text(view: &MusView) -> String {
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

/// Declarations heard this hand: "pares sí: left / no: you · juego …", or `None`.
fn declarations_text(view: &MusView) -> Option<String> {
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
fn senas_text(view: &MusView) -> Option<String> {
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
fn block(view: &MusView) -> Vec<String> {
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

/// Discards the cards at these places (1-based, as shown) of the player's hand.
fn discard_by_place(places: &[usize], view: &MusView) -> Result<Action, String> {
    let chosen = at_places(&view.cards, places)?;
    Ok(Action::Descarto(chosen.into_iter().collect()))
}

/// One way of writing the header.
#[derive(Clone, Copy)]
struct HeaderForm {
    /// The " tapete · mus " title.
    title: bool,
    /// Pairs named with their seats: "nosotros 0–2".
    seats: bool,
    /// Scores in words ("12 piedras 1 juego 0 vacas") rather than "12p 1j 0v".
    words: bool,
    /// "hand 3 · game 1 · to 40" rather than "h3 g1 to 40".
    long_info: bool,
}

/// The header's forms, widest first. Any real score fits 110 columns in words.
const HEADER_FORMS: [HeaderForm; 5] = [
    HeaderForm {
        title: true,
        seats: true,
        words: true,
        long_info: true,
    },
    HeaderForm {
        title: false,
        seats: true,
        words: true,
        long_info: true,
    },
    HeaderForm {
        title: false,
        seats: false,
        words: true,
        long_info: true,
    },
    HeaderForm {
        title: true,
        seats: true,
        words: false,
        long_info: true,
    },
    HeaderForm {
        title: false,
        seats: false,
        words: false,
        long_info: false,
    },
];

/// The header in one form: the hand, game and target, then each pair's score in pair
/// order (pair 0–2 first, as the view's scores and the outcome name them).
fn header_line(view: &MusView, form: HeaderForm) -> Line {
    let s = view.scores;
    let count = |n: u8, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut spans = Vec::new();
    if form.title {
        spans.push(Span::new(" tapete · mus ", Tone::Title));
        spans.push(Span::plain("  "));
    }
    let (hand, game, target) = (view.hand_number, view.game_number, view.rules.target);
    spans.push(Span::plain(if form.long_info {
        format!("hand {hand} · game {game} · to {target}   ")
    } else {
        format!("h{hand} g{game} to {target}  ")
    }));
    for pair in [0, 1] {
        let name = if form.seats {
            format!("{} {}–{}", pair_name(view, pair), pair, pair + 2)
        } else {
            pair_name(view, pair).to_string()
        };
        spans.push(Span::new(name, pair_tone(view, pair)));
        spans.push(Span::plain(if form.words {
            format!(
                ": {} {} {}",
                count(s.piedras[pair], "piedra", "piedras"),
                count(s.games[pair], "juego", "juegos"),
                count(s.vacas[pair], "vaca", "vacas")
            )
        } else {
            format!(
                " {}p {}j {}v",
                s.piedras[pair], s.games[pair], s.vacas[pair]
            )
        }));
        if pair == 0 {
            spans.push(Span::plain("   "));
        }
    }
    Line::new(spans)
}

/// What a seat has shown of itself this hand: discards, declarations, its last call.
fn seat_facts(notes: &MusNotes, view: &MusView, seat: Seat) -> Vec<String> {
    let mut facts = Vec::new();
    if let Some(n) = notes.discarded[seat] {
        facts.push(format!("discarded {n}"));
    } else if view.phase == Phase::Discard && view.discarded[seat] {
        facts.push("discarded".into());
    }
    let decl: Vec<String> = [("pares", view.pares[seat]), ("juego", view.juego[seat])]
        .iter()
        .filter_map(|(name, d)| d.map(|has| format!("{name} {}", if has { "sí" } else { "no" })))
        .collect();
    if !decl.is_empty() {
        facts.push(decl.join(" · "));
    }
    if let Some(call) = &notes.last_call[seat] {
        facts.push(format!("» {call}"));
    }
    facts
}

/// The cards a seat showed at the last showdown, while the table is held on it.
fn shown(notes: &MusNotes, at: &Vantage, seat: Seat) -> Option<Vec<Card>> {
    let s = notes.shown.as_ref().filter(|_| at.held)?;
    Some(s.cards[seat].to_vec())
}

fn jugada_text(cards: &[Card], mode: Mode) -> String {
    jugada_of(cards, mode)
        .map(|j| j.to_string())
        .unwrap_or_default()
}

fn suit_ink(suit: Suit) -> Ink {
    match suit {
        Suit::Oros => Ink::Yellow,
        Suit::Copas => Ink::Red,
        Suit::Espadas => Ink::Blue,
        Suit::Bastos => Ink::Green,
    }
}

/// The word in the middle of a drawn card: the figures, and in 8 reyes the 2 and 3 that
/// count as as and rey.
fn figure(card: Card, mode: Mode) -> &'static str {
    let ocho = mode == Mode::OchoReyes;
    match card.number() {
        1 => "as",
        2 if ocho => "(as)",
        3 if ocho => "(rey)",
        10 => "sota",
        11 => "caba",
        12 => "rey",
        _ => "",
    }
}

fn face(card: Card, mode: Mode) -> CardFace {
    CardFace {
        text: card.to_string(),
        corner: card.number().to_string(),
        middle: figure(card, mode).into(),
        bottom: card.suit().name().into(),
        ink: suit_ink(card.suit()),
        up: true,
        group: None,
    }
}

fn faces(cards: Vec<Card>) -> Vec<CardFace> {
    // Figures only show in drawn cards, so the mode does not matter on one line.
    cards
        .into_iter()
        .map(|c| face(c, Mode::default()))
        .collect()
}

fn centre(view: &MusView, at: &Vantage) -> Centre {
    let title = match view.phase {
        Phase::Bet { lance } | Phase::Declare { lance } => format!(" {lance} "),
        Phase::Mus | Phase::Discard => " mus ".to_string(),
        Phase::Senas => " señas ".to_string(),
        Phase::Over => " the end ".to_string(),
    };
    let now = match view.phase {
        Phase::Bet { .. } => bet_text(view),
        _ => phase_text(view),
    };
    let mut lines = vec![Line::of(now, Tone::Strong)];
    if let Some(d) = declarations_text(view) {
        lines.push(Line::of(d, Tone::Quiet));
    }
    if let Some(t) = senas_text(view) {
        lines.push(Line::of(t, Tone::Secret));
    }
    let turn: Vec<&str> = at.to_act.iter().map(|&s| relation(at.me, s)).collect();
    if at.held {
        lines.push(Line::of("hand over: any key goes on", Tone::Turn));
    } else if !turn.is_empty() {
        let text = if turn == ["you"] {
            "your turn".to_string()
        } else {
            format!("to act: {}", turn.join(", "))
        };
        lines.push(Line::of(text, Tone::Turn));
    }
    let lances: Vec<String> = view
        .lances
        .iter()
        .map(|(l, s)| format!("{l}: {}", short_status(view, s)))
        .collect();
    if !lances.is_empty() {
        lines.push(Line::of(lances.join(" · "), Tone::Quiet));
    }
    Centre {
        title,
        lines,
        cards: Vec::new(),
    }
}

fn short_status(view: &MusView, s: &LanceStatus) -> String {
    match s {
        LanceStatus::EnPaso => "en paso".into(),
        LanceStatus::Accepted { piedras } => format!("{piedras} querido"),
        LanceStatus::OrdagoAccepted => "órdago".into(),
        LanceStatus::Declined { pair, piedras } => {
            format!("{piedras} to {}", pair_name(view, *pair))
        }
        LanceStatus::Unbet { pair } => format!("{} only", pair_name(view, *pair)),
        LanceStatus::Void => "nobody".into(),
    }
}

fn hand(view: &MusView, notes: &MusNotes, at: &Vantage) -> HandScene {
    let mut info = Vec::new();
    if let Some(j) = jugada_of(&view.cards, view.rules.mode) {
        info.push(Line::of(j.to_string(), Tone::Strong));
        info.push(Line::from(hand_summary(j)));
    } else if let Some(d) = view.my_discard {
        info.push(Line::from(format!("discarded {d}")));
        info.push(Line::from("waiting for the others"));
    }
    for fact in seat_facts(notes, view, at.me) {
        info.push(Line::of(fact, Tone::Quiet));
    }
    if let Some(cards) = shown(notes, at, at.me) {
        let j = jugada_text(&cards, view.rules.mode);
        info.push(Line::of(
            format!("last hand: {}  {j}", cards_text(&cards)),
            Tone::Quiet,
        ));
    }
    HandScene {
        cards: view
            .cards
            .iter()
            .map(|&c| face(c, view.rules.mode))
            .collect(),
        info,
    }
}

/// La cuenta: every hand from the mano on with its jugada, then who won each lance and
/// why. Narrow panels leave the cards to the seats' blocks and show the jugadas only.
fn reveal(view: &MusView, s: &Showdown, me: Seat) -> Panel {
    let form = |with_cards: bool| -> Vec<Line> {
        let mut lines = Vec::new();
        for p in 0..4 {
            let seat = (s.mano + p) % 4;
            let cards = s.cards[seat].to_vec();
            let j = jugada_text(&cards, view.rules.mode);
            let mut spans = vec![
                Span::new(format!("{:<8}", relation(me, seat)), pair_tone(view, seat)),
                Span::new(format!("{j:<6}"), Tone::Strong),
            ];
            if with_cards {
                spans.push(Span::plain(format!("{:<16}", cards_text(&cards))));
            }
            spans.push(Span::new(position_name(p), Tone::Faint));
            lines.push(Line::new(spans));
        }
        lines.push(Line::default());
        for w in &s.winners {
            let who = match w.seat {
                Some(seat) => Span::new(relation(me, seat), pair_tone(view, seat)),
                None => Span::plain("—"),
            };
            lines.push(Line::new(vec![
                Span::new(format!("{:<7}", w.lance.to_string()), Tone::Strong),
                who,
            ]));
            lines.push(Line::of(format!("  {}", w.reason), Tone::Quiet).wrapped());
        }
        lines
    };
    Panel {
        title: " la cuenta: the hands ".into(),
        forms: vec![form(true), form(false)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapete_cards::CardSet;
    use tapete_table::Game;

    fn view_at(seat: Seat) -> MusView {
        let game = tapete_mus::MusGame::new(&tapete_mus::MusRules::default(), 4, 1).expect("game");
        game.view(seat)
    }

    /// A view late in a long match: three-digit hand, two-digit piedras, several vacas.
    fn late_view(seat: Seat) -> MusView {
        let mut view = view_at(seat);
        view.hand_number = 123;
        view.game_number = 3;
        view.scores.piedras = [39, 38];
        view.scores.games = [2, 1];
        view.scores.vacas = [4, 3];
        view
    }

    fn at(me: Seat) -> Vantage<'static> {
        Vantage {
            me,
            seats: 4,
            to_act: &[],
            held: false,
        }
    }

    #[test]
    fn a_header_in_words_fits_110_columns_in_pair_order() {
        for seat in [0, 1] {
            let view = late_view(seat);
            let scene = MusHost::scene(&view, &MusHost::notes(&view), &at(seat));
            // The form a 110-column screen draws: the first that leaves the last column free.
            let row = scene
                .header
                .iter()
                .find(|form| form.width() < 110)
                .map(Line::text)
                .expect("a form fits 110 columns");
            let (ours, theirs) = if seat == 0 {
                ("nosotros", "ellos")
            } else {
                ("ellos", "nosotros")
            };
            let expected = [
                "hand 123 · game 3 · to 40".to_string(),
                format!("{ours} 0–2: 39 piedras 2 juegos 4 vacas"),
                format!("{theirs} 1–3: 38 piedras 1 juego 3 vacas"),
            ];
            for part in &expected {
                assert!(row.contains(part.as_str()), "`{part}` missing:\n{row}");
            }
            assert!(
                row.find(expected[1].as_str()) < row.find(expected[2].as_str()),
                "pair 0–2 first:\n{row}"
            );
        }
    }

    #[test]
    fn every_header_form_keeps_every_number_and_they_narrow() {
        let view = late_view(0);
        let scene = MusHost::scene(&view, &MusHost::notes(&view), &at(0));
        let forms = &scene.header;
        assert_eq!(forms.len(), 5);
        for form in forms {
            let text = form.text();
            for part in ["123", "39", "38", "ellos", "nosotros"] {
                assert!(text.contains(part), "{part} missing: {text}");
            }
            assert!(text.ends_with('v') || text.ends_with("vacas"), "{text}");
        }
        let last = forms.last().map(Line::width).unwrap_or(0);
        assert!(
            forms.iter().all(|f| f.width() >= last),
            "the last form is the narrowest"
        );
    }

    #[test]
    fn the_end_names_the_score_in_pair_order() {
        let mut view = late_view(1);
        view.phase = Phase::Over;
        view.winner = Some(1);
        view.scores.piedras = [12, 40];
        let lines = end_lines(&view);
        assert_eq!(lines[0], "nosotros win the match");
        assert_eq!(lines[1], "pair 0–2 against pair 1–3:");
        assert_eq!(lines[2], "vacas 4–3 · juegos 2–1");
        assert_eq!(lines[3], "piedras 12–40");
        let scene = MusHost::scene(&view, &MusHost::notes(&view), &at(1));
        assert_eq!(scene.end, Some(lines));
        assert_eq!(scene.centre.title, " the end ");
    }

    #[test]
    fn discards_are_understood_by_place_and_bad_places_refused() {
        let mut view = view_at(0);
        view.phase = Phase::Discard;
        let by_place = MusHost::parse_command("descarto 1 3", &view).expect("places");
        let bare = MusHost::parse_command("1 3", &view).expect("places alone while discarding");
        let mut expected = CardSet::EMPTY;
        expected.insert(view.cards[0]);
        expected.insert(view.cards[2]);
        assert_eq!(by_place, Action::Descarto(expected));
        assert_eq!(bare, by_place);
        assert_eq!(MusHost::picked(&view, &[1, 3]), Ok(by_place));
        let e = MusHost::parse_command("descarto 5", &view).expect_err("no fifth card");
        assert!(e.contains("use 1–4"), "{e}");
        let e = MusHost::parse_command("descarto 2 2", &view).expect_err("twice");
        assert!(e.contains("named twice"), "{e}");
        let e = MusHost::parse_command("descarto 99999999999999999999", &view)
            .expect_err("too big to be a place");
        assert!(e.contains("not a place"), "{e}");
        assert!(MusHost::picked(&view, &[]).is_err());
        // Outside the discard, bare numbers are not places and cards cannot be picked.
        view.phase = Phase::Mus;
        assert!(MusHost::parse_command("1 3", &view).is_err());
        assert!(MusHost::pick(&view).is_err());
        let e = MusHost::parse_command("13o", &view).expect_err("not an action");
        assert!(e.contains("`13o` is not a Mus action"), "{e}");
    }

    #[test]
    fn only_single_form_declarations_are_forced() {
        assert_eq!(
            MusHost::forced(&[Action::Pares(true)]),
            Some(Action::Pares(true))
        );
        assert_eq!(
            MusHost::forced(&[Action::Juego(false)]),
            Some(Action::Juego(false))
        );
        assert_eq!(MusHost::forced(&[Action::Paso]), None);
        assert_eq!(MusHost::forced(&[Action::Mus, Action::NoHayMus]), None);
    }

    #[test]
    fn the_scene_shows_only_own_cards_until_the_showdown() {
        let game = tapete_mus::MusGame::new(&tapete_mus::MusRules::default(), 4, 3).expect("g");
        let view = game.view(2);
        let scene = MusHost::scene(&view, &MusHost::notes(&view), &at(2));
        let mine: Vec<String> = view.cards.iter().map(Card::to_string).collect();
        let hand: Vec<String> = scene.hand.cards.iter().map(|c| c.text.clone()).collect();
        assert_eq!(hand, mine);
        assert!(scene.seats.iter().all(|s| s.cards.is_empty()));
        assert_eq!(scene.seats[2].label.text, "you");
        assert_eq!(scene.seats[0].label.text, "partner");
        assert_eq!(scene.seats[3].label.text, "right");
        assert_eq!(scene.seats[1].label.text, "left");
        assert!(scene.reveal.is_none() && scene.end.is_none());
    }

    #[test]
    fn the_intro_names_the_bots_by_relation_when_they_differ() {
        let view = view_at(1);
        let same = vec![
            Some("random".to_string()),
            None,
            Some("random".to_string()),
            Some("random".to_string()),
        ];
        assert_eq!(
            MusHost::intro(&view, &at(1), &same),
            "tapete · mus — you are seat 1, your partner seat 3; bots: random"
        );
        let mixed = vec![
            Some("basico".to_string()),
            None,
            Some("basico".to_string()),
            Some("experto".to_string()),
        ];
        assert_eq!(
            MusHost::intro(&view, &at(1), &mixed),
            "tapete · mus — you are seat 1, your partner seat 3; bots: partner experto, rivals basico"
        );
    }
}
