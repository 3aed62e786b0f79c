//! Tikki at a text table: each seat's cards held, how many it laid this tikki (never which),
//! its pile and points; the last revealed tikki in the centre with each player's best
//! combination and who took it; the player's hand with its best combination marked, cards
//! picked by place to make a lay; the retreat step typed or keyed; after each round every
//! pile's rank groups and points, held until a key.

use crate::host::TikkiHost;
use tapete_host::face::{
    at_places, intro_line, places_text, pts, scores_text, seat_detail, who, CardFace, Centre, Face,
    HandScene, Ink, Line, Panel, Pick, Scene, SeatScene, Shortcut, Span, Tone, Vantage,
};
use tapete_host::Host;
use tapete_table::{Outcome, Seat};
use tapete_tikki::narrate::count_text;
use tapete_tikki::TikkiCards;
use tapete_tikki::{best, Action, Card, Cards, Event, Phase, Suit, TikkiView, Trick};

/// What the table remembers beyond the view: the last revealed tikki (the view forgets a
/// round's tikkis once the next is dealt) and the last cards a player alone put to its pile.
#[derive(Clone, Debug, Default)]
pub struct TikkiNotes {
    last: Option<Trick>,
    leftover: Option<(Seat, Cards)>,
}

fn suit_ink(suit: Suit) -> Ink {
    match suit {
        Suit::Spades => Ink::White,
        Suit::Hearts => Ink::Red,
        Suit::Diamonds => Ink::Cyan,
        Suit::Clubs => Ink::Green,
    }
}

fn face(card: Card, group: Option<u8>) -> CardFace {
    let middle = match card.rank() {
        1 => "ace",
        11 => "jack",
        12 => "queen",
        13 => "king",
        _ => "",
    };
    CardFace {
        text: card.to_string(),
        corner: card.rank().to_string(),
        middle: middle.into(),
        bottom: card.suit().symbol().to_string(),
        ink: suit_ink(card.suit()),
        up: true,
        group,
    }
}

/// The player's hand in the order it is shown and numbered: the best combination first
/// (marked as group 0), then the other cards by rank, lowest first.
fn ordered(view: &TikkiView) -> Vec<(Card, Option<u8>)> {
    let combo = best(view.hand).map(|b| b.cards).unwrap_or_default();
    combo
        .iter()
        .map(|c| (c, Some(0)))
        .chain(view.hand.difference(combo).iter().map(|c| (c, None)))
        .collect()
}

/// Scores in seat order: "you 12 · seat 1 45 · seat 2 8".
fn standings(view: &TikkiView) -> String {
    scores_text(view.seat, &view.scores[..view.seats], |_| "")
}

/// How long the game lasts, in words.
fn length_text(view: &TikkiView) -> String {
    if view.rules.target > 0 {
        format!("to {}", count_text(view.rules.target as usize, "point"))
    } else {
        format!(
            "round {} of {}",
            view.round,
            view.rules.rounds_for(view.seats)
        )
    }
}

/// The number of the tikki being played this round, from 1.
fn trick_number(view: &TikkiView) -> usize {
    view.tricks.len() + 1
}

/// What is to be done now, in words.
fn now_text(view: &TikkiView) -> String {
    let Some(turn) = view.turn else {
        return "the game is over".into();
    };
    let mine = view.seat == Some(turn);
    match (view.phase, mine) {
        (Phase::Lay, true) => "your turn: lay one or more cards face down".into(),
        (Phase::Lay, false) => format!("seat {turn} lays cards face down"),
        (Phase::Retreat, true) => {
            "the retreat round: take cards back, showing one for each, or keep".into()
        }
        (Phase::Retreat, false) => format!("the retreat round: seat {turn} decides"),
        (Phase::Over, _) => "the game is over".into(),
    }
}

/// One seat's cards on the table this tikki as the player may know them: its own face up,
/// another's face down except those shown in the retreat round.
fn table_cards(view: &TikkiView, seat: Seat) -> Vec<CardFace> {
    if view.seat == Some(seat) {
        return view.laid.iter().map(|c| face(c, None)).collect();
    }
    let shown = view.revealed[seat];
    let down = view.laid_counts[seat].saturating_sub(shown.len());
    shown
        .iter()
        .map(|c| face(c, None))
        .chain((0..down).map(|_| CardFace::down()))
        .collect()
}

