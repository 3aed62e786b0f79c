//! The pages' files and words: the platform's (`assets/`, embedded by `build.rs`) and each
//! game's web face (its table module, styles, pages and words, embedded by its front-end
//! crate and handed in with its [`Kind`]), and an odds tool's page likewise. They are put
//! together once, at start: every file is served at `/assets/{name}` (a page `{page}.html`
//! also at `/{page}`), and each language's catalog is the platform's keys and every game's
//! merged into one, `/assets/i18n/{lang}.json`. A file name or a key given twice, a catalog
//! that is not a flat object of texts, or words in a language the platform does not speak
//! stop the server at start, naming whose they are.

use crate::{Kind, OddsTool};
use axum::body::Bytes;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use tapete_host::WebFace;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// Every file the pages may load and every language's merged catalog.
pub(crate) struct Web {
    /// By name: the platform's files and every face's.
    files: HashMap<&'static str, &'static [u8]>,
    /// By language: the catalog's JSON, the platform's keys and every face's.
    catalogs: HashMap<String, Bytes>,
}

impl Web {
    /// The platform's files and words with those of `games` and `odds`.
    pub(crate) fn of(games: &[Arc<dyn Kind>], odds: &[Arc<dyn OddsTool>]) -> Result<Web, String> {
        let faces: Vec<(String, WebFace)> = games
            .iter()
            .map(|g| (format!("the game `{}`", g.name()), g.web()))
            .chain(
                odds.iter()
                    .map(|o| (format!("the odds tool `{}`", o.name()), o.web())),
            )
            .collect();
        Web::new(
            WebFace {
                files: ASSETS,
                catalogs: CATALOGS,
            },
            &faces,
        )
    }

