//! Brackets: knockout with a Cuadro B, and double elimination.
//!
//! How the formats read to a player:
//!
//! - **Knockout (Cuadro A).** Lose once and you are out of the cuadro. The draw follows the
//!   seeds: the top seed meets the last in the first round, the two top seeds can only meet
//!   in the final, the four top seeds only from the semi-finals on. When the entry is not a
//!   power of two (say 6 pairs), the cuadro is the next power of two (8) and the missing
//!   places are byes, given to the top seeds: a pair with a bye goes to the second round
//!   without playing. Places: the champion is 1st, the finalist 2nd, both semi-finalists
//!   3rd, the quarter-finalists 5th, and so on.
//! - **Cuadro B.** The second chance for those who lose their first match: the losers of
//!   Cuadro A's first round play their own knockout (the losers of the top two matches meet,
//!   then the next two, …) for the Cuadro B title. A pair that had a bye in the first round
//!   of Cuadro A has not lost there, so if it loses later it has no Cuadro B: it is out.
//!   Cuadro B does not change the places of Cuadro A.
//! - **Double elimination (doble eliminación).** Nobody is out before losing twice. Everyone
//!   starts in the winners' bracket (drawn like Cuadro A); whoever loses there drops into the
//!   losers' bracket, and whoever loses in the losers' bracket is out. The losers' bracket
//!   takes turns: first the losers of the winners' first round play each other; then its
//!   survivors meet the losers of the next winners' round, then play among themselves, and
//!   so on. A loser from the winners' bracket comes down crosswise — the loser of winners'
//!   match 1 meets the survivor from the part of the draw of winners' match 2, and the other
//!   way round — so that nobody meets again, just after dropping, someone they have already
//!   played; only in the losers' final can that happen. The winners' champion and the
//!   losers' champion meet in the grand final. If the losers' champion wins it, both have
//!   lost once, and a last match (the reset) decides. Places go by the round in which one
//!   is out: the champion 1st, the other finalist 2nd, the loser of the losers' final 3rd,
//!   and so on down, those out in the same round sharing a place.
//!
//! A bracket is a static list of matches, each fed by two sources (a seed, a bye, the
//! winner or the loser of an earlier match); [`Bracket::state`] resolves it from the
//! results played so far, so the server only keeps the results (in its tables' logs) and
//! recomputes everything after a restart. A match with a bye on one side is a walkover: it
//! is not played (it counts for no rating) and the other side goes on; a match with byes on
//! both sides sends a bye on.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Entrant, Side, TournamentError, MAX_ENTRANTS};

/// A match's place in [`Bracket::matches`].
pub type MatchId = usize;

/// The part of a bracket a match belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Cuadro A of a knockout, or the winners' bracket of a double elimination.
    Main,
    /// Cuadro B: the knockout of Cuadro A's first-round losers.
    Consolation,
    /// The losers' bracket of a double elimination.
    Losers,
    /// The winners' champion against the losers' champion.
    GrandFinal,
    /// The second final, played only if the losers' champion won the grand final.
    Reset,
}

/// Where one side of a match comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// An entrant, placed by the draw.
    Seed(Entrant),
    /// Nobody: the other side goes on without playing.
    Bye,
    /// Whoever wins that match.
    Winner(MatchId),
    /// Whoever loses that match (a bye if it was a walkover).
    Loser(MatchId),
}

/// One match of a bracket: where its two sides come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BracketMatch {
    /// Its place in [`Bracket::matches`].
    pub id: MatchId,
    pub part: Part,
    /// The round within its part, from 1.
    pub round: u32,
    /// The first side (Mus: mano in the first hand) and the second.
    pub from: [Source; 2],
}

/// Which format a bracket is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Single elimination, with a Cuadro B if `consolation`.
    Knockout { consolation: bool },
    /// Out after two losses.
    DoubleElimination,
}

/// A whole bracket, fixed by the number of entrants and the format. Built only by
/// [`Bracket::knockout`] and [`Bracket::double_elimination`], so its matches always refer
/// to earlier matches and to entrants that exist.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bracket {
    entrants: usize,
    size: usize,
    format: Format,
    matches: Vec<BracketMatch>,
    /// For each match, the place its loser finishes in, if losing it puts one out (for the
    /// grand final: if its second side loses).
    #[serde(skip)]
    out_place: Vec<Option<u32>>,
    /// The last match of Cuadro A and of Cuadro B, whose winners are the champions.
    #[serde(skip)]
    finals: [Option<MatchId>; 2],
}

