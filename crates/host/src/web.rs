//! A game's face on the web: the files of its pages and its words, embedded in the game's
//! front-end crate and handed to the server through the catalog (a [`Host::WEB`]), so that
//! the server serves a game's pages without depending on it.
//!
//! [`Host::WEB`]: crate::Host::WEB

use std::path::Path;

/// The web files and words of one game (or of another part given to the server, such as
/// an odds tool's page): its page module, rule ports, styles and pages of its own, and its
/// own keys of the pages' catalogs. The server serves every file at `/assets/{name}`
/// (a page `{page}.html` also at `/{page}`) beside the platform's, and merges the catalogs
/// per language with the platform's; a name or a key given twice stops it at start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WebFace {
    /// The files, by name: `("mus.js", bytes)`.
    pub files: &'static [(&'static str, &'static [u8])],
    /// The words, one flat JSON object of keys and texts per language: `("es", json)`.
    pub catalogs: &'static [(&'static str, &'static str)],
}

impl WebFace {
    /// No page and no words: what a game without a web face of its own has (the table page
    /// then shows its view as JSON with a button per legal action).
    pub const NONE: WebFace = WebFace {
        files: &[],
        catalogs: &[],
    };

    /// Checks that this face holds exactly the files of `dir` and its catalogs exactly
    /// `dir/i18n/{lang}.json` (a file added to the folder but not to the list would never
    /// reach a page); says what differs.
    pub fn check_dir(&self, dir: &Path) -> Result<(), String> {
        let names = |d: &Path, suffix: &str| -> Result<Vec<String>, String> {
            let mut out: Vec<String> = std::fs::read_dir(d)
                .map_err(|e| format!("{}: {e}", d.display()))?
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| !n.starts_with('.') && n.ends_with(suffix))
                .collect();
            out.sort();
            Ok(out)
        };
        let mut files: Vec<String> = self.files.iter().map(|(n, _)| n.to_string()).collect();
        files.sort();
        let on_disk = names(dir, "")?;
        if files != on_disk {
            return Err(format!(
                "{} holds {on_disk:?} but the face lists {files:?}",
                dir.display()
            ));
        }
        let mut langs: Vec<String> = self
            .catalogs
            .iter()
            .map(|(l, _)| format!("{l}.json"))
            .collect();
        langs.sort();
        let i18n = dir.join("i18n");
        let on_disk = if i18n.is_dir() {
            names(&i18n, ".json")?
        } else {
            Vec::new()
        };
        if langs != on_disk {
            return Err(format!(
                "{} holds {on_disk:?} but the face lists {langs:?}",
                i18n.display()
            ));
        }
        Ok(())
    }
}

/// A [`WebFace`] of the calling crate's `web/` folder: the files named, embedded from
/// `web/{file}`, and the catalogs of the languages named, from `web/i18n/{lang}.json`.
/// Every file of the folder must be named: [`WebFace::check_dir`] in a test says so.
///
/// ```ignore
/// const WEB: WebFace = tapete_host::web_face!(files: ["mus.js"], catalogs: ["en", "es"]);
/// ```
#[macro_export]
macro_rules! web_face {
    (files: [$($file:literal),* $(,)?], catalogs: [$($lang:literal),* $(,)?] $(,)?) => {
        $crate::web::WebFace {
            files: &[$((
                $file,
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/web/", $file)) as &[u8],
            )),*],
            catalogs: &[$((
                $lang,
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/web/i18n/", $lang, ".json")),
            )),*],
        }
    };
}
