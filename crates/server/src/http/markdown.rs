//! A small Markdown renderer for the "How to play" pages, made from `docs/rules/*.md`: it
//! knows what those files use (headings, paragraphs, lists, tables, code blocks and spans,
//! emphasis, links, and a quoted block `> …`, drawn as a box set apart: the pages keep the
//! command line's options in one) and escapes everything else, so no text of a file becomes markup it
//! did not ask for. Links go through a function that says where each may point; a link it
//! refuses is shown as its text alone.

/// Escapes text for HTML (content and attribute values alike).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A heading's anchor, as GitHub makes it: lowercase, letters, digits, `-` and `_` kept,
/// spaces made `-`, the rest dropped (`## Señas` → `señas`).
pub fn slug(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c == ' ' {
                Some("-".into())
            } else {
                None
            }
        })
        .collect()
}

/// Renders `md` to HTML. `link` maps a link's target to the address to use, or `None` to
/// show the link's text alone.
pub fn to_html(md: &str, link: &dyn Fn(&str) -> Option<String>) -> String {
    let lines: Vec<&str> = md.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed.is_empty() {
            i += 1;
        } else if trimmed.starts_with("```") {
            i += 1;
            let mut code = Vec::new();
            while i < lines.len() && !lines[i].trim().starts_with("```") {
                code.push(lines[i]);
                i += 1;
            }
            i += 1;
            out.push_str(&format!(
                "<pre><code>{}</code></pre>\n",
                escape(&code.join("\n"))
            ));
        } else if line.starts_with("    ") || line.starts_with('\t') {
            let mut code = Vec::new();
            while i < lines.len()
                && (lines[i].starts_with("    ")
                    || lines[i].starts_with('\t')
                    || lines[i].trim().is_empty())
            {
                code.push(
                    lines[i]
                        .strip_prefix("    ")
                        .unwrap_or(lines[i].trim_start()),
                );
                i += 1;
            }
            while code.last().is_some_and(|l| l.trim().is_empty()) {
                code.pop();
            }
            out.push_str(&format!(
                "<pre><code>{}</code></pre>\n",
                escape(&code.join("\n"))
            ));
        } else if trimmed.starts_with('>') {
            // A quoted block: its lines, their `>` taken off, are Markdown of their own.
            let mut inner = Vec::new();
            while i < lines.len() && lines[i].trim().starts_with('>') {
                let l = &lines[i].trim()[1..];
                inner.push(l.strip_prefix(' ').unwrap_or(l));
                i += 1;
            }
            out.push_str(&format!(
                "<aside class=\"box\">\n{}</aside>\n",
                to_html(&inner.join("\n"), link)
            ));
        } else if let Some((level, text)) = heading(trimmed) {
            let id = slug(text);
            out.push_str(&format!(
                "<h{level} id=\"{}\">{}</h{level}>\n",
                escape(&id),
                inline(text, link)
            ));
            i += 1;
        } else if trimmed.starts_with('|') {
            let mut rows = Vec::new();
            while i < lines.len() && lines[i].trim().starts_with('|') {
                rows.push(cells(lines[i].trim()));
                i += 1;
            }
            out.push_str(&table(&rows, link));
        } else if let Some((ordered, _)) = item(line) {
            let (html, next) = list(&lines, i, ordered, link);
            out.push_str(&html);
            i = next;
        } else {
            let mut text = vec![trimmed];
            i += 1;
            while i < lines.len() && !lines[i].trim().is_empty() && !block_start(lines[i]) {
                text.push(lines[i].trim());
                i += 1;
            }
            out.push_str(&format!("<p>{}</p>\n", inline(&text.join(" "), link)));
        }
    }
    out
}

