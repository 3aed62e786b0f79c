//! Chinchón at a text table: the player's hand sorted with its melds marked, the pile's
//! top and the stock, every player's points and what each took from the pile, and at each
//! close everyone's melds, unmatched cards and points, held until a key.

use crate::host::ChinchonHost;
use tapete_chinchon::events::HandResult;
use tapete_chinchon::narrate::{cards_text, melds_text, points_text};
use tapete_chinchon::{Action, Card, ChinchonView, Close, Event, Phase, Solver, Suit};
use tapete_host::face::{
    at_place, intro_line, places_text, scores_text, seat_detail, who, CardFace, Centre, Face,
    HandScene, Ink, Line, Panel, Pick, Scene, SeatScene, Shortcut, Span, Tone, Vantage,
};
use tapete_table::{Outcome, Seat};

/// What the table remembers beyond the view: the last hand's counting, shown until a key.
#[derive(Clone, Debug, Default)]
pub struct ChinchonNotes {
    counted: Option<HandResult>,
}

/// The player's hand in the order it is shown and numbered: each meld together (group
/// number), then the cards in no meld, highest value first.
fn ordered(view: &ChinchonView) -> Vec<(Card, Option<u8>)> {
    let cards = view.hand.to_vec();
    let solver = Solver::new(&view.rules);
    let Ok(a) = solver.analyze(&cards) else {
        return cards.into_iter().map(|c| (c, None)).collect();
    };
    let mut out = Vec::with_capacity(cards.len());
    for (g, mask) in a.meld_masks().iter().enumerate() {
        let mut meld: Vec<Card> = (0..cards.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| a.cards()[i])
            .collect();
        meld.sort_by_key(|c| (c.suit().map(|s| s as u8), c.number(), c.is_joker()));
        out.extend(meld.into_iter().map(|c| (c, Some(g as u8))));
    }
    let mut free = a.unmatched();
    free.sort_by_key(|c| (std::cmp::Reverse(view.rules.value(*c)), c.index()));
    out.extend(free.into_iter().map(|c| (c, None)));
    out
}

fn suit_ink(suit: Option<Suit>) -> Ink {
    match suit {
        Some(Suit::Oros) => Ink::Yellow,
        Some(Suit::Copas) => Ink::Red,
        Some(Suit::Espadas) => Ink::Blue,
        Some(Suit::Bastos) => Ink::Green,
        None => Ink::Magenta,
    }
}

fn face(card: Card, group: Option<u8>) -> CardFace {
    let middle = match card.number() {
        Some(1) => "as",
        Some(10) => "sota",
        Some(11) => "caba",
        Some(12) => "rey",
        None => "comodín",
        _ => "",
    };
    CardFace {
        text: card.to_string(),
        corner: card.number().map(|n| n.to_string()).unwrap_or("J".into()),
        middle: middle.into(),
        bottom: card
            .suit()
            .map(|s| s.name().to_string())
            .unwrap_or_default(),
        ink: suit_ink(card.suit()),
        up: true,
        group,
    }
}

/// Scores in seat order: "you 12 · seat 1 45 (out) · seat 2 8".
fn standings(view: &ChinchonView, me: Seat) -> String {
    let out = |s: Seat| if view.out[s] { " (out)" } else { "" };
    scores_text(Some(me), &view.scores[..view.seats], out)
}

/// What is to be done now, in words.
fn now_text(view: &ChinchonView, me: Seat) -> String {
    let Some(turn) = view.turn else {
        return "the game is over".into();
    };
    let mine = turn == me;
    match (view.phase, mine) {
        (Phase::Draw, true) => match view.pile_top() {
            Some(top) => format!("your turn: robo (the stock) or tomo {top} (the pile)"),
            None => "your turn: robo (the stock)".into(),
        },
        (Phase::Discard, true) => "your turn: descarto a card, or cierro".into(),
        (Phase::LayOff, true) => "meter cartas: meto a card onto the melds, or listo".into(),
        (Phase::Draw, false) => format!("seat {turn} draws"),
        (Phase::Discard, false) => format!("seat {turn} discards"),
        (Phase::LayOff, false) => format!("seat {turn} lays cards onto the melds"),
        (Phase::Over, _) => "the game is over".into(),
    }
}

