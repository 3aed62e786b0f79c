//! A tournament as one deterministic function: its format and entrant count, and the
//! results so far, give the matches to start now and the standings.
//!
//! Nothing is kept between calls: a server stores each match's result where its table's log
//! says it (who won, the points), and after any restart or failover [`Event::next`] over the
//! same results gives the same rounds, pairings and standings. A round-based format (Swiss,
//! tres ceros, duplicate) pairs round `r` from the results of rounds before it only, so the
//! rounds are recomputed one by one from the first; a bracket is a fixed tree resolved from
//! its results; groups then knockout is a fixed schedule of group rounds, played round by
//! round, then a bracket drawn from the groups' tables ([`crate::groups`]). A result that does not fit — a match that was never paired, other entrants
//! than the pairing's, a second result for one match — is refused by name: results come
//! from logs, and a log that does not fit the event is a fault to see, not to absorb.

use crate::bracket::{Bracket, MatchId};
use crate::groups::{self, GroupsState};
use crate::swiss::{self, History, Options};
use crate::{tres_ceros, Entrant, Played, Side, TournamentError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A tournament's format, with what it needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "format")]
pub enum Format {
    /// `rounds` Swiss rounds.
    Swiss { rounds: u32 },
    /// Until one entrant is left with fewer than three losses.
    TresCeros,
    /// A knockout bracket, with Cuadro B or not.
    Knockout { consolation: bool },
    /// Double elimination.
    Double,
    /// `rounds` rounds of duplicate, paired as a Swiss (the duplicate scoring itself is
    /// [`crate::duplicate`], over the boards' results).
    Duplicate { rounds: u32 },
    /// An arena of `minutes`: whoever is free is paired again at once ([`crate::arena`]),
    /// with no rounds — [`Event::next`] does not pair it.
    Arena { minutes: u32 },
    /// Groups of at most `size` (3 to 8) playing all-play-all, then a knockout of the
    /// first `advance` of each group ([`crate::groups`]).
    Groups { size: u32, advance: u32 },
}

/// Which match: a board of a round, or a bracket's match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKey {
    /// Board `board` (from 0, the top board first) of round `round` (from 1).
    Board { round: u32, board: u32 },
    /// A bracket's match.
    Bracket(MatchId),
}

impl std::fmt::Display for MatchKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchKey::Board { round, board } => write!(f, "round {round}, board {}", board + 1),
            MatchKey::Bracket(id) => write!(f, "bracket match {id}"),
        }
    }
}

/// A match to play: its key and its two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    pub key: MatchKey,
    pub first: Entrant,
    pub second: Entrant,
}

/// A match's result, as its table's log ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    pub key: MatchKey,
    pub first: Entrant,
    pub second: Entrant,
    /// The side that won; `None` for a draw (refused in a bracket).
    pub winner: Option<Side>,
    pub first_points: i64,
    pub second_points: i64,
}

/// Where an event stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Next {
    /// The round being played (round-based formats, and the group stage; 0 for brackets,
    /// and a groups event's knockout).
    pub round: u32,
    /// The matches paired and not yet played: the ones to start (or running).
    pub pending: Vec<Pairing>,
    /// Who sits this round out (a bye), if anyone (a groups event's byes, one per odd
    /// group, are in [`GroupsState`]).
    pub bye: Option<Entrant>,
    /// Nothing is left to play.
    pub over: bool,
}

/// An entrant who left the event, and the first round it is no longer paired in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawal {
    pub entrant: Entrant,
    /// From this round on (round-based formats, and the group stage). In a bracket (and a
    /// groups event's knockout) a withdrawal is the forfeit of each match it is then paired
    /// in: a result the other side wins.
    pub from_round: u32,
}

/// A tournament: its format, how many entrants (in seed order), who withdrew.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub format: Format,
    pub entrants: usize,
    /// Entrants who left mid-event; their results stand.
    #[serde(default)]
    pub withdrawals: Vec<Withdrawal>,
}

