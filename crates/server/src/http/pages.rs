//! The pages: the embedded files (the platform's and every web face's, `web.rs`), each
//! language's catalog, pages by name, the not-found page and every game's rules as HTML.

use super::api::*;
use crate::code::Code;
use crate::http::lang::Lang;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde::Deserialize;
use std::sync::Arc;

use crate::web::{Web, ASSETS, RULES, RULES_ES};

pub(crate) fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// One of the platform's files (its pages: the lobby, the table, a profile).
pub(crate) fn file(name: &str) -> Response {
    served(
        name,
        ASSETS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b),
    )
}

/// A file's answer (`bytes` of the file `name`), or 404 without it.
fn served(name: &str, bytes: Option<impl IntoResponse>) -> Response {
    match bytes {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(name)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NotFound,
            format!("no file `{name}`"),
        )
        .into_response(),
    }
}

pub(crate) async fn page(name: &'static str) -> Response {
    file(name)
}

/// `/assets/{file}`: a file of the platform's or of a game's web face.
pub(crate) async fn asset(
    Extension(web): Extension<Arc<Web>>,
    Path(name): Path<String>,
) -> Response {
    served(&name, web.file(&name))
}

/// `/assets/i18n/{lang}.json`: one language's catalog of the pages' words, the platform's
/// and every game's in one.
pub(crate) async fn catalog(
    Extension(web): Extension<Arc<Web>>,
    Path(name): Path<String>,
) -> Response {
    served(&name, web.catalog(&name))
}

/// `/{page}`: the page `{page}.html` of the platform or a web face (the history, a game's
/// tool page such as `/leyes`), so that a page is added as a file alone.
pub(crate) async fn named_page(
    Extension(web): Extension<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    let wanted = format!("{name}.html");
    if let Some(page) = web.file(&wanted) {
        served(&wanted, Some(page))
    } else {
        not_found_page(&format!("/{name}"), Lang::choose(None, &headers))
    }
}

/// An unknown address: JSON under `/api/` (a program asked), else a page for people.
pub(crate) async fn not_found(uri: axum::http::Uri, headers: HeaderMap) -> Response {
    if uri.path().starts_with("/api/") || uri.path() == "/api" {
        ApiError::new(StatusCode::NOT_FOUND, Code::NotFound, "no such page or API").into_response()
    } else {
        not_found_page(uri.path(), Lang::choose(None, &headers))
    }
}

/// A page of the site's look made on the server, in `lang`: `body` is HTML already escaped.
/// It varies with the language the person asked for, so caches keep one per language.
pub(crate) fn html_page(status: StatusCode, lang: Lang, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">\n\
         <meta name=\"theme-color\" content=\"#17231b\">\n<title>{} · tapete</title>\n\
         <link rel=\"icon\" href=\"/assets/favicon.svg\" type=\"image/svg+xml\">\n\
         <link rel=\"manifest\" href=\"/assets/manifest.webmanifest\">\n\
         <link rel=\"stylesheet\" href=\"/assets/style.css\">\n\
         <script type=\"module\" src=\"/assets/doc.js\"></script>\n</head>\n<body>\n\
         <main class=\"page\" id=\"app\">\n{body}</main>\n</body>\n</html>\n",
        lang.code(),
        super::markdown::escape(title)
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::VARY, "Accept-Language, Cookie"),
        ],
        html,
    )
        .into_response()
}

/// "No such page" in `lang`, with a way back to the lobby, status 404.
pub(crate) fn not_found_page(path: &str, lang: Lang) -> Response {
    let (title, text, back) = match lang {
        Lang::En => (
            "No such page",
            "There is nothing at <code>{}</code> here: the link may be mistyped, or the page gone.",
            "To the lobby",
        ),
        Lang::Es => (
            "Esta página no existe",
            "Aquí no hay nada en <code>{}</code>: puede que el enlace esté mal escrito o que la \
             página ya no exista.",
            "A las mesas",
        ),
    };
    let body = format!(
        "<section class=\"panel\" data-testid=\"no-such-page\">\n<h1>{title}</h1>\n\
         <p>{}</p>\n<p><a class=\"btn primary\" href=\"/\">{back}</a></p>\n</section>\n",
        text.replace("{}", &super::markdown::escape(path))
    );
    html_page(StatusCode::NOT_FOUND, lang, title, &body)
}

/// A game's rules in `lang` (Spanish from `docs/rules/es/`, English otherwise, and English
/// when a game has no Spanish rules yet), with the language they are really in.
pub(crate) fn rules_doc(game: &str, lang: Lang) -> Option<(&'static str, Lang)> {
    let es = RULES_ES
        .iter()
        .find(|(n, _)| *n == game)
        .map(|(_, md)| (*md, Lang::Es));
    let en = RULES
        .iter()
        .find(|(n, _)| *n == game)
        .map(|(_, md)| (*md, Lang::En));
    en?;
    match lang {
        Lang::Es => es.or(en),
        Lang::En => en,
    }
}

/// The rules of a game (`docs/rules/{game}.md`, or its Spanish `docs/rules/es/{game}.md`)
/// as a page: `/rules/{game}`. Links to another game's rules lead to its page; links the
/// site cannot follow (files of the source tree) show their text alone.
pub fn rules_html(game: &str, lang: Lang) -> Option<String> {
    let (md, _) = rules_doc(game, lang)?;
    let link = |target: &str| -> Option<String> {
        if target.starts_with('#')
            || target.starts_with("https://")
            || target.starts_with("http://")
        {
            return Some(target.to_string());
        }
        let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
        let name = file.strip_suffix(".md")?;
        RULES.iter().any(|(n, _)| *n == name).then(|| {
            if anchor.is_empty() {
                format!("/rules/{name}")
            } else {
                format!("/rules/{name}#{anchor}")
            }
        })
    };
    Some(super::markdown::to_html(md, &link))
}

/// `?lang=es|en` on a rules page: the link to the other language.
#[derive(Deserialize)]
pub(crate) struct LangQuery {
    lang: Option<String>,
}

pub(crate) async fn rules_page(
    Path(game): Path<String>,
    query: Result<Query<LangQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let asked = query.ok().and_then(|Query(q)| q.lang);
    let lang = Lang::choose(asked.as_deref(), &headers);
    let (Some(html), Some((md, lang))) = (rules_html(&game, lang), rules_doc(&game, lang)) else {
        return not_found_page(&format!("/rules/{game}"), lang);
    };
    let title = md
        .lines()
        .next()
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .unwrap_or_else(|| game.clone());
    let other = lang.other();
    let (heading, other_text, back) = match lang {
        Lang::En => (
            format!("How to play {title}"),
            "Léelas en español",
            "To the lobby",
        ),
        Lang::Es => (
            format!("Cómo se juega: {title}"),
            "Read them in English",
            "A las mesas",
        ),
    };
    let body = format!(
        "<p class=\"small\"><a href=\"/rules/{game}?lang={code}\" hreflang=\"{code}\" lang=\"{code}\" \
         data-testid=\"other-lang\">{other_text}</a></p>\n\
         <article class=\"panel doc\" data-testid=\"rules\">\n{html}</article>\n\
         <p><a class=\"btn\" href=\"/\">{back}</a></p>\n",
        game = super::markdown::escape(&game),
        code = other.code(),
    );
    html_page(StatusCode::OK, lang, &heading, &body)
}
