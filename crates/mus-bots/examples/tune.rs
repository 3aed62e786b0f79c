//! Experto with some of its thresholds changed, against a population: the tool that set
//! experto's thresholds. It reads the table as experto does unless `--no-read` is given.
//! Each change is `field=value` (a [`Style`] field); each opponent
//! plays `--games` one-juego games (partners alternating seats), the same seeds for every
//! candidate, and the table prints experto's win rate with its 95% interval. The opponent
//! `fixed` is experto's own style without the read (the styles' base).
//!
//! ```text
//! cargo run --release -p tapete-mus-bots --example tune -- \
//!     --games 2000 --seed 1 --against farolero,cortamus bluff_rate=0.08
//! ```

use tapete_mus::{MusGame, MusRules};
use tapete_mus_bots::policy::{self, Style};
use tapete_mus_bots::{by_name, Experto};
use tapete_table::arena::{run_arena, wilson_interval, ArenaConfig, Layout, Side};

/// Sets the field `name` of `style` to `value`.
fn set(style: &mut Style, name: &str, value: &str) -> Result<(), String> {
    let v: f64 = value
        .parse()
        .map_err(|_| format!("{name}={value}: not a number"))?;
    let field = match name {
        "cut_net" => &mut style.cut_net,
        "cut_mano_bonus" => &mut style.cut_mano_bonus,
        "mus_gain_weight" => &mut style.mus_gain_weight,
        "rival_mus_read" => &mut style.rival_mus_read,
        "open_min" => &mut style.open_min,
        "open_band" => &mut style.open_band,
        "open_big" => &mut style.open_big,
        "raise_min" => &mut style.raise_min,
        "accept_margin" => &mut style.accept_margin,
        "pending_margin" => &mut style.pending_margin,
        "rival_bet_shrink" => &mut style.rival_bet_shrink,
        "rival_envite_shrink" => &mut style.rival_envite_shrink,
        "rival_ordago_shrink" => &mut style.rival_ordago_shrink,
        "rival_pass_boost" => &mut style.rival_pass_boost,
        "partner_bet_help" => &mut style.partner_bet_help,
        "partner_decline_cut" => &mut style.partner_decline_cut,
        "bluff_rate" => &mut style.bluff_rate,
        "bluff_position_factor" => &mut style.bluff_position_factor,
        "score_weight" => &mut style.score_weight,
        "ordago_accept_min" => &mut style.ordago_accept_min,
        "ordago_rate" => &mut style.ordago_rate,
        other => return Err(format!("{other}: not a tunable field of Style")),
    };
    *field = v;
    Ok(())
}

fn main() -> Result<(), String> {
    let mut games = 2000;
    let mut seed = 1;
    let mut against: Vec<String> = std::iter::once("avanzado")
        .chain(policy::STYLES.iter().copied())
        .chain(std::iter::once("experto"))
        .map(String::from)
        .collect();
    let mut style = policy::experto_style();
    let mut read = true;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--games" => games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seed" => seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--against" => against = value()?.split(',').map(String::from).collect(),
            "--no-read" => read = false,
            change => {
                let (name, v) = change
                    .split_once('=')
                    .ok_or(format!("{change}: expected field=value"))?;
                set(&mut style, name, v)?;
            }
        }
    }
    let config = ArenaConfig::<MusGame> {
        rules: MusRules {
            juegos: 1,
            vacas: 1,
            ..MusRules::default()
        },
        seats: 4,
        games,
        first: 0,
        seed,
        threads: None,
        max_actions: 100_000,
        layout: Layout::Alternate,
    };
    let mut total = (0, 0);
    for name in &against {
        let report = run_arena::<MusGame, (), _>(
            &config,
            |side, _| match side {
                Side::A => Ok(Box::new(if read {
                    Experto {
                        style: style.clone(),
                        ..Experto::default()
                    }
                } else {
                    Experto::fixed(style.clone())
                })),
                Side::B if name == "fixed" => Ok(Box::new(Experto::fixed(policy::experto_style()))),
                Side::B => by_name(name),
            },
            &|| {},
        )
        .map_err(|e| e.to_string())?;
        let wins = report.wins[0];
        let (lo, hi) = wilson_interval(wins, report.games, 1.96);
        total = (total.0 + wins, total.1 + report.games);
        println!(
            "{name:12} {wins:>5}/{:<5} {:>5.1}%  [{:.1}, {:.1}]",
            report.games,
            100.0 * wins as f64 / report.games as f64,
            100.0 * lo,
            100.0 * hi
        );
    }
    println!(
        "{:12} {:>5}/{:<5} {:>5.1}%",
        "all",
        total.0,
        total.1,
        100.0 * total.0 as f64 / total.1 as f64
    );
    Ok(())
}