/// How far a line is indented (spaces; a tab counts as four).
pub(crate) fn indent(line: &str) -> usize {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The list starting at `lines[start]` (an item, ordered or not): its HTML and the index of
/// the first line after it. Each item's lines — its first line's text and the lines indented
/// under it (or a paragraph's lazy continuation) — are Markdown of their own, so an item may
/// hold paragraphs, a table or a list; an item of one paragraph is its text alone.
pub(crate) fn list(
    lines: &[&str],
    start: usize,
    ordered: bool,
    link: &dyn Fn(&str) -> Option<String>,
) -> (String, usize) {
    let level = indent(lines[start]);
    let mut out = String::from(if ordered { "<ol>\n" } else { "<ul>\n" });
    let mut i = start;
    while let Some((_, text)) = lines
        .get(i)
        .and_then(|l| item(l).filter(|(o, _)| *o == ordered && indent(l) == level))
    {
        // Where the item's text starts: its lines under it are read from there.
        let column = lines[i].len() - text.len();
        let mut body = vec![text.to_string()];
        i += 1;
        while i < lines.len() {
            let l = lines[i];
            if l.trim().is_empty() {
                // A blank line goes on the item when more of it follows, indented.
                let next = lines[i + 1..].iter().find(|l| !l.trim().is_empty());
                if next.is_some_and(|n| indent(n) > level) {
                    body.push(String::new());
                    i += 1;
                    continue;
                }
                break;
            }
            if indent(l) > level {
                let cut = indent(l).min(column);
                body.push(l.chars().skip(cut).collect());
            } else if !block_start(l) && body.last().is_some_and(|b| !b.trim().is_empty()) {
                body.push(l.trim().to_string());
            } else {
                break;
            }
            i += 1;
        }
        let html = to_html(&body.join("\n"), link);
        let inner = match html
            .strip_prefix("<p>")
            .and_then(|h| h.strip_suffix("</p>\n"))
        {
            Some(text) if !text.contains("<p>") => text.to_string(),
            _ => html,
        };
        out.push_str(&format!("<li>{inner}</li>\n"));
        // Blank lines between two items of the list.
        let mut j = i;
        while lines.get(j).is_some_and(|l| l.trim().is_empty()) {
            j += 1;
        }
        if lines
            .get(j)
            .is_some_and(|l| indent(l) == level && item(l).is_some_and(|(o, _)| o == ordered))
        {
            i = j;
        }
    }
    out.push_str(if ordered { "</ol>\n" } else { "</ul>\n" });
    (out, i)
}

/// Whether a line begins a block of its own (ending a paragraph).
pub(crate) fn block_start(line: &str) -> bool {
    let t = line.trim();
    heading(t).is_some()
        || t.starts_with('|')
        || t.starts_with('>')
        || t.starts_with("```")
        || line.starts_with("    ")
        || item(line).is_some()
}

/// `## Text` → (2, "Text").
pub(crate) fn heading(t: &str) -> Option<(usize, &str)> {
    let level = t.chars().take_while(|c| *c == '#').count();
    if (1..=6).contains(&level) && t[level..].starts_with(' ') {
        Some((level, t[level..].trim()))
    } else {
        None
    }
}

/// A list item (`- x`, `* x`, `1. x`, indented or not): (ordered, its text).
pub(crate) fn item(line: &str) -> Option<(bool, &str)> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 && !line.starts_with("    -") && !line.starts_with("    *") {
        return None;
    }
    if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        return Some((false, rest));
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && digits < 4 {
        if let Some(rest) = t[digits..].strip_prefix(". ") {
            return Some((true, rest));
        }
    }
    None
}

/// The cells of a table row `| a | b |`.
pub(crate) fn cells(row: &str) -> Vec<String> {
    let inner = row.strip_prefix('|').unwrap_or(row);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    // A `|` inside a code span belongs to the cell.
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut code = false;
    for c in inner.chars() {
        match c {
            '`' => {
                code = !code;
                cell.push(c);
            }
            '|' if !code => out.push(std::mem::take(&mut cell).trim().to_string()),
            _ => cell.push(c),
        }
    }
    out.push(cell.trim().to_string());
    out
}