/// The draw of a bracket of `size` places (rounded up to a power of two): the seed in each
/// place, top to bottom, first-round opponents side by side. Seed `s` meets seed
/// `size - 1 - s` in the first round, so the seeds `0..2^j` can only meet from the round of
/// the last `2^j` on (0 and 1 in the final). For 8: 0, 7, 3, 4, 1, 6, 2, 5.
pub fn seed_order(size: usize) -> Vec<Entrant> {
    let size = size.next_power_of_two();
    let mut order = vec![0];
    while order.len() < size {
        let places = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, places - 1 - s]).collect();
    }
    order
}

/// Builds the list of matches in order, so that every source refers to an earlier match.
struct Builder {
    matches: Vec<BracketMatch>,
}

impl Builder {
    fn push(&mut self, part: Part, round: u32, from: [Source; 2]) -> MatchId {
        let id = self.matches.len();
        self.matches.push(BracketMatch {
            id,
            part,
            round,
            from,
        });
        id
    }

    /// The first round of the draw: seed against seed, the seeds from `n` on byes; seed
    /// `s` is the entrant `entrant(s)`.
    fn first_round(
        &mut self,
        n: usize,
        size: usize,
        entrant: impl Fn(usize) -> Entrant,
    ) -> Vec<MatchId> {
        let side = |s: usize| {
            if s < n {
                Source::Seed(entrant(s))
            } else {
                Source::Bye
            }
        };
        seed_order(size)
            .chunks(2)
            .map(|pair| self.push(Part::Main, 1, [side(pair[0]), side(pair[1])]))
            .collect()
    }

    /// The rounds of a knockout in `part` whose first round is `first` (top to bottom):
    /// each round's matches, the first round included; the last round is the final.
    fn knockout(&mut self, part: Part, first: Vec<MatchId>) -> Vec<Vec<MatchId>> {
        let mut rounds = vec![first];
        while let Some(last) = rounds.last().filter(|r| r.len() > 1) {
            let round = rounds.len() as u32 + 1;
            let next = last
                .clone()
                .chunks(2)
                .map(|c| self.push(part, round, [Source::Winner(c[0]), Source::Winner(c[1])]))
                .collect();
            rounds.push(next);
        }
        rounds
    }
}

fn check_entrants(n: usize) -> Result<usize, TournamentError> {
    if n < 2 {
        return Err(TournamentError::TooFew { min: 2, got: n });
    }
    if n > MAX_ENTRANTS {
        return Err(TournamentError::TooMany {
            max: MAX_ENTRANTS,
            got: n,
        });
    }
    Ok(n.next_power_of_two())
}

impl Bracket {
    /// A knockout of `n` entrants (Cuadro A), with a Cuadro B for the losers of Cuadro A's
    /// first round if `consolation`. Cuadro B's first round pairs the losers of Cuadro A's
    /// first-round matches two by two (the loser of a walkover is a bye); with 2 entrants
    /// there is no Cuadro B.
    pub fn knockout(n: usize, consolation: bool) -> Result<Bracket, TournamentError> {
        let size = check_entrants(n)?;
        let mut b = Builder {
            matches: Vec::new(),
        };
        let first = b.first_round(n, size, |s| s);
        b.knockout(Part::Main, first.clone());
        if consolation && first.len() > 1 {
            let b1 = first
                .chunks(2)
                .map(|c| {
                    b.push(
                        Part::Consolation,
                        1,
                        [Source::Loser(c[0]), Source::Loser(c[1])],
                    )
                })
                .collect();
            b.knockout(Part::Consolation, b1);
        }
        Ok(Bracket::finish(
            n,
            size,
            Format::Knockout { consolation },
            b.matches,
        ))
    }

    /// A knockout (no Cuadro B) whose seed `s` is the entrant `seeds[s]`, drawn as
    /// [`Bracket::knockout`] draws its seeds: the places past the last seed are byes, so the
    /// top seeds have them. For a stage of a larger event, whose entrants keep their numbers
    /// in it (the groups' qualifiers); `seeds` are distinct entrants.
    pub(crate) fn knockout_seeded(seeds: &[Entrant]) -> Result<Bracket, TournamentError> {
        let n = seeds.len();
        let size = check_entrants(n)?;
        let mut b = Builder {
            matches: Vec::new(),
        };
        let first = b.first_round(n, size, |s| seeds[s]);
        b.knockout(Part::Main, first);
        Ok(Bracket::finish(
            n,
            size,
            Format::Knockout { consolation: false },
            b.matches,
        ))
    }

