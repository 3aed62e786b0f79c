//! Tidy aligned text shared by the command line and the games' own reports: rows of cells
//! padded to the widest cell of each column, and shares as players read them.

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

/// Shorthand: a row of cells from anything displayable.
#[macro_export]
macro_rules! row {
    ($($x:expr),* $(,)?) => { vec![$($x.to_string()),*] };
}

/// `a` in `b` as a percentage with one decimal, or a dash when `b` is 0.
pub fn pct(a: u64, b: u64) -> String {
    if b == 0 {
        "—".into()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

/// `a / b`, or 0 when `b` is 0 (rates over possibly empty counts).
pub fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_and_shares_read() {
        let t = table(&[row!["side", "won"], row!["A", 12], row!["B", 7]]);
        assert_eq!(t, "side  won\nA     12\nB     7\n");
        assert_eq!(pct(1, 3), "33.3%");
        assert_eq!(pct(1, 0), "—");
        assert_eq!(ratio(1, 0), 0.0);
    }
}
