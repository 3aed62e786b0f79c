//! Chinchón as tapete's front-ends see it: [`ChinchonHost`] (its name, 2–8 seats, the
//! players by name, narration, the score, the full view) and its terminal face. The players
//! themselves live in `tapete-chinchon-bots`; this crate only presents the game, so the
//! catalog lists it and the terminal and the server reach it through the
//! [`tapete_host::Host`] contract alone.

mod face;
mod host;

pub use host::ChinchonHost;

#[cfg(test)]
mod tests {
    use tapete_host::Host;

    #[test]
    fn the_web_face_embeds_every_file_of_web() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        assert_eq!(crate::ChinchonHost::WEB.check_dir(&dir), Ok(()));
    }
}
