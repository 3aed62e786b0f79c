//! Tikki as tapete's front-ends host it: its name, 2–5 seats (3 by default), the levels,
//! narration from the engine's events, seat-change boundaries, the scores, and the full
//! view for replays.

use serde_json::{json, Value};
use tapete_host::story::Line;
use tapete_host::{row, Host, Narrate, WebFace};
use tapete_table::conformance::Resampler;
use tapete_table::{Bot, Game, Resample, Seat};
use tapete_tikki::TikkiCards;
use tapete_tikki::{best, Event, Narrator, Phase, TikkiGame, TikkiRules, TikkiView};

/// The host of [`TikkiGame`].
pub struct TikkiHost;

/// Tikki's narrator for one audience: the engine's [`Narrator`], speaking to a seat or to
/// the spectators.
#[derive(Clone, Copy, Debug)]
pub struct TikkiNarrator(Narrator);

impl Narrate<TikkiGame> for TikkiNarrator {
    /// The current round's deal: what a newcomer is told first.
    fn opening(&mut self, game: &TikkiGame) -> Vec<Line> {
        if game.phase() == Phase::Over {
            return Vec::new();
        }
        self.0.told(&game.deal_event())
    }

    fn lines(&mut self, event: &Event) -> Vec<Line> {
        self.0.told(event)
    }

    fn begins_hand(&self, event: &Event) -> bool {
        matches!(event, Event::RoundDealt { .. })
    }
}

/// A seat as the score and hands tables name it: "seat 2", marked while it deals a round.
fn seat_label(view: &TikkiView, seat: Seat) -> String {
    if seat == view.dealer && view.phase != Phase::Over {
        format!("seat {seat} (dealer)")
    } else {
        format!("seat {seat}")
    }
}

impl Host for TikkiHost {
    type G = TikkiGame;
    type Narrator = TikkiNarrator;
    type Stats = ();
    const TITLE: &'static str = "Tikki";
    /// Tikki's table page, its rules' port (the best combination), the French cards and their words.
    const WEB: WebFace = tapete_host::web_face!(
        files: ["tikki.js", "tikki-rules.js", "french.js", "tikki.css"],
        catalogs: ["en", "es"],
    );
    const SEATS: std::ops::RangeInclusive<usize> = 2..=5;
    const DEFAULT_SEATS: usize = 3;

