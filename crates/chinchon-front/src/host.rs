//! Chinchón as tapete's front-ends host it: its name, 2–8 seats, the levels, narration from
//! the engine's events, the score, the full view for replays and the game review.

use serde_json::{json, Value};
use tapete_chinchon::narrate::cards_text;
use tapete_chinchon::{ChinchonGame, ChinchonRules, Narrator, Solver};
use tapete_chinchon_bots::review::ChinchonReviewer;
use tapete_host::{row, Host, WebFace};
use tapete_table::conformance::Resampler;
use tapete_table::{Bot, Game, Record, Resample, Seat};

/// The host of [`ChinchonGame`].
pub struct ChinchonHost;

impl Host for ChinchonHost {
    type G = ChinchonGame;
    type Narrator = Narrator;
    type Stats = ();
    const TITLE: &'static str = "Chinchón";
    /// Chinchón's table page, its rules' port (melds and closes) and their words.
    const WEB: WebFace = tapete_host::web_face!(
        files: ["chinchon.js", "chinchon-rules.js", "chinchon.css"],
        catalogs: ["en", "es"],
    );
    const SEATS: std::ops::RangeInclusive<usize> = tapete_chinchon::rules::SEATS;
    const DEFAULT_SEATS: usize = 2;
    /// The points a seat is left with count against it: the fewest win.
    const SCORES_AGAINST: bool = true;

