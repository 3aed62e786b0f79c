//! The language of the pages the server writes itself (a game's rules, "no such page"): the
//! person's choice on the pages' switch (the `tapete.lang` cookie), else the first language
//! of their browser's `Accept-Language` that tapete speaks, else English. A rules page also
//! takes `?lang=es|en`, its link to the other language. The pages made in the browser choose
//! the same way (`assets/i18n.js`).

use axum::http::{header, HeaderMap};

/// A language the pages speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English, the fallback.
    En,
    /// Spanish.
    Es,
}

/// The cookie the pages' language switch sets.
pub const COOKIE: &str = "tapete.lang";

impl Lang {
    /// The language's code, as `<html lang>` and the catalogs name it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }

    /// The other language, for a page's link to itself in it.
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Es,
            Lang::Es => Lang::En,
        }
    }

    /// A language tag (`es`, `es-ES`, `EN-gb`) as a language tapete speaks, if it is one.
    pub fn parse(tag: &str) -> Option<Lang> {
        let base = tag.trim().split(['-', '_']).next().unwrap_or("");
        match base.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "es" => Some(Lang::Es),
            _ => None,
        }
    }

    /// The language to write a page in: `asked` (a `?lang=`), else the cookie, else
    /// `Accept-Language`, else English. Anything unknown is passed over, never refused.
    pub fn choose(asked: Option<&str>, headers: &HeaderMap) -> Lang {
        asked
            .and_then(Lang::parse)
            .or_else(|| from_cookie(headers))
            .or_else(|| {
                headers
                    .get(header::ACCEPT_LANGUAGE)
                    .and_then(|v| v.to_str().ok())
                    .and_then(from_accept_language)
            })
            .unwrap_or(Lang::En)
    }
}

/// The language the switch chose, from the `tapete.lang` cookie.
pub(crate) fn from_cookie(headers: &HeaderMap) -> Option<Lang> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .and_then(|(_, value)| Lang::parse(value))
}

/// The browser's most wanted language that tapete speaks: `es-ES,es;q=0.9,en;q=0.8` → es.
/// Weights (`q`) rank the languages, ties keep their order; `q=0` means "not this one".
pub fn from_accept_language(value: &str) -> Option<Lang> {
    let mut best: Option<(f32, Lang)> = None;
    for item in value.split(',') {
        let mut parts = item.split(';');
        let Some(lang) = parts.next().and_then(Lang::parse) else {
            continue;
        };
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
            best = Some((q, lang));
        }
    }
    best.map(|(_, l)| l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_ranks_by_weight_and_skips_unknown_languages() {
        assert_eq!(
            from_accept_language("es-ES,es;q=0.9,en;q=0.8"),
            Some(Lang::Es)
        );
        assert_eq!(
            from_accept_language("fr-FR,en-US;q=0.7,es;q=0.5"),
            Some(Lang::En)
        );
        assert_eq!(from_accept_language("en;q=0.3, es;q=0.6"), Some(Lang::Es));
        assert_eq!(from_accept_language("es;q=0, en;q=0.1"), Some(Lang::En));
        assert_eq!(from_accept_language("de, fr"), None);
        assert_eq!(from_accept_language(""), None);
    }

    #[test]
    fn the_query_beats_the_cookie_which_beats_the_browser() {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_LANGUAGE, "es-ES".parse().unwrap());
        assert_eq!(Lang::choose(None, &h), Lang::Es);
        h.insert(header::COOKIE, "a=b; tapete.lang=en".parse().unwrap());
        assert_eq!(Lang::choose(None, &h), Lang::En);
        assert_eq!(Lang::choose(Some("es"), &h), Lang::Es);
        assert_eq!(Lang::choose(Some("xx"), &h), Lang::En);
        assert_eq!(Lang::choose(None, &HeaderMap::new()), Lang::En);
    }
}
