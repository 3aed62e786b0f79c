//! The full-screen table against bots: `cargo run -p tapete-term --example tui`.
//! Arguments: seed, human seat, bot level.
fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let opts = tapete_term::PlayOptions {
        seed: args.next().and_then(|s| s.parse().ok()).unwrap_or(1),
        human: args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
        bots: args.next().unwrap_or_else(|| "basico".into()),
        ..Default::default()
    };
    let rec = tapete_term::play_tui(&opts, tapete_term::Screen::Stdout)?;
    println!("{} actions recorded", rec.actions.len());
    Ok(())
}
