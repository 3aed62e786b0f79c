//! The screens the server runs for its operators: its newest rated games read, screened
//! for collusion, soft play and win trading ([`tapete_host::screening`], as `tapete screen
//! --db` does), and what they flag written as flags ([`crate::store::Db::store_flags`]).
//!
//! Only games with two people or more are read (a person among bots has nobody to cheat
//! with), and only pairs of two accounts are judged; a bot level takes part in the win
//! trading screen's skills as a player of its own. A server with operators screens every
//! [`crate::Config::screen_every`], and an operator may ask for a screen now
//! (`POST /api/operator/screen`); one screen runs at a time on each server, on a blocking
//! thread, over at most [`crate::Config::screen_games`] games.

use super::{Evidence, FlagKind, NewFlag, Statistic};
use crate::hub::Hub;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tapete_host::screening::{self, Game, Report, Settings};

/// Games one screen reads when none is set.
pub const DEFAULT_GAMES: usize = 2_000;
/// The most games one screen may be set to read (its time grows with them: about a tenth
/// of a second of one core per Mus game).
pub const MAX_GAMES: usize = 50_000;

/// One screen at a time, and how many games it reads.
#[derive(Debug)]
pub struct Screening {
    running: tokio::sync::Mutex<()>,
    games: AtomicUsize,
}

impl Default for Screening {
    fn default() -> Self {
        Screening {
            running: tokio::sync::Mutex::new(()),
            games: AtomicUsize::new(DEFAULT_GAMES),
        }
    }
}

impl Screening {
    /// Sets how many of the newest rated games a screen reads (bounded by [`MAX_GAMES`]).
    pub fn set_games(&self, games: usize) {
        self.games
            .store(games.clamp(1, MAX_GAMES), Ordering::Relaxed);
    }
}

/// What one screen did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Games read and screened (those with two people or more).
    pub games: usize,
    /// Pairs judged for collusion or soft play, and for win trading.
    pub pairs: usize,
    pub trading_pairs: usize,
    /// Flags handed to storage, and of those stored (a flag already judged with as high a
    /// statistic is not stored again).
    pub flagged: usize,
    pub stored: usize,
    /// Games that could not be screened, with why.
    pub skipped: Vec<(String, String)>,
}

/// Screens now: reads, screens, stores the flags.
pub async fn screen_now(hub: &Hub) -> Result<Summary, String> {
    let _one = hub.screening.running.lock().await;
    let limit = hub.screening.games.load(Ordering::Relaxed);
    let found = hub
        .db
        .finished_games(None, true, limit)
        .await
        .map_err(|e| e.to_string())?;
    // Account names to ids, for the flags.
    let mut ids: BTreeMap<String, i64> = BTreeMap::new();
    let games: Vec<Game> = found
        .into_iter()
        .filter(|g| g.players.iter().filter(|p| p.is_some()).count() >= 2)
        .map(|g| {
            for (id, name) in g.players.iter().flatten() {
                ids.insert(name.clone(), *id);
            }
            let source = g.table.clone();
            g.screened(source)
        })
        .collect();
    let kinds = hub.kinds.clone();
    let partners: BTreeMap<String, bool> = kinds
        .iter()
        .map(|k| (k.name().to_string(), k.partners()))
        .collect();
    let count = games.len();
    let report = tokio::task::spawn_blocking(move || {
        screening::screen(&games, &kinds, &Settings::default())
    })
    .await
    .map_err(|e| format!("the screen stopped: {e}"))?;
    let flags = flags_of(&report, &ids, &partners);
    let flagged = flags.len();
    let mut stored = 0;
    for chunk in flags.chunks(super::MAX_FLAGS_AT_ONCE) {
        let written = hub
            .db
            .store_flags(chunk.to_vec())
            .await
            .map_err(|e| e.to_string())?;
        stored += written.iter().filter(|w| w.is_some()).count();
    }
    Ok(Summary {
        games: count,
        pairs: report.pairs.iter().filter(|p| p.judged).count(),
        trading_pairs: report.trading.len(),
        flagged,
        stored,
        skipped: report.skipped,
    })
}

