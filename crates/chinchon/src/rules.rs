//! Table options: every house rule of the spec, each with the spec's default.
//!
//! ```
//! use tapete_chinchon::rules::{ChinchonRules, MeterCartas};
//!
//! let rules: ChinchonRules = serde_json::from_str(r#"{"close_limit": 5, "jokers": 1}"#).unwrap();
//! assert_eq!(rules.close_limit, 5);
//! assert_eq!(rules.meter_cartas, MeterCartas::On, "unnamed options keep their defaults");
//! assert!(serde_json::from_str::<ChinchonRules>(r#"{"clos_limit": 5}"#).is_err());
//! assert!(ChinchonRules { close_limit: 9, ..ChinchonRules::default() }.validate().is_err());
//! ```

use crate::card::{Card, DeckSize, DeckSpec};
use serde::{Deserialize, Serialize};

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 7;

/// Points a false close costs the closer.
pub const FALSE_CLOSE_PENALTY: i32 = 50;

/// What the closer scores with all seven cards in melds.
pub const MENOS_DIEZ: i32 = -10;

/// How much the figures (sota, caballo, rey) count when left unmatched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FigureValues {
    /// The number on the card: sota 10, caballo 11, rey 12 (the source's).
    #[default]
    Number,
    /// Every figure counts 10.
    Ten,
    /// Sota 8, caballo 9, rey 10 (the 40-card deck only, where 8 and 9 are not cards).
    EightNineTen,
}

/// Whether, after a close, the others may lay cards onto the closer's melds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeterCartas {
    /// After every close (but chinchón, which ends the game).
    #[default]
    On,
    /// After a normal close, not after menos diez.
    NotAfterMenosDiez,
    /// Never.
    Off,
}

/// Whether a player who passes the target may re-enter the game once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reenganche {
    /// Out is out.
    #[default]
    Off,
    /// Re-enter with the points of the highest remaining player.
    Highest,
    /// Re-enter with the points of the second-highest remaining player.
    SecondHighest,
}

/// The options of a Chinchón table. Missing keys take the spec's defaults; unknown keys
/// are refused (a misspelt option must not pass silently).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChinchonRules {
    /// Cards per deck: 40 (default; 1–7, sota, caballo, rey) or 48 (with 8s and 9s).
    pub deck: DeckSize,
    /// From this many players on, two decks are shuffled together (default 5; `null`:
    /// never).
    pub two_decks_from: Option<u8>,
    /// Jokers (comodines) added to each deck: 0 (default), 1 or 2.
    pub jokers: u8,
    /// Points a joker left unmatched counts: 50 (default; 25 is common too).
    pub joker_penalty: u8,
    /// Highest value of the one unmatched card a normal close allows: 3 (default), 4, 5.
    pub close_limit: u8,
    /// How much sota, caballo and rey count.
    pub figures: FigureValues,
    /// Laying cards onto the closer's melds after a close.
    pub meter_cartas: MeterCartas,
    /// Nobody may close during the first round of a hand (default off).
    pub no_close_first_turn: bool,
    /// A player with more points than this is out: 100 (default), 70, any of 1–500.
    pub target: u16,
    /// Re-entering once after passing the target.
    pub reenganche: Reenganche,
    /// A close that does not meet the rules is taken (50 points and the hand dealt again)
    /// instead of refused (default off).
    pub allow_false_close: bool,
    /// Times a hand's stock may be rebuilt from the pile: 3 (default), 0–10. When the
    /// stock runs out once more, the hand ends as if nobody closed ([`ChinchonRules::hand_turns`]).
    pub stock_rebuilds: u8,
    /// Turns a hand lasts at most: 300 (default), 50–1000. A hand nobody closes — its
    /// stock spent [`ChinchonRules::stock_rebuilds`] + 1 times, or this many turns played
    /// (players who keep taking the pile never spend the stock) — ends without a close:
    /// each player adds the points of the cards it has in no meld, and the next player
    /// deals. So every hand ends, and every hand nobody closes counts like a close.
    pub hand_turns: u16,
}

