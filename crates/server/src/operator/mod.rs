//! The operator: accounts named at start (`tapete serve --operator NICKNAME`) who judge the
//! screens' flags and the chat's reports, suspend accounts, and replay any finished game
//! whole; every one of their actions is written in a log.
//!
//! A **suspension** keeps an account from rated play ([`Scope::Rated`]: no seat at a rated
//! table, no rated tournament) or from the whole site ([`Scope::Site`]: no seat anywhere, no
//! chat, no new table or tournament); the account still logs in and reads its suspension
//! and reason. It takes effect at the next seat the person takes: someone already seated
//! keeps the seat until they leave it.
//!
//! A **flag** is what a screen (collusion, win trading, soft play) found about some players
//! of a game: its statistic and up to [`MAX_EVIDENCE`] moments of evidence, each a table, a
//! step, a seat, the action's text and a line saying what was seen — never a card: a card's
//! text in them is masked when stored ([`mask_cards`]).

pub mod screen;
pub mod store;

use crate::code::{Code, Refusal};
use crate::table::PlayerRef;
use serde::{Deserialize, Serialize};

/// The longest reason of a suspension, or note on a flag, in characters.
pub const MAX_REASON: usize = 500;
/// Evidence rows one flag keeps (the first ones given).
pub const MAX_EVIDENCE: usize = 20;
/// The longest text of an evidence row (its action, what was seen), in characters.
pub const MAX_TEXT: usize = 200;
/// The most players one flag names.
pub const MAX_FLAG_PLAYERS: usize = 8;
/// Flags one call of [`crate::store::Db::store_flags`] takes.
pub const MAX_FLAGS_AT_ONCE: usize = 1000;
/// Rows of a page of the operator's lists (flags, reports, suspensions, the log).
pub const PAGE: usize = 50;
/// The furthest page of those lists.
pub const MAX_PAGE: usize = 200;

/// What a suspension keeps an account from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Rated tables and rated tournaments.
    Rated,
    /// Every table, the chat, making tables and tournaments.
    Site,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Rated => "rated",
            Scope::Site => "site",
        }
    }
    pub fn parse(s: &str) -> Option<Scope> {
        match s {
            "rated" => Some(Scope::Rated),
            "site" => Some(Scope::Site),
            _ => None,
        }
    }
}

/// A suspension as stored.
#[derive(Clone, Debug, Serialize)]
pub struct Suspension {
    pub id: i64,
    pub player: PlayerRef,
    pub scope: Scope,
    pub reason: String,
    /// The operator who suspended.
    pub by: PlayerRef,
    pub at: i64,
    pub lifted_at: Option<i64>,
    pub lifted_by: Option<PlayerRef>,
}

impl Suspension {
    /// The refusal a suspended person gets, its sentence carrying the reason.
    pub fn refusal(&self) -> Refusal {
        let from = match self.scope {
            Scope::Rated => "from rated play",
            Scope::Site => "from playing and writing here",
        };
        Refusal::new(
            Code::Suspended,
            format!("your account is suspended {from}: {}", self.reason),
        )
    }

    /// Whether it keeps its account from a seat at a table (`rated`: a rated one), from
    /// making one, or from a tournament.
    pub fn keeps_from(&self, rated: bool) -> bool {
        self.scope == Scope::Site || rated
    }
}

/// Which screen raised a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagKind {
    Collusion,
    WinTrading,
    SoftPlay,
}

impl FlagKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FlagKind::Collusion => "collusion",
            FlagKind::WinTrading => "win_trading",
            FlagKind::SoftPlay => "soft_play",
        }
    }
    pub fn parse(s: &str) -> Option<FlagKind> {
        [
            FlagKind::Collusion,
            FlagKind::WinTrading,
            FlagKind::SoftPlay,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

/// Where an operator's judgement left a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagStatus {
    /// Not judged yet.
    Open,
    /// Judged nothing to act on.
    Dismissed,
    /// Acted on (a suspension, say).
    Acted,
}

impl FlagStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            FlagStatus::Open => "open",
            FlagStatus::Dismissed => "dismissed",
            FlagStatus::Acted => "acted",
        }
    }
    pub fn parse(s: &str) -> Option<FlagStatus> {
        [FlagStatus::Open, FlagStatus::Dismissed, FlagStatus::Acted]
            .into_iter()
            .find(|k| k.as_str() == s)
    }
}