/// The flags of a screen's `report`: its flagged pairs of two accounts (`ids`: accounts'
/// ids by nickname; a bot level has none and is never flagged), as collusion in a game of
/// `partners`, else as soft play, and its flagged pairs of opponents as win trading.
fn flags_of(
    report: &Report,
    ids: &BTreeMap<String, i64>,
    partners: &BTreeMap<String, bool>,
) -> Vec<NewFlag> {
    let id = |name: &str| ids.get(name).copied();
    let mut flags = Vec::new();
    for p in report.pairs.iter().filter(|p| p.flagged) {
        let (Some(a), Some(b)) = (id(&p.players[0]), id(&p.players[1])) else {
            continue;
        };
        let kind = if partners.get(&p.game).copied().unwrap_or(false) {
            FlagKind::Collusion
        } else {
            FlagKind::SoftPlay
        };
        flags.push(NewFlag {
            game: p.game.clone(),
            players: vec![a, b],
            kind,
            statistic: Statistic {
                z: p.tally.z,
                gain: p.tally.mean,
                se: p.tally.se,
                n: p.tally.n,
            },
            evidence: p
                .evidence
                .iter()
                .map(|e| Evidence {
                    table: e.source.clone(),
                    step: e.step as u64 + 1,
                    seat: e.seat,
                    action: e.action.clone(),
                    // Read by the operator's page in the person's language.
                    what: format!("gain={:.3}", e.gain),
                })
                .collect(),
        });
    }
    for t in report.trading.iter().filter(|t| t.flagged) {
        let (Some(a), Some(b)) = (id(&t.players[0]), id(&t.players[1])) else {
            continue;
        };
        let games = t.games.max(1) as f64;
        flags.push(NewFlag {
            game: t.game.clone(),
            players: vec![a, b],
            kind: FlagKind::WinTrading,
            statistic: Statistic {
                z: t.z,
                gain: (t.score - t.expected) / games,
                se: 0.0,
                n: t.games,
            },
            evidence: t
                .evidence
                .iter()
                .map(|m| Evidence {
                    table: m.source.clone(),
                    step: 1,
                    seat: 0,
                    action: String::new(),
                    // Read by the operator's page: who came first there (1, ½, 0 for the
                    // first player, by id), and the pair's whole score.
                    what: format!(
                        "first={a} result={} score={} games={} expected={:.1}",
                        m.score, t.score, t.games, t.expected
                    ),
                })
                .collect(),
        });
    }
    flags
}

/// Screens every `every`, the first time `every` after the start; never when `every` is
/// zero. A failed screen is logged and tried again at the next time.
pub async fn keep_screening(hub: Arc<Hub>, every: Duration) {
    if every.is_zero() {
        return;
    }
    loop {
        tokio::time::sleep(every).await;
        match screen_now(&hub).await {
            Ok(s) => tracing::info!(
                games = s.games,
                flagged = s.flagged,
                stored = s.stored,
                "screened the rated games"
            ),
            Err(e) => tracing::warn!("screening the rated games: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapete_host::screening::{Evidence as Moment, Met, Pair, Trade};
    use tapete_review::screen::Tally;

    fn pair(game: &str, players: [&str; 2], flagged: bool) -> Pair {
        Pair {
            game: game.into(),
            players: players.map(String::from),
            games: 40,
            tally: Tally {
                n: 400,
                mean: 0.02,
                se: 0.004,
                z: 5.0,
            },
            judged: true,
            flagged,
            evidence: vec![Moment {
                source: "t1".into(),
                step: 6,
                seat: 2,
                action: "envido 2".into(),
                gain: 0.31,
            }],
        }
    }

    #[test]
    fn flagged_pairs_of_accounts_become_flags_of_their_kind() {
        let report = Report {
            games: 100,
            skipped: Vec::new(),
            pairs: vec![
                pair("mus", ["ana", "bea"], true),
                pair("chinchon", ["ana", "cris"], true),
                pair("mus", ["cris", "dani"], false),
                pair("mus", ["ana", "bot:experto"], true),
            ],
            trading: vec![Trade {
                game: "chinchon".into(),
                players: ["bea".into(), "ana".into()],
                games: 20,
                score: 20.0,
                expected: 10.0,
                z: 3.9,
                flagged: true,
                evidence: vec![
                    Met {
                        source: "t7".into(),
                        score: 1.0,
                    },
                    Met {
                        source: "t8".into(),
                        score: 0.5,
                    },
                ],
            }],
        };
        let ids: BTreeMap<String, i64> = [("ana", 1), ("bea", 2), ("cris", 3), ("dani", 4)]
            .into_iter()
            .map(|(n, i)| (n.to_string(), i))
            .collect();
        let partners: BTreeMap<String, bool> = [("mus", true), ("chinchon", false)]
            .into_iter()
            .map(|(n, p)| (n.to_string(), p))
            .collect();
        let flags = flags_of(&report, &ids, &partners);
        let kinds: Vec<(FlagKind, &str, Vec<i64>)> = flags
            .iter()
            .map(|f| (f.kind, f.game.as_str(), f.players.clone()))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (FlagKind::Collusion, "mus", vec![1, 2]),
                (FlagKind::SoftPlay, "chinchon", vec![1, 3]),
                (FlagKind::WinTrading, "chinchon", vec![2, 1]),
            ]
        );
        let first = &flags[0];
        assert_eq!(first.statistic.z, 5.0);
        assert_eq!(first.statistic.n, 400);
        // The replay's steps count from 1.
        assert_eq!(first.evidence[0].step, 7);
        assert_eq!(first.evidence[0].table, "t1");
        assert_eq!(first.evidence[0].what, "gain=0.310");
        let trade = &flags[2];
        assert_eq!(trade.statistic.n, 20);
        assert!((trade.statistic.gain - 0.5).abs() < 1e-12);
        assert_eq!(
            trade
                .evidence
                .iter()
                .map(|e| e.table.as_str())
                .collect::<Vec<_>>(),
            ["t7", "t8"]
        );
    }
}
