//! Mus as tapete's front-ends see it: [`MusHost`] (its name, four seats, the players by
//! name, narration, the full view, the leyes tool), its terminal face, and the arena's
//! statistics ([`stats`]). The players themselves live in `tapete-mus-bots`; this crate
//! only presents the game, so the catalog lists it and the terminal and the server reach it
//! through the [`tapete_host::Host`] contract alone.

mod face;
mod host;
pub mod stats;

pub use host::MusHost;

#[cfg(test)]
mod tests {
    use tapete_host::Host;

    #[test]
    fn the_web_face_embeds_every_file_of_web() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        assert_eq!(crate::MusHost::WEB.check_dir(&dir), Ok(()));
    }
}