impl Default for ChinchonRules {
    fn default() -> Self {
        ChinchonRules {
            deck: DeckSize::Forty,
            two_decks_from: Some(5),
            jokers: 0,
            joker_penalty: 50,
            close_limit: 3,
            figures: FigureValues::Number,
            meter_cartas: MeterCartas::On,
            no_close_first_turn: false,
            target: 100,
            reenganche: Reenganche::Off,
            allow_false_close: false,
            stock_rebuilds: 3,
            hand_turns: 300,
        }
    }
}

/// The fewest and most players at a table.
pub const SEATS: std::ops::RangeInclusive<usize> = 2..=8;

/// The targets a new table may play to: from a quick game to a long evening.
pub const TARGETS: std::ops::RangeInclusive<u16> = 1..=500;

/// The targets a game may still be played or replayed with: tables made before
/// [`TARGETS`] bounded new ones.
const OLD_TARGETS: std::ops::RangeInclusive<u16> = 1..=10_000;

/// How often a hand's stock may be rebuilt.
pub const STOCK_REBUILDS: std::ops::RangeInclusive<u8> = 0..=10;

/// How many turns a hand may last.
pub const HAND_TURNS: std::ops::RangeInclusive<u16> = 50..=1000;

impl ChinchonRules {
    /// Checks the options on their own, naming the first one that is wrong and its range:
    /// every option within what people play.
    pub fn validate(&self) -> Result<(), String> {
        self.check(&TARGETS)
    }

    fn check(&self, targets: &std::ops::RangeInclusive<u16>) -> Result<(), String> {
        if self.jokers > 2 {
            return Err(format!("jokers: 0, 1 or 2 per deck, not {}", self.jokers));
        }
        if !(1..=100).contains(&self.joker_penalty) {
            return Err(format!(
                "joker_penalty: 1–100 points (50 or 25 are usual), not {}",
                self.joker_penalty
            ));
        }
        if !(3..=5).contains(&self.close_limit) {
            return Err(format!(
                "close_limit: the one unmatched card may be worth at most 3, 4 or 5, not {}",
                self.close_limit
            ));
        }
        if self.figures == FigureValues::EightNineTen && self.deck == DeckSize::FortyEight {
            return Err(
                "figures: eight_nine_ten is for the 40-card deck (with 48 cards, 8 and 9 are cards)"
                    .into(),
            );
        }
        if let Some(n) = self.two_decks_from {
            if !(2..=8).contains(&(n as usize)) {
                return Err(format!(
                    "two_decks_from: a number of players 2–8 (or null for never), not {n}"
                ));
            }
        }
        if !targets.contains(&self.target) {
            return Err(format!(
                "target: {}–{} points (100 or 70 are usual), not {}",
                targets.start(),
                targets.end(),
                self.target
            ));
        }
        if !STOCK_REBUILDS.contains(&self.stock_rebuilds) {
            return Err(format!(
                "stock_rebuilds: the stock may be rebuilt {}–{} times a hand, not {}",
                STOCK_REBUILDS.start(),
                STOCK_REBUILDS.end(),
                self.stock_rebuilds
            ));
        }
        if !HAND_TURNS.contains(&self.hand_turns) {
            return Err(format!(
                "hand_turns: a hand may last {}–{} turns, not {}",
                HAND_TURNS.start(),
                HAND_TURNS.end(),
                self.hand_turns
            ));
        }
        Ok(())
    }

    /// Checks the options for a new table of `seats` players: every option within what
    /// people play ([`ChinchonRules::validate`]), the count itself, and enough cards to
    /// deal seven to each, turn the muestra and leave a stock.
    pub fn validate_for(&self, seats: usize) -> Result<(), String> {
        self.validate()?;
        self.check_table(seats)
    }

