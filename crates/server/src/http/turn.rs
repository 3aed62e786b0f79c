/// The turn clock of a table made without one named.
pub const DEFAULT_TURN_S: u64 = 60;