/// What a seat did this tikki, in a few words ("laid 3", "laid 3, took 1 back", "to lay").
fn laid_text(view: &TikkiView, seat: Seat) -> String {
    if !view.in_trick[seat] {
        return "out of this tikki".into();
    }
    let n = view.laid_counts[seat];
    let back = view.retreated[seat];
    match (n, back) {
        (0, _) => "to lay".into(),
        (n, 0) => format!("laid {n}"),
        (n, b) => format!("laid {n}, took {b} back"),
    }
}

/// A pile as its rank groups and their points: "5S 5H 5D 10 · 9C 1 = 11".
fn pile_text(pile: Cards) -> String {
    if pile.is_empty() {
        return "no cards = 0".into();
    }
    let mut groups = Vec::new();
    for rank in 1..=13u8 {
        let group: Cards = pile.iter().filter(|c| c.rank() == rank).collect();
        if !group.is_empty() {
            groups.push(format!("{group} {}", group.pile_points()));
        }
    }
    format!("{} = {}", groups.join(" · "), pile.pile_points())
}

/// The lines of a revealed tikki: each seat's cards and the combination that counted, then
/// who took it.
fn trick_lines(view: &TikkiView, trick: &Trick) -> Vec<Line> {
    let seats = trick.laid.len();
    let mut out = Vec::new();
    for k in 0..seats {
        let s = (trick.leader + k) % seats;
        let Some(b) = trick.best[s] else {
            continue;
        };
        let mark = if s == trick.winner { "» " } else { "  " };
        let rest = trick.laid[s].difference(b.cards);
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(" + {rest}")
        };
        let tone = if s == trick.winner {
            Tone::Strong
        } else if view.seat == Some(s) {
            Tone::Own
        } else {
            Tone::Plain
        };
        out.push(
            Line::of(
                format!(
                    "{mark}{}: [{}]{rest} — {}",
                    who(view.seat, s),
                    b.cards,
                    b.kind
                ),
                tone,
            )
            .wrapped(),
        );
    }
    let cards: usize = trick.laid.iter().map(|c| c.len()).sum();
    let verb = if view.seat == Some(trick.winner) {
        "take"
    } else {
        "takes"
    };
    out.push(
        Line::of(
            format!(
                "{} {verb} the tikki, {}",
                who(view.seat, trick.winner),
                count_text(cards, "card")
            ),
            Tone::Turn,
        )
        .wrapped(),
    );
    out
}

/// A revealed tikki's cards in seat order from the leader, each seat's best combination
/// marked as its own group.
fn trick_faces(trick: &Trick) -> Vec<CardFace> {
    let seats = trick.laid.len();
    let mut out = Vec::new();
    for k in 0..seats {
        let s = (trick.leader + k) % seats;
        let combo = trick.best[s].map(|b| b.cards).unwrap_or_default();
        for c in trick.laid[s].iter() {
            out.push(face(c, combo.contains(c).then_some(s as u8)));
        }
    }
    out
}

fn hand_info(view: &TikkiView) -> Vec<Line> {
    let mut info = Vec::new();
    match best(view.hand) {
        Some(b) => info.push(Line::of(
            format!("best: {} {}", b.kind, b.cards),
            Tone::Strong,
        )),
        None => info.push(Line::of("no cards in hand", Tone::Quiet)),
    }
    if !view.laid.is_empty() {
        let counts = best(view.laid)
            .map(|b| format!(" ({} {})", b.kind, b.cards))
            .unwrap_or_default();
        let me = view.seat.unwrap_or(0);
        let shown = view.revealed.get(me).copied().unwrap_or_default();
        let shown = if shown.is_empty() {
            String::new()
        } else {
            format!(", shown {shown}")
        };
        info.push(
            Line::of(
                format!("on the table: {}{counts}{shown}", view.laid),
                Tone::Plain,
            )
            .wrapped(),
        );
    }
    if let Some(me) = view.seat {
        let pile = view.piles[me];
        info.push(Line::of(
            format!(
                "your pile: {} ({})",
                count_text(pile.len(), "card"),
                count_text(pile.pile_points() as usize, "point")
            ),
            Tone::Quiet,
        ));
    }
    info
}