    /// Checks the options a game is played or replayed with: as
    /// [`ChinchonRules::validate_for`], but any target a table could be made with before
    /// [`TARGETS`] bounded it (up to 10000), so every stored game still replays.
    pub fn playable_for(&self, seats: usize) -> Result<(), String> {
        self.check(&OLD_TARGETS)?;
        self.check_table(seats)
    }

    fn check_table(&self, seats: usize) -> Result<(), String> {
        if !SEATS.contains(&seats) {
            return Err(format!("Chinchón is played by 2–8 players, not {seats}"));
        }
        let deck = self.deck_for(seats);
        let needed = HAND_SIZE * seats + 2;
        if deck.len() < needed {
            return Err(format!(
                "{seats} players need at least {needed} cards and {} decks of {} hold {}: \
                 play with two decks from fewer players (two_decks_from) or with 48 cards",
                deck.copy_count(),
                deck.suited_len(),
                deck.len()
            ));
        }
        Ok(())
    }

    /// How many decks a table of `seats` players shuffles together.
    pub fn decks_for(&self, seats: usize) -> u8 {
        match self.two_decks_from {
            Some(n) if seats >= n as usize => 2,
            _ => 1,
        }
    }

    /// The deck a table of `seats` players plays with.
    pub fn deck_for(&self, seats: usize) -> DeckSpec {
        self.deck.spec(self.jokers, self.decks_for(seats))
    }

