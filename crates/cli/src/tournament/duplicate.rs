//! Duplicate: every table of a round is dealt the same boards — the game's own duplicate
//! tables ([`Host::duplicate_rules`]; in Mus a board is one hand from 0–0, its result the
//! first side's net piedras), each given the round's seed — and each pair is scored in
//! matchpoints against the pairs that held the same cards (`tapete_tournament::duplicate`).
//! The rounds are paired as a Swiss (the pair whose boards netted more wins its table),
//! the first side shared out; the players' own chances are each table's.

use super::{entrant_name, Driven, TournamentArgs};
use crate::error::{CliError, CliResult};
use crate::text::{emit, table};
use serde_json::json;
use std::collections::HashSet;
use tapete_host::{row, Host};
use tapete_tournament::duplicate::{self, TableResult};
use tapete_tournament::event::{Event, MatchKey};
use tapete_tournament::swiss::{self, Options};

/// Prints a duplicate event played to its end: every round's tables with their boards,
/// then the standings by matchpoints (and, in `--json`, the same tables scored plainly by
/// the matches won, for comparing the two).
pub(super) fn report<H: Host>(
    event: &Event,
    d: &Driven,
    names: &[String],
    a: &TournamentArgs,
    json: bool,
) -> CliResult {
    let n = names.len();
    let mut results: Vec<TableResult> = Vec::new();
    let mut met = HashSet::new();
    let mut rounds_json = Vec::new();
    let mut text = String::new();
    let last = d
        .played
        .iter()
        .filter_map(|m| match m.pairing.key {
            MatchKey::Board { round, .. } => Some(round),
            MatchKey::Bracket(_) => None,
        })
        .max()
        .unwrap_or(0);
    for round in 1..=last {
        let mut rows = vec![row!["table", "first", "second", "boards", "net"]];
        let mut tables_json = Vec::new();
        let mut repeats = 0;
        let tables = d
            .played
            .iter()
            .filter(|m| matches!(m.pairing.key, MatchKey::Board { round: r, .. } if r == round));
        for (t, m) in tables.enumerate() {
            let (first, second) = (m.pairing.first, m.pairing.second);
            if !met.insert((first.min(second), first.max(second))) {
                repeats += 1;
            }
            let nets = &m.result.boards;
            for (k, &net) in nets.iter().enumerate() {
                results.push(TableResult {
                    round,
                    deals: (u64::from(round) << 32) | k as u64,
                    first,
                    second,
                    first_net: net,
                });
            }
            let total: i64 = nets.iter().sum();
            let boards: Vec<String> = nets.iter().map(|x| format!("{x:+}")).collect();
            rows.push(row![
                t + 1,
                entrant_name(names, first),
                entrant_name(names, second),
                boards.join(" "),
                format!("{total:+}"),
            ]);
            tables_json.push(json!({"table": t + 1, "first": first, "second": second, "boards": nets, "net": total}));
        }
        let bye = d.byes.iter().find(|(r, _)| *r == round).map(|&(_, b)| b);
        if let Some(b) = bye {
            rows.push(row!["bye", entrant_name(names, b), "", "", ""]);
        }
        text.push_str(&format!("Round {round}\n{}\n", table(&rows)));
        rounds_json
            .push(json!({"round": round, "tables": tables_json, "bye": bye, "repeats": repeats}));
    }
    let st = duplicate::standings(n, &results);
    // The same tables scored the plain way, by the matches won.
    let (h, _) = event
        .history(&d.results)
        .map_err(|e| CliError::run(e.to_string()))?;
    let plain =
        swiss::standings(n, &h, &Options::default()).map_err(|e| CliError::run(e.to_string()))?;
    if json {
        let v = json!({
            "game": H::NAME,
            "format": "duplicate",
            "seed": a.seed,
            "boards": a.boards,
            "entrants": names,
            "rounds": rounds_json,
            "standings": st,
            "plain_standings": plain,
        });
        return emit(&format!("{v}\n"));
    }
    let mut out = format!(
        "{} tournament (duplicate, {} boards a round), {n} entrants, seed {}\n\n{text}",
        H::TITLE,
        a.boards,
        a.seed
    );
    let mut rows = vec![row!["place", "entrant", "matchpoints", "%", "net"]];
    for s in &st {
        rows.push(row![
            s.place,
            entrant_name(names, s.entrant),
            format!("{}/{}", s.matchpoints, s.max),
            format!("{:.1}", s.percent),
            format!("{:+}", s.net),
        ]);
    }
    out.push_str("Standings\n");
    out.push_str(&table(&rows));
    emit(&out)
}