    fn rule_docs() -> &'static [(&'static str, &'static str)] {
        &[
            (
                "top",
                "the deck's highest rank: 13 for all 52 cards, less for the smaller deck of ranks 1..top",
            ),
            (
                "rounds",
                "rounds in a game, 0 to 20; 0: one per player, so every seat deals once",
            ),
            (
                "target",
                "points that end the game with the round reaching them, 0 to 100 (0: play the rounds)",
            ),
            (
                "retreat",
                "the retreat round (perääntymiskierros): before the reveal, take laid cards back, showing one for each",
            ),
        ]
    }

    /// Who is ahead where play stands ([`TikkiGame::standing_now`]).
    fn adjudicate(game: &TikkiGame) -> Option<tapete_table::Outcome> {
        Some(game.standing_now())
    }

    fn bot_names() -> &'static [&'static str] {
        tapete_tikki_bots::LEVELS
    }

    fn default_bot() -> &'static str {
        "basico"
    }

    fn make_bot(name: &str) -> Result<Box<dyn Bot<TikkiGame>>, String> {
        tapete_tikki_bots::by_name(name)
    }

    fn parse_action(text: &str) -> Result<tapete_tikki::Action, String> {
        text.parse()
            .map_err(|e: tapete_tikki::ParseActionError| format!("`{}`: {e}", text.trim()))
    }

    fn validate_rules(rules: &TikkiRules, seats: usize) -> Result<(), String> {
        rules.validate_new(seats)
    }

    fn narrator(_game: &TikkiGame, seat: Option<Seat>) -> TikkiNarrator {
        TikkiNarrator(Narrator::new(seat))
    }

    /// Before the first lay of a round (nobody has shown a card of it yet), or once over.
    fn at_boundary(game: &TikkiGame) -> bool {
        let v = game.spectator_view();
        v.phase == Phase::Over
            || (v.phase == Phase::Lay
                && v.tricks.is_empty()
                && v.laid_counts.iter().all(|&n| n == 0))
    }

    /// The spectators' view as a page gets it ([`Host::page_view`]), with `hands` and
    /// `laid` (by seat) and `stock_cards` (the stock, drawn from the end) added.
    fn full_view(game: &TikkiGame) -> Value {
        let view = game.spectator_view();
        let mut v = serde_json::to_value(Self::page_view(&view)).unwrap_or(Value::Null);
        let seats = game.seats();
        if let Value::Object(m) = &mut v {
            let hands: Vec<_> = (0..seats).map(|s| game.hand(s)).collect();
            let laid: Vec<_> = (0..seats).map(|s| game.laid(s)).collect();
            m.insert("hands".into(), json!(hands));
            m.insert("laid".into(), json!(laid));
            m.insert("stock_cards".into(), json!(game.stock()));
        }
        v
    }

    /// The view with each finished round but the last cut to its dealer and points: the
    /// page shows every round's points (the score sheet) and only the last one's piles
    /// and final trick (the round's end), so a 20-round game's states stay small.
    fn page_view(view: &TikkiView) -> impl serde::Serialize {
        let mut v = serde_json::to_value(view).unwrap_or(Value::Null);
        if let Some(Value::Array(rounds)) = v.get_mut("history") {
            let older = rounds.len().saturating_sub(1);
            for round in &mut rounds[..older] {
                if let Value::Object(r) = round {
                    r.retain(|k, _| k == "dealer" || k == "points");
                }
            }
        }
        v
    }

    /// `points` (the finished rounds), `piles` (this round's pile points so far) and
    /// `winners` once over.
    fn scores(game: &TikkiGame) -> Value {
        let v = game.spectator_view();
        let piles: Vec<u32> = v.piles.iter().map(|p| p.pile_points()).collect();
        json!({ "points": v.scores, "piles": piles, "winners": v.winners })
    }

    fn score_rows(game: &TikkiGame) -> Vec<Vec<String>> {
        let v = game.spectator_view();
        let mut rows = vec![row!["", "points", "pile", ""]];
        for seat in 0..v.seats {
            let state = if v.winners.contains(&seat) {
                "winner"
            } else {
                ""
            };
            rows.push(row![
                seat_label(&v, seat),
                v.scores[seat],
                v.piles[seat].pile_points(),
                state
            ]);
        }
        rows
    }

    fn hands_rows(game: &TikkiGame) -> Vec<Vec<String>> {
        let v = game.spectator_view();
        (0..v.seats)
            .map(|seat| {
                let hand = game.hand(seat);
                let best = best(hand)
                    .map(|b| format!("best {} {}", b.kind, b.cards))
                    .unwrap_or_default();
                row![seat_label(&v, seat), hand, best]
            })
            .collect()
    }

    fn resampler() -> Option<Resampler<TikkiGame>> {
        Some(<TikkiGame as Resample>::resample)
    }

    fn reviews() -> bool {
        true
    }

    /// Tikki's review ([`tapete_tikki_bots::review`]): every lay and retreat decision with
    /// a choice, all its legal actions played out by basico to the end of the round, valued
    /// by the chance of winning the game from the scores reached.
    fn review(
        record: &tapete_table::Record<TikkiGame>,
        seat: Seat,
        settings: &tapete_review::Settings,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<tapete_review::Review, tapete_review::ReviewError> {
        tapete_tikki_bots::review::review(record, seat, settings, progress)
    }

    /// Each lay weighed for soft play: what every other player's hidden cards explain of
    /// it ([`tapete_tikki_bots::screen`]).
    fn screen(record: &tapete_table::Record<TikkiGame>) -> Vec<tapete_review::screen::Screened> {
        tapete_tikki_bots::screen::screen(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;
    use tapete_host::{kind_of, StoredGame};

    #[test]
    fn a_stored_game_is_screened_through_the_erased_host() {
        // The first tricks of a game at three seats, stored as options, seed and texts.
        let mut g = TikkiGame::new(&TikkiRules::default(), 3, 4).unwrap();
        let mut bot = tapete_tikki::bots::Basico;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let mut actions = Vec::new();
        while actions.len() < 24 && !g.to_act().seats().is_empty() {
            let seat = g.to_act().seats()[0];
            let legal = g.legal_actions(seat);
            let a = bot.act(&g.view(seat), &legal, &mut rng);
            g.apply(seat, &a).unwrap();
            actions.push((seat, a.to_string()));
        }
        let stored = StoredGame {
            rules: &json!({}),
            seats: 3,
            seed: 4,
            actions: &actions,
        };
        let weighed = kind_of::<TikkiHost>().screen(&stored).unwrap();
        assert!(!weighed.is_empty());
        for w in &weighed {
            let (seat, played) = &actions[w.index];
            assert_eq!(w.seat, *seat);
            let laid = played.split_whitespace().count() - 1;
            let said = if laid == 1 {
                "lay 1 card".to_string()
            } else {
                format!("lay {laid} cards")
            };
            assert_eq!(w.action, said, "no card: {played}");
            assert!(w.centred && w.partner != w.seat && w.partner < 3);
            assert!(played.starts_with("lay"));
        }
        let mut garbled = actions.clone();
        garbled[4].1 = "lay 14S".into();
        let bad = StoredGame {
            actions: &garbled,
            ..stored
        };
        let e = kind_of::<TikkiHost>().screen(&bad).unwrap_err();
        assert!(e.contains("action 4"), "{e}");
    }
}