    /// A double elimination of `n` entrants. The winners' bracket is a knockout drawn like
    /// Cuadro A. The losers' bracket: its round 1 pairs the losers of winners' round 1 (the
    /// losers of matches 1 and 2, 3 and 4, …); then, for each later winners' round `r`, a
    /// round where its survivors (first side) meet the losers of winners' round `r`,
    /// crosswise: the survivor in place `i`, who comes from the part of the draw of that
    /// round's winners' match `i`, meets the loser of match `i XOR 1`, so the two cannot
    /// have met (the losers' final, with one match on each side, is the only exception);
    /// then, except after the last, a round where the survivors play each other two by two.
    /// Then the grand final (winners' champion first) and the reset, played only if the
    /// losers' champion won the grand final, with the same sides.
    pub fn double_elimination(n: usize) -> Result<Bracket, TournamentError> {
        let size = check_entrants(n)?;
        let mut b = Builder {
            matches: Vec::new(),
        };
        let first = b.first_round(n, size, |s| s);
        let winners = b.knockout(Part::Main, first);
        let wb_final = winners[winners.len() - 1][0];
        let lb_champion = if winners.len() == 1 {
            // Two entrants: the loser of the only winners' match is the losers' champion.
            Source::Loser(wb_final)
        } else {
            let mut round = 1;
            let mut survivors: Vec<MatchId> = winners[0]
                .chunks(2)
                .map(|c| {
                    b.push(
                        Part::Losers,
                        round,
                        [Source::Loser(c[0]), Source::Loser(c[1])],
                    )
                })
                .collect();
            for (r, dropping) in winners.iter().enumerate().skip(1) {
                round += 1;
                survivors = survivors
                    .iter()
                    .enumerate()
                    .map(|(i, &m)| {
                        let cross = if dropping.len() > 1 { i ^ 1 } else { i };
                        b.push(
                            Part::Losers,
                            round,
                            [Source::Winner(m), Source::Loser(dropping[cross])],
                        )
                    })
                    .collect();
                if r + 1 < winners.len() {
                    round += 1;
                    survivors = survivors
                        .chunks(2)
                        .map(|c| {
                            b.push(
                                Part::Losers,
                                round,
                                [Source::Winner(c[0]), Source::Winner(c[1])],
                            )
                        })
                        .collect();
                }
            }
            Source::Winner(survivors[0])
        };
        let grand_final = b.push(Part::GrandFinal, 1, [Source::Winner(wb_final), lb_champion]);
        b.push(
            Part::Reset,
            1,
            [Source::Loser(grand_final), Source::Winner(grand_final)],
        );
        Ok(Bracket::finish(
            n,
            size,
            Format::DoubleElimination,
            b.matches,
        ))
    }

    /// Works out, once, the place of those put out by each match: 1 + the number of
    /// entrants who finish above (the champion, and whoever is put out later).
    ///
    /// Counting every match of the later rounds is exact although some may be walkovers:
    /// only the first round of Cuadro A and the first two of the losers' bracket can have
    /// byes, and when the losers' second round has one, its first round had a bye in every
    /// match (with `S/2 + j` entrants, a first-round losers' match has both sides real only
    /// if `j > S/4`, and both sides byes only if `j < S/4`), so nobody was out before it.
    fn finish(n: usize, size: usize, format: Format, matches: Vec<BracketMatch>) -> Bracket {
        // The part whose losers are out.
        let eliminating = |m: &BracketMatch| match format {
            Format::Knockout { .. } => m.part == Part::Main,
            Format::DoubleElimination => m.part == Part::Losers,
        };
        let last_round = matches
            .iter()
            .filter(|m| eliminating(m))
            .map(|m| m.round)
            .max()
            .unwrap_or(0);
        let mut out_per_round = vec![0u32; last_round as usize + 1];
        for m in matches.iter().filter(|m| eliminating(m)) {
            out_per_round[m.round as usize] += 1;
        }
        // Above the losers of round r: the champion, the runner-up of a double elimination
        // (out in the grand final or the reset), and everyone out after round r.
        let above_finals: u32 = match format {
            Format::Knockout { .. } => 1,
            Format::DoubleElimination => 2,
        };
        let out_place = matches
            .iter()
            .map(|m| {
                if eliminating(m) {
                    let later: u32 = out_per_round[m.round as usize + 1..].iter().sum();
                    Some(1 + above_finals + later)
                } else if matches!(m.part, Part::GrandFinal | Part::Reset) {
                    Some(2)
                } else {
                    None
                }
            })
            .collect();
        let last_of = |part: Part| {
            matches
                .iter()
                .filter(|m| m.part == part)
                .max_by_key(|m| m.round)
                .map(|m| m.id)
        };
        let finals = match format {
            Format::Knockout { .. } => [last_of(Part::Main), last_of(Part::Consolation)],
            Format::DoubleElimination => [None, None],
        };
        Bracket {
            entrants: n,
            size,
            format,
            matches,
            out_place,
            finals,
        }
    }

