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
use std::path::{Path, PathBuf};
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
    /// Play only shard I of N of the run (I from 1 to N): its share of the games, each
    /// with the number, seed and seats it has in the whole run. `tapete merge` sums the
    /// shards' --json outputs into the whole run's.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub run: MatchArgs,
}

/// One shard of an arena run: number `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// The most shards a run may be cut into.
pub const MAX_SHARDS: u64 = 10_000;

impl Shard {
    /// The games of a run of `games` this shard plays: the first one's number and how
    /// many (the run cut into `count` runs of consecutive games, as even as can be).
    pub fn games(self, games: u64) -> (u64, u64) {
        let at = |i: u64| (u128::from(games) * u128::from(i) / u128::from(self.count)) as u64;
        let first = at(self.index - 1);
        (first, at(self.index) - first)
    }
}

/// Reads `I/N`, a shard number from 1 to N and a shard count from 1 to [`MAX_SHARDS`].
fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || format!("`{s}` is not a shard: use I/N, shard I of N, e.g. 2/8");
    let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
    let index: u64 = i.trim().parse().map_err(|_| bad())?;
    let count: u64 = n.trim().parse().map_err(|_| bad())?;
    if !(1..=MAX_SHARDS).contains(&count) {
        return Err(format!("--shard {s}: the shard count is 1 to {MAX_SHARDS}"));
    }
    if !(1..=count).contains(&index) {
        return Err(format!("--shard {s}: the shard number is 1 to {count}"));
    }
    Ok(Shard { index, count })
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
            first: 0,
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
        let (first, games) = match a.shard {
            Some(shard) if shard.count > a.run.games => {
                return Err(CliError::usage(format!(
                    "--shard {}/{}: {} games cannot make {} shards of one game or more",
                    shard.index, shard.count, a.run.games, shard.count
                )))
            }
            Some(shard) => shard.games(a.run.games),
            None => (0, a.run.games),
        };
        let report = run_games::<H>(&RunSpec {
            records: a.records.as_deref(),
            games,
            first,
            ..a.run.spec::<H>(&rules, seats, &bots, p.json)
        })?;
        let shown = Shown::<H> {
            bots: &bots,
            seed: a.run.seed,
            seats,
            rules: &rules,
            records: a.records.as_deref(),
            report: &report,
            shard: a.shard.map(|s| (s, first, a.run.games)),
        };
        if p.json {
            emit(&format!("{}\n", shown.json()?))
        } else {
            emit(&shown.text())
        }
    }
}

/// The results of one arena run, whole or one shard's, as `tapete arena` and `tapete
/// merge` show them.
struct Shown<'a, H: Host> {
    bots: &'a [String; 2],
    seed: u64,
    seats: usize,
    rules: &'a <H::G as Game>::Rules,
    records: Option<&'a Path>,
    report: &'a ArenaReport<H::Stats>,
    /// A shard's place in its run: the shard, its first game and the run's games.
    shard: Option<(Shard, u64, u64)>,
}

