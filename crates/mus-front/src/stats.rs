//! What `tapete sim mus` and `tapete arena mus` count from the public events: hands,
//! piedras, órdagos, and how each lance went, per side.

use serde::Serialize;
use serde_json::{json, Map, Value};
use tapete_host::row;
use tapete_host::text::{pct, ratio, table};
use tapete_mus::{Action, Event, Lance, LanceStatus, MusGame};
use tapete_table::arena::{Fixture, Observer};
use tapete_table::Seat;

/// Counts of how one lance went, over all games. Per-side arrays are `[A, B]`.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct LanceStats {
    /// Times the lance was settled (played, bet or not, or void).
    pub settled: u64,
    /// Times somebody bet (envido or órdago).
    pub bet: u64,
    /// Times each side opened the betting.
    pub opened: [u64; 2],
    /// Times a bet was accepted (órdagos included).
    pub accepted: u64,
    /// Times an órdago was accepted.
    pub ordago: u64,
    /// Accepted órdagos won by each side.
    pub ordago_won: [u64; 2],
    /// Times a bet was declined.
    pub declined: u64,
    /// Times everybody passed.
    pub en_paso: u64,
    /// Times only one pair held pares / juego.
    pub unbet: u64,
    /// Times nobody held pares / juego.
    pub void: u64,
}

impl LanceStats {
    fn add(&mut self, s: &LanceStatus) {
        self.settled += 1;
        if s.was_bet() {
            self.bet += 1;
        }
        match s {
            LanceStatus::EnPaso => self.en_paso += 1,
            LanceStatus::Accepted { .. } => self.accepted += 1,
            LanceStatus::OrdagoAccepted => {
                self.accepted += 1;
                self.ordago += 1;
            }
            LanceStatus::Declined { .. } => self.declined += 1,
            LanceStatus::Unbet { .. } => self.unbet += 1,
            LanceStatus::Void => self.void += 1,
        }
    }

    fn merge(&mut self, o: &LanceStats) {
        self.settled += o.settled;
        self.bet += o.bet;
        self.accepted += o.accepted;
        self.ordago += o.ordago;
        self.declined += o.declined;
        self.en_paso += o.en_paso;
        self.unbet += o.unbet;
        self.void += o.void;
        for s in 0..2 {
            self.opened[s] += o.opened[s];
            self.ordago_won[s] += o.ordago_won[s];
        }
    }
}

/// Mus statistics from the public events, summed over games. Per-side arrays are indexed
/// by arena side (`[A, B]`); in a simulation, where seats never swap, that is
/// `[pair 0–2, pair 1–3]`.
#[derive(Clone, Debug, Default)]
pub struct MusStats {
    pub games: u64,
    pub ordago_wins: [u64; 2],
    pub hands: u64,
    pub actions: u64,
    pub piedras: [u64; 2],
    pub lances: [LanceStats; 5],
    /// Within one game: the lance being bet, whether its betting is open, and the lance
    /// of an accepted órdago.
    current: Option<(usize, bool)>,
    ordago_lance: Option<usize>,
}

impl MusStats {
    /// Counts one event; `side` maps a seat pair (0 or 1) to the side index.
    fn event(&mut self, e: &Event, side: impl Fn(usize) -> usize) {
        match e {
            Event::HandStarted { .. } => self.hands += 1,
            Event::Scored { pair, piedras, .. } => self.piedras[side(*pair)] += u64::from(*piedras),
            Event::LanceStarted { lance } => self.current = Some((lance_index(*lance), false)),
            Event::Said { seat, action } => {
                if let (Some((l, opened)), Action::Envido(_) | Action::Ordago) =
                    (&mut self.current, action)
                {
                    if !*opened {
                        *opened = true;
                        self.lances[*l].opened[side(*seat % 2)] += 1;
                    }
                }
            }
            Event::LanceSettled { lance, status } => {
                let l = lance_index(*lance);
                self.lances[l].add(status);
                self.current = None;
                if *status == LanceStatus::OrdagoAccepted {
                    self.ordago_lance = Some(l);
                }
            }
            Event::GameWon {
                pair, ordago: true, ..
            } => {
                self.ordago_wins[side(*pair)] += 1;
                if let Some(l) = self.ordago_lance.take() {
                    self.lances[l].ordago_won[side(*pair)] += 1;
                }
            }
            _ => {}
        }
    }

    /// Games won by órdago, both sides.
    pub fn ordago_total(&self) -> u64 {
        self.ordago_wins[0] + self.ordago_wins[1]
    }
}

