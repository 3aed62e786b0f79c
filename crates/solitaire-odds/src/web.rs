//! The odds page of prisoner's solitaire on tapete's online table (`/solitaire`): its files
//! and its words, from this crate's `web/` folder, embedded so that the command line can
//! hand them to the server with the odds tool (the server serves them beside the platform's,
//! as it serves a game's, and depends on neither).

/// The page's files, by name: served at `/assets/{name}`, the page at `/solitaire`.
pub static FILES: &[(&str, &[u8])] = &[
    ("solitaire.css", include_bytes!("../web/solitaire.css")),
    ("solitaire.html", include_bytes!("../web/solitaire.html")),
    ("solitaire.js", include_bytes!("../web/solitaire.js")),
];

/// The page's words, one flat JSON catalog per language.
pub static CATALOGS: &[(&str, &str)] = &[
    ("en", include_str!("../web/i18n/en.json")),
    ("es", include_str!("../web/i18n/es.json")),
];

#[cfg(test)]
mod tests {
    #[test]
    fn every_file_of_web_is_embedded() {
        let face = tapete_host::WebFace {
            files: super::FILES,
            catalogs: super::CATALOGS,
        };
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        assert_eq!(face.check_dir(&dir), Ok(()));
    }
}
