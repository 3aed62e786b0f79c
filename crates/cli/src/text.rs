//! Tidy aligned text: rows of cells padded to the widest cell of each column.

/// Formats rows as aligned columns separated by two spaces (the last column unpadded).
pub fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c + 1 == row.len() {
                line.push_str(cell);
            } else {
                let pad = widths[c] - cell.chars().count();
                line.push_str(cell);
                line.push_str(&" ".repeat(pad + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Shorthand: a row from anything displayable.
#[macro_export]
macro_rules! row {
    ($($x:expr),* $(,)?) => { vec![$($x.to_string()),*] };
}

/// A pair's name: `0–2` or `1–3`.
pub fn pair_name(pair: usize) -> String {
    format!("{}–{}", pair, pair + 2)
}

/// Writes `s` to stdout. A closed pipe (`tapete … | head`) is not an error; other
/// write failures are.
pub fn emit(s: &str) -> crate::error::CliResult {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(crate::error::CliError::run(format!(
            "cannot write the output: {e}"
        ))),
    }
}

/// A probability as a percentage with two decimals; exact 0 and 1 print as `0%` and
/// `100%`, values that would round to them as `<0.01%` and `>99.99%`.
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".into()
    } else if p >= 1.0 {
        "100%".into()
    } else if p < 0.00005 {
        "<0.01%".into()
    } else if p > 0.99995 {
        ">99.99%".into()
    } else {
        format!("{:.2}%", 100.0 * p)
    }
}

/// A progress bar over `len` `unit`s on stderr, hidden with `--json` or when stderr is
/// not a terminal.
pub fn progress_bar(len: u64, unit: &str, json: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
    let bar = ProgressBar::new(len);
    if json || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}  {{per_sec}}  eta {{eta}}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
    }
    bar
}
