//! The documentation holds together: every relative Markdown link of `README.md`, `docs/` and
//! `examples/` leads to a file of the repository (and its `#anchor`, when given, to a heading
//! of that page); nothing points at the rules' old home outside the repository; and each game
//! of the catalog has its rules page under `docs/rules/`, naming every table option by the
//! flag a player types, and the index there links every page.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The repository's root: this crate lives in `crates/catalog`.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Directories never scanned: build output and installed packages.
const SKIPPED_DIRS: [&str; 3] = ["target", "node_modules", ".git"];

/// Every file under `dir`, build output and packages left out, sorted for stable messages.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !SKIPPED_DIRS.contains(&name) {
                files_under(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// The Markdown files whose links are checked.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut all = vec![root.join("README.md")];
    for dir in ["docs", "examples"] {
        files_under(&root.join(dir), &mut all);
    }
    all.retain(|p| p.extension().is_some_and(|e| e == "md"));
    all
}

/// `path` with its `.` and `..` steps worked out (without asking the file system).
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A path for messages: relative to the repository's root.
fn shown(root: &Path, path: &Path) -> String {
    let (root, path) = (normalized(root), normalized(path));
    path.strip_prefix(&root)
        .unwrap_or(&path)
        .display()
        .to_string()
}

/// One link found in a Markdown file: its line (from 1) and its target as written.
#[derive(Debug, PartialEq, Eq)]
struct Link {
    line: usize,
    target: String,
}

/// The byte ranges of a line's inline code spans (between runs of backticks of equal
/// length): a `[text](path)` inside one is code, not a link.
fn code_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let open = run_at(i);
        let mut j = i + open;
        let mut closed = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let run = run_at(j);
                if run == open {
                    closed = Some(j + run);
                    break;
                }
                j += run;
            } else {
                j += 1;
            }
        }
        match closed {
            Some(end) => {
                spans.push((i, end));
                i = end;
            }
            // An unmatched backtick run is plain text.
            None => i += open,
        }
    }
    spans
}

/// The target of an inline link whose `(` is at `open`: up to the matching `)`, without a
/// title (`path "title"`) or angle brackets. `None` when the parenthesis never closes.
fn target_from(line: &str, open: usize) -> Option<String> {
    let mut depth = 0usize;
    for (k, c) in line[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let inner = line[open + 1..open + k].trim();
                    let inner = inner.split_whitespace().next().unwrap_or("");
                    let inner = inner.trim_start_matches('<').trim_end_matches('>');
                    return Some(inner.to_string());
                }
            }
            _ => {}
        }
    }
    None
}

/// Every link of a Markdown text outside code: inline links and images (`[text](target)`,
/// `![alt](target)`) and reference definitions (`[label]: target`).
fn links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") {
            fence = Some("```");
            continue;
        }
        if trimmed.starts_with("~~~") {
            fence = Some("~~~");
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('[') {
            if let Some(close) = rest.find("]:") {
                let target = rest[close + 2..].split_whitespace().next().unwrap_or("");
                if !rest[..close].contains('[') && !target.is_empty() {
                    out.push(Link {
                        line: n + 1,
                        target: target.trim_start_matches('<').trim_end_matches('>').into(),
                    });
                    continue;
                }
            }
        }
        let spans = code_spans(line);
        let in_code = |i: usize| spans.iter().any(|&(a, b)| a <= i && i < b);
        let mut from = 0;
        while let Some(k) = line[from..].find("](") {
            let at = from + k;
            from = at + 2;
            if in_code(at) {
                continue;
            }
            if let Some(target) = target_from(line, at + 1) {
                out.push(Link {
                    line: n + 1,
                    target,
                });
            }
        }
    }
    out
}

/// Whether a link leaves the repository (a web address, mail) and is not checked here.
fn is_external(target: &str) -> bool {
    let lower = target.to_ascii_lowercase();
    ["http://", "https://", "mailto:", "ftp://"]
        .iter()
        .any(|p| lower.starts_with(p))
}

/// The anchor a heading gets where Markdown is rendered: lower case, letters, digits,
/// spaces, hyphens and underscores kept, the rest dropped, spaces turned into hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings (`#` to `######`, outside code fences), with
/// the `-1`, `-2`… that repeated headings get.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || line.starts_with("    ") {
            continue;
        }
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !t[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(t[hashes..].trim().trim_end_matches('#'));
        let mut name = base.clone();
        let mut k = 1;
        while seen.contains(&name) {
            name = format!("{base}-{k}");
            k += 1;
        }
        seen.insert(name);
    }
    seen
}