impl Event {
    /// An event of `entrants` in `format`, checked: enough entrants, no more rounds than a
    /// Swiss of that field can pair, groups that the field can fill.
    pub fn new(format: Format, entrants: usize) -> Result<Event, TournamentError> {
        if entrants < 2 {
            return Err(TournamentError::TooFew {
                min: 2,
                got: entrants,
            });
        }
        if entrants > crate::MAX_ENTRANTS {
            return Err(TournamentError::TooMany {
                max: crate::MAX_ENTRANTS,
                got: entrants,
            });
        }
        if let Format::Swiss { rounds } | Format::Duplicate { rounds } = format {
            let max = swiss::max_rounds(entrants);
            if rounds == 0 || rounds > max {
                return Err(TournamentError::Rounds { rounds, max });
            }
        }
        if let Format::Groups { size, advance } = format {
            groups::Draw::new(entrants, size, advance)?;
        }
        Ok(Event {
            format,
            entrants,
            withdrawals: Vec::new(),
        })
    }

    /// Marks `entrant` gone from round `from_round` on (the round after the one being
    /// played, as a rule: a round already paired stays as paired).
    pub fn withdraw(&mut self, entrant: Entrant, from_round: u32) -> Result<(), TournamentError> {
        if entrant >= self.entrants {
            return Err(TournamentError::NoSuchEntrant(entrant));
        }
        if !self.withdrawals.iter().any(|w| w.entrant == entrant) {
            self.withdrawals.push(Withdrawal {
                entrant,
                from_round,
            });
        }
        Ok(())
    }

    /// The matches to play now (and the round, the bye), from the results so far.
    pub fn next(&self, results: &[MatchResult]) -> Result<Next, TournamentError> {
        match self.format {
            Format::Knockout { .. } | Format::Double => self.bracket_next(results),
            Format::Arena { .. } => Err(TournamentError::Continuous),
            Format::Groups { .. } => self.groups_run(results).map(|(_, next)| next),
            _ => self.history(results).map(|(_, next)| next),
        }
    }

    /// The Swiss-style history the results make (round-based formats), checked against
    /// the pairings they recompute; with where the event stands.
    pub fn history(&self, results: &[MatchResult]) -> Result<(History, Next), TournamentError> {
        let (limit, losses) = match self.format {
            Format::Swiss { rounds } | Format::Duplicate { rounds } => (Some(rounds), false),
            Format::TresCeros => (None, true),
            _ => return Err(TournamentError::NotRounds),
        };
        self.replay(results, limit, losses)
    }

    /// Recomputes the rounds one by one from the results.
    fn replay(
        &self,
        results: &[MatchResult],
        limit: Option<u32>,
        losses: bool,
    ) -> Result<(History, Next), TournamentError> {
        let n = self.entrants;
        let mut by_key: BTreeMap<MatchKey, &MatchResult> = BTreeMap::new();
        for r in results {
            if !matches!(r.key, MatchKey::Board { .. }) {
                return Err(TournamentError::Unpaired(r.key));
            }
            if by_key.insert(r.key, r).is_some() {
                return Err(TournamentError::Twice(r.key));
            }
        }
        let mut h = History::default();
        // The results the rounds so far have read: any other is one never paired.
        let mut matched: std::collections::BTreeSet<MatchKey> = std::collections::BTreeSet::new();
        let mut round = 0;
        loop {
            round += 1;
            h.withdrawn = self
                .withdrawals
                .iter()
                .filter(|w| w.from_round <= round)
                .map(|w| w.entrant)
                .collect();
            // Past the last round, or (a tres ceros) one entrant left in, withdrawals counted.
            let over = match limit {
                Some(l) => round > l,
                None => losses && tres_ceros::is_over(n, &h),
            };
            if over {
                if let Some(stray) = by_key.keys().find(|k| !matched.contains(k)) {
                    return Err(TournamentError::Unpaired(*stray));
                }
                return Ok((
                    h,
                    Next {
                        round: round - 1,
                        pending: Vec::new(),
                        bye: None,
                        over: true,
                    },
                ));
            }
            let paired = if losses {
                tres_ceros::pair(n, &h)?
            } else {
                swiss::pair(n, &h, &Options::default())?
            };
            let mut pending = Vec::new();
            let mut played = Vec::new();
            for (board, &(first, second)) in paired.pairs.iter().enumerate() {
                let key = MatchKey::Board {
                    round,
                    board: board as u32,
                };
                match by_key.get(&key) {
                    Some(r) => {
                        if (r.first, r.second) != (first, second) {
                            return Err(TournamentError::NotThePairing {
                                key,
                                paired: (first, second),
                                got: (r.first, r.second),
                            });
                        }
                        matched.insert(key);
                        played.push(Played::new(
                            round,
                            first,
                            second,
                            r.winner,
                            r.first_points,
                            r.second_points,
                        ));
                    }
                    None => pending.push(Pairing { key, first, second }),
                }
            }
            if !pending.is_empty() {
                // The round is under way: no later round may have results yet.
                if let Some(stray) = by_key.keys().find(|k| !matched.contains(k)) {
                    return Err(TournamentError::Unpaired(*stray));
                }
                h.played.extend(played);
                return Ok((
                    h,
                    Next {
                        round,
                        pending,
                        bye: paired.bye,
                        over: false,
                    },
                ));
            }
            h.played.extend(played);
            if let Some(b) = paired.bye {
                h.byes.push((round, b));
            }
        }
    }