pub(crate) fn table(rows: &[Vec<String>], link: &dyn Fn(&str) -> Option<String>) -> String {
    let is_rule = |r: &Vec<String>| {
        r.iter()
            .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
    };
    let mut out = String::from("<table>\n");
    let (head, body) = match rows {
        [h, rule, rest @ ..] if is_rule(rule) => (Some(h), rest),
        _ => (None, rows),
    };
    if let Some(h) = head {
        out.push_str("<thead><tr>");
        for c in h {
            out.push_str(&format!("<th>{}</th>", inline(c, link)));
        }
        out.push_str("</tr></thead>\n");
    }
    out.push_str("<tbody>\n");
    for r in body {
        out.push_str("<tr>");
        for c in r {
            out.push_str(&format!("<td>{}</td>", inline(c, link)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    out
}

/// Inline Markdown: code spans, links, `**strong**`, `*emphasis*`; the rest escaped.
pub fn inline(s: &str, link: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            if let Some(end) = rest[1..].find('`') {
                out.push_str(&format!("<code>{}</code>", escape(&rest[1..1 + end])));
                rest = &rest[end + 2..];
                continue;
            }
        } else if c == '[' {
            if let Some((text, target, used)) = link_at(rest) {
                match link(target) {
                    Some(href) => out.push_str(&format!(
                        "<a href=\"{}\">{}</a>",
                        escape(&href),
                        inline(text, link)
                    )),
                    None => out.push_str(&inline(text, link)),
                }
                rest = &rest[used..];
                continue;
            }
        } else if let Some(after) = rest.strip_prefix("**") {
            if let Some(end) = after.find("**").filter(|e| *e > 0) {
                out.push_str(&format!("<strong>{}</strong>", inline(&after[..end], link)));
                rest = &after[end + 2..];
                continue;
            }
        } else if c == '*' {
            let after = &rest[1..];
            if !after.starts_with(' ') {
                if let Some(end) = after.find('*').filter(|e| *e > 0) {
                    out.push_str(&format!("<em>{}</em>", inline(&after[..end], link)));
                    rest = &after[end + 1..];
                    continue;
                }
            }
        }
        out.push_str(&escape(&c.to_string()));
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `[text](target)` at the start of `s`: its text, its target and the bytes it takes.
pub(crate) fn link_at(s: &str) -> Option<(&str, &str, usize)> {
    let close = s.find("](")?;
    let text = &s[1..close];
    if text.contains('[') {
        return None;
    }
    let end = s[close + 2..].find(')')?;
    let target = &s[close + 2..close + 2 + end];
    Some((text, target.trim(), close + 3 + end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(target: &str) -> Option<String> {
        target.starts_with('#').then(|| target.to_string())
    }

    #[test]
    fn everything_not_markdown_is_escaped() {
        let html = to_html(
            "# A <b> & \"c\"\n\n<script>alert(1)</script> [x](javascript:alert(1))",
            &plain,
        );
        assert!(
            !html.contains("<script>") && !html.contains("<b>"),
            "{html}"
        );
        assert!(
            !html.contains("javascript"),
            "a refused link shows its text: {html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn headings_lists_tables_code_and_emphasis() {
        let md = "## Señas y más\n\nSome **bold** and *em* and `a|b` [here](#señas).\n\n\
                  - one\n  two\n- three\n\n1. first\n2. second\n\n| a | b |\n|---|---|\n| `x|y` | z |\n\n    R C S\n";
        let html = to_html(md, &plain);
        assert!(
            html.contains("<h2 id=\"señas-y-más\">Señas y más</h2>"),
            "{html}"
        );
        assert!(html.contains("<strong>bold</strong>") && html.contains("<em>em</em>"));
        assert!(html.contains("<code>a|b</code>") && html.contains("<a href=\"#señas\">here</a>"));
        assert!(
            html.contains("<ul>\n<li>one two</li>\n<li>three</li>\n</ul>"),
            "{html}"
        );
        assert!(
            html.contains("<ol>\n<li>first</li>\n<li>second</li>\n</ol>"),
            "{html}"
        );
        assert!(html.contains("<th>a</th>") && html.contains("<td><code>x|y</code></td>"));
        assert!(html.contains("<pre><code>R C S</code></pre>"), "{html}");
    }

    #[test]
    fn a_list_item_may_hold_a_table_a_list_and_paragraphs() {
        let md = "1. **Draw.** Take a card\n   from the stock.\n\n   | say | what |\n   |---|---|\n   | `robo` | draw |\n\n   Then discard.\n2. Close:\n   - normal,\n     with one card;\n   - chinchón.\n\n   Or not.\n3. End.\n\nAfter.";
        let html = to_html(md, &plain);
        assert!(
            html.starts_with(
                "<ol>\n<li><p><strong>Draw.</strong> Take a card from the stock.</p>\n<table>"
            ),
            "{html}"
        );
        assert!(html.contains("<td><code>robo</code></td>"), "{html}");
        assert!(
            html.contains("</table>\n<p>Then discard.</p>\n</li>"),
            "{html}"
        );
        assert!(html.contains("<li><p>Close:</p>\n<ul>\n<li>normal, with one card;</li>\n<li>chinchón.</li>\n</ul>\n<p>Or not.</p>\n</li>"), "{html}");
        assert!(
            html.contains("<li>End.</li>\n</ol>\n<p>After.</p>"),
            "{html}"
        );
        assert!(
            !html.contains("---"),
            "no table's rule shown as text: {html}"
        );
    }

    #[test]
    fn a_quoted_block_is_a_box_of_markdown_escaped_as_the_rest() {
        let md = "Before.\n> ### In the terminal\n>\n> | flag | what |\n> |---|---|\n> | `--x` | <b> |\n\nAfter.";
        let html = to_html(md, &plain);
        assert!(
            html.contains("<p>Before.</p>\n<aside class=\"box\">"),
            "{html}"
        );
        assert!(html.contains("<h3 id=\"in-the-terminal\">"), "{html}");
        assert!(
            html.contains("<td><code>--x</code></td><td>&lt;b&gt;</td>"),
            "{html}"
        );
        assert!(html.contains("</aside>\n<p>After.</p>"), "{html}");
    }
}