/// A screen's statistic: its z score, the gain measured, its standard error and the
/// decisions (or games) it stands on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Statistic {
    pub z: f64,
    pub gain: f64,
    pub se: f64,
    pub n: u64,
}

/// One moment of a flag's evidence: the table, the step of its replay (the action's
/// number, from 1), the seat that acted, the action's text and what was seen there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub table: String,
    pub step: u64,
    pub seat: usize,
    pub action: String,
    pub what: String,
}

/// A flag as a screen hands it in ([`crate::store::Db::store_flags`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewFlag {
    pub game: String,
    /// The players flagged, by id (their order does not matter).
    pub players: Vec<i64>,
    pub kind: FlagKind,
    pub statistic: Statistic,
    pub evidence: Vec<Evidence>,
}

/// A flag as stored, for the operator.
#[derive(Clone, Debug, Serialize)]
pub struct Flag {
    pub id: i64,
    pub game: String,
    pub players: Vec<PlayerRef>,
    pub kind: FlagKind,
    pub statistic: Statistic,
    pub evidence: Vec<Evidence>,
    pub created: i64,
    pub status: FlagStatus,
    pub note: Option<String>,
    pub decided_by: Option<PlayerRef>,
    pub decided_at: Option<i64>,
}

/// `text` cut to `max` characters.
pub fn bounded(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// Whether a word is a card's text in one of tapete's decks: a rank (1 to 14, or A, J, Q,
/// K, T) then a suit (Spanish `o c e b`, French `S H D C`, or a suit's symbol), or the
/// Chinchón joker `J` alone.
fn is_card_word(word: &str) -> bool {
    if word == "J" {
        return true;
    }
    let mut chars: Vec<char> = word.chars().collect();
    let Some(suit) = chars.pop() else {
        return false;
    };
    if !"ocebOCEBSHDCshdc♠♥♦♣♤♡♢♧".contains(suit) {
        return false;
    }
    let rank: String = chars.into_iter().collect();
    match rank.as_str() {
        "A" | "J" | "Q" | "K" | "T" | "a" | "j" | "q" | "k" | "t" => true,
        r => r.parse::<u8>().is_ok_and(|n| (1..=14).contains(&n)) && !r.starts_with('0'),
    }
}

/// `text` with every word that is a card's text (see [`is_card_word`]) written `?`: what a
/// flag stores must show no card, whatever a screen wrote.
pub fn mask_cards(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let is_word_char = |c: char| c.is_alphanumeric() || "♠♥♦♣♤♡♢♧".contains(c);
    let flush = |word: &mut String, out: &mut String| {
        if is_card_word(word) {
            out.push('?');
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if is_word_char(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Text without control characters, trimmed: what a reason or a note keeps.
pub fn clean_text(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// A reason (a suspension's) or a note (a flag's) as stored: trimmed, without control
/// characters, at most [`MAX_REASON`] characters; an empty one only where `may_be_empty`.
pub fn check_reason(text: &str, may_be_empty: bool) -> Result<String, Refusal> {
    let text = clean_text(text);
    if text.is_empty() && !may_be_empty {
        return Err(Refusal::new(
            Code::OperatorText,
            "a suspension needs its reason: the suspended person reads it",
        ));
    }
    let n = text.chars().count();
    if n > MAX_REASON {
        return Err(Refusal::new(
            Code::OperatorText,
            format!("the text has {n} characters: at most {MAX_REASON}"),
        ));
    }
    Ok(text)
}

impl NewFlag {
    /// The flag as it is stored: its players sorted once each, at most [`MAX_EVIDENCE`]
    /// rows of evidence, each text cut to [`MAX_TEXT`] characters with any card masked; or
    /// what makes it no flag (no players or too many, no game, a statistic that is not a
    /// number).
    pub fn bounded(mut self) -> Result<NewFlag, String> {
        self.players.sort_unstable();
        self.players.dedup();
        if self.players.is_empty() || self.players.len() > MAX_FLAG_PLAYERS {
            return Err(format!(
                "a flag names 1 to {MAX_FLAG_PLAYERS} players, not {}",
                self.players.len()
            ));
        }
        let game = self.game.trim();
        if game.is_empty() || game.chars().count() > 32 {
            return Err(format!("`{}` is not a game's name", bounded(game, 40)));
        }
        self.game = game.to_string();
        let s = &self.statistic;
        if !(s.z.is_finite() && s.gain.is_finite() && s.se.is_finite()) {
            return Err(format!(
                "a flag's statistic is numbers: z {}, gain {}, se {}",
                s.z, s.gain, s.se
            ));
        }
        self.evidence.truncate(MAX_EVIDENCE);
        for e in &mut self.evidence {
            e.table = bounded(&e.table, 32);
            e.action = mask_cards(&bounded(&clean_text(&e.action), MAX_TEXT));
            e.what = mask_cards(&bounded(&clean_text(&e.what), MAX_TEXT));
        }
        Ok(self)
    }

    /// The players as stored: a JSON list of their ids, sorted (a flag's key with its game
    /// and kind).
    pub fn players_key(&self) -> String {
        serde_json::to_string(&self.players).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_masked_and_other_words_kept() {
        assert_eq!(mask_cards("descarto 12o 1b"), "descarto ? ?");
        assert_eq!(mask_cards("lay 3D 10H, then KS"), "lay ? ?, then ?");
        assert_eq!(mask_cards("cierro 7♦ J"), "cierro ? ?");
        assert_eq!(mask_cards("envido 2"), "envido 2");
        assert_eq!(mask_cards("órdago at 30-12"), "órdago at 30-12");
        assert_eq!(mask_cards("paso; 15 decisions"), "paso; 15 decisions");
        assert_eq!(mask_cards("04o 15c"), "04o 15c");
    }

    #[test]
    fn a_flag_is_bounded_before_it_is_stored() {
        let row = |i: u64| Evidence {
            table: "t".repeat(40),
            step: i,
            seat: 1,
            action: format!("descarto 12o {}", "x".repeat(300)),
            what: "bets on 3c".into(),
        };
        let f = NewFlag {
            game: "mus".into(),
            players: vec![5, 2, 5],
            kind: FlagKind::Collusion,
            statistic: Statistic {
                z: 3.1,
                gain: 0.2,
                se: 0.06,
                n: 400,
            },
            evidence: (0..30).map(row).collect(),
        }
        .bounded()
        .unwrap();
        assert_eq!(f.players, vec![2, 5]);
        assert_eq!(f.players_key(), "[2,5]");
        assert_eq!(f.evidence.len(), MAX_EVIDENCE);
        assert_eq!(f.evidence[0].table.len(), 32);
        assert!(f.evidence[0].action.starts_with("descarto ? x"));
        assert_eq!(f.evidence[0].action.chars().count(), MAX_TEXT - 3 + 1);
        assert_eq!(f.evidence[0].what, "bets on ?");
        let mut bad = f.clone();
        bad.statistic.z = f64::NAN;
        assert!(bad.bounded().is_err());
        let mut none = f;
        none.players.clear();
        assert!(none.bounded().is_err());
    }

    #[test]
    fn a_reason_is_needed_and_bounded() {
        assert_eq!(check_reason("  trampas\n", false).unwrap(), "trampas");
        assert_eq!(
            check_reason(" ", false).unwrap_err().code,
            Code::OperatorText
        );
        assert_eq!(check_reason("", true).unwrap(), "");
        assert!(check_reason(&"a".repeat(MAX_REASON), false).is_ok());
        assert_eq!(
            check_reason(&"a".repeat(MAX_REASON + 1), false)
                .unwrap_err()
                .code,
            Code::OperatorText
        );
    }
}
