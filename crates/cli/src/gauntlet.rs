//! `tapete gauntlet GAME --a LEVEL`: one player against a whole population, one arena per
//! opponent, and the table of win rates with their 95% intervals. It answers "how
//! exploitable is it?": a level that beats the ladder but loses to one simple style shows
//! here.

use crate::arena::MatchArgs;
use crate::error::{CliError, CliResult};
use crate::games::{self, GameArgs};
use crate::sim::run_games;
use crate::text::{emit, percent, table};
use clap::Args;
use serde_json::json;
use std::time::Instant;
use tapete_host::{row, Host, Visitor};

/// What `tapete gauntlet GAME` takes besides the table options.
#[derive(Args, Debug)]
#[command(
    after_help = "Each opponent is an arena of its own (seats as in `tapete arena`), every one \
from the same --seed, so each line can be run again alone with `tapete arena`. Without \
--against, A meets every built-in player of the game but itself and the search levels \
(maestro: name it in --against, it takes far longer).\n\nExamples:\n  tapete gauntlet mus --a \
experto --games 2000\n  tapete gauntlet mus --a maestro:iters=300 --against \
experto,conservador,agresivo --games 500 --json"
)]
pub struct GauntletArgs {
    /// The player measured: a level of the game (cmd:COMMAND for an outside program).
    #[arg(long, value_name = "LEVEL")]
    pub a: String,
    /// Its opponents, comma-separated (default: every built-in player but A and maestro).
    #[arg(long, value_name = "LEVELS", value_delimiter = ',')]
    pub against: Vec<String>,
    #[command(flatten)]
    pub run: MatchArgs,
}

/// Runs `tapete gauntlet GAME …`.
pub fn run(a: &GameArgs, json: bool) -> CliResult {
    tapete_catalog::visit(
        &a.game,
        Gauntlet {
            rest: &a.rest,
            json,
        },
    )
    .map_err(|e| CliError::usage(e.to_string()))?
}

struct Gauntlet<'a> {
    rest: &'a [String],
    json: bool,
}

/// The opponents: as given, or every built-in player but `a` and the search levels.
fn opponents<H: Host>(a: &str, against: &[String]) -> CliResult<Vec<String>> {
    let given: Vec<String> = against
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if !given.is_empty() {
        return Ok(given);
    }
    let level = |s: &str| s.split(':').next().unwrap_or("").trim().to_lowercase();
    let mine = level(a);
    let all: Vec<String> = H::bot_names()
        .iter()
        .filter(|n| **n != mine && **n != "maestro")
        .map(|n| n.to_string())
        .collect();
    if all.is_empty() {
        return Err(CliError::usage(format!(
            "{} has no other built-in player: name the opponents with --against",
            H::TITLE
        )));
    }
    Ok(all)
}

/// One opponent's line of the table.
struct Line {
    b: String,
    games: u64,
    /// Games stopped unfinished (not counted in the win rate).
    unfinished: u64,
    wins: u64,
    rate: f64,
    ci: (f64, f64),
    seconds: f64,
}

impl Visitor for Gauntlet<'_> {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let Some(p) = games::parse::<GauntletArgs, H>(
            "gauntlet",
            &format!(
                "One {} player against every other, arena by arena",
                H::TITLE
            ),
            self.rest,
            self.json,
        )?
        else {
            return Ok(());
        };
        let a = &p.args;
        let seats = games::seats::<H>(a.run.players)?;
        let rules = games::rules::<H>(H::arena_rules(), &p.given, seats)?;
        let me = a.a.trim().to_string();
        let rivals = opponents::<H>(&me, &a.against)?;
        games::check_bot::<H>(&me)?;
        crate::sim::check_command(&me)?;
        for b in &rivals {
            games::check_bot::<H>(b)?;
            crate::sim::check_command(b)?;
        }
        let named = a.against.iter().any(|s| !s.trim().is_empty());
        let mut lines = Vec::with_capacity(rivals.len());
        let mut fair = 0.5;
        for b in rivals {
            let bots = [me.clone(), b.clone()];
            let start = Instant::now();
            let report = run_games::<H>(&a.run.spec::<H>(&rules, seats, &bots, p.json))?;
            if !p.json {
                eprintln!(
                    "{me} against {b}: {} of {} ({})",
                    report.wins[0],
                    report.finished(),
                    percent(report.a_win_rate())
                );
            }
            fair = report.fair_share();
            lines.push(Line {
                b,
                games: report.games,
                unfinished: report.unfinished.len() as u64,
                wins: report.wins[0],
                rate: report.a_win_rate(),
                ci: report.ci95(),
                seconds: start.elapsed().as_secs_f64(),
            });
        }
        if p.json {
            let v = json!({
                "game": H::NAME,
                "a": me,
                "players": seats,
                "seed": a.run.seed,
                "rules": rules,
                "fair_share": fair,
                "against": if named { "as given" } else { "every built-in player but A and the search levels" },
                "opponents": lines.iter().map(|l| json!({
                    "b": l.b,
                    "games": l.games,
                    "unfinished": l.unfinished,
                    "a_wins": l.wins,
                    "a_win_rate": l.rate,
                    "ci95": [l.ci.0, l.ci.1],
                    "seconds": l.seconds,
                })).collect::<Vec<_>>(),
            });
            return emit(&format!("{v}\n"));
        }
        let any_unfinished = lines.iter().any(|l| l.unfinished > 0);
        let mut rows = vec![row!["against", "games", "won", "win rate", "95% interval"]];
        if any_unfinished {
            rows[0].insert(2, "unfinished".to_string());
        }
        for l in &lines {
            let mut r = row![
                l.b,
                l.games,
                l.wins,
                percent(l.rate),
                format!("{} – {}", percent(l.ci.0), percent(l.ci.1))
            ];
            if any_unfinished {
                r.insert(2, l.unfinished.to_string());
            }
            rows.push(r);
        }
        let names: Vec<&str> = lines.iter().map(|l| l.b.as_str()).collect();
        let whom = if named {
            format!("{me} against {}", names.join(", "))
        } else {
            format!(
                "{me} against every built-in player but itself and the search levels ({})",
                names.join(", ")
            )
        };
        let mut out = format!(
            "{whom}: {} {} games each from seed {} (fair share {})\n\n",
            a.run.games,
            H::TITLE,
            a.run.seed,
            percent(fair)
        );
        out = games::after_heading(&out, &games::rules_line::<H>(&rules));
        out.push_str(&table(&rows));
        if any_unfinished {
            out.push_str(&format!(
                "unfinished games (stopped at {} actions) are not counted in the win rates\n",
                a.run.max_actions
            ));
        }
        let worst = lines.iter().min_by(|x, y| x.rate.total_cmp(&y.rate));
        if let Some(w) = worst {
            out.push_str(&format!(
                "\nweakest against {}: {} (95% interval {} – {})\n",
                w.b,
                percent(w.rate),
                percent(w.ci.0),
                percent(w.ci.1)
            ));
        }
        emit(&out)
    }
}