fn hand_info(view: &ChinchonView) -> Vec<Line> {
    let cards = view.hand.to_vec();
    if cards.is_empty() {
        return vec![Line::of("no cards", Tone::Quiet)];
    }
    let solver = Solver::new(&view.rules);
    let Ok(a) = solver.analyze(&cards) else {
        return Vec::new();
    };
    let mut info = vec![Line::of(format!("deadwood {}", a.deadwood()), Tone::Strong)];
    if cards.len() == 8 {
        let closes: Vec<String> = a
            .discards()
            .iter()
            .filter_map(|d| d.close.map(|c| (d.card, c)))
            .map(|(card, c)| format!("cierro {card} ({})", close_name(c)))
            .collect();
        if !closes.is_empty() && view.phase == Phase::Discard {
            let mut seen = Vec::new();
            for c in closes {
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
            info.push(
                Line::of(format!("you can close: {}", seen.join(", ")), Tone::Turn).wrapped(),
            );
        } else if let Some(best) = a.best_discard() {
            info.push(Line::of(
                format!("best discard {} (deadwood {})", best.card, best.deadwood),
                Tone::Quiet,
            ));
        }
    } else if a.can_close() {
        info.push(Line::of("these seven would close", Tone::Quiet));
    }
    info
}

fn close_name(c: Close) -> String {
    match c {
        Close::Chinchon => "chinchón".into(),
        Close::MenosDiez => "menos diez".into(),
        Close::Normal { points, .. } => format!("{points}"),
    }
}

fn result_lines(view: &ChinchonView, r: &HandResult, me: Seat) -> Vec<Line> {
    let how = match r.close {
        Some(c) => close_name(c),
        None => "a false close".into(),
    };
    let head = match (r.closer, r.down) {
        (Some(closer), Some(down)) => format!(
            "hand {}: {} closed ({how}), down {down}",
            r.hand,
            who(Some(me), closer)
        ),
        _ => format!(
            "hand {}: nobody closed, each counts the cards in no meld",
            r.hand
        ),
    };
    let mut lines = vec![Line::of(head, Tone::Strong).wrapped()];
    for s in &r.results {
        let mut text = format!("{}: ", who(Some(me), s.seat));
        if !s.melds.is_empty() {
            text.push_str(&melds_text(&s.melds));
        }
        if !s.unmatched.is_empty() {
            if !s.melds.is_empty() {
                text.push_str(" · ");
            }
            text.push_str(&format!("left {}", cards_text(&s.unmatched)));
        }
        if !s.laid.is_empty() {
            text.push_str(&format!(" · laid {}", cards_text(&s.laid)));
        }
        text.push_str(&format!(" → {}", points_text(s.points)));
        let tone = if s.seat == me { Tone::Own } else { Tone::Plain };
        lines.push(Line::of(text, tone).wrapped());
    }
    lines.push(Line::of(format!("points: {}", standings(view, me)), Tone::Quiet).wrapped());
    lines
}

fn header(view: &ChinchonView, me: Seat, wide: bool) -> Line {
    let mut spans = vec![Span::new("tapete · chinchón", Tone::Title)];
    spans.push(Span::plain(format!("  hand {}", view.hand_number)));
    if wide {
        spans.push(Span::new(
            format!(" · out above {}", view.rules.target),
            Tone::Quiet,
        ));
    }
    spans.push(Span::plain("  "));
    spans.push(Span::new(standings(view, me), Tone::Strong));
    Line::new(spans)
}

impl Face for ChinchonHost {
    type Notes = ChinchonNotes;

    fn notes(_view: &ChinchonView) -> ChinchonNotes {
        ChinchonNotes::default()
    }

    fn note(notes: &mut ChinchonNotes, event: &Event) -> bool {
        match event {
            Event::HandDealt { .. } => false,
            Event::HandScored(r) => {
                notes.counted = Some(r.clone());
                true
            }
            Event::GameOver { .. } => true,
            _ => false,
        }
    }

    fn scene(view: &ChinchonView, notes: &ChinchonNotes, at: &Vantage) -> Scene {
        let me = at.me;
        let seats = (0..view.seats)
            .map(|seat| {
                let mut role = Vec::new();
                if seat == view.dealer {
                    role.push("dealer");
                }
                if seat == view.mano {
                    role.push("mano");
                }
                let mut facts = Vec::new();
                if view.out[seat] {
                    facts.push("out".to_string());
                } else if seat != me {
                    facts.push(format!("{} cards", view.hand_sizes[seat]));
                }
                let holds = view.holds.get(seat).map(|h| h.to_vec()).unwrap_or_default();
                if !holds.is_empty() {
                    facts.push(format!("took {}", cards_text(&holds)));
                }
                if view.reentered[seat] {
                    facts.push("re-entered".into());
                }
                SeatScene {
                    label: at.label(seat),
                    detail: seat_detail(seat, &role, view.scores[seat].into()),
                    cards: Vec::new(),
                    cards_note: String::new(),
                    facts,
                }
            })
            .collect();
        let mut lines = vec![
            Line::of(now_text(view, me), Tone::Turn).wrapped(),
            Line::of(
                format!("stock {} · pile {}", view.stock, view.pile.len()),
                Tone::Quiet,
            ),
        ];
        if let Some(c) = &view.close {
            lines.push(
                Line::of(
                    format!(
                        "{} closed: {}",
                        who(Some(me), c.closer),
                        melds_text(&c.melds)
                    ),
                    Tone::Strong,
                )
                .wrapped(),
            );
        }
        let title = match view.phase {
            Phase::LayOff => " meter cartas ",
            Phase::Over => " the end ",
            _ => " chinchón ",
        };
        let hand = ordered(view).into_iter().map(|(c, g)| face(c, g)).collect();
        let reveal = (at.held)
            .then_some(())
            .and(notes.counted.as_ref())
            .map(|r| Panel {
                title: format!(" hand {} ", r.hand),
                forms: vec![result_lines(view, r, me)],
            });
        Scene {
            header: vec![header(view, me, true), header(view, me, false)],
            seats,
            centre: Centre {
                title: title.into(),
                lines,
                cards: view.pile_top().map(|c| face(c, None)).into_iter().collect(),
            },
            hand: HandScene {
                cards: hand,
                info: hand_info(view),
            },
            reveal,
            end: (view.phase == Phase::Over).then(|| end_lines(view, me)),
        }
    }

    fn intro(view: &ChinchonView, at: &Vantage, bots: &[Option<String>]) -> String {
        let terms = format!("out above {} points", view.rules.target);
        intro_line("chinchón", at, &terms, bots)
    }

    fn status(view: &ChinchonView, at: &Vantage) -> Vec<String> {
        let me = at.me;
        let mut out = vec![format!(
            "hand {} · points: {}",
            view.hand_number,
            standings(view, me)
        )];
        out.push(format!(
            "pile top: {} · stock {}",
            view.pile_top().map(|c| c.to_string()).unwrap_or("—".into()),
            view.stock
        ));
        for s in 0..view.seats {
            let holds = view.holds[s].to_vec();
            if s != me && !holds.is_empty() {
                out.push(format!("seat {s} took {}", cards_text(&holds)));
            }
        }
        if let Some(c) = &view.close {
            out.push(format!(
                "{} closed: {}",
                who(Some(me), c.closer),
                melds_text(&c.melds)
            ));
        }
        let hand = ordered(view);
        if !hand.is_empty() {
            let hand = places_text(&hand, |g| format!("[{}]", g + 1));
            out.push(format!("your hand: {hand}"));
            out.extend(hand_info(view).iter().map(Line::text));
        }
        out
    }

    fn prompt(view: &ChinchonView, legal: &[Action]) -> String {
        let mut kinds = Vec::new();
        if legal.contains(&Action::Robo) {
            kinds.push("robo".to_string());
        }
        if legal.contains(&Action::Tomo) {
            kinds.push(match view.pile_top() {
                Some(c) => format!("tomo ({c})"),
                None => "tomo".into(),
            });
        }
        if legal.iter().any(|a| matches!(a, Action::Descarto(_))) {
            kinds.push("descarto CARD (or its place)".into());
        }
        let closes: Vec<String> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Cierro(c) => Some(format!("cierro {c}")),
                _ => None,
            })
            .collect();
        if !closes.is_empty() {
            kinds.push(closes.join(" | "));
        }
        let laid: Vec<String> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Meto(c) => Some(format!("meto {c}")),
                _ => None,
            })
            .collect();
        if !laid.is_empty() {
            kinds.push(laid.join(" | "));
        }
        if legal.contains(&Action::Listo) {
            kinds.push("listo".into());
        }
        kinds.join(" | ")
    }

    /// Besides the engine's words, a card alone (`7o`) or its place in the hand as shown
    /// (`3`) discards it, or lays it off while meter cartas.
    fn parse_command(text: &str, view: &ChinchonView) -> Result<Action, String> {
        let t = text.trim();
        if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) {
            let place: usize = t.parse().map_err(|_| format!("`{t}` is not a place"))?;
            return Self::picked(view, &[place]);
        }
        if let Ok(card) = t.parse::<Card>() {
            return match view.phase {
                Phase::LayOff => Ok(Action::Meto(card)),
                _ => Ok(Action::Descarto(card)),
            };
        }
        t.parse::<Action>().map_err(|e| format!("`{t}`: {e}"))
    }

    fn help() -> Vec<String> {
        [
            "robo                      — draw the top card of the stock (el taco)",
            "tomo                      — take the top card of the discard pile (el pozo)",
            "descarto 7o | 7o | 3      — discard a card, by name or by its place in your hand",
            "cierro 3b                 — close, putting 3b down: the other seven must close",
            "meto 5o | listo           — after a close, lay a card onto the melds, or be done",
            "a close: all but one card in melds and that one ≤ the limit; menos diez: all seven; chinchón: one escalera of seven",
            "cards: number + suit letter: o oros, c copas, e espadas, b bastos; 10 sota, 11 caballo, 12 rey; J comodín",
            "help shows this; quit leaves the table",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    fn key(key: char, _view: &ChinchonView) -> Option<Shortcut<Action>> {
        match key {
            'r' => Some(Shortcut::First(vec![Action::Robo])),
            't' => Some(Shortcut::First(vec![Action::Tomo])),
            'l' => Some(Shortcut::First(vec![Action::Listo])),
            'c' => Some(Shortcut::Type {
                text: "cierro ".into(),
                hint: "name the card to put down, then Enter".into(),
            }),
            _ => None,
        }
    }

    fn key_bar() -> Vec<(&'static str, &'static str)> {
        vec![
            ("r⏎", "robo"),
            ("t⏎", "tomo"),
            ("3⏎", "by place"),
            ("c⏎", "cierro"),
            ("l⏎", "listo"),
        ]
    }

    fn key_help() -> Vec<String> {
        vec![
            "r robo (the stock) · t tomo (the pile)".into(),
            "a place of your hand (`3`) marks that card; Enter discards it (or lays it off)".into(),
            "c puts `cierro ` on the line: type the card to put down".into(),
            "l listo: done laying cards off".into(),
        ]
    }

    fn pick(view: &ChinchonView) -> Result<Pick, String> {
        match view.phase {
            Phase::Discard => Ok(Pick {
                places: view.hand.len(),
                hint: "Enter discards the selected card".into(),
            }),
            Phase::LayOff => Ok(Pick {
                places: view.hand.len(),
                hint: "Enter lays the selected card onto the melds".into(),
            }),
            _ => Err("draw first: robo or tomo".into()),
        }
    }

    fn picked(view: &ChinchonView, places: &[usize]) -> Result<Action, String> {
        let hand = ordered(view);
        let [place] = places else {
            return Err("pick one card".into());
        };
        let (card, _) = at_place(&hand, *place)?;
        match view.phase {
            Phase::Discard => Ok(Action::Descarto(card)),
            Phase::LayOff => Ok(Action::Meto(card)),
            _ => Err("draw first: robo or tomo".into()),
        }
    }

    fn news(before: &ChinchonView, after: &ChinchonView, events: &[Event]) -> Vec<String> {
        let drew = events
            .iter()
            .any(|e| matches!(e, Event::DrewStock { seat } if Some(*seat) == after.seat));
        if !drew {
            return Vec::new();
        }
        let new: Vec<Card> = after
            .hand
            .minus(&before.hand)
            .map(|h| h.to_vec())
            .unwrap_or_default();
        match new.as_slice() {
            [c] => vec![format!("you drew {c}")],
            _ => Vec::new(),
        }
    }

    fn final_lines(view: &ChinchonView, at: &Vantage, _outcome: Option<&Outcome>) -> Vec<String> {
        end_lines(view, at.me)
    }
}

fn end_lines(view: &ChinchonView, me: Seat) -> Vec<String> {
    let winners: Vec<String> = view.winners.iter().map(|&s| who(Some(me), s)).collect();
    let mut out = Vec::new();
    if winners.is_empty() {
        out.push("the game did not finish".into());
    } else if let Some(s) = view.chinchon {
        out.push(format!("{} won with a chinchón", who(Some(me), s)));
    } else {
        out.push(format!("winner: {}", winners.join(", ")));
    }
    out.push(format!("points: {}", standings(view, me)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapete_chinchon::{ChinchonGame, ChinchonRules};
    use tapete_table::Game;

    fn at(me: Seat, seats: usize) -> Vantage<'static> {
        Vantage {
            me,
            seats,
            to_act: &[],
            held: false,
        }
    }

    #[test]
    fn one_point_is_1_pt() {
        let g = ChinchonGame::new(&ChinchonRules::default(), 3, 3).unwrap();
        let mut view = g.view(0);
        view.scores = vec![1, -1, 12];
        let scene = ChinchonHost::scene(&view, &ChinchonNotes::default(), &at(0, 3));
        let ends: Vec<&str> = scene
            .seats
            .iter()
            .map(|s| s.detail.rsplit(" · ").next().unwrap_or(""))
            .collect();
        assert_eq!(ends, ["1 pt", "-1 pt", "12 pts"]);
    }

    #[test]
    fn the_scene_shows_only_the_players_own_cards() {
        for seats in [2, 4, 8] {
            let g = ChinchonGame::new(&ChinchonRules::default(), seats, 3).unwrap();
            for me in 0..seats {
                let view = g.view(me);
                let scene = ChinchonHost::scene(&view, &ChinchonNotes::default(), &at(me, seats));
                assert_eq!(scene.seats.len(), seats);
                let mut shown: Vec<String> =
                    scene.hand.cards.iter().map(|c| c.text.clone()).collect();
                let mut mine: Vec<String> = view.hand.iter().map(|c| c.to_string()).collect();
                shown.sort();
                mine.sort();
                assert_eq!(shown, mine);
                assert!(scene.seats.iter().all(|s| s.cards.is_empty()));
            }
        }
    }

    #[test]
    fn places_follow_the_shown_order_and_bad_places_are_refused() {
        let mut g = ChinchonGame::new(&ChinchonRules::default(), 2, 5).unwrap();
        g.apply(0, &Action::Robo).unwrap();
        let view = g.view(0);
        let order = ordered(&view);
        assert_eq!(order.len(), 8);
        for (i, (card, _)) in order.iter().enumerate() {
            assert_eq!(
                ChinchonHost::parse_command(&(i + 1).to_string(), &view),
                Ok(Action::Descarto(*card))
            );
        }
        assert!(ChinchonHost::parse_command("9", &view).is_err());
        assert!(ChinchonHost::parse_command("0", &view).is_err());
        assert_eq!(
            ChinchonHost::parse_command("robo", &view),
            Ok(Action::Robo),
            "the engine's words pass through (the engine refuses them now)"
        );
        let c = order[0].0;
        assert_eq!(
            ChinchonHost::parse_command(&c.to_string(), &view),
            Ok(Action::Descarto(c))
        );
    }
}
