//! Plays a Mus match in line mode on stdin/stdout: `cargo run -p tapete-term --example lines`.
//! Arguments: seed, human seat, bot level.
use tapete_mus_front::MusHost;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let human = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let level = args.next().unwrap_or_else(|| "random".into());
    let opts = tapete_term::PlayOptions::<MusHost>::new(Default::default(), 4, seed, human, &level)
        .map_err(anyhow::Error::msg)?;
    let rec = tapete_term::play_lines(opts, std::io::stdin().lock(), std::io::stdout().lock())?;
    eprintln!("{} actions recorded", rec.actions.len());
    Ok(())
}