    /// How many entrants.
    pub fn entrants(&self) -> usize {
        self.entrants
    }

    /// The places in the first round's draw: the power of two at or above the entrants.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The format it was built for.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Every match, in an order where each is fed only by earlier ones: by part (main,
    /// consolation or losers, grand final, reset), then round, then top to bottom.
    pub fn matches(&self) -> &[BracketMatch] {
        &self.matches
    }

    /// The matches of one part and round, top to bottom.
    pub fn round(&self, part: Part, round: u32) -> impl Iterator<Item = &BracketMatch> {
        self.matches
            .iter()
            .filter(move |m| m.part == part && m.round == round)
    }

    /// Who plays, who went on without playing and who is out, given the side that won each
    /// match played so far. A result for a match that does not exist, is not ready (a side
    /// not known yet), is a walkover, or is a reset that is not needed is an error naming
    /// the match.
    pub fn state(
        &self,
        results: &BTreeMap<MatchId, Side>,
    ) -> Result<BracketState, TournamentError> {
        if let Some((&id, _)) = results.range(self.matches.len()..).next() {
            return Err(TournamentError::NoSuchMatch(id));
        }
        let mut matches: Vec<MatchState> = Vec::with_capacity(self.matches.len());
        let mut out: BTreeMap<Entrant, u32> = BTreeMap::new();
        let mut champion = None;
        let mut consolation_champion = None;
        let mut ready = Vec::new();
        let mut walkovers = Vec::new();
        for m in &self.matches {
            let slot = |s: Source| match s {
                Source::Seed(e) => Slot::Entrant(e),
                Source::Bye => Slot::Bye,
                Source::Winner(w) => matches[w].winner(),
                Source::Loser(l) => matches[l].loser(),
            };
            let sides = [slot(m.from[0]), slot(m.from[1])];
            let result = results.get(&m.id).copied();
            // The reset's second side is the grand final's winner.
            let grand_final_won_by_first = match (m.part, m.from[1]) {
                (Part::Reset, Source::Winner(gf)) => matches!(
                    matches[gf],
                    MatchState::Played {
                        winner: Side::First,
                        ..
                    }
                ),
                _ => false,
            };
            let state = match sides {
                _ if grand_final_won_by_first => {
                    if result.is_some() {
                        return Err(TournamentError::NotNeeded(m.id));
                    }
                    MatchState::NotNeeded
                }
                [Slot::Bye, Slot::Bye] => MatchState::Empty,
                [Slot::Entrant(e), Slot::Bye] | [Slot::Bye, Slot::Entrant(e)] => {
                    MatchState::Walkover { entrant: e }
                }
                [Slot::Entrant(first), Slot::Entrant(second)] => match result {
                    Some(winner) => MatchState::Played {
                        first,
                        second,
                        winner,
                    },
                    None => MatchState::Ready { first, second },
                },
                [first, second] => MatchState::Waiting { first, second },
            };
            match state {
                MatchState::Walkover { entrant } => {
                    if result.is_some() {
                        return Err(TournamentError::Walkover(m.id));
                    }
                    walkovers.push((m.id, entrant));
                }
                MatchState::Empty if result.is_some() => {
                    return Err(TournamentError::Walkover(m.id))
                }
                MatchState::Waiting { .. } if result.is_some() => {
                    return Err(TournamentError::NotReady(m.id))
                }
                MatchState::Ready { first, second } => ready.push((m.id, first, second)),
                MatchState::Played {
                    first,
                    second,
                    winner,
                } => {
                    let (w, l) = match winner {
                        Side::First => (first, second),
                        Side::Second => (second, first),
                    };
                    let decides_grand_final = m.part == Part::GrandFinal && winner == Side::First;
                    if m.part != Part::GrandFinal || decides_grand_final {
                        if let Some(place) = self.out_place[m.id] {
                            out.insert(l, place);
                        }
                    }
                    if decides_grand_final || m.part == Part::Reset {
                        out.insert(w, 1);
                        champion = Some(w);
                    }
                }
                _ => {}
            }
            // The final of a knockout's cuadro decides its champion, played or not.
            if let Slot::Entrant(w) = state.winner() {
                if self.finals[0] == Some(m.id) {
                    out.insert(w, 1);
                    champion = Some(w);
                } else if self.finals[1] == Some(m.id) {
                    consolation_champion = Some(w);
                }
            }
            matches.push(state);
        }
        let over = matches.iter().all(|s| {
            matches!(
                s,
                MatchState::Played { .. }
                    | MatchState::Walkover { .. }
                    | MatchState::Empty
                    | MatchState::NotNeeded
            )
        });
        let mut placings: Vec<(Entrant, u32)> = out.into_iter().collect();
        placings.sort_by_key(|&(e, place)| (place, e));
        Ok(BracketState {
            matches,
            ready,
            walkovers,
            champion,
            consolation_champion,
            placings,
            over,
        })
    }