    /// What `card` counts when left unmatched: its number, the figures as the option says,
    /// the joker its penalty.
    pub fn value(&self, card: Card) -> u8 {
        let Some(n) = card.number() else {
            return self.joker_penalty;
        };
        match (self.figures, n) {
            (FigureValues::Ten, 10..=12) => 10,
            (FigureValues::EightNineTen, 10..=12) => n - 2,
            _ => n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_specs() {
        let r = ChinchonRules::default();
        assert_eq!(r.deck, DeckSize::Forty);
        assert_eq!(r.two_decks_from, Some(5));
        assert_eq!((r.jokers, r.joker_penalty, r.close_limit), (0, 50, 3));
        assert_eq!(r.figures, FigureValues::Number);
        assert_eq!(r.meter_cartas, MeterCartas::On);
        assert!(!r.no_close_first_turn);
        assert_eq!(r.target, 100);
        assert_eq!(r.reenganche, Reenganche::Off);
        assert!(!r.allow_false_close);
        assert_eq!((r.stock_rebuilds, r.hand_turns), (3, 300));
        assert_eq!(r.validate(), Ok(()));
        let empty: ChinchonRules = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, r);
    }

    #[test]
    fn rules_round_trip_and_refuse_unknown_keys() {
        let r = ChinchonRules {
            deck: DeckSize::FortyEight,
            two_decks_from: None,
            jokers: 2,
            joker_penalty: 25,
            close_limit: 5,
            figures: FigureValues::Ten,
            meter_cartas: MeterCartas::NotAfterMenosDiez,
            no_close_first_turn: true,
            target: 70,
            reenganche: Reenganche::SecondHighest,
            allow_false_close: true,
            stock_rebuilds: 0,
            hand_turns: 1000,
        };
        let json = serde_json::to_value(r).unwrap();
        assert_eq!(json["deck"], 48);
        assert_eq!(json["meter_cartas"], "not_after_menos_diez");
        assert_eq!(json["reenganche"], "second_highest");
        assert_eq!(serde_json::from_value::<ChinchonRules>(json).unwrap(), r);
        let e = serde_json::from_str::<ChinchonRules>(r#"{"targett": 70}"#).unwrap_err();
        assert!(e.to_string().contains("targett"), "{e}");
        assert!(serde_json::from_str::<ChinchonRules>(r#"{"deck": 52}"#).is_err());
        assert!(serde_json::from_str::<ChinchonRules>(r#"{"figures": "eleven"}"#).is_err());
    }

    #[test]
    fn validation_names_the_option() {
        let bad = |f: fn(&mut ChinchonRules)| {
            let mut r = ChinchonRules::default();
            f(&mut r);
            r.validate().unwrap_err()
        };
        assert!(bad(|r| r.jokers = 3).starts_with("jokers"));
        assert!(bad(|r| r.joker_penalty = 0).starts_with("joker_penalty"));
        assert!(bad(|r| r.close_limit = 2).starts_with("close_limit"));
        assert!(bad(|r| r.close_limit = 6).starts_with("close_limit"));
        assert!(bad(|r| r.target = 0).starts_with("target"));
        assert!(bad(|r| r.two_decks_from = Some(9)).starts_with("two_decks_from"));
        assert!(bad(|r| r.target = 501).contains("target: 1–500 points"));
        assert!(bad(|r| r.stock_rebuilds = 11)
            .contains("stock_rebuilds: the stock may be rebuilt 0–10"));
        assert!(bad(|r| r.hand_turns = 49).contains("hand_turns: a hand may last 50–1000 turns"));
        assert!(bad(|r| r.hand_turns = 1001).starts_with("hand_turns"));
        // A table made before targets were bounded still plays and replays.
        let old = ChinchonRules {
            target: 5000,
            ..ChinchonRules::default()
        };
        assert!(old.validate_for(2).is_err());
        assert_eq!(old.playable_for(2), Ok(()));
        assert!(ChinchonRules {
            target: 10_001,
            ..old
        }
        .playable_for(2)
        .is_err());
        assert!(bad(|r| {
            r.deck = DeckSize::FortyEight;
            r.figures = FigureValues::EightNineTen;
        })
        .starts_with("figures"));
        for limit in 3..=5 {
            let r = ChinchonRules {
                close_limit: limit,
                ..ChinchonRules::default()
            };
            assert_eq!(r.validate(), Ok(()));
        }
    }

    #[test]
    fn seats_and_decks() {
        let r = ChinchonRules::default();
        assert_eq!(r.decks_for(4), 1);
        assert_eq!(r.decks_for(5), 2);
        assert_eq!(r.deck_for(8).len(), 80);
        for seats in 2..=8 {
            assert_eq!(r.validate_for(seats), Ok(()), "{seats}");
        }
        assert!(r.validate_for(1).unwrap_err().contains("2–8 players"));
        assert!(r.validate_for(9).is_err());
        let one_deck = ChinchonRules {
            two_decks_from: None,
            ..ChinchonRules::default()
        };
        assert_eq!(
            one_deck.validate_for(5),
            Ok(()),
            "35 dealt, muestra, 4 left"
        );
        let e = one_deck.validate_for(6).unwrap_err();
        assert!(e.contains("6 players need at least 44 cards"), "{e}");
        let big = ChinchonRules {
            deck: DeckSize::FortyEight,
            ..one_deck
        };
        assert_eq!(big.validate_for(6), Ok(()));
    }

    #[test]
    fn card_values_follow_the_figure_option() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        let mut r = ChinchonRules::default();
        assert_eq!(
            ["1o", "7c", "10e", "11b", "12o"].map(|s| r.value(c(s))),
            [1, 7, 10, 11, 12]
        );
        assert_eq!(r.value(Card::JOKER), 50);
        r.figures = FigureValues::Ten;
        assert_eq!(["10e", "11b", "12o"].map(|s| r.value(c(s))), [10, 10, 10]);
        r.figures = FigureValues::EightNineTen;
        assert_eq!(["10e", "11b", "12o"].map(|s| r.value(c(s))), [8, 9, 10]);
        r.joker_penalty = 25;
        assert_eq!(r.value(Card::JOKER), 25);
        r.figures = FigureValues::Number;
        r.deck = DeckSize::FortyEight;
        assert_eq!(["8o", "9c"].map(|s| r.value(c(s))), [8, 9]);
    }
}