impl<H: Host> Shown<'_, H> {
    /// The JSON of `tapete arena --json`; a shard's adds its place and its whole report,
    /// for `tapete merge`.
    fn json(&self) -> CliResult<serde_json::Value> {
        let report = self.report;
        let (low, high) = report.ci95();
        let mut v = json!({
            "game": H::NAME,
            "games": report.games,
            "seed": self.seed,
            "players": self.seats,
            "bots": { "a": self.bots[0], "b": self.bots[1] },
            "rules": self.rules,
            "a_wins": report.wins[0],
            "b_wins": report.wins[1],
            "draws": report.draws,
            "finished": report.finished(),
            "unfinished": unfinished_json(report),
            "a_win_rate": report.a_win_rate(),
            "fair_share": report.fair_share(),
            "ci95": [low, high],
            "a_first": report.first[0],
            "a_mean_place": report.a_mean_place(),
            "seat_wins": report.seat_wins,
            "actions": report.actions,
            "actions_per_game": ratio(report.actions, report.games),
            "incidents": incidents_json(&report.incidents),
            "records": self.records.map(|d| d.display().to_string()),
            "timing": timing_json(report),
        });
        merge(&mut v, H::stats_json(&report.stats));
        if let Some((shard, first, total)) = self.shard {
            v["shard"] = json!({
                "index": shard.index,
                "count": shard.count,
                "first": first,
                "run_games": total,
                "report": serde_json::to_value(report).map_err(|e| CliError::run(e.to_string()))?,
            });
        }
        Ok(v)
    }

    /// The text of `tapete arena`.
    fn text(&self) -> String {
        let partners = arena_layout::<H>(self.seats).0;
        let mut text = games::after_heading(
            &arena_text::<H>(self, partners),
            &games::rules_line::<H>(self.rules),
        );
        if let Some((shard, first, total)) = self.shard {
            let last = first + self.report.games.saturating_sub(1);
            text = games::after_heading(
                &text,
                &format!(
                    "shard {} of {}: games {first} to {last} of {total} (seeds {} to {}); \
                     `tapete merge` sums the shards' --json\n",
                    shard.index,
                    shard.count,
                    self.seed.wrapping_add(first),
                    self.seed.wrapping_add(last)
                ),
            );
        }
        text
    }
}

fn arena_text<H: Host>(shown: &Shown<H>, partners: bool) -> String {
    let (bots, seats, r) = (shown.bots, shown.seats, shown.report);
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
        shown.seed,
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
    if let Some(dir) = shown.records {
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

/// What `tapete merge` takes.
#[derive(Args, Debug)]
#[command(
    after_help = "Each file is the --json output of `tapete arena GAME … --shard I/N \
--json`, every shard of one run once, in any order. The result is the whole run's, as \
`tapete arena` without --shard gives it (its timing sums the shards' seconds and threads: \
machine time, not wall time).\n\nExample:\n  for i in 1 2 3; do tapete arena mus --a experto \
--b basico --games 3000 --shard $i/3 --json > shard-$i.json; done\n  tapete merge shard-*.json"
)]
pub struct MergeArgs {
    /// The shards' JSON files.
    #[arg(required = true, value_name = "SHARD.json")]
    pub files: Vec<PathBuf>,
}

/// The largest shard file read: a report is a few kilobytes plus its incidents.
const MAX_SHARD_BYTES: u64 = 64 << 20;

/// Runs `tapete merge SHARD.json…`.
pub fn merge_shards(a: &MergeArgs, json: bool) -> CliResult {
    let mut shards: Vec<(PathBuf, serde_json::Value)> = Vec::new();
    for f in &a.files {
        let name = f.display();
        let size = std::fs::metadata(f)
            .map_err(|e| CliError::usage(format!("{name}: {e}")))?
            .len();
        if size > MAX_SHARD_BYTES {
            return Err(CliError::usage(format!(
                "{name}: {size} bytes is too big for a shard's results (at most {MAX_SHARD_BYTES})"
            )));
        }
        let text =
            std::fs::read_to_string(f).map_err(|e| CliError::usage(format!("{name}: {e}")))?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            CliError::usage(format!(
                "{name}: not the JSON of `tapete arena --json`: {e}"
            ))
        })?;
        if v.get("shard").is_none() {
            return Err(CliError::usage(format!(
                "{name}: not a shard: run `tapete arena … --shard I/N --json` for each shard"
            )));
        }
        shards.push((f.clone(), v));
    }
    let key = |v: &serde_json::Value| {
        json!([
            v["game"],
            v["seed"],
            v["players"],
            v["bots"],
            v["rules"],
            v["shard"]["count"],
            v["shard"]["run_games"],
            v["unfinished"]["max_actions"]
        ])
    };
    let (first_file, first) = &shards[0];
    for (f, v) in &shards[1..] {
        if key(v) != key(first) {
            return Err(CliError::usage(format!(
                "{} and {} are shards of different runs (game, seed, players, bots, rules, \
                 shard count, games or --max-actions differ)",
                first_file.display(),
                f.display()
            )));
        }
    }
    let count = first["shard"]["count"].as_u64().unwrap_or(0);
    let mut by_index: Vec<Option<&PathBuf>> = vec![None; count as usize];
    for (f, v) in &shards {
        let i = v["shard"]["index"].as_u64().unwrap_or(0);
        match by_index.get_mut((i as usize).wrapping_sub(1)) {
            Some(Some(other)) => {
                return Err(CliError::usage(format!(
                    "shard {i} of {count} is given twice: {} and {}",
                    other.display(),
                    f.display()
                )))
            }
            Some(slot) => *slot = Some(f),
            None => {
                return Err(CliError::usage(format!(
                    "{}: shard {i} of {count} does not exist",
                    f.display()
                )))
            }
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| by_index[*i as usize - 1].is_none())
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(CliError::usage(format!(
            "shards missing of {count}: {}",
            missing.join(", ")
        )));
    }
    let game = first["game"].as_str().unwrap_or_default().to_string();
    shards.sort_by_key(|(_, v)| v["shard"]["index"].as_u64());
    tapete_catalog::visit(&game, Merge { shards, json })
        .map_err(|e| CliError::usage(e.to_string()))?
}

