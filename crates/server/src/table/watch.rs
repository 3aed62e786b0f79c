//! Watching a tournament's match: its spectators see each state [`WATCH_DELAY`] after it
//! happened, so that nobody watching can pass on what happens as it happens. Spectators
//! only ever get the spectator view (no hidden card) in any case; the people seated get
//! their own states at once, and the chat is not delayed. Once the game is over the
//! spectators see its end at once.
//!
//! [`Delayed`] holds the spectators' states not shown yet, each with when it was made; the
//! actor's part sends the one whose time came to every spectator, and a newcomer the one
//! shown now.

use super::frames::Frame;
use super::*;
use std::collections::VecDeque;

/// How far behind the spectators of a tournament's match watch it.
pub const WATCH_DELAY: Duration = Duration::from_secs(60);

/// Bytes of spectator states kept waiting at most, per table (a minute of a table's states
/// is far less; past this the oldest is shown early).
const MAX_WAITING_BYTES: usize = 2 << 20;

/// The spectators' states waiting for their time, and the one they are shown now.
///
/// It keeps: the states waiting are in the order they were made; the one shown is older
/// than every one waiting.
#[derive(Default)]
pub(super) struct Delayed {
    waiting: VecDeque<(Instant, Arc<str>)>,
    /// The bytes of the states waiting.
    bytes: usize,
    shown: Option<Arc<str>>,
}

impl Delayed {
    /// A spectator's state made at `at`.
    pub(super) fn push(&mut self, at: Instant, state: Arc<str>) {
        self.bytes += state.len();
        self.waiting.push_back((at, state));
        while self.bytes > MAX_WAITING_BYTES {
            let Some((_, early)) = self.waiting.pop_front() else {
                break;
            };
            self.bytes -= early.len();
            self.shown = Some(early);
        }
    }

    /// The newest state whose time came by `now`, if it is a new one to show.
    pub(super) fn release(&mut self, now: Instant) -> Option<Arc<str>> {
        let mut released = None;
        while let Some((at, _)) = self.waiting.front() {
            if *at + WATCH_DELAY > now {
                break;
            }
            released = self.waiting.pop_front().map(|(_, s)| {
                self.bytes -= s.len();
                s
            });
        }
        if released.is_some() {
            self.shown = released.clone();
        }
        released
    }

    /// When the next state waiting is due.
    pub(super) fn next_due(&self) -> Option<Instant> {
        self.waiting.front().map(|(at, _)| *at + WATCH_DELAY)
    }

    /// What spectators are shown now (`None`: nothing is old enough yet).
    pub(super) fn shown(&self) -> Option<Arc<str>> {
        self.shown.clone()
    }
}

impl Actor {
    /// Whether this table's spectators watch it behind (a tournament's match under way).
    pub(super) fn delays_watchers(&self) -> bool {
        self.private.in_tournament() && self.row.status != TableStatus::Finished
    }

    /// Whether connection `c` only watches: it holds no seat, and it is not one of the
    /// match's own people — an entrant back mid-hand, whose seat waits for the next deal,
    /// follows the match as it happens (in the spectators' view, no hidden card) and is
    /// told of its seat at once.
    pub(super) fn watches(&self, c: &Conn) -> bool {
        c.player
            .as_ref()
            .is_none_or(|p| self.seat_of(p.id).is_none() && !self.private.is_owner(p.id))
    }

    /// Keeps the spectators' state of this change for its time.
    pub(super) fn delay_for_watchers(&mut self, frame: &mut Frame) {
        let state: Arc<str> = self.state_text_for(None, None, frame).into();
        let now = self.now();
        self.watch.push(now, state);
    }

    /// Sends the spectators the state whose time came, if any.
    pub(super) fn release_to_watchers(&mut self) {
        let now = self.now();
        let Some(state) = self.watch.release(now) else {
            return;
        };
        if !self.delays_watchers() {
            return;
        }
        let ids: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| self.watches(c))
            .map(|(id, _)| id)
            .collect();
        for id in ids {
            self.send_text(id, state.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_shown_to_spectators_only_once_its_delay_is_over() {
        let start = Instant::now();
        let mut d = Delayed::default();
        assert_eq!(d.release(start + WATCH_DELAY * 2), None);
        d.push(start, "a".into());
        d.push(start + Duration::from_secs(5), "b".into());
        d.push(start + Duration::from_secs(20), "c".into());
        assert_eq!(d.next_due(), Some(start + WATCH_DELAY));
        assert_eq!(
            d.release(start + WATCH_DELAY - Duration::from_millis(1)),
            None
        );
        assert_eq!(d.shown(), None, "nothing is old enough yet");
        // Both states due by then: the newer is shown.
        let later = start + WATCH_DELAY + Duration::from_secs(6);
        assert_eq!(d.release(later).as_deref(), Some("b"));
        assert_eq!(d.shown().as_deref(), Some("b"));
        assert_eq!(d.release(later), None, "shown once");
        assert_eq!(
            d.next_due(),
            Some(start + Duration::from_secs(20) + WATCH_DELAY)
        );
        assert_eq!(d.release(start + WATCH_DELAY * 3).as_deref(), Some("c"));
        assert_eq!(d.next_due(), None);
    }

    #[test]
    fn the_states_kept_waiting_are_bounded_in_bytes() {
        let start = Instant::now();
        let mut d = Delayed::default();
        let state = |i: usize| -> Arc<str> { format!("{i:0>1024}").into() };
        let fit = MAX_WAITING_BYTES / 1024;
        for i in 0..(fit + 2) {
            d.push(start, state(i));
        }
        assert_eq!(d.waiting.len(), fit);
        assert_eq!(d.bytes, fit * 1024);
        assert_eq!(d.shown(), Some(state(1)), "the oldest shown early");
        assert!(d.release(start + WATCH_DELAY).is_some());
        assert_eq!(d.bytes, 0, "released states are counted out");
    }
}
