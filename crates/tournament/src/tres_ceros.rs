//! A tres ceros: everybody plays every round until they have lost three matches.
//!
//! Each round pairs the entrants still in, those with as many losses together, as a Swiss
//! pairs its score groups ([`crate::swiss`]: the upper half of a group against its lower
//! half, no repeat while another way exists, the odd one floating to the next group, the
//! first seat shared out). An odd field gives a bye to the lowest ranked who has not had
//! one: it counts as a win, not a loss. The event ends when one entrant is left; the last
//! two may have to meet again and again (a repeat is the only way then). Places go by the
//! round each entrant went out in (later is better), then by wins, then by seed; the
//! winner is first.

use crate::swiss::{self, History, Options, Round};
use crate::{Entrant, TournamentError};
use serde::{Deserialize, Serialize};

/// Losses that put an entrant out.
pub const LIVES: u32 = 3;

/// Losses of each entrant after `h`.
pub fn losses(entrants: usize, h: &History) -> Vec<u32> {
    let mut l = vec![0; entrants];
    for p in &h.played {
        if let Some(e) = p.loser() {
            if e < entrants {
                l[e] += 1;
            }
        }
    }
    l
}

/// The entrants still in after `h` (fewer than three losses, not withdrawn).
pub fn alive(entrants: usize, h: &History) -> Vec<Entrant> {
    let l = losses(entrants, h);
    (0..entrants)
        .filter(|&e| l[e] < LIVES && !h.withdrawn.contains(&e))
        .collect()
}

/// Whether the event is over: one entrant left (or none).
pub fn is_over(entrants: usize, h: &History) -> bool {
    alive(entrants, h).len() <= 1
}

/// The next round's pairing among the entrants still in; an error once the event is over.
pub fn pair(entrants: usize, h: &History) -> Result<Round, TournamentError> {
    if is_over(entrants, h) {
        return Err(TournamentError::Over(h.rounds() + 1));
    }
    // Those out are withdrawn for the pairing: a Swiss of the rest, ranked by score, which
    // for everyone still in is the rounds played less the losses.
    let mut still = h.clone();
    let l = losses(entrants, h);
    still
        .withdrawn
        .extend((0..entrants).filter(|&e| l[e] >= LIVES));
    swiss::pair(entrants, &still, &Options::default())
}

/// An entrant's line in a tres ceros' standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// From 1; entrants out in the same round with as many wins share a place.
    pub place: usize,
    pub entrant: Entrant,
    pub wins: u32,
    pub losses: u32,
    /// The round it lost its third match in; `None` while it is in.
    pub out_in: Option<u32>,
}

/// The standings after `h`: those still in first (by losses, then wins), then those out,
/// the latest out first.
pub fn standings(entrants: usize, h: &History) -> Vec<Place> {
    let mut wins = vec![0u32; entrants];
    let mut lost = vec![0u32; entrants];
    let mut out_in: Vec<Option<u32>> = vec![None; entrants];
    let mut played: Vec<&crate::Played> = h.played.iter().collect();
    played.sort_by_key(|p| p.round);
    for p in played {
        if let (Some(w), Some(l)) = (p.winner(), p.loser()) {
            if w < entrants && l < entrants {
                wins[w] += 1;
                lost[l] += 1;
                if lost[l] == LIVES {
                    out_in[l] = Some(p.round);
                }
            }
        }
    }
    for &(_, e) in &h.byes {
        if e < entrants {
            wins[e] += 1;
        }
    }
    let mut rows: Vec<Place> = (0..entrants)
        .map(|e| Place {
            place: 0,
            entrant: e,
            wins: wins[e],
            losses: lost[e],
            out_in: out_in[e],
        })
        .collect();
    // Still in (out_in None) before out; later out before earlier; then fewer losses,
    // more wins, the seed.
    let key = |r: &Place| {
        (
            std::cmp::Reverse(r.out_in.unwrap_or(u32::MAX)),
            r.losses,
            std::cmp::Reverse(r.wins),
        )
    };
    rows.sort_by_key(|r| (key(r), r.entrant));
    crate::number_places(&mut rows, key, |r| &mut r.place);
    rows
}
