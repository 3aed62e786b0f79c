//! `tapete arena GAME`: two bots, many games; who is stronger, with a confidence interval.
//! In partnership games (Mus) the sides sit as pairs and swap seats every game; otherwise
//! side A holds one seat, moving round the table, and B all the others.

use crate::args::{parse_seed, parse_threads, parse_timeout};
use crate::error::{CliError, CliResult};
use crate::games::{self, GameArgs};
use crate::sim::{
    incidents_json, incidents_text, merge, parse_max_actions, run_games, timing_json, timing_text,
    unfinished_json, unfinished_text, RunSpec,
};
use crate::text::{emit, pct, percent, ratio, table};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;
use tapete_host::{row, Host, Visitor};
use tapete_table::arena::{ArenaReport, Layout};
use tapete_table::Game;

/// What `tapete arena GAME` takes besides the table options.
#[derive(Args, Debug)]
#[command(
    after_help = "Partnership games (Mus): in even games A sits at seats 0 and 2 (seat 0 is \
the first to play), in odd games at 1 and 3. Other games: A sits at seat i mod N in game i and \
B at every other seat, so A's fair share of the wins is 1/N. Game i uses seed S+i, so results \
do not depend on --threads.\n\nExamples:\n  tapete arena mus --a basico --b random --games 2000\n  \
tapete arena chinchon --players 4 --a experto --b basico --games 2000\n  tapete arena mus --a \
\"cmd:python3 examples/python/mus_bot.py\" --b basico --games 100"
)]
pub struct ArenaArgs {
    /// Bot of side A: a level of the game or cmd:COMMAND for a program speaking the bot
    /// protocol.
    #[arg(long, value_name = "LEVEL")]
    pub a: String,
    /// Bot of side B (same choices as --a).
    #[arg(long, value_name = "LEVEL")]
    pub b: String,
    /// Keep every game's record in this directory (made if missing): one JSON file per
    /// game, game-NNNNNN-seed-S.json, which `tapete replay` reads.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    #[command(flatten)]
    pub run: MatchArgs,
}

/// How many games, at how many seats, from which seed, on how many threads: what
/// `tapete arena` and `tapete gauntlet` share.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// How many games to play (against each opponent, in a gauntlet).
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Players at the table (default: the game's usual number).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Seed of the first game.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads, 1 to 256 (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Longest wait for one answer of a cmd: bot, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_timeout)]
    pub bot_timeout: Duration,
    /// Most actions in one game: a game still going then is stopped, counted as
    /// unfinished and left out of the win rate.
    #[arg(long, value_name = "N", default_value = "20000", value_parser = parse_max_actions)]
    pub max_actions: usize,
}

/// Whether A and B sit as pairs at a table of `seats` (partnership games with an even
/// table), and the arena layout that follows: pairs swapping seats every game, or A at one
/// seat moving round the table.
pub(crate) fn arena_layout<H: Host>(seats: usize) -> (bool, Layout) {
    let partners = H::PARTNERS && seats.is_multiple_of(2);
    let layout = if partners {
        Layout::Alternate
    } else {
        Layout::OneSeat
    };
    (partners, layout)
}

impl MatchArgs {
    /// The run of `bots` these options ask for.
    pub(crate) fn spec<'a, H: Host>(
        &self,
        rules: &'a <H::G as Game>::Rules,
        seats: usize,
        bots: &'a [String; 2],
        json: bool,
    ) -> RunSpec<'a, H> {
        RunSpec {
            rules,
            seats,
            bots,
            bot_timeout: self.bot_timeout,
            games: self.games,
            seed: self.seed,
            threads: self.threads,
            layout: arena_layout::<H>(seats).1,
            json,
            records: None,
            max_actions: self.max_actions,
        }
    }
}

/// Runs `tapete arena GAME …`.
pub fn run(a: &GameArgs, json: bool) -> CliResult {
    tapete_catalog::visit(
        &a.game,
        Arena {
            rest: &a.rest,
            json,
        },
    )
    .map_err(|e| CliError::usage(e.to_string()))?
}

struct Arena<'a> {
    rest: &'a [String],
    json: bool,
}