    /// The `platform`'s files and words with those of `faces`, each named by whose it is
    /// (for the errors).
    fn new(platform: WebFace, faces: &[(String, WebFace)]) -> Result<Web, String> {
        let everyone = std::iter::once(("the platform".to_string(), platform))
            .chain(faces.iter().cloned())
            .collect::<Vec<_>>();
        let mut files: HashMap<&'static str, &'static [u8]> = HashMap::new();
        let mut file_owner: HashMap<&str, &str> = HashMap::new();
        // Language → key → (text, whose).
        let mut words: BTreeMap<&str, BTreeMap<String, (String, &str)>> = BTreeMap::new();
        for (lang, _) in platform.catalogs {
            words.insert(lang, BTreeMap::new());
        }
        for (who, face) in &everyone {
            for (name, bytes) in face.files {
                let plain = !name.is_empty()
                    && !name.starts_with('.')
                    && !name.contains(['/', '\\'])
                    && *name != "i18n";
                if !plain {
                    return Err(format!(
                        "{who} gives a web file named `{name}`: a file's name is one part of \
                         an address, with no `/`"
                    ));
                }
                if let Some(other) = file_owner.insert(name, who) {
                    return Err(format!("{who} and {other} both give the web file `{name}`"));
                }
                files.insert(name, bytes);
            }
            for (lang, json) in face.catalogs {
                let Some(catalog) = words.get_mut(lang) else {
                    return Err(format!(
                        "{who} has words in `{lang}`, a language the pages do not speak \
                         (the platform has {})",
                        platform
                            .catalogs
                            .iter()
                            .map(|(l, _)| *l)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                };
                let entries: Entries = serde_json::from_str(json)
                    .map_err(|e| format!("{who}'s words in `{lang}`: {e}"))?;
                for (key, text) in entries.0 {
                    if let Some((_, other)) = catalog.get(&key) {
                        return Err(if *other == who.as_str() {
                            format!("{who} gives the key `{key}` twice in `{lang}`")
                        } else {
                            format!("{who} and {other} both give the key `{key}` in `{lang}`")
                        });
                    }
                    catalog.insert(key, (text, who.as_str()));
                }
            }
        }
        let catalogs = words
            .into_iter()
            .map(|(lang, catalog)| {
                let object: BTreeMap<String, String> = catalog
                    .into_iter()
                    .map(|(k, (text, _))| (k, text))
                    .collect();
                let json = serde_json::to_vec(&object).map_err(|e| e.to_string())?;
                Ok((lang.to_string(), Bytes::from(json)))
            })
            .collect::<Result<_, String>>()?;
        Ok(Web { files, catalogs })
    }

    /// A file by its name (`mus.js`, `index.html`).
    pub(crate) fn file(&self, name: &str) -> Option<&'static [u8]> {
        self.files.get(name).copied()
    }

    /// A language's catalog by its file name (`es.json`).
    pub(crate) fn catalog(&self, file: &str) -> Option<Bytes> {
        let lang = file.strip_suffix(".json")?;
        self.catalogs.get(lang).cloned()
    }
}

/// A catalog's keys and texts in order, read as a flat JSON object of texts whose keys
/// are all different (JSON itself would let a later key replace an earlier one unseen).
struct Entries(Vec<(String, String)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Flat;
        impl<'de> Visitor<'de> for Flat {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object of keys and texts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut out: Vec<(String, String)> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                while let Some((key, text)) = map.next_entry::<String, String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(serde::de::Error::custom(format!("the key `{key}` twice")));
                    }
                    out.push((key, text));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(Flat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value};

    /// A face of these files (empty contents) and catalogs.
    fn face(files: &[&'static str], catalogs: &[(&'static str, &'static str)]) -> WebFace {
        let files: Vec<(&'static str, &'static [u8])> =
            files.iter().map(|f| (*f, &b""[..])).collect();
        WebFace {
            files: Vec::leak(files),
            catalogs: Vec::leak(catalogs.to_vec()),
        }
    }

    fn platform() -> WebFace {
        face(
            &["index.html", "kit.js"],
            &[
                ("en", r#"{"a": "A", "n.one": "{count} card"}"#),
                ("es", r#"{"a": "A"}"#),
            ],
        )
    }

    fn catalog(web: &Web, lang: &str) -> Map<String, Value> {
        serde_json::from_slice(&web.catalog(&format!("{lang}.json")).unwrap()).unwrap()
    }

    #[test]
    fn a_games_files_and_words_join_the_platforms() {
        let web = Web::new(
            platform(),
            &[(
                "the game `g`".into(),
                face(
                    &["g.js", "g.css"],
                    &[("en", r#"{"g.x": "X"}"#), ("es", r#"{"g.x": "Equis"}"#)],
                ),
            )],
        )
        .unwrap();
        for f in ["index.html", "kit.js", "g.js", "g.css"] {
            assert!(web.file(f).is_some(), "{f}");
        }
        assert!(web.file("h.js").is_none());
        let en = catalog(&web, "en");
        assert_eq!(en.len(), 3);
        assert_eq!(en["g.x"], "X");
        assert_eq!(en["n.one"], "{count} card");
        assert_eq!(catalog(&web, "es")["g.x"], "Equis");
        assert!(web.catalog("fr.json").is_none());
        assert!(web.catalog("en").is_none());
    }

    #[test]
    fn a_key_given_twice_stops_the_server_naming_both() {
        let g = |name: &str, json: &'static str| {
            (format!("the game `{name}`"), face(&[], &[("en", json)]))
        };
        // By two games.
        let e = Web::new(
            platform(),
            &[g("g", r#"{"x": "1"}"#), g("h", r#"{"x": "2"}"#)],
        )
        .err()
        .unwrap();
        assert!(
            e.contains("`g`") && e.contains("`h`") && e.contains("`x`"),
            "{e}"
        );
        // By a game and the platform.
        let e = Web::new(platform(), &[g("g", r#"{"a": "1"}"#)])
            .err()
            .unwrap();
        assert!(e.contains("the platform") && e.contains("`a`"), "{e}");
        // By one game twice in one catalog (JSON alone would keep the second unseen).
        let e = Web::new(platform(), &[g("g", r#"{"x": "1", "x": "2"}"#)])
            .err()
            .unwrap();
        assert!(e.contains("`g`") && e.contains("`x` twice"), "{e}");
    }

    #[test]
    fn a_file_given_twice_or_badly_named_stops_the_server() {
        let e = Web::new(
            platform(),
            &[("the game `g`".into(), face(&["kit.js"], &[]))],
        )
        .err()
        .unwrap();
        assert!(e.contains("the platform") && e.contains("`kit.js`"), "{e}");
        for bad in ["a/b.js", "", ".hidden", "i18n"] {
            let e = Web::new(platform(), &[("the game `g`".into(), face(&[bad], &[]))])
                .err()
                .unwrap();
            assert!(e.contains("`g`"), "{bad}: {e}");
        }
    }

    #[test]
    fn words_in_another_language_or_not_a_flat_catalog_stop_the_server() {
        let g = |lang: &'static str, json: &'static str| {
            [("the game `g`".to_string(), face(&[], &[(lang, json)]))]
        };
        let e = Web::new(platform(), &g("fr", r#"{"x": "1"}"#))
            .err()
            .unwrap();
        assert!(e.contains("`fr`") && e.contains("en, es"), "{e}");
        for bad in [r#"{"x": 1}"#, r#"{"x": {"y": "z"}}"#, r#"["x"]"#, "{", ""] {
            let e = Web::new(platform(), &g("en", bad)).err().unwrap();
            assert!(e.contains("`g`") && e.contains("`en`"), "{bad}: {e}");
        }
    }

    /// The `{placeholders}` of a text.
    fn holes(text: &str) -> Vec<String> {
        let mut out: Vec<String> = text
            .split('{')
            .skip(1)
            .filter_map(|p| p.split_once('}').map(|(name, _)| name.to_string()))
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn the_catalogs_games_give_every_language_the_same_keys_and_placeholders() {
        let web = Web::of(&tapete_catalog::kinds(), &[]).unwrap();
        let en = catalog(&web, "en");
        assert!(en.len() > 500, "{} keys", en.len());
        // Every game brought its words.
        for g in tapete_catalog::kinds() {
            assert!(g.web().catalogs.len() == CATALOGS.len(), "{}", g.name());
            assert!(
                web.file(&format!("{}.js", g.name())).is_some(),
                "{}",
                g.name()
            );
            let prefix = format!("story.{}.", g.name());
            assert!(en.keys().any(|k| k.starts_with(&prefix)), "{}", g.name());
        }
        for (lang, _) in CATALOGS {
            let c = catalog(&web, lang);
            let missing: Vec<&String> = en.keys().filter(|k| !c.contains_key(*k)).collect();
            let extra: Vec<&String> = c.keys().filter(|k| !en.contains_key(*k)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{lang}: lacks {missing:?}, has {extra:?} more"
            );
            for (k, v) in &c {
                let text = v.as_str().unwrap();
                assert!(!text.trim().is_empty(), "{lang}: {k} is empty");
                assert_eq!(holes(text), holes(en[k].as_str().unwrap()), "{lang}: {k}");
            }
        }
    }
}
