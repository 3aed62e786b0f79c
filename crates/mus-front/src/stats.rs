//! What `tapete sim mus` and `tapete arena mus` count from the public events: hands,
//! piedras, órdagos, and how each lance went, per side.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use tapete_host::row;
use tapete_host::text::{pct, ratio, table};
use tapete_mus::{Action, Event, Lance, LanceStatus, MusGame};
use tapete_table::arena::{Fixture, Observer};
use tapete_table::Seat;

/// Counts of how one lance went, over all games. Per-side arrays are `[A, B]`.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
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
    /// Órdagos thrown by each side (accepted or not).
    pub ordago_thrown: [u64; 2],
    /// Órdagos accepted by each side (thrown by the other).
    pub ordago_accepted_by: [u64; 2],
    /// Of the órdagos each side threw and saw accepted, how many it won.
    pub ordago_thrower_won: [u64; 2],
    /// Of the órdagos each side accepted, how many it won.
    pub ordago_accepter_won: [u64; 2],
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
            self.ordago_thrown[s] += o.ordago_thrown[s];
            self.ordago_accepted_by[s] += o.ordago_accepted_by[s];
            self.ordago_thrower_won[s] += o.ordago_thrower_won[s];
            self.ordago_accepter_won[s] += o.ordago_accepter_won[s];
        }
    }
}

/// Mus statistics from the public events, summed over games. Per-side arrays are indexed
/// by arena side (`[A, B]`); in a simulation, where seats never swap, that is
/// `[pair 0–2, pair 1–3]`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct MusStats {
    pub games: u64,
    pub ordago_wins: [u64; 2],
    pub hands: u64,
    pub actions: u64,
    pub piedras: [u64; 2],
    pub lances: [LanceStats; 5],
    /// Within one game: the lance being bet, whether its betting is open, the side that
    /// threw an órdago in it, and the lance and thrower's side of an accepted órdago.
    #[serde(skip)]
    current: Option<(usize, bool)>,
    #[serde(skip)]
    thrower: Option<usize>,
    #[serde(skip)]
    ordago_lance: Option<(usize, usize)>,
}

