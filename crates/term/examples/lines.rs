//! Plays a match in line mode on stdin/stdout: `cargo run -p tapete-term --example lines`.
//! Arguments: seed, human seat, bot level.
fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let opts = tapete_term::PlayOptions {
        seed: args.next().and_then(|s| s.parse().ok()).unwrap_or(1),
        human: args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
        bots: args.next().unwrap_or_else(|| "random".into()),
        ..Default::default()
    };
    let rec = tapete_term::play_lines(&opts, std::io::stdin().lock(), std::io::stdout().lock())?;
    eprintln!("{} actions recorded", rec.actions.len());
    Ok(())
}
