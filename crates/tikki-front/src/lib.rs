//! Tikki as tapete's front-ends see it: [`TikkiHost`] (its name, 2–5 seats, the players by
//! name, narration, seat-change boundaries, the scores, the full view) and its terminal
//! face. The players themselves live in `tapete-tikki-bots`; this crate only presents the
//! game, so the catalog lists it and the terminal and the server reach it through the
//! [`tapete_host::Host`] contract alone.

mod face;
mod host;

pub use face::TikkiNotes;
pub use host::{TikkiHost, TikkiNarrator};

#[cfg(test)]
mod tests {
    use tapete_host::Host;

    #[test]
    fn the_web_face_embeds_every_file_of_web() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        assert_eq!(crate::TikkiHost::WEB.check_dir(&dir), Ok(()));
    }
}