impl MusStats {
    /// Counts one event; `side` maps a seat pair (0 or 1) to the side index.
    fn event(&mut self, e: &Event, side: impl Fn(usize) -> usize) {
        match e {
            Event::HandStarted { .. } => self.hands += 1,
            Event::Scored { pair, piedras, .. } => self.piedras[side(*pair)] += u64::from(*piedras),
            Event::LanceStarted { lance } => {
                self.current = Some((lance_index(*lance), false));
                self.thrower = None;
            }
            Event::Said { seat, action } => {
                if let (Some((l, opened)), Action::Envido(_) | Action::Ordago) =
                    (&mut self.current, action)
                {
                    let by = side(*seat % 2);
                    if !*opened {
                        *opened = true;
                        self.lances[*l].opened[by] += 1;
                    }
                    if *action == Action::Ordago {
                        self.lances[*l].ordago_thrown[by] += 1;
                        self.thrower = Some(by);
                    }
                }
            }
            Event::LanceSettled { lance, status } => {
                let l = lance_index(*lance);
                self.lances[l].add(status);
                self.current = None;
                if *status == LanceStatus::OrdagoAccepted {
                    let thrower = self.thrower.unwrap_or(0);
                    self.lances[l].ordago_accepted_by[1 - thrower] += 1;
                    self.ordago_lance = Some((l, thrower));
                }
                self.thrower = None;
            }
            Event::GameWon {
                pair, ordago: true, ..
            } => {
                let won = side(*pair);
                self.ordago_wins[won] += 1;
                if let Some((l, thrower)) = self.ordago_lance.take() {
                    let s = &mut self.lances[l];
                    s.ordago_won[won] += 1;
                    if won == thrower {
                        s.ordago_thrower_won[won] += 1;
                    } else {
                        s.ordago_accepter_won[won] += 1;
                    }
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
                "ordago_thrown": ab(s.ordago_thrown),
                "ordago_accepted_by": ab(s.ordago_accepted_by),
                "ordago_thrower_won": ab(s.ordago_thrower_won),
                "ordago_accepter_won": ab(s.ordago_accepter_won),
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
    out.push_str(&ordago_line(t, sides));
    out
}

/// One line on who threw and who accepted the órdagos, per lance that saw one:
/// `órdagos (thrown A/B, accepted A/B, thrower won A/B, accepter won A/B): grande 3/1 1/0 …`.
fn ordago_line(t: &MusStats, sides: [&str; 2]) -> String {
    let ab = |x: [u64; 2]| format!("{}/{}", x[0], x[1]);
    let parts: Vec<String> = Lance::ALL
        .iter()
        .map(|&l| (l, &t.lances[lance_index(l)]))
        .filter(|(_, s)| s.ordago_thrown != [0, 0])
        .map(|(l, s)| {
            format!(
                "{} {} {} {} {}",
                l.name(),
                ab(s.ordago_thrown),
                ab(s.ordago_accepted_by),
                ab(s.ordago_thrower_won),
                ab(s.ordago_accepter_won)
            )
        })
        .collect();
    let (a, b) = (sides[0], sides[1]);
    if parts.is_empty() {
        return "órdagos: none thrown\n".into();
    }
    format!(
        "órdagos (thrown {a}/{b}, accepted {a}/{b}, thrower won {a}/{b}, accepter won {a}/{b}): {}\n",
        parts.join("; ")
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-built game, seats swapped (side A holds pair 1): pair 1 throws an órdago at
    /// grande that pair 0 lets go; at pares pair 0 opens, pair 1 answers with an órdago, pair 0
    /// accepts it and pair 1 wins it.
    #[test]
    fn ordagos_are_counted_by_who_threw_and_who_accepted() {
        let mut t = MusStats::default();
        let side = |pair: usize| (pair % 2) ^ 1;
        let said = |seat, action| Event::Said { seat, action };
        let events = [
            Event::LanceStarted {
                lance: Lance::Grande,
            },
            said(0, Action::Paso),
            said(1, Action::Ordago),
            said(2, Action::NoQuiero),
            said(0, Action::NoQuiero),
            Event::LanceSettled {
                lance: Lance::Grande,
                status: LanceStatus::Declined {
                    pair: 1,
                    piedras: 1,
                },
            },
            Event::LanceStarted {
                lance: Lance::Pares,
            },
            said(0, Action::Envido(2)),
            said(1, Action::Ordago),
            said(2, Action::NoQuiero),
            said(0, Action::Quiero),
            Event::LanceSettled {
                lance: Lance::Pares,
                status: LanceStatus::OrdagoAccepted,
            },
            Event::GameWon {
                pair: 1,
                ordago: true,
                piedras: [0, 40],
            },
        ];
        for e in &events {
            t.event(e, side);
        }
        let g = &t.lances[lance_index(Lance::Grande)];
        assert_eq!((g.ordago_thrown, g.ordago_accepted_by), ([1, 0], [0, 0]));
        let p = &t.lances[lance_index(Lance::Pares)];
        assert_eq!(p.ordago_thrown, [1, 0]);
        assert_eq!(p.ordago_accepted_by, [0, 1]);
        assert_eq!(p.ordago_won, [1, 0]);
        assert_eq!(
            (p.ordago_thrower_won, p.ordago_accepter_won),
            ([1, 0], [0, 0])
        );
        assert_eq!(p.opened, [0, 1]);
        let json = to_json(&t);
        let pares = &json["lances"]["pares"];
        assert_eq!(pares["ordago_thrown"], json!({"a": 1, "b": 0}));
        assert_eq!(pares["ordago_accepted_by"], json!({"a": 0, "b": 1}));
        assert_eq!(pares["ordago_thrower_won"], json!({"a": 1, "b": 0}));
        assert_eq!(pares["ordago_accepter_won"], json!({"a": 0, "b": 0}));
        assert_eq!(pares["ordago_won"], json!({"a": 1, "b": 0}));
        let text = to_text(&t, ["A", "B"]);
        assert!(
            text.contains("grande 1/0 0/0 0/0 0/0; pares 1/0 0/1 1/0 0/0"),
            "{text}"
        );
    }
}