    /// A groups event from its results, as a page shows it: each group's table and matches,
    /// then the knockout once the group stage is over.
    pub fn groups(&self, results: &[MatchResult]) -> Result<GroupsState, TournamentError> {
        self.groups_run(results).map(|(state, _)| state)
    }

    fn groups_run(&self, results: &[MatchResult]) -> Result<(GroupsState, Next), TournamentError> {
        let Format::Groups { size, advance } = self.format else {
            return Err(TournamentError::NotGroups);
        };
        let draw = groups::Draw::new(self.entrants, size, advance)?;
        groups::run(&draw, &self.withdrawals, results)
    }

    /// The bracket of a bracket format (a groups event's knockout depends on the groups'
    /// results: [`Event::groups`]).
    pub fn bracket(&self) -> Result<Bracket, TournamentError> {
        match self.format {
            Format::Knockout { consolation } => Bracket::knockout(self.entrants, consolation),
            Format::Double => Bracket::double_elimination(self.entrants),
            _ => Err(TournamentError::NotBracket),
        }
    }

    /// A bracket's results as its resolver reads them, checked against who it says played.
    pub fn bracket_results(
        &self,
        results: &[MatchResult],
    ) -> Result<BTreeMap<MatchId, Side>, TournamentError> {
        let bracket = self.bracket()?;
        let all: Vec<&MatchResult> = results.iter().collect();
        check_bracket_results(&bracket, &all)
    }

    fn bracket_next(&self, results: &[MatchResult]) -> Result<Next, TournamentError> {
        let bracket = self.bracket()?;
        let done = self.bracket_results(results)?;
        let state = bracket.state(&done)?;
        Ok(Next {
            round: 0,
            pending: state
                .ready
                .iter()
                .map(|&(id, first, second)| Pairing {
                    key: MatchKey::Bracket(id),
                    first,
                    second,
                })
                .collect(),
            bye: None,
            over: state.over,
        })
    }
}

/// `results` as `bracket`'s resolver reads them, checked against who it says played: each
/// a bracket's match, ready, with its sides, once, and won.
pub(crate) fn check_bracket_results(
    bracket: &Bracket,
    results: &[&MatchResult],
) -> Result<BTreeMap<MatchId, Side>, TournamentError> {
    let mut out: BTreeMap<MatchId, Side> = BTreeMap::new();
    // In the order the bracket resolves them: a result is checked once its sides are
    // known.
    let mut left: Vec<&MatchResult> = results.to_vec();
    left.sort_by_key(|r| r.key);
    for r in &left {
        let MatchKey::Bracket(id) = r.key else {
            return Err(TournamentError::Unpaired(r.key));
        };
        let Some(side) = r.winner else {
            return Err(TournamentError::DrawInBracket(r.key));
        };
        if out.contains_key(&id) {
            return Err(TournamentError::Twice(r.key));
        }
        let state = bracket.state(&out)?;
        let Some(&(_, first, second)) = state.ready.iter().find(|(m, _, _)| *m == id) else {
            return Err(TournamentError::Unpaired(r.key));
        };
        if (first, second) != (r.first, r.second) {
            return Err(TournamentError::NotThePairing {
                key: r.key,
                paired: (first, second),
                got: (r.first, r.second),
            });
        }
        out.insert(id, side);
    }
    Ok(out)
}