/// Decodes `%XX` escapes of a link's path (a space is written `%20`).
fn percent_decoded(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What is wrong with one relative link of `file`, if anything.
fn broken(root: &Path, file: &Path, target: &str) -> Option<String> {
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let resolved = if path.is_empty() {
        file.to_path_buf()
    } else if let Some(from_root) = path.strip_prefix('/') {
        root.join(percent_decoded(from_root))
    } else {
        file.parent().unwrap_or(root).join(percent_decoded(path))
    };
    if !resolved.exists() {
        return Some(format!("{} does not exist", shown(root, &resolved)));
    }
    let anchor = anchor.filter(|a| !a.is_empty())?;
    if resolved.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let text = fs::read_to_string(&resolved).unwrap_or_default();
    let wanted = percent_decoded(anchor).to_lowercase();
    (!anchors(&text).contains(&wanted))
        .then(|| format!("{} has no heading #{wanted}", shown(root, &resolved)))
}

#[test]
fn relative_markdown_links_resolve() {
    let root = root();
    let files = markdown_files(&root);
    assert!(
        files.iter().any(|f| f.ends_with("docs/rules/README.md")),
        "docs/rules/README.md, the index of the rules, is missing"
    );
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("{}: cannot read: {e}", shown(&root, file)));
        for link in links(&text) {
            if is_external(&link.target) {
                continue;
            }
            checked += 1;
            if let Some(why) = broken(&root, file, &link.target) {
                problems.push(format!(
                    "{}:{}: the link to `{}` is broken: {why}",
                    shown(&root, file),
                    link.line,
                    link.target
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} broken link(s); fix the path (relative to the file holding the link) or the \
         heading:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(
        checked > 10,
        "only {checked} links found: the scanner is broken"
    );
}

#[test]
fn nothing_points_at_the_rules_outside_the_repository() {
    let root = root();
    // Spelled in two parts so this file does not name them itself.
    let old_homes = [concat!("shared", "/spec"), concat!("shared", "/seeds")];
    let mut files = vec![root.join("README.md")];
    for dir in ["crates", "docs", "e2e", "examples"] {
        files_under(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "only {} files found", files.len());
    let mut problems = Vec::new();
    for file in &files {
        let Ok(bytes) = fs::read(file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            for old in old_homes {
                if line.contains(old) {
                    problems.push(format!("{}:{}: {}", shown(&root, file), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "these lines point at {} or {}, which are not in the repository: point them at the \
         matching page of docs/rules/ instead:\n{}",
        old_homes[0],
        old_homes[1],
        problems.join("\n")
    );
}

/// Whether `text` names the flag `--name` as a whole word (`--target`, not `--targets`).
fn names_flag(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| {
        !text[i + flag.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

#[test]
fn every_game_has_a_rules_page_naming_each_option() {
    let root = root();
    let mut problems = Vec::new();
    for kind in tapete_catalog::kinds() {
        let name = kind.name();
        let page = root.join("docs/rules").join(format!("{name}.md"));
        let Ok(text) = fs::read_to_string(&page) else {
            problems.push(format!(
                "{} is missing: every game of the catalog needs its rules page",
                shown(&root, &page)
            ));
            continue;
        };
        let rules = kind.default_rules();
        let Some(options) = rules.as_object() else {
            problems.push(format!("{name}: its default rules are not a JSON object"));
            continue;
        };
        for key in options.keys() {
            // The command line's form of the option: `punto_y_miedo` is `--punto-y-miedo`.
            let flag = format!("--{}", key.replace('_', "-"));
            if !names_flag(&text, &flag) {
                problems.push(format!(
                    "{} does not name the option `{key}`: add `{flag}` to its options table",
                    shown(&root, &page)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_rules_index_links_every_rules_page() {
    let root = root();
    let dir = root.join("docs/rules");
    let index = fs::read_to_string(dir.join("README.md")).unwrap_or_default();
    let linked: BTreeSet<String> = links(&index).into_iter().map(|l| l.target).collect();
    let mut pages = Vec::new();
    files_under(&dir, &mut pages);
    let missing: Vec<String> = pages
        .iter()
        .filter_map(|p| p.file_name().and_then(|n| n.to_str()))
        .filter(|n| n.ends_with(".md") && *n != "README.md" && !linked.contains(*n))
        .map(String::from)
        .collect();
    assert!(
        missing.is_empty(),
        "docs/rules/README.md does not link {}: add a row for each to its table",
        missing.join(", ")
    );
}

#[test]
fn the_scanner_finds_links_outside_code_only() {
    let text = "\
See [a](a.md) and [`b`](dir/b.md#top), not `[c](c.md)`.
![img](pic.png \"title\")
```
[d](d.md)
```
[e]: <e.md>
[f](https://example.com) [g](x(1).md)
";
    let found: Vec<(usize, String)> = links(text)
        .into_iter()
        .map(|l| (l.line, l.target))
        .collect();
    let want = [
        (1, "a.md"),
        (1, "dir/b.md#top"),
        (2, "pic.png"),
        (6, "e.md"),
        (7, "https://example.com"),
        (7, "x(1).md"),
    ];
    let want: Vec<(usize, String)> = want.iter().map(|&(n, t)| (n, t.to_string())).collect();
    assert_eq!(found, want);
    assert_eq!(slug("Señas"), "señas");
    assert_eq!(slug("`tapete odds solitaire`"), "tapete-odds-solitaire");
    assert_eq!(
        slug("The retreat round (*perääntymiskierros*)"),
        "the-retreat-round-perääntymiskierros"
    );
    let heads = anchors("# A\n## A\n```\n# B\n```\n");
    assert!(heads.contains("a") && heads.contains("a-1") && !heads.contains("b"));
    assert!(names_flag("`--target 30`", "--target"));
    assert!(!names_flag("`--targets`", "--target"));
    assert!(!names_flag("`--no-senas`", "--senas"));
}