impl Observer<MusGame> for MusStats {
    fn step(&mut self, f: &Fixture, _: &MusGame, _: Seat, _: &Action, events: &[Event]) {
        let swapped = usize::from(f.swapped());
        for e in events {
            self.event(e, |pair| (pair % 2) ^ swapped);
        }
    }

    fn finish(&mut self, _: &Fixture, _: &MusGame, actions: usize) {
        self.games += 1;
        // The first hand is dealt by `new`, before any event can be seen.
        self.hands += 1;
        self.actions += actions as u64;
    }

    fn merge(&mut self, o: MusStats) {
        self.games += o.games;
        self.hands += o.hands;
        self.actions += o.actions;
        for s in 0..2 {
            self.ordago_wins[s] += o.ordago_wins[s];
            self.piedras[s] += o.piedras[s];
        }
        for (a, b) in self.lances.iter_mut().zip(&o.lances) {
            a.merge(b);
        }
    }
}

/// Index of a lance in [`Lance::ALL`].
fn lance_index(l: Lance) -> usize {
    Lance::ALL.iter().position(|&x| x == l).unwrap_or(0)
}

/// `{"a": x, "b": y}`.
fn ab<T: Serialize>(pair: [T; 2]) -> Value {
    let [a, b] = pair;
    json!({ "a": a, "b": b })
}

/// The statistics as JSON members: hands, piedras (per side and per hand), órdago wins
/// and the lances, per-side values as `{"a", "b"}`.
pub fn to_json(t: &MusStats) -> Map<String, Value> {
    let lances: Map<String, Value> = Lance::ALL
        .iter()
        .map(|&l| {
            let s = &t.lances[lance_index(l)];
            let v = json!({
                "settled": s.settled,
                "bet": s.bet,
                "opened": ab(s.opened),
                "accepted": s.accepted,
                "ordago": s.ordago,
                "ordago_won": ab(s.ordago_won),
                "declined": s.declined,
                "en_paso": s.en_paso,
                "unbet": s.unbet,
                "void": s.void,
            });
            (l.name().to_string(), v)
        })
        .collect();
    let mut m = Map::new();
    m.insert("hands".into(), json!(t.hands));
    m.insert("hands_per_game".into(), json!(ratio(t.hands, t.games)));
    m.insert("piedras".into(), ab(t.piedras));
    m.insert(
        "piedras_per_hand".into(),
        ab(t.piedras.map(|p| ratio(p, t.hands))),
    );
    m.insert("ordago_wins".into(), ab(t.ordago_wins));
    m.insert("lances".into(), Value::Object(lances));
    m
}

/// The statistics as text: piedras and órdagos per side, then the per-lance table.
pub fn to_text(t: &MusStats, sides: [&str; 2]) -> String {
    let mut rows = vec![row!["side", "piedras", "piedras per hand", "won by órdago"]];
    for (s, name) in sides.iter().enumerate() {
        rows.push(row![
            name,
            t.piedras[s],
            format!("{:.2}", ratio(t.piedras[s], t.hands)),
            t.ordago_wins[s]
        ]);
    }
    let mut out = table(&rows);
    out.push_str(&format!(
        "hands per game: {:.2}; games won by órdago: {} ({})\n\n",
        ratio(t.hands, t.games),
        t.ordago_total(),
        pct(t.ordago_total(), t.games)
    ));
    out.push_str(&lance_table(t, sides));
    out
}

/// The per-lance table; `sides` names the two sides of the per-side columns.
fn lance_table(t: &MusStats, sides: [&str; 2]) -> String {
    let mut rows = vec![row![
        "lance",
        "settled",
        "bet",
        format!("opened {}/{}", sides[0], sides[1]),
        "accepted",
        "órdago",
        format!("órdago won {}/{}", sides[0], sides[1]),
        "declined",
        "en paso",
        "unbet",
        "void"
    ]];
    for l in Lance::ALL {
        let s = &t.lances[lance_index(l)];
        rows.push(row![
            l.name(),
            s.settled,
            format!("{} ({})", s.bet, pct(s.bet, s.settled)),
            format!("{}/{}", s.opened[0], s.opened[1]),
            format!("{} ({})", s.accepted, pct(s.accepted, s.bet)),
            s.ordago,
            format!("{}/{}", s.ordago_won[0], s.ordago_won[1]),
            s.declined,
            s.en_paso,
            s.unbet,
            s.void
        ]);
    }
    table(&rows)
}
