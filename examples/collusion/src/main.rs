//! A Mus player speaking tapete's bot protocol (docs/bot-protocol.md) that bets by the
//! exact leyes of the lance — and, given `--share DIR`, cheats: each partner writes its four
//! cards to `DIR/seatN` at every request and reads its partner's, and while it has them
//! decides with both hands. Without `--share` it is its own honest twin: the same
//! thresholds on the leyes of its own hand and what was declared.
//!
//! ```sh
//! cargo build --release -p tapete-collusion-examples
//! # colluding partners against experto (one game at a time: the file is per seat)
//! tapete arena mus --a "cmd:target/release/mus-partners --share /tmp/pair1" --b experto \
//!     --games 200 --threads 1 --records /tmp/pair1-records
//! # the honest twins
//! tapete arena mus --a "cmd:target/release/mus-partners" --b experto --games 200
//! ```
//!
//! `--bet X` and `--call X` move its thresholds (the chance of winning the lance it bets
//! from, and accepts a bet from); `--bold` bets órdago when the chance is near certain.

use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use tapete_cards::Card;
use tapete_mus::{Jugada, Lance, Mode};
use tapete_mus_bots::leyes_cache::{leyes, leyes_with_partner};
use tapete_mus_odds::leyes::{Conditions, Declared};

/// How the player decides.
struct Player {
    seat: usize,
    share: Option<PathBuf>,
    bet: f64,
    call: f64,
    bold: bool,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut player = Player {
        seat: 0,
        share: None,
        bet: 0.68,
        call: 0.6,
        bold: false,
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--share" => player.share = args.next().map(PathBuf::from),
            "--bet" => {
                player.bet = args
                    .next()
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(player.bet)
            }
            "--call" => {
                player.call = args
                    .next()
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(player.call)
            }
            "--bold" => player.bold = true,
            other => {
                eprintln!("mus-partners: unknown argument `{other}`");
                std::process::exit(2);
            }
        }
    }
    if let Some(dir) = &player.share {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("mus-partners: cannot make {}: {e}", dir.display());
            std::process::exit(2);
        }
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        match msg["type"].as_str() {
            Some("hello") => player.seat = msg["seat"].as_u64().unwrap_or(0) as usize,
            Some("act") => {
                let legal: Vec<String> = msg["legal"]
                    .as_array()
                    .map(|l| {
                        l.iter()
                            .filter_map(|a| a.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                let action = player.act(&msg["view"], &legal);
                let answer = json!({"id": msg["id"], "action": action});
                if writeln!(out, "{answer}")
                    .and_then(|()| out.flush())
                    .is_err()
                {
                    break;
                }
            }
            Some("end") => break,
            _ => {}
        }
    }
}

/// The four cards of a view, if it shows four.
fn cards_of(view: &Value) -> Option<[Card; 4]> {
    let cards: Vec<Card> = view["cards"]
        .as_array()?
        .iter()
        .filter_map(|c| c.as_str()?.parse().ok())
        .collect();
    cards.try_into().ok()
}

/// What identifies the hand under way, the same at both partners' seats of one game.
fn hand_key(view: &Value) -> String {
    format!(
        "{}:{}:{}",
        view["hand_number"], view["mano"], view["scores"]
    )
}

impl Player {
    fn act(&self, view: &Value, legal: &[String]) -> String {
        let first = legal.first().cloned().unwrap_or_default();
        let partner = self.exchange(view);
        let has = |a: &str| legal.iter().any(|l| l == a);
        if has("no hay mus") {
            return "no hay mus".into();
        }
        let lance = (view["phase"]["phase"] == "bet")
            .then(|| serde_json::from_value::<Lance>(view["phase"]["lance"].clone()).ok())
            .flatten();
        let Some(p) = lance.and_then(|l| self.chance(view, l, partner)) else {
            return first;
        };
        if has("quiero") {
            let ordago = view["bet"]["ordago"].as_bool().unwrap_or(false);
            let need = if ordago { self.call + 0.15 } else { self.call };
            return if p >= need { "quiero" } else { "no quiero" }.into();
        }
        if self.bold && p >= 0.93 && has("órdago") {
            return "órdago".into();
        }
        if p >= self.bet && has("envido 2") {
            return "envido 2".into();
        }
        if has("paso") {
            return "paso".into();
        }
        first
    }

    /// The pair's chance of winning `lance`: from the seat's own hand and the declarations,
    /// or with the partner's hand when it is known.
    fn chance(&self, view: &Value, lance: Lance, partner: Option<[Card; 4]>) -> Option<f64> {
        let mode: Mode = serde_json::from_value(view["rules"]["mode"].clone()).ok()?;
        let real31 = view["rules"]["real31"].as_bool().unwrap_or(false);
        let position = view["position"].as_u64()? as usize;
        let hand = Jugada::from_cards(&cards_of(view)?, mode);
        let declared = |kind: &str, d: usize| match view[kind][(self.seat + d) % 4].as_bool() {
            Some(true) => Declared::Yes,
            Some(false) => Declared::No,
            None => Declared::Unknown,
        };
        let cond = Conditions {
            pares: [1, 2, 3].map(|d| declared("pares", d)),
            juego: [1, 2, 3].map(|d| declared("juego", d)),
            partner_sena: None,
        };
        let odds = match partner {
            Some(p) => leyes_with_partner(mode, real31, hand, Jugada::from_cards(&p, mode), &cond)?,
            None => leyes(mode, real31, hand, &cond)?,
        };
        Some(odds[position.min(3)].lance(lance))
    }

    /// Writes this seat's cards for its partner and reads the partner's for this hand
    /// (none without `--share`, or before the partner has written them this hand).
    fn exchange(&self, view: &Value) -> Option<[Card; 4]> {
        let dir = self.share.as_ref()?;
        let key = hand_key(view);
        if let Some(mine) = cards_of(view) {
            let text = json!({"key": key, "cards": mine.map(|c| c.to_string())}).to_string();
            let path = dir.join(format!("seat{}", self.seat));
            let tmp = dir.join(format!(".seat{}.tmp", self.seat));
            if std::fs::write(&tmp, text).is_ok() {
                let _ = std::fs::rename(&tmp, &path);
            }
        }
        let theirs =
            std::fs::read_to_string(dir.join(format!("seat{}", (self.seat + 2) % 4))).ok()?;
        let v: Value = serde_json::from_str(&theirs).ok()?;
        if v["key"].as_str() != Some(key.as_str()) {
            return None;
        }
        cards_of(&v)
    }
}
