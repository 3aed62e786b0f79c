//! Swiss pairing and standings.
