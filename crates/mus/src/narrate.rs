//! The table's events told in players' words, for terminals, replays and logs (stub).

use crate::Event;

/// One line telling what happened, e.g. "seat 2: envido 5" (stub: being written).
pub fn event_line(event: &Event) -> String {
    format!("{event:?}")
}
