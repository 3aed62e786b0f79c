//! The online table seen from outside, as a client: [`client`], the small blocking HTTP
//! client the tests and the load test speak to a server with, and [`run`], `tapete
//! loadtest` (many tables of one game, a WebSocket client in every seat, every stored
//! record replayed at the end). Kept out of the server: it drives a server, it is not one.

pub mod client;
mod run;

pub use run::{run, LoadOptions, LoadReport};