struct Merge {
    shards: Vec<(PathBuf, serde_json::Value)>,
    json: bool,
}

impl Visitor for Merge {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let (_, first) = &self.shards[0];
        let bad = |f: &Path, what: &str, e: serde_json::Error| {
            CliError::usage(format!("{}: its {what} cannot be read: {e}", f.display()))
        };
        let rules: <H::G as Game>::Rules = serde_json::from_value(first["rules"].clone())
            .map_err(|e| bad(&self.shards[0].0, "rules", e))?;
        let mut whole: Option<ArenaReport<H::Stats>> = None;
        for (f, v) in &self.shards {
            let r: ArenaReport<H::Stats> = serde_json::from_value(v["shard"]["report"].clone())
                .map_err(|e| bad(f, "report", e))?;
            match &mut whole {
                None => whole = Some(r),
                Some(w) => w.merge::<H::G>(r),
            }
        }
        let Some(report) = whole else {
            return Err(CliError::usage("no shard to merge"));
        };
        let run_games = first["shard"]["run_games"].as_u64().unwrap_or(0);
        if report.games != run_games {
            return Err(CliError::usage(format!(
                "the shards hold {} games, their run {run_games}",
                report.games
            )));
        }
        let bots = [
            first["bots"]["a"].as_str().unwrap_or_default().to_string(),
            first["bots"]["b"].as_str().unwrap_or_default().to_string(),
        ];
        let shown = Shown::<H> {
            bots: &bots,
            seed: first["seed"].as_u64().unwrap_or(0),
            seats: report.seats,
            rules: &rules,
            records: None,
            report: &report,
            shard: None,
        };
        if self.json {
            emit(&format!("{}\n", shown.json()?))
        } else {
            emit(&shown.text())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cut_a_run_into_consecutive_games_as_even_as_can_be() {
        for games in [1u64, 2, 7, 100, 2001] {
            for count in 1..=games.min(12) {
                let mut next = 0;
                for index in 1..=count {
                    let (first, n) = Shard { index, count }.games(games);
                    assert_eq!(first, next, "{index}/{count} of {games}");
                    assert!((games / count..=games.div_ceil(count)).contains(&n));
                    next = first + n;
                }
                assert_eq!(next, games, "{count} shards of {games}");
            }
        }
        let (first, n) = Shard { index: 2, count: 2 }.games(u64::MAX);
        assert_eq!((first, first + n), (u64::MAX / 2, u64::MAX));
    }

    #[test]
    fn a_shard_is_i_of_n() {
        assert_eq!(parse_shard(" 2/8 "), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(parse_shard("1/1"), Ok(Shard { index: 1, count: 1 }));
        for (bad, says) in [
            ("0/3", "1 to 3"),
            ("4/3", "1 to 3"),
            ("1/0", "1 to 10000"),
            ("1/10001", "1 to 10000"),
            ("2", "I/N"),
            ("a/b", "I/N"),
            ("-1/3", "I/N"),
        ] {
            let e = parse_shard(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