impl Visitor for Arena<'_> {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let Some(p) = games::parse::<ArenaArgs, H>(
            "arena",
            &format!("Pit two {} bots against each other", H::TITLE),
            self.rest,
            self.json,
        )?
        else {
            return Ok(());
        };
        let a = &p.args;
        let seats = games::seats::<H>(a.run.players)?;
        let rules = games::rules::<H>(H::arena_rules(), &p.given, seats)?;
        let bots = [a.a.trim().to_string(), a.b.trim().to_string()];
        let partners = arena_layout::<H>(seats).0;
        let report = run_games::<H>(&RunSpec {
            records: a.records.as_deref(),
            ..a.run.spec::<H>(&rules, seats, &bots, p.json)
        })?;
        if p.json {
            let (low, high) = report.ci95();
            let mut v = json!({
                "game": H::NAME,
                "games": report.games,
                "seed": a.run.seed,
                "players": seats,
                "bots": { "a": bots[0], "b": bots[1] },
                "rules": rules,
                "a_wins": report.wins[0],
                "b_wins": report.wins[1],
                "draws": report.draws,
                "finished": report.finished(),
                "unfinished": unfinished_json(&report),
                "a_win_rate": report.a_win_rate(),
                "fair_share": report.fair_share(),
                "ci95": [low, high],
                "a_first": report.first[0],
                "a_mean_place": report.a_mean_place(),
                "seat_wins": report.seat_wins,
                "actions": report.actions,
                "actions_per_game": ratio(report.actions, report.games),
                "incidents": incidents_json(&report.incidents),
                "records": a.records.as_ref().map(|d| d.display().to_string()),
                "timing": timing_json(&report),
            });
            merge(&mut v, H::stats_json(&report.stats));
            emit(&format!("{v}\n"))
        } else {
            emit(&games::after_heading(
                &arena_text::<H>(a, seats, partners, &bots, &report),
                &games::rules_line::<H>(&rules),
            ))
        }
    }
}

fn arena_text<H: Host>(
    a: &ArenaArgs,
    seats: usize,
    partners: bool,
    bots: &[String; 2],
    r: &ArenaReport<H::Stats>,
) -> String {
    let (low, high) = r.ci95();
    let how = if partners {
        "seats swapped every game".to_string()
    } else {
        format!("A at one seat of {seats}, moving every game")
    };
    let mut out = format!(
        "{} {} games from seed {}: A ({}) against B ({}), {how}\n\n",
        r.games,
        H::TITLE,
        a.run.seed,
        bots[0],
        bots[1]
    );
    let finished = r.finished();
    let rows = vec![
        row!["side", "bot", "games won", "share"],
        row!["A", bots[0], r.wins[0], pct(r.wins[0], finished)],
        row!["B", bots[1], r.wins[1], pct(r.wins[1], finished)],
    ];
    out.push_str(&table(&rows));
    if r.draws > 0 {
        out.push_str(&format!("games without a winner: {}\n", r.draws));
    }
    out.push_str(&unfinished_text(r));
    let over = if r.unfinished.is_empty() {
        String::new()
    } else {
        format!(" over the {finished} finished games")
    };
    out.push_str(&format!(
        "\nA's win rate{over}: {} (95% confidence interval {} – {}, Wilson; fair share {})\n",
        percent(r.a_win_rate()),
        percent(low),
        percent(high),
        percent(r.fair_share())
    ));
    if let (Some(place), false) = (r.a_mean_place(), partners) {
        out.push_str(&format!("A's mean place: {place:.2} of {seats}\n"));
    }
    out.push_str(&format!(
        "actions per game: {:.1}\n",
        ratio(r.actions, r.games)
    ));
    let extra = H::stats_text(&r.stats, ["A", "B"]);
    if !extra.is_empty() {
        out.push('\n');
        out.push_str(&extra);
    }
    out.push('\n');
    if let Some(dir) = &a.records {
        out.push_str(&format!(
            "records: {} ({} files, one per game)\n",
            dir.display(),
            r.games
        ));
    }
    out.push_str(&incidents_text(&r.incidents, true));
    out.push_str(&timing_text(r));
    out
}