    /// Records that `winner` won match `id` in `results`, after checking that the match is
    /// ready and has no result yet, and returns the state that follows. On an error
    /// `results` is left as it was.
    pub fn record(
        &self,
        results: &mut BTreeMap<MatchId, Side>,
        id: MatchId,
        winner: Side,
    ) -> Result<BracketState, TournamentError> {
        if id >= self.matches.len() {
            return Err(TournamentError::NoSuchMatch(id));
        }
        if results.contains_key(&id) {
            return Err(TournamentError::AlreadyPlayed(id));
        }
        let mut next = results.clone();
        next.insert(id, winner);
        let state = self.state(&next)?;
        *results = next;
        Ok(state)
    }
}

/// One side of a match as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    Entrant(Entrant),
    /// Nobody will come: a bye.
    Bye,
    /// Not known yet: the match feeding it has not been played.
    Open,
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum MatchState {
    /// A side is not known yet (the other may be).
    Waiting { first: Slot, second: Slot },
    /// Both sides known, not played yet.
    Ready { first: Entrant, second: Entrant },
    /// Played, won by `winner`.
    Played {
        first: Entrant,
        second: Entrant,
        winner: Side,
    },
    /// One side a bye: `entrant` goes on without playing (no win for ratings).
    Walkover { entrant: Entrant },
    /// Byes on both sides: nobody plays, a bye goes on.
    Empty,
    /// A reset after the winners' champion won the grand final.
    NotNeeded,
}

impl MatchState {
    /// Who goes on from this match, as far as known.
    pub fn winner(&self) -> Slot {
        match *self {
            MatchState::Played {
                first,
                second,
                winner,
            } => Slot::Entrant(if winner == Side::First { first } else { second }),
            MatchState::Walkover { entrant } => Slot::Entrant(entrant),
            MatchState::Empty => Slot::Bye,
            _ => Slot::Open,
        }
    }

    /// Who loses this match, as far as known (a bye for a walkover, or when a side is a bye
    /// already).
    pub fn loser(&self) -> Slot {
        match *self {
            MatchState::Played {
                first,
                second,
                winner,
            } => Slot::Entrant(if winner == Side::First { second } else { first }),
            MatchState::Walkover { .. } | MatchState::Empty => Slot::Bye,
            MatchState::Waiting { first, second } if first == Slot::Bye || second == Slot::Bye => {
                Slot::Bye
            }
            _ => Slot::Open,
        }
    }
}

/// A bracket resolved from its results: what a page draws and what the server starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BracketState {
    /// Each match's state, by [`MatchId`].
    pub matches: Vec<MatchState>,
    /// The matches to play now: both sides known, no result yet (id, first, second).
    pub ready: Vec<(MatchId, Entrant, Entrant)>,
    /// The matches given without play so far, and who went on.
    pub walkovers: Vec<(MatchId, Entrant)>,
    /// The winner of Cuadro A's final, or of the grand final (or the reset).
    pub champion: Option<Entrant>,
    /// The winner of Cuadro B.
    pub consolation_champion: Option<Entrant>,
    /// The final place of every entrant known so far, best first: 1, 2, 3 (both losing
    /// semi-finalists of a knockout share it), 5, …; in a double elimination by the round
    /// of the losers' bracket one went out in.
    pub placings: Vec<(Entrant, u32)>,
    /// Nothing is left to play.
    pub over: bool,
}
