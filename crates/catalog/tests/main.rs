//! The integration tests of this crate, one module per file, built as one test binary
//! (one link instead of one per file).

mod conformance;
mod courtesy;
mod docs;
mod layout;
mod story;