/// Every pile of the round just scored, with its rank groups and points.
fn round_lines(view: &TikkiView, leftover: Option<(Seat, Cards)>) -> Vec<Line> {
    let Some(r) = view.history.last() else {
        return Vec::new();
    };
    let round = view.history.len();
    let mut lines = vec![Line::of(
        format!("round {round}, dealt by {}", who(view.seat, r.dealer)),
        Tone::Strong,
    )];
    for s in 0..r.piles.len() {
        let total = view.scores.get(s).copied().unwrap_or(0);
        let tone = if view.seat == Some(s) {
            Tone::Own
        } else {
            Tone::Plain
        };
        lines.push(
            Line::of(
                format!(
                    "{}: {} (total {total})",
                    who(view.seat, s),
                    pile_text(r.piles[s])
                ),
                tone,
            )
            .wrapped(),
        );
    }
    if let Some((s, cards)) = leftover {
        lines.push(
            Line::of(
                format!("{} kept the last cards: {cards}", who(view.seat, s)),
                Tone::Quiet,
            )
            .wrapped(),
        );
    }
    lines
}

fn header(view: &TikkiView, wide: bool) -> Line {
    let mut spans = vec![Span::new("tapete · tikki", Tone::Title)];
    spans.push(Span::plain(format!("  {}", length_text(view))));
    if wide && view.rules.retreat {
        spans.push(Span::new(" · retreat round", Tone::Quiet));
    }
    if wide && view.rules.top < 13 {
        spans.push(Span::new(
            format!(" · ranks 1–{}", view.rules.top),
            Tone::Quiet,
        ));
    }
    spans.push(Span::plain("  "));
    spans.push(Span::new(standings(view), Tone::Strong));
    Line::new(spans)
}

fn end_lines(view: &TikkiView) -> Vec<String> {
    let winners: Vec<String> = view.winners.iter().map(|&s| who(view.seat, s)).collect();
    let mut out = Vec::new();
    match winners.len() {
        0 => out.push("the game did not finish".into()),
        1 => out.push(format!("winner: {}", winners[0])),
        _ => out.push(format!("the win is shared: {}", winners.join(", "))),
    }
    out.push(format!("points: {}", standings(view)));
    out
}

impl Face for TikkiHost {
    type Notes = TikkiNotes;

    fn notes(view: &TikkiView) -> TikkiNotes {
        TikkiNotes {
            last: view.tricks.last().cloned(),
            leftover: None,
        }
    }

    /// Holds the table after each round is scored and at the end.
    fn note(notes: &mut TikkiNotes, event: &Event) -> bool {
        match event {
            Event::Revealed { trick } => {
                notes.last = Some(trick.clone());
                notes.leftover = None;
                false
            }
            Event::Leftover { seat, cards } => {
                notes.leftover = Some((*seat, *cards));
                false
            }
            Event::RoundScored { .. } | Event::GameOver { .. } => true,
            _ => false,
        }
    }

    fn scene(view: &TikkiView, notes: &TikkiNotes, at: &Vantage) -> Scene {
        let seats = (0..view.seats)
            .map(|seat| {
                let role: &[&str] = if seat == view.dealer {
                    &["dealer"]
                } else {
                    &[]
                };
                let pile = view.piles[seat];
                let mut facts = vec![format!("holds {}", view.hand_sizes[seat])];
                facts.push(format!(
                    "pile {} ({})",
                    pile.len(),
                    pts(pile.pile_points().into())
                ));
                if at.to_act.contains(&seat) {
                    facts.push(match view.phase {
                        Phase::Retreat => "» retreat?".into(),
                        _ => "» to lay".into(),
                    });
                }
                SeatScene {
                    label: at.label(seat),
                    detail: seat_detail(seat, role, view.scores[seat].into()),
                    cards: table_cards(view, seat),
                    cards_note: laid_text(view, seat),
                    facts,
                }
            })
            .collect();
        let mut lines = vec![
            Line::of(now_text(view), Tone::Turn).wrapped(),
            Line::of(format!("stock {}", view.stock), Tone::Quiet),
        ];
        let mut cards = Vec::new();
        if let Some(t) = &notes.last {
            lines.push(Line::of("the last tikki:", Tone::Quiet));
            lines.extend(trick_lines(view, t));
            cards = trick_faces(t);
        }
        let title = match view.phase {
            Phase::Over => " the end ".to_string(),
            Phase::Retreat => format!(" tikki {} · retreat ", trick_number(view)),
            Phase::Lay => format!(" tikki {} ", trick_number(view)),
        };
        let hand = ordered(view).into_iter().map(|(c, g)| face(c, g)).collect();
        let reveal = at
            .held
            .then(|| round_lines(view, notes.leftover))
            .filter(|l| !l.is_empty())
            .map(|lines| Panel {
                title: format!(" round {} ", view.history.len()),
                forms: vec![lines],
            });
        Scene {
            header: vec![header(view, true), header(view, false)],
            seats,
            centre: Centre {
                title,
                lines,
                cards,
            },
            hand: HandScene {
                cards: hand,
                info: hand_info(view),
            },
            reveal,
            end: (view.phase == Phase::Over).then(|| end_lines(view)),
        }
    }

