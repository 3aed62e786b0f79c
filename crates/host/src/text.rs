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

/// The choice closest to `word` in spelling (letter case ignored), if it is close enough to
/// be what was meant: at most one edit for short words, one per three letters for longer
/// ones, a swap of two neighbouring letters counting as one edit. For "did you mean".
pub fn closest<'a>(word: &str, choices: &[&'a str]) -> Option<&'a str> {
    let word: Vec<char> = word.trim().to_lowercase().chars().collect();
    let allowed = (word.len() / 3).max(1);
    choices
        .iter()
        .map(|c| {
            (
                edits(&word, &c.to_lowercase().chars().collect::<Vec<_>>()),
                *c,
            )
        })
        .filter(|(d, _)| *d <= allowed)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
fn edits(a: &[char], b: &[char]) -> usize {
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[n][m]
}

/// `" (did you mean `x`?)"` when one of `choices` is close to `word`, else nothing.
pub fn did_you_mean(word: &str, choices: &[&str]) -> String {
    match closest(word, choices) {
        Some(c) if !c.eq_ignore_ascii_case(word.trim()) => format!(" (did you mean `{c}`?)"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod closest_tests {
    use super::*;

    #[test]
    fn near_misses_find_their_word_and_far_ones_nothing() {
        let levels = ["random", "basico", "avanzado", "experto", "maestro"];
        assert_eq!(closest("experot", &levels), Some("experto"));
        assert_eq!(closest("expert", &levels), Some("experto"));
        assert_eq!(closest("Basic", &levels), Some("basico"));
        assert_eq!(closest("maestor", &levels), Some("maestro"));
        assert_eq!(closest("parchis", &levels), None);
        assert_eq!(closest("x", &["mus", "tikki"]), None);
        assert_eq!(closest("muss", &["mus", "chinchon", "tikki"]), Some("mus"));
        assert_eq!(
            did_you_mean("tiki", &["mus", "tikki"]),
            " (did you mean `tikki`?)"
        );
        assert_eq!(did_you_mean("zzz", &["mus", "tikki"]), "");
    }
}
