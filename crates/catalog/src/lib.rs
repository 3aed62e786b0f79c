//! The one list of tapete's games. The command line, the terminal, the arena, the bot
//! protocol and the server find a game here by its name and nowhere else: adding a game
//! is one line in [`catalog!`]'s invocation below (plus the game's own crate and its web
//! page).
//!
//! ```
//! use tapete_host::{Host, Visitor};
//!
//! struct SeatRange;
//! impl Visitor for SeatRange {
//!     type Output = (usize, usize);
//!     fn visit<H: Host>(self) -> (usize, usize) {
//!         (*H::SEATS.start(), *H::SEATS.end())
//!     }
//! }
//! assert_eq!(tapete_catalog::visit("mus", SeatRange).unwrap(), (4, 4));
//! assert!(tapete_catalog::visit("parchís", SeatRange).is_err());
//! assert!(tapete_catalog::names().contains(&"mus"));
//! ```

use std::sync::Arc;
use tapete_host::{kind_of, Host, Kind, Visitor};

/// A name that is not a game of the catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is not a game tapete plays{}: choose one of {}",
            self.0,
            tapete_host::text::did_you_mean(&self.0, &names()),
            names().join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

macro_rules! catalog {
    ($($host:ty),+ $(,)?) => {
        /// Every game's name, in catalog order.
        pub fn names() -> Vec<&'static str> {
            vec![$(<$host as Host>::NAME),+]
        }

        /// Runs `visitor` with the host of the game called `name` (any letter case).
        pub fn visit<V: Visitor>(name: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            let wanted = name.trim().to_lowercase();
            $(
                if wanted == <$host as Host>::NAME {
                    return Ok(visitor.visit::<$host>());
                }
            )+
            Err(UnknownGame(name.trim().to_string()))
        }

        /// Every game erased, for the server and the lobby, in catalog order.
        pub fn kinds() -> Vec<Arc<dyn Kind>> {
            vec![$(kind_of::<$host>()),+]
        }
    };
}

catalog!(
    tapete_mus_front::MusHost,
    tapete_chinchon_front::ChinchonHost,
    tapete_tikki_front::TikkiHost,
);