    fn intro(view: &TikkiView, at: &Vantage, bots: &[Option<String>]) -> String {
        let length = if view.rules.target > 0 {
            format!("to {}", count_text(view.rules.target as usize, "point"))
        } else {
            count_text(view.rules.rounds_for(view.seats) as usize, "round")
        };
        let retreat = if view.rules.retreat {
            ", with the retreat round"
        } else {
            ""
        };
        intro_line("tikki", at, &format!("{length}{retreat}"), bots)
    }

    fn status(view: &TikkiView, _at: &Vantage) -> Vec<String> {
        let mut out = vec![format!(
            "{}, tikki {} · points: {}",
            length_text(view),
            trick_number(view),
            standings(view)
        )];
        let table: Vec<String> = (0..view.seats)
            .filter(|&s| view.seat != Some(s) && view.in_trick[s])
            .map(|s| {
                let shown = view.revealed[s];
                let shown = if shown.is_empty() {
                    String::new()
                } else {
                    format!(" (shown {shown})")
                };
                format!("seat {s} {}{shown}", laid_text(view, s))
            })
            .collect();
        if !table.is_empty() {
            out.push(format!("this tikki: {}", table.join(" · ")));
        }
        let piles: Vec<String> = (0..view.seats)
            .map(|s| {
                let p = view.piles[s];
                format!("{} {} ({})", who(view.seat, s), p.pile_points(), p.len())
            })
            .collect();
        out.push(format!(
            "piles, points (cards): {} · stock {}",
            piles.join(" · "),
            view.stock
        ));
        let hand = ordered(view);
        if !hand.is_empty() {
            let hand = places_text(&hand, |_| "*".into());
            out.push(format!("your hand: {hand}"));
        }
        out.extend(hand_info(view).iter().map(Line::text));
        out
    }

    fn prompt(view: &TikkiView, legal: &[Action]) -> String {
        if legal.iter().any(|a| matches!(a, Action::Lay(_))) {
            return "lay CARDS (or their places)".into();
        }
        let mut kinds = Vec::new();
        if legal.iter().any(|a| matches!(a, Action::Retreat { .. })) {
            let me = view.seat.unwrap_or(0);
            let down = view
                .laid
                .difference(view.revealed.get(me).copied().unwrap_or_default());
            kinds.push(format!("retreat CARD reveal CARD (face down: {down})"));
        }
        if legal.contains(&Action::Keep) {
            kinds.push("keep".into());
        }
        kinds.join(" | ")
    }

