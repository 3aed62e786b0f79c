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
use tapete_table::arena::{wilson_interval, Z95};

/// What `tapete gauntlet GAME` takes besides the table options.
#[derive(Args, Debug)]
#[command(
    after_help = "Each opponent is an arena of its own (seats as in `tapete arena`), every one \
from the same --seed, so each line can be run again alone with `tapete arena`. Without \
--against, A meets every built-in player of the game but itself and the search levels \
(maestro: name it in --against, it takes far longer). A family drawn from seeds plays a \
sample of its members (Mus: umbral:30 is umbral:seed=1 to umbral:seed=30), with a line for \
the whole sample after theirs.\n\nExamples:\n  tapete gauntlet mus --a experto --games \
2000\n  tapete gauntlet mus --a maestro:iters=300 --against experto,conservador,agresivo \
--games 500 --json\n  tapete gauntlet mus --a experto --against umbral:30 --games 400"
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

/// The opponents: as given (a sample such as `umbral:30` standing for its members, see
/// [`Host::sample`]), or every built-in player but `a` and the search levels.
/// Each as (the name given, the players it stands for).
fn opponents<H: Host>(a: &str, against: &[String]) -> CliResult<Vec<(String, Vec<String>)>> {
    // The list is split at commas, which also part a level's parameters
    // (`umbral:ordago=0.8,cut=always`): a `KEY=VALUE` with no level before it goes back
    // to the name before.
    let mut names: Vec<String> = Vec::new();
    for s in against.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        match names.last_mut() {
            Some(last) if s.contains('=') && !s.contains(':') => {
                last.push(',');
                last.push_str(s);
            }
            _ => names.push(s.to_string()),
        }
    }
    let mut given = Vec::new();
    for s in names {
        let members = H::sample(&s).map_err(CliError::usage)?;
        given.push((s, members));
    }
    if !given.is_empty() {
        return Ok(given);
    }
    let level = |s: &str| s.split(':').next().unwrap_or("").trim().to_lowercase();
    let mine = level(a);
    let all: Vec<(String, Vec<String>)> = H::bot_names()
        .iter()
        .filter(|n| **n != mine && **n != "maestro")
        .map(|n| (n.to_string(), vec![n.to_string()]))
        .collect();
    if all.is_empty() {
        return Err(CliError::usage(format!(
            "{} has no other built-in player: name the opponents with --against",
            H::TITLE
        )));
    }
    Ok(all)
}

/// One opponent's line of the table, or a sample's as a whole.
struct Line {
    b: String,
    /// How many players the line sums (more than one: a whole sample).
    members: usize,
    games: u64,
    /// Games stopped unfinished (not counted in the win rate).
    unfinished: u64,
    wins: u64,
    rate: f64,
    ci: (f64, f64),
    seconds: f64,
}

impl Line {
    /// The line as JSON, its opponent's name under `key`.
    fn json(&self, key: &str) -> serde_json::Value {
        let mut v = json!({
            "games": self.games,
            "unfinished": self.unfinished,
            "a_wins": self.wins,
            "a_win_rate": self.rate,
            "ci95": [self.ci.0, self.ci.1],
            "seconds": self.seconds,
        });
        v[key] = json!(self.b);
        v
    }
}

/// A sample's members summed into one line: its games and wins together, the interval
/// over all of them.
fn pool(name: &str, members: &[Line]) -> Line {
    let games = members.iter().map(|l| l.games).sum();
    let unfinished = members.iter().map(|l| l.unfinished).sum();
    let wins = members.iter().map(|l| l.wins).sum();
    let finished = games - unfinished;
    Line {
        b: name.to_string(),
        members: members.len(),
        games,
        unfinished,
        wins,
        rate: if finished == 0 {
            0.0
        } else {
            wins as f64 / finished as f64
        },
        ci: wilson_interval(wins, finished, Z95),
        seconds: members.iter().map(|l| l.seconds).sum(),
    }
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
        for b in rivals.iter().flat_map(|(_, m)| m) {
            games::check_bot::<H>(b)?;
            crate::sim::check_command(b)?;
        }
        let named = a.against.iter().any(|s| !s.trim().is_empty());
        let mut lines: Vec<Line> = Vec::new();
        let mut fair = 0.5;
        for (name, members) in rivals {
            let first = lines.len();
            for b in members {
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
                    members: 1,
                    wins: report.wins[0],
                    rate: report.a_win_rate(),
                    ci: report.ci95(),
                    seconds: start.elapsed().as_secs_f64(),
                });
            }
            if lines.len() - first > 1 {
                let pooled = pool(&name, &lines[first..]);
                lines.push(pooled);
            }
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
                "opponents": lines.iter().filter(|l| l.members == 1).map(|l| l.json("b")).collect::<Vec<_>>(),
                "samples": lines.iter().filter(|l| l.members > 1).map(|l| {
                    let mut v = l.json("name");
                    v["members"] = json!(l.members);
                    v
                }).collect::<Vec<_>>(),
            });
            return emit(&format!("{v}\n"));
        }
        let any_unfinished = lines.iter().any(|l| l.unfinished > 0);
        let mut rows = vec![row!["against", "games", "won", "win rate", "95% interval"]];
        if any_unfinished {
            rows[0].insert(2, "unfinished".to_string());
        }
        for l in &lines {
            let who = if l.members > 1 {
                format!("{} (all {})", l.b, l.members)
            } else {
                l.b.clone()
            };
            let mut r = row![
                who,
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
        let names: Vec<&str> = lines
            .iter()
            .filter(|l| l.members == 1)
            .map(|l| l.b.as_str())
            .collect();
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
        let worst = lines
            .iter()
            .filter(|l| l.members == 1)
            .min_by(|x, y| x.rate.total_cmp(&y.rate));
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