    fn rule_docs() -> &'static [(&'static str, &'static str)] {
        &[
            ("deck", "the deck: 40 (no 8 and 9) or 48 cards"),
            (
                "two_decks_from",
                "from this many players two decks are shuffled together (null: never)",
            ),
            ("jokers", "jokers (comodines) per deck: 0, 1 or 2"),
            (
                "joker_penalty",
                "what a joker left unmatched counts: 50 or 25",
            ),
            (
                "close_limit",
                "the most the one unmatched card of a close may count: 3, 4 or 5",
            ),
            (
                "figures",
                "what sota, caballo and rey count: number (10, 11, 12), ten, or eight_nine_ten",
            ),
            (
                "meter_cartas",
                "after a close the others lay cards onto its melds: on, not_after_menos_diez, off",
            ),
            ("no_close_first_turn", "nobody closes on their first turn"),
            ("target", "points that put a player out of the game (1–500)"),
            (
                "reenganche",
                "a player out re-enters once: off, highest or second_highest",
            ),
            (
                "allow_false_close",
                "a person may close falsely (50 points and a new deal) instead of being refused",
            ),
            (
                "stock_rebuilds",
                "times a hand's stock is rebuilt from the pile (0–10); when it runs out once \
                 more, nobody having closed, each player adds its cards in no meld",
            ),
            (
                "hand_turns",
                "turns a hand lasts at most (50–1000); then it ends as when the stock runs out",
            ),
        ]
    }

    /// Who is ahead where play stands ([`ChinchonGame::standing_now`]).
    fn adjudicate(game: &ChinchonGame) -> Option<tapete_table::Outcome> {
        Some(game.standing_now())
    }

    fn bot_names() -> &'static [&'static str] {
        tapete_chinchon_bots::LEVELS
    }

    fn default_bot() -> &'static str {
        "basico"
    }

    fn make_bot(name: &str) -> Result<Box<dyn Bot<ChinchonGame>>, String> {
        tapete_chinchon_bots::by_name(name)
    }

    fn parse_action(text: &str) -> Result<tapete_chinchon::Action, String> {
        text.parse()
            .map_err(|e: tapete_chinchon::ParseActionError| format!("`{}`: {e}", text.trim()))
    }

    fn validate_rules(rules: &ChinchonRules, seats: usize) -> Result<(), String> {
        rules.validate_for(seats)
    }

    fn narrator(game: &ChinchonGame, seat: Option<Seat>) -> Narrator {
        Narrator::for_game(game, seat)
    }

    fn at_boundary(game: &ChinchonGame) -> bool {
        game.at_boundary()
    }

    fn full_view(game: &ChinchonGame) -> Value {
        game.full_view()
    }

    fn scores(game: &ChinchonGame) -> Value {
        let v = game.spectator_view();
        json!({ "points": v.scores, "out": v.out, "reentered": v.reentered })
    }

    fn score_rows(game: &ChinchonGame) -> Vec<Vec<String>> {
        let v = game.spectator_view();
        let mut rows = vec![row!["", "points", ""]];
        for seat in 0..v.seats {
            let state = if v.winners.contains(&seat) {
                "winner"
            } else if v.out[seat] {
                "out"
            } else if v.reentered[seat] {
                "re-entered"
            } else {
                ""
            };
            rows.push(row![format!("seat {seat}"), v.scores[seat], state]);
        }
        rows
    }

    fn hands_rows(game: &ChinchonGame) -> Vec<Vec<String>> {
        let v = game.spectator_view();
        let solver = Solver::new(game.rules());
        (0..v.seats)
            .filter(|&s| !v.out[s])
            .map(|seat| {
                let cards = game.hand(seat).to_vec();
                let deadwood = solver
                    .analyze(&cards)
                    .map(|a| format!("deadwood {}", a.deadwood()))
                    .unwrap_or_default();
                let role = if seat == v.mano { " (mano)" } else { "" };
                row![format!("seat {seat}{role}"), cards_text(&cards), deadwood]
            })
            .collect()
    }

    fn resampler() -> Option<Resampler<ChinchonGame>> {
        Some(<ChinchonGame as Resample>::resample)
    }

    fn reviews() -> bool {
        true
    }

    /// Every real choice of `seat` valued from its view, with the exact chance to close
    /// after each discard ([`ChinchonReviewer`]).
    fn review(
        record: &Record<ChinchonGame>,
        seat: Seat,
        settings: &tapete_review::Settings,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<tapete_review::Review, tapete_review::ReviewError> {
        tapete_review::review(
            &ChinchonReviewer::default(),
            record,
            seat,
            settings,
            progress,
        )
    }

    /// Each discard and close weighed for soft play: what the next player's (or every
    /// other player's) hidden cards explain of it ([`tapete_chinchon_bots::screen`]).
    fn screen(record: &Record<ChinchonGame>) -> Vec<tapete_review::screen::Screened> {
        tapete_chinchon_bots::screen::screen(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;
    use tapete_chinchon::bots::Basico;
    use tapete_host::{kind_of, StoredGame};

    #[test]
    fn a_stored_game_is_reviewed_through_the_erased_host() {
        // The first turns of a game, stored as its options, seed and actions' texts.
        let mut g = ChinchonGame::new(&ChinchonRules::default(), 2, 5).unwrap();
        let mut bot = Basico::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut actions = Vec::new();
        while actions.len() < 6 {
            let seat = g.turn();
            let legal = g.legal_actions(seat);
            let a = bot.act(&g.view(seat), &legal, &mut rng);
            g.apply(seat, &a).unwrap();
            actions.push((seat, a.to_string()));
        }
        let stored = StoredGame {
            rules: &json!({}),
            seats: 2,
            seed: 5,
            actions: &actions,
        };
        let settings = tapete_review::Settings {
            min_worlds: 4,
            max_worlds: 4,
            ..Default::default()
        };
        let kind = kind_of::<ChinchonHost>();
        assert!(kind.reviews());
        let r = kind.review(&stored, 0, &settings, &|_, _| {}).unwrap();
        assert_eq!(r.game, "chinchon");
        assert!(!r.decisions.is_empty());
        for d in &r.decisions {
            assert_eq!(actions[d.at], (0, d.played.clone()));
        }
        let e = kind.review(&stored, 2, &settings, &|_, _| {}).unwrap_err();
        assert!(e.contains("seat 2"), "{e}");
    }

    #[test]
    fn a_stored_game_is_screened_through_the_erased_host() {
        // Three hands' worth of turns at three seats, stored as options, seed and texts.
        let mut g = ChinchonGame::new(&ChinchonRules::default(), 3, 8).unwrap();
        let mut bot = Basico::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let mut actions = Vec::new();
        while actions.len() < 60 && !g.to_act().seats().is_empty() {
            let seat = g.to_act().seats()[0];
            let legal = g.legal_actions(seat);
            let a = bot.act(&g.view(seat), &legal, &mut rng);
            g.apply(seat, &a).unwrap();
            actions.push((seat, a.to_string()));
        }
        let stored = StoredGame {
            rules: &json!({}),
            seats: 3,
            seed: 8,
            actions: &actions,
        };
        let weighed = kind_of::<ChinchonHost>().screen(&stored).unwrap();
        assert!(weighed.iter().any(|w| w.centred), "discards are weighed");
        for w in &weighed {
            let (seat, played) = &actions[w.index];
            assert_eq!(w.seat, *seat);
            assert!(played.starts_with(&w.action), "{played} {}", w.action);
            assert!(!w.action.contains(' '), "no card: {}", w.action);
            assert_ne!(w.partner, w.seat);
            if w.centred {
                assert_eq!(
                    w.partner,
                    (w.seat + 1) % 3,
                    "a discard helps the next player"
                );
                assert!(played.starts_with("descarto"));
            }
        }
        let mut garbled = actions.clone();
        garbled[5].1 = "descarto 13o".into();
        let bad = StoredGame {
            actions: &garbled,
            ..stored
        };
        let e = kind_of::<ChinchonHost>().screen(&bad).unwrap_err();
        assert!(e.contains("action 5"), "{e}");
    }
}