    /// Besides the engine's words, while laying the cards alone (`3S 4S`) or their places
    /// in the hand as shown (`1 2`, also `lay 1 2`) lay them; in the retreat round two
    /// cards alone (`5H 7C`) take the first back and show the second.
    fn parse_command(text: &str, view: &TikkiView) -> Result<Action, String> {
        let t = text.trim();
        let all: Vec<&str> = t.split_whitespace().collect();
        let (said_lay, words) = match all.split_first() {
            Some((verb, rest)) if matches!(verb.to_lowercase().as_str(), "lay" | "play") => {
                (true, rest)
            }
            _ => (false, all.as_slice()),
        };
        if words.is_empty() {
            return Err(if said_lay {
                Self::parse_action(t).err().unwrap_or_default()
            } else {
                Self::expected(view, &[])
            });
        }
        if words.iter().all(|w| w.chars().all(|c| c.is_ascii_digit())) {
            let places = words
                .iter()
                .map(|w| {
                    w.parse::<usize>()
                        .map_err(|_| format!("`{w}` is not a place"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            return Self::picked(view, &places);
        }
        let cards: Result<Vec<Card>, _> = words.iter().map(|w| w.parse::<Card>()).collect();
        if let Ok(cards) = cards {
            return match (view.phase, cards.as_slice()) {
                (Phase::Retreat, [back, reveal]) if !said_lay => Ok(Action::Retreat {
                    back: *back,
                    reveal: *reveal,
                }),
                (Phase::Retreat, _) if !said_lay => Err(
                    "in the retreat round name two cards: the one taken back, then the one shown"
                        .into(),
                ),
                _ => Self::parse_action(&format!("lay {}", words.join(" "))),
            };
        }
        if said_lay && words.iter().any(|w| w.chars().all(|c| c.is_ascii_digit())) {
            return Err(format!(
                "`{t}`: lay cards by name (`lay 3S 4S`) or by place (`lay 1 2`), not both"
            ));
        }
        Self::parse_action(t)
    }

    /// What to type now: the cards to lay, or the retreat step.
    fn expected(view: &TikkiView, _legal: &[Action]) -> String {
        match view.phase {
            Phase::Retreat => "type `retreat 5H reveal 7C` (or `5H 7C`) to take a card back \
                               showing another, or `keep`"
                .into(),
            Phase::Over => "the game is over".into(),
            Phase::Lay => "type the cards to lay (`lay 3S 4S` or their places `1 2`)".into(),
        }
    }

    fn help() -> Vec<String> {
        [
            "lay 3S 4S | 3S 4S | lay 1 2 | 1 2 — lay cards face down, by name or by their places in your hand",
            "retreat 5H reveal 7C | 5H 7C  — retreat round: take 5H back, showing 7C (it stays on the table)",
            "keep                          — retreat round: take nothing (more) back",
            "only each player's best combination counts; it takes every card of the tikki to its pile",
            "best first: straight flush of 7, 6, 5 · four of a kind · straight flush of 4, 3 · three of a kind · straight flush of 2 · pair · single card; then the top card (rank, then ♠ ♥ ♦ ♣)",
            "piles score by rank: 1 card 1 point, 2 cards 5, 3 cards 10, 4 cards 20",
            "cards: rank 1 (ace) to 13 (king) + suit S H D C (or ♠ ♥ ♦ ♣): 1S 10H 13C",
            "help shows this; quit leaves the table",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    fn key(key: char, _view: &TikkiView) -> Option<Shortcut<Action>> {
        match key {
            'k' => Some(Shortcut::First(vec![Action::Keep])),
            'r' => Some(Shortcut::Type {
                text: "retreat ".into(),
                hint: "name the card to take back, then `reveal` and the card to show".into(),
            }),
            _ => None,
        }
    }

    fn key_bar() -> Vec<(&'static str, &'static str)> {
        vec![("1 2⏎", "lay by place"), ("r⏎", "retreat"), ("k⏎", "keep")]
    }

    fn key_help() -> Vec<String> {
        vec![
            "places of your hand (`1 2`) mark those cards; Enter lays them face down".into(),
            "r starts `retreat `: type the card to take back, `reveal` and the card to show".into(),
            "k keeps your cards on the table (the retreat round)".into(),
        ]
    }

    fn pick(view: &TikkiView) -> Result<Pick, String> {
        match view.phase {
            Phase::Lay if view.turn.is_some() && view.turn == view.seat => Ok(Pick {
                places: view.hand.len(),
                hint: "Enter lays the picked cards face down".into(),
            }),
            Phase::Lay => Err("wait for your turn to lay".into()),
            Phase::Retreat => Err("the retreat round: r⏎ to take a card back, k⏎ to keep".into()),
            Phase::Over => Err("the game is over".into()),
        }
    }

    fn picked(view: &TikkiView, places: &[usize]) -> Result<Action, String> {
        if view.phase != Phase::Lay {
            return Err("cards are laid only in turn: now r⏎ retreats or k⏎ keeps".into());
        }
        if places.is_empty() {
            return Err("pick at least one card".into());
        }
        let picked = at_places(&ordered(view), places)?;
        Ok(Action::Lay(picked.into_iter().map(|(c, _)| c).collect()))
    }

    fn own_lines(action: &Action) -> Vec<String> {
        match action {
            Action::Lay(cards) => vec![format!("you lay {cards}")],
            // The narration tells the retreat and the card shown; only the card taken
            // back is the player's own to hear.
            Action::Retreat { back, .. } => vec![format!("{back} is back in your hand")],
            Action::Keep => Vec::new(),
        }
    }

    /// The cards the player drew from the stock, or its new hand after a deal.
    fn news(before: &TikkiView, after: &TikkiView, events: &[Event]) -> Vec<String> {
        let Some(me) = after.seat else {
            return Vec::new();
        };
        if events.iter().any(|e| matches!(e, Event::RoundDealt { .. })) {
            return vec![format!("your new hand: {}", after.hand)];
        }
        let drew = events.iter().any(
            |e| matches!(e, Event::Refilled { drawn, .. } if drawn.get(me).is_some_and(|&d| d > 0)),
        );
        let new = after.hand.difference(before.hand).difference(before.laid);
        if drew && !new.is_empty() {
            vec![format!("you drew {new}")]
        } else {
            Vec::new()
        }
    }

    fn log_tone(line: &str) -> Tone {
        if line.starts_with("you") {
            Tone::Own
        } else if line.contains("the tikki") || line.starts_with("game over") {
            Tone::Strong
        } else if line.starts_with("round ") || line.starts_with("from the stock") {
            Tone::Faint
        } else {
            Tone::Plain
        }
    }

    fn final_lines(view: &TikkiView, _at: &Vantage, outcome: Option<&Outcome>) -> Vec<String> {
        let mut out = end_lines(view);
        if let Some(o) = outcome {
            out.push(o.summary.clone());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tapete_table::Game;
    use tapete_tikki::{TikkiGame, TikkiRules};

    fn at(me: Seat, seats: usize, to_act: &[Seat]) -> Vantage<'_> {
        Vantage {
            me,
            seats,
            to_act,
            held: false,
        }
    }

    fn set(t: &str) -> Cards {
        t.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    /// Three seats, seat 0 dealing, so seat 1 leads; the retreat round on.
    fn arranged() -> TikkiGame {
        let rules = TikkiRules {
            retreat: true,
            ..TikkiRules::default()
        };
        let hands = vec![
            set("1S 2S 3S 9H 9D 12C 13C"),
            set("4S 4H 6D 7D 10C 1H 13H"),
            set("5S 5H 5D 8C 10H 12S 1C"),
        ];
        TikkiGame::arranged(&rules, 0, hands, vec![set("2C").iter().next().unwrap()])
            .expect("a table")
    }

    fn act(game: &mut TikkiGame, seat: Seat, text: &str) -> Vec<Event> {
        game.apply(seat, &text.parse().unwrap()).expect(text)
    }

    #[test]
    fn a_seat_sees_its_own_cards_and_only_counts_of_the_others() {
        for seats in 2..=5 {
            let mut g = TikkiGame::new(&TikkiRules::default(), seats, 3).unwrap();
            let first = g.to_act().seats()[0];
            let lay: Cards = g.hand(first).iter().take(2).collect();
            g.apply(first, &Action::Lay(lay)).unwrap();
            for me in 0..seats {
                let view = g.view(me);
                let scene = TikkiHost::scene(&view, &TikkiNotes::default(), &at(me, seats, &[]));
                assert_eq!(scene.seats.len(), seats);
                let shown: Cards = scene
                    .hand
                    .cards
                    .iter()
                    .map(|c| c.text.parse::<Card>().unwrap())
                    .collect();
                assert_eq!(shown, view.hand);
                assert_eq!(scene.hand.cards.len(), view.hand.len());
                let block = &scene.seats[first];
                assert_eq!(block.cards.len(), 2);
                assert_eq!(block.cards_note, "laid 2");
                let up = block.cards.iter().all(|c| c.up);
                let down = block.cards.iter().all(|c| !c.up);
                if me == first {
                    assert!(up, "its own laid cards face up");
                } else {
                    assert!(down, "another's laid cards face down");
                }
            }
        }
    }

    #[test]
    fn the_hand_shows_its_best_combination_first_and_places_follow_it() {
        let g = arranged();
        let view = g.view(1);
        let order = ordered(&view);
        // 4S 4H is the pair; 6D 7D a 2-card straight flush, which beats it.
        let marked: Cards = order
            .iter()
            .filter(|(_, g)| g.is_some())
            .map(|(c, _)| *c)
            .collect();
        assert_eq!(marked, set("6D 7D"));
        assert_eq!(order[0].0.to_string(), "6D");
        assert_eq!(
            TikkiHost::parse_command("1 2", &view),
            Ok(Action::Lay(set("6D 7D")))
        );
        assert_eq!(
            TikkiHost::parse_command("4h 4S", &view),
            Ok(Action::Lay(set("4S 4H")))
        );
        assert_eq!(TikkiHost::picked(&view, &[3]), Ok(Action::Lay(set("1H"))));
        let e = TikkiHost::parse_command("8", &view).unwrap_err();
        assert!(e.contains("use 1–7"), "{e}");
        assert!(TikkiHost::parse_command("0", &view).is_err());
        assert!(TikkiHost::parse_command("1 1", &view)
            .unwrap_err()
            .contains("twice"));
        assert!(TikkiHost::picked(&view, &[]).is_err());
        assert_eq!(TikkiHost::parse_command("keep", &view), Ok(Action::Keep));
        // `lay` before places or cards is read the same.
        assert_eq!(
            TikkiHost::parse_command("lay 1 2", &view),
            Ok(Action::Lay(set("6D 7D")))
        );
        assert_eq!(
            TikkiHost::parse_command("Lay 4h 4S", &view),
            Ok(Action::Lay(set("4S 4H")))
        );
        let e = TikkiHost::parse_command("lay 1 4S", &view).unwrap_err();
        assert!(e.contains("not both"), "{e}");
        let e = TikkiHost::parse_command("lay", &view).unwrap_err();
        assert!(e.contains("at least one card"), "{e}");
        assert_eq!(
            TikkiHost::expected(&view, &[]),
            "type the cards to lay (`lay 3S 4S` or their places `1 2`)"
        );
        assert!(TikkiHost::pick(&view).is_ok(), "seat 1 leads");
        assert!(TikkiHost::pick(&g.view(2)).is_err(), "not seat 2's turn");
    }

    #[test]
    fn the_retreat_step_is_typed_and_shown_cards_are_face_up_for_all() {
        let mut g = arranged();
        act(&mut g, 1, "lay 6D 7D 13H");
        act(&mut g, 2, "lay 5S 5H 5D");
        act(&mut g, 0, "lay 9H");
        let view = g.view(1);
        assert_eq!(view.phase, Phase::Retreat);
        let legal = g.legal_actions(1);
        let prompt = TikkiHost::prompt(&view, &legal);
        assert!(prompt.contains("face down: 6D 7D 13H") && prompt.contains("keep"));
        assert!(TikkiHost::pick(&view).is_err());
        assert!(TikkiHost::picked(&view, &[1]).is_err());
        let back = TikkiHost::parse_command("13h 6d", &view).unwrap();
        assert_eq!(back, "retreat 13H reveal 6D".parse().unwrap());
        assert!(TikkiHost::parse_command("13H", &view).is_err());
        assert_eq!(
            TikkiHost::parse_command("retreat 13H reveal 6D", &view),
            Ok(back)
        );
        g.apply(1, &back).unwrap();
        let scene = TikkiHost::scene(&g.view(0), &TikkiNotes::default(), &at(0, 3, &[1]));
        let block = &scene.seats[1];
        assert_eq!(block.cards_note, "laid 2, took 1 back");
        assert_eq!(block.cards[0].text, "6D");
        assert!(block.cards[0].up && !block.cards[1].up);
        assert!(TikkiHost::expected(&view, &legal).contains("retreat 5H reveal 7C"));
    }

    #[test]
    fn a_retreat_is_told_once_to_the_player() {
        let mut g = arranged();
        act(&mut g, 1, "lay 6D 7D 13H");
        act(&mut g, 2, "lay 5S 5H 5D");
        act(&mut g, 0, "lay 9H");
        let back: Action = "retreat 13H reveal 6D".parse().unwrap();
        let events = g.apply(1, &back).unwrap();
        let narrator = tapete_tikki::narrate::Narrator::new(Some(1));
        let mut told = TikkiHost::own_lines(&back);
        told.extend(events.iter().flat_map(|e| narrator.lines(e)));
        let retreats = told.iter().filter(|l| l.contains("take")).count();
        assert_eq!(retreats, 1, "{told:?}");
        for card in ["13H", "6D"] {
            let times: usize = told.iter().map(|l| l.matches(card).count()).sum();
            assert_eq!(times, 1, "{card} told {times} times: {told:?}");
        }
    }

    #[test]
    fn one_point_is_1_pt() {
        let g = arranged();
        let mut view = g.view(0);
        view.scores = vec![1, 2, 0];
        view.piles[2] = set("4C");
        let scene = TikkiHost::scene(&view, &TikkiNotes::default(), &at(0, 3, &[]));
        assert!(
            scene.seats[1].detail.ends_with(" · 2 pts"),
            "{:?}",
            scene.seats[1]
        );
        assert!(scene.seats[2].facts.contains(&"pile 1 (1 pt)".to_string()));
        view.piles[0] = set("4D");
        let scene = TikkiHost::scene(&view, &TikkiNotes::default(), &at(0, 3, &[]));
        assert!(
            scene.seats[0].detail.ends_with(" · 1 pt"),
            "{:?}",
            scene.seats[0]
        );
        let info: Vec<String> = scene.hand.info.iter().map(Line::text).collect();
        assert!(
            info.contains(&"your pile: 1 card (1 point)".to_string()),
            "{info:?}"
        );
    }

    #[test]
    fn the_reveal_marks_each_best_combination_and_the_winner() {
        let mut g = arranged();
        act(&mut g, 1, "lay 6D 7D");
        act(&mut g, 2, "lay 5S 5H 5D");
        let mut notes = TikkiHost::notes(&g.view(0));
        let mut held = false;
        for e in act(&mut g, 0, "lay 9H") {
            held |= TikkiHost::note(&mut notes, &e);
        }
        // Seat 0 keeps (one card face down cannot retreat); seat 1 and 2 decide.
        for seat in [1, 2] {
            for e in act(&mut g, seat, "keep") {
                held |= TikkiHost::note(&mut notes, &e);
            }
        }
        assert!(!held, "a tikki does not hold the table");
        let scene = TikkiHost::scene(&g.view(0), &notes, &at(0, 3, &[]));
        let text: Vec<String> = scene.centre.lines.iter().map(Line::text).collect();
        assert!(
            text.iter()
                .any(|l| l == "» seat 2: [5S 5H 5D] — three of a kind"),
            "{text:?}"
        );
        assert!(
            text.iter().any(|l| l == "  you: [9H] — single card"),
            "{text:?}"
        );
        assert!(
            text.iter().any(|l| l == "seat 2 takes the tikki, 6 cards"),
            "{text:?}"
        );
        let groups: Vec<Option<u8>> = scene.centre.cards.iter().map(|c| c.group).collect();
        assert_eq!(
            groups,
            [Some(1), Some(1), Some(2), Some(2), Some(2), Some(0)],
            "each seat's combination marked as its own, from the leader"
        );
    }

    #[test]
    fn a_scored_round_holds_the_table_with_every_pile() {
        let mut g = TikkiGame::new(&TikkiRules::default(), 3, 9).unwrap();
        let mut notes = TikkiHost::notes(&g.view(0));
        let mut bot = TikkiHost::make_bot("basico").unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        loop {
            let seat = g.to_act().seats()[0];
            let before = g.view(seat);
            let a = bot.act(&before, &g.legal_actions(seat), &mut rng);
            let events = g.apply(seat, &a).unwrap();
            let after = g.view(seat);
            let news = TikkiHost::news(&before, &after, &events);
            let drew = events.iter().find_map(|e| match e {
                Event::Refilled { drawn, .. } => Some(drawn[seat]),
                _ => None,
            });
            let mut held = false;
            for e in &events {
                held |= TikkiHost::note(&mut notes, e);
            }
            if held {
                assert_eq!(news, [format!("your new hand: {}", after.hand)]);
                break;
            }
            match drew {
                Some(n) if n > 0 => {
                    let line = news.first().expect("news of the draw");
                    assert_eq!(line.split(' ').count(), 2 + n, "{line}");
                }
                _ => assert!(news.is_empty(), "{news:?}"),
            }
        }
        let view = g.view(0);
        let vantage = Vantage {
            me: 0,
            seats: 3,
            to_act: &[],
            held: true,
        };
        let scene = TikkiHost::scene(&view, &notes, &vantage);
        let panel = scene.reveal.expect("the round's panel");
        let lines: Vec<String> = panel.forms[0].iter().map(Line::text).collect();
        let r = &view.history[0];
        for s in 0..3 {
            let line = lines
                .iter()
                .find(|l| l.starts_with(&format!("{}: ", who(Some(0), s))))
                .expect("a line per pile");
            assert!(
                line.contains(&format!("= {} (total {})", r.points[s], view.scores[s])),
                "{line}"
            );
        }
        let unheld = TikkiHost::scene(&view, &notes, &at(0, 3, &[]));
        assert!(unheld.reveal.is_none());
    }

    #[test]
    fn piles_are_told_by_rank_groups() {
        assert_eq!(
            pile_text(set("5S 5H 5D 9C 1S 1C 13H")),
            "1S 1C 5 · 5S 5H 5D 10 · 9C 1 · 13H 1 = 17"
        );
        assert_eq!(pile_text(Cards::EMPTY), "no cards = 0");
    }
}
