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
