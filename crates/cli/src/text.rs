//! Tidy aligned text: rows of cells padded to the widest cell of each column.

pub use tapete_host::text::{pct, ratio, table};

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

/// A whole number with a comma every three digits: `1466` is "1,466".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    // The first group has 1 to 3 digits; every later one has exactly 3.
    let first = (digits.len() - 1) % 3 + 1;
    let (head, mut rest) = digits.split_at(first);
    let mut out = head.to_string();
    while rest.len() >= 3 {
        let (group, tail) = rest.split_at(3);
        out.push(',');
        out.push_str(group);
        rest = tail;
    }
    out
}

/// A rate as players read it, rounded to a whole number with thousands separators:
/// "1,466 games/s". Progress bars and the timing lines of every command use it.
pub fn rate(per_sec: f64, unit: &str) -> String {
    let whole = if per_sec.is_finite() && per_sec > 0.0 {
        // Saturates at u64::MAX; no real rate comes near it.
        per_sec.round() as u64
    } else {
        0
    };
    format!("{} {unit}/s", thousands(whole))
}

/// The style of every progress bar: counts and the rate with thousands separators
/// ("1,500/10,000 games  1,466 games/s"), then the time left.
pub fn bar_style(unit: &str) -> indicatif::ProgressStyle {
    use indicatif::{ProgressState, ProgressStyle};
    let template = format!("{{bar:40}} {{human_pos}}/{{human_len}} {unit}  {{rate}}  eta {{eta}}");
    let unit = unit.to_string();
    let shown = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = w.write_str(&rate(state.per_sec(), &unit));
    };
    // The template is fixed here; should it ever be refused, the default style still
    // draws a bar.
    match ProgressStyle::with_template(&template) {
        Ok(style) => style.with_key("rate", shown),
        Err(_) => ProgressStyle::default_bar(),
    }
}

/// A progress bar over `len` `unit`s on stderr, hidden with `--json` or when stderr is
/// not a terminal.
pub fn progress_bar(len: u64, unit: &str, json: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget};
    use std::io::IsTerminal;
    let bar = ProgressBar::new(len);
    if json || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.set_style(bar_style(unit));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_466), "1,466");
        assert_eq!(thousands(123_456_789), "123,456,789");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn rates_are_whole_with_separators() {
        assert_eq!(rate(1_465.880_6, "games"), "1,466 games/s");
        assert_eq!(rate(866.4, "games"), "866 games/s");
        assert_eq!(rate(2_500_000.49, "deals"), "2,500,000 deals/s");
        assert_eq!(rate(0.4, "hands"), "0 hands/s");
        assert_eq!(rate(f64::NAN, "games"), "0 games/s");
        assert_eq!(rate(f64::INFINITY, "games"), "0 games/s");
    }

    /// A terminal that keeps what is drawn on it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)?;
            self.write_str("\n")
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if let Ok(mut text) = self.0.lock() {
                text.push_str(s);
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.write_str("\n")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_bar_shows_counts_and_rate_with_separators() {
        let screen = Screen::default();
        let target = indicatif::ProgressDrawTarget::term_like(Box::new(screen.clone()));
        let bar = indicatif::ProgressBar::with_draw_target(Some(10_000), target)
            .with_style(bar_style("games"));
        bar.inc(1_500);
        bar.tick();
        let text = screen.0.lock().expect("screen").clone();
        let line = text
            .lines()
            .rev()
            .find(|l| l.contains("games/s"))
            .unwrap_or_else(|| panic!("no rate drawn: {text:?}"));
        assert!(line.contains("1,500/10,000 games"), "{line}");
        // The rate is a whole number with separators: "1,466 games/s", never "1465.8806/s".
        let before = line.split(" games/s").next().unwrap_or_default();
        let number = before.rsplit(' ').next().unwrap_or_default();
        assert!(
            !number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == ','),
            "{line}"
        );
        assert_eq!(line.matches("/s").count(), 1, "one rate only: {line}");
    }
}
