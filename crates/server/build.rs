//! Embeds the platform's web files, every file of `assets/` (the games' own come from their
//! front-end crates, through the catalog), and each language's catalog of the platform's
//! words, `assets/i18n/{lang}.json`, so the server needs no files beside it; and every game's
//! rules (`docs/rules/{game}.md`, in Spanish `docs/rules/es/{game}.md`) for its How to play
//! page.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut out = String::from("/// The platform's files: (file name, contents).\npub static ASSETS: &[(&str, &[u8])] = &[\n");
    for n in &names {
        println!("cargo:rerun-if-changed={}", dir.join(n).display());
        let path = dir.join(n);
        writeln!(
            out,
            "    ({n:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    out.push_str(
        "/// The platform's words, one flat JSON catalog per language: (language, JSON).\n\
         pub static CATALOGS: &[(&str, &str)] = &[\n",
    );
    let i18n = dir.join("i18n");
    println!("cargo:rerun-if-changed={}", i18n.display());
    let mut langs: Vec<String> = std::fs::read_dir(&i18n)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    langs.sort();
    for n in &langs {
        let path = i18n.join(n);
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    ({:?}, include_str!({:?})),",
            n.trim_end_matches(".json"),
            path.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules");
    embed_rules(
        &mut out,
        &rules,
        "RULES",
        "Every game's rules: (game, Markdown).",
    );
    // The Spanish rules (`docs/rules/es/{game}.md`), for the rules pages in Spanish.
    embed_rules(
        &mut out,
        &rules.join("es"),
        "RULES_ES",
        "Every game's rules in Spanish: (game, Markdown).",
    );
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("assets.rs");
    std::fs::write(dest, out).unwrap();
}

/// Writes `pub static NAME: &[(&str, &str)]`, every `{game}.md` of `dir` (but its README)
/// as (game, Markdown), documented by `doc`.
fn embed_rules(out: &mut String, dir: &Path, name: &str, doc: &str) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut docs: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.ends_with(".md") && n != "README.md")
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    writeln!(out, "/// {doc}\npub static {name}: &[(&str, &str)] = &[").unwrap();
    for n in &docs {
        let path = dir.join(n);
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    ({:?}, include_str!({:?})),",
            n.trim_end_matches(".md"),
            path.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
}
