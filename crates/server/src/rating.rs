//! Ratings: every account and every bot level has one rating per game, moved by the rated
//! games it plays.
//!
//! The system is Weng-Lin (the Bradley-Terry "full pair" model of Weng and Lin's Bayesian
//! approximation, as the `skillratings` crate computes it), chosen because it rates teams
//! and many-sided games in one update: a Mus game is two teams of two (each partnership
//! one team), a Chinchón or tikki game is one team per seat ranked by its place, ties
//! sharing a rank. Each rating is a skill `mu` and its uncertainty `sigma` (25 and 25/3
//! at first, the crate's defaults, with `beta` 25/6); people see them times
//! [`SCALE`], so a newcomer is 1500 ± 500.
//!
//! The full-pair update is a sum over the pairs of sides, so [`update`] takes it pair by
//! pair (each pair as the crate rates a game of two sides) and weighs each pair by what it
//! tells about the player: every weight 1 is the crate's update exactly. The weights are
//! what keeps ratings from being farmed:
//!
//! - **A provisional opponent** (fewer than [`PROVISIONAL_GAMES`] rated games) counts
//!   [`PROVISIONAL_WEIGHT`]: a new account's result says little about anybody, so a win
//!   against one gains a tenth of a full one (and a loss costs a tenth).
//! - **A bot level** moves [`BOT_STEP`] of what a person would, and only from people who
//!   are not provisional and played their own seats: a level's strength is fixed by its
//!   code, so it only needs to be found, slowly, and throwaway accounts losing to it on
//!   purpose cannot lift it (see docs/server.md, "Ratings").
//! - **A seat the bot played for its person** ([`ASSISTED_SHARE`] of its decisions, or any
//!   seat its person left) may lose rating but not gain it: its gain is dropped.
//! - **People who share an address** (an account's sign-up address, or any address a
//!   player played the table from) on different sides are not rated in that game at all
//!   ([`sharing`]); the others are rated as if those seats were not there.
//!
//! A bot level is a rated player of each game it plays: the seats the table's bot holds
//! are that level's. When one level holds several seats of a game (a person with three
//! `maestro` bots), each seat is rated as if it were a player of its own, from the level's
//! rating before the game, and the level takes the sum of those changes and the smallest
//! of their uncertainties.
//!
//! The players of a rated game are the people seated when it starts (and the bot level in
//! the other seats), kept in `rated_seats` with how many of each person's decisions the bot
//! took for them; nobody else sits at it afterwards. A person who stands up before the end
//! still gets the result their seat reached (the bot played it for them), and the game
//! counts as abandoned for them. The update is written in the same transaction as the end
//! of the game ([`rate_table`], called from the storage's finishing writes), and once per
//! table: a table is rated exactly once, whatever crashes.

use crate::store::{params, Connection, OptionalExtension};
use crate::store::{Db, DbError, DbResult};
use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use tapete_table::Outcome;

/// What a skill of the model is shown as: `mu` and `sigma` times this (1500 ± 500 at first).
pub const SCALE: f64 = 60.0;
/// Rated games under which a rating is provisional (shown with a `?`), and the least a
/// player needs to be on a leaderboard.
pub const PROVISIONAL_GAMES: i64 = 10;
/// How much a game against a provisional person counts, for either side's rating.
pub const PROVISIONAL_WEIGHT: f64 = 0.1;
/// How much of a game's change a bot level takes (from people who are not provisional and
/// played their own seats; nothing from the others).
pub const BOT_STEP: f64 = 0.1;
/// A person whose seat the bot played for more than this share of its decisions (away, or
/// their turn clock run out) did not play it: the result may cost them rating, not earn it.
pub const ASSISTED_SHARE: f64 = 0.1;
/// Addresses kept per player and rated table; one more is kept as [`ANY_ADDRESS`].
pub const MAX_TABLE_ADDRESSES: usize = 16;
/// The address of a player seen from too many: taken to share an address with everyone.
pub const ANY_ADDRESS: &str = "*";
/// Why a person's game was not rated: they shared an address with a person on another side.
pub const SHARED_ADDRESS: &str = "shared_address";
/// Why a person's game was not rated: nobody on another side was rated.
pub const NO_OPPONENT: &str = "no_opponent";

/// Who holds a rating: an account (by player id) or a bot level (by name).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rated {
    Player(i64),
    Bot(String),
}

impl Rated {
    /// The key stored in `ratings.who`: `p7`, or `b:maestro`.
    pub fn key(&self) -> String {
        match self {
            Rated::Player(id) => format!("p{id}"),
            Rated::Bot(name) => format!("b:{name}"),
        }
    }
}

/// One seat of a finished rated game: who played it, its team and its place (1 best).
#[derive(Clone, Debug)]
pub struct SeatResult {
    pub who: Rated,
    pub team: usize,
    pub place: u32,
    /// The bot played the seat for its person (see [`ASSISTED_SHARE`]): a gain is dropped.
    pub assisted: bool,
}

/// A player's rating before a game, and how many rated games it rests on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prior {
    pub rating: WengLinRating,
    pub games: i64,
}

/// The part of an address that tells one household or device from another: an IPv4
/// address whole, an IPv6 one by its /64 (the block a home or a phone is given, any of
/// whose addresses it may use).
pub fn network(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// The people of a game who share an address with a person on another side, and so are
/// not rated in it: `seats` holds each seat's team and person (`None`: a bot), `addresses`
/// each person's (where the account was made, where they played the table from).
pub fn sharing(
    seats: &[(usize, Option<i64>)],
    addresses: &BTreeMap<i64, BTreeSet<String>>,
) -> BTreeSet<i64> {
    let none = BTreeSet::new();
    let of = |p: i64| addresses.get(&p).unwrap_or(&none);
    let mut out = BTreeSet::new();
    for (i, (team_a, a)) in seats.iter().enumerate() {
        let Some(a) = *a else { continue };
        for (team_b, b) in &seats[i + 1..] {
            let Some(b) = *b else { continue };
            if team_a == team_b || a == b {
                continue;
            }
            let (x, y) = (of(a), of(b));
            if x.contains(ANY_ADDRESS) || y.contains(ANY_ADDRESS) || !x.is_disjoint(y) {
                out.insert(a);
                out.insert(b);
            }
        }
    }
    out
}

/// The model's settings: the crate's defaults.
fn config() -> WengLinConfig {
    WengLinConfig::new()
}

/// The new rating of everyone at a finished game, from their standing before it (a
/// player with none starts from the default). Teams are ranked by the best place of their
/// seats. Each seat's player is moved by every other team as the crate moves a game of
/// those two teams, weighed: a person by a bot seat fully, by a person [`PROVISIONAL_WEIGHT`]
/// when that person is provisional; a bot level by a person [`BOT_STEP`] when that person is
/// not provisional and played their own seat, else not at all (nor by its own seats). A
/// team's weight is its seats' mean. An assisted seat's gain is dropped (its rating stays).
pub fn update(
    seats: &[SeatResult],
    before: &BTreeMap<Rated, Prior>,
) -> BTreeMap<Rated, WengLinRating> {
    let prior = |w: &Rated| before.get(w).copied().unwrap_or_default();
    let mut by_team: BTreeMap<usize, (Vec<usize>, u32)> = BTreeMap::new();
    for (i, s) in seats.iter().enumerate() {
        let t = by_team.entry(s.team).or_insert((Vec::new(), u32::MAX));
        t.0.push(i);
        t.1 = t.1.min(s.place);
    }
    let teams: Vec<(Vec<usize>, u32)> = by_team.into_values().collect();
    let ratings: Vec<Vec<WengLinRating>> = teams
        .iter()
        .map(|(members, _)| {
            members
                .iter()
                .map(|&i| prior(&seats[i].who).rating)
                .collect()
        })
        .collect();
    // What the player of seat `s` takes from a game against the seats `others`.
    let weight = |s: &SeatResult, others: &[usize]| -> f64 {
        let each = others.iter().map(|&o| {
            let o = &seats[o];
            let established = prior(&o.who).games >= PROVISIONAL_GAMES;
            match (&s.who, &o.who) {
                (Rated::Player(_), Rated::Bot(_)) => 1.0,
                (Rated::Player(_), Rated::Player(_)) if established => 1.0,
                (Rated::Player(_), Rated::Player(_)) => PROVISIONAL_WEIGHT,
                (Rated::Bot(_), Rated::Bot(_)) => 0.0,
                (Rated::Bot(_), Rated::Player(_)) if established && !o.assisted => BOT_STEP,
                (Rated::Bot(_), Rated::Player(_)) => 0.0,
            }
        });
        each.sum::<f64>() / others.len().max(1) as f64
    };
    let config = config();
    // Per player: the change of skill, the least variance of its seats, whether assisted.
    let mut moved: BTreeMap<Rated, (f64, f64, bool)> = BTreeMap::new();
    for (i, (members, place)) in teams.iter().enumerate() {
        for (k, &m) in members.iter().enumerate() {
            let seat = &seats[m];
            let old = ratings[i][k];
            let (mut skill, mut cut) = (0.0, 0.0);
            for (q, (others, other_place)) in teams.iter().enumerate() {
                let w = if q == i { 0.0 } else { weight(seat, others) };
                if w == 0.0 {
                    continue;
                }
                let pair = weng_lin_multi_team(
                    &[
                        (&ratings[i], MultiTeamOutcome::new(*place as usize)),
                        (&ratings[q], MultiTeamOutcome::new(*other_place as usize)),
                    ],
                    &config,
                );
                let new = pair[0][k];
                skill += w * (new.rating - old.rating);
                cut += w * (1.0 - (new.uncertainty / old.uncertainty).powi(2));
            }
            let variance = old.uncertainty.powi(2) * (1.0 - cut).max(config.uncertainty_tolerance);
            let e = moved
                .entry(seat.who.clone())
                .or_insert((0.0, f64::INFINITY, false));
            e.0 += skill;
            e.1 = e.1.min(variance);
            e.2 |= seat.assisted;
        }
    }
    moved
        .into_iter()
        .map(|(who, (skill, variance, assisted))| {
            let old = prior(&who).rating;
            let new = if assisted && skill > 0.0 {
                old
            } else {
                WengLinRating {
                    rating: old.rating + skill,
                    uncertainty: variance.sqrt(),
                }
            };
            (who, new)
        })
        .collect()
}

/// A finished table as rating reads it: game, rated, bot level, outcome, when finished.
type FinishedRow = (String, bool, String, Option<String>, Option<i64>);

/// How a person came out of a rated game, beside their rating: their best place, whether
/// they left the seat, whether the bot played it for them, and why it was not rated.
#[derive(Clone, Debug)]
struct Played {
    place: u32,
    left: bool,
    assisted: bool,
    unrated: Option<&'static str>,
}

/// Rates a table that has just finished, inside the transaction that finished it: every
/// player of its roster (account or bot level) gets its update, its history point and
/// its counts; a person not rated in it (see [`sharing`]) gets only the history point,
/// saying why. Does nothing for an unrated table, one already rated, or one whose roster
/// or outcome cannot be read (said on the log: the end of a game is never refused for
/// its rating). The addresses kept for the table are dropped once it is rated.
pub fn rate_table(c: &Connection, table: &str) -> DbResult<()> {
    let row: Option<FinishedRow> = c
        .query_row(
            "SELECT game, rated, bot, outcome, finished FROM tables WHERE id = ?1",
            [table],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    let Some((game, true, bot, Some(outcome), finished)) = row else {
        return Ok(());
    };
    let done: i64 = c.query_row(
        "SELECT count(*) FROM rating_history WHERE table_id = ?1",
        [table],
        |r| r.get(0),
    )?;
    if done > 0 {
        return Ok(());
    }
    let outcome: Outcome = match serde_json::from_str(&outcome) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("table {table}: not rated, its outcome does not read ({e})");
            return Ok(());
        }
    };
    let roster: Vec<(i64, i64, Option<i64>, i64)> = c
        .prepare(
            "SELECT seat, team, player, helped FROM rated_seats WHERE table_id = ?1 ORDER BY seat",
        )?
        .query_map([table], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?
        .collect::<Result<_, _>>()?;
    if roster.is_empty() {
        eprintln!("table {table}: not rated, it has no players on record");
        return Ok(());
    }
    let holders: BTreeMap<i64, Option<i64>> = c
        .prepare("SELECT seat, player FROM seats WHERE table_id = ?1")?
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let decisions: BTreeMap<i64, i64> = c
        .prepare("SELECT seat, count(*) FROM actions WHERE table_id = ?1 GROUP BY seat")?
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut addresses: BTreeMap<i64, BTreeSet<String>> = BTreeMap::new();
    for player in roster.iter().filter_map(|(_, _, p, _)| *p) {
        let known: Vec<String> = c
            .prepare(
                "SELECT address FROM signup_addresses WHERE player = ?1
                 UNION SELECT address FROM table_addresses WHERE table_id = ?2 AND player = ?1",
            )?
            .query_map(params![player, table], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        addresses.insert(player, known.into_iter().collect());
    }
    let sides: Vec<(usize, Option<i64>)> = roster
        .iter()
        .map(|(_, team, player, _)| (*team as usize, *player))
        .collect();
    let shared = sharing(&sides, &addresses);
    let place_of = |seat: usize| -> u32 {
        match outcome.places.get(seat) {
            Some(p) => *p,
            None if outcome.winners.contains(&seat) => 1,
            None => 2,
        }
    };
    let mut seats = Vec::new();
    let mut how: BTreeMap<Rated, Played> = BTreeMap::new();
    for (seat, team, player, helped) in &roster {
        let who = match player {
            Some(p) => Rated::Player(*p),
            None => Rated::Bot(bot.clone()),
        };
        let place = place_of(*seat as usize);
        let left = player.is_some() && holders.get(seat).copied().flatten() != *player;
        let all = decisions.get(seat).copied().unwrap_or(0);
        let assisted = player.is_some() && (left || *helped as f64 > ASSISTED_SHARE * all as f64);
        let unrated = player
            .filter(|p| shared.contains(p))
            .map(|_| SHARED_ADDRESS);
        let e = how.entry(who.clone()).or_insert(Played {
            place,
            left: false,
            assisted: false,
            unrated,
        });
        e.place = e.place.min(place);
        e.left |= left;
        e.assisted |= assisted;
        if unrated.is_none() {
            seats.push(SeatResult {
                who,
                team: *team as usize,
                place,
                assisted,
            });
        }
    }
    // A person with nobody rated on another side has no game to be rated by.
    for s in &seats {
        if matches!(s.who, Rated::Player(_)) && seats.iter().all(|o| o.team == s.team) {
            if let Some(p) = how.get_mut(&s.who) {
                p.unrated = Some(NO_OPPONENT);
            }
        }
    }
    seats.retain(|s| how.get(&s.who).is_none_or(|p| p.unrated.is_none()));
    let rated_people = how
        .iter()
        .any(|(w, p)| matches!(w, Rated::Player(_)) && p.unrated.is_none());
    let mut before = BTreeMap::new();
    for who in how.keys() {
        let r: Option<(f64, f64, i64)> = c
            .query_row(
                "SELECT mu, sigma, games FROM ratings WHERE game = ?1 AND who = ?2",
                params![game, who.key()],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        if let Some((mu, sigma, games)) = r {
            let rating = WengLinRating::from((mu, sigma));
            before.insert(who.clone(), Prior { rating, games });
        }
    }
    let after = update(&seats, &before);
    let at = finished.unwrap_or_else(crate::store::now);
    for (who, played) in &how {
        let (player, bot) = match who {
            Rated::Player(p) => (Some(*p), None),
            Rated::Bot(b) => (None, Some(b.clone())),
        };
        // A level is in the record of a game that rated somebody.
        if bot.is_some() && !rated_people {
            continue;
        }
        let won = played.place == 1;
        let new = match (played.unrated, after.get(who)) {
            (None, Some(new)) => {
                c.execute(
                    "INSERT INTO ratings (game, who, player, bot, mu, sigma, games, won,
                                          abandoned, updated)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?8, ?9)
                     ON CONFLICT (game, who) DO UPDATE SET mu = ?5, sigma = ?6,
                         games = ratings.games + 1, won = ratings.won + ?7,
                         abandoned = ratings.abandoned + ?8, updated = ?9",
                    params![
                        game,
                        who.key(),
                        player,
                        bot,
                        new.rating,
                        new.uncertainty,
                        won as i64,
                        played.left as i64,
                        at
                    ],
                )?;
                *new
            }
            _ => before.get(who).map(|p| p.rating).unwrap_or_default(),
        };
        c.execute(
            "INSERT INTO rating_history (table_id, who, game, player, mu, sigma, place, won,
                                         abandoned, at, seq, assisted, unrated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,
                     (SELECT coalesce(max(seq), 0) + 1 FROM rating_history WHERE who = ?2),
                     ?11, ?12)",
            params![
                table,
                who.key(),
                game,
                player,
                new.rating,
                new.uncertainty,
                played.place,
                won,
                played.left,
                at,
                played.assisted,
                played.unrated
            ],
        )?;
    }
    c.execute("DELETE FROM table_addresses WHERE table_id = ?1", [table])?;
    Ok(())
}

/// A rating as people see it: [`SCALE`] times the model's, rounded.
fn shown(mu: f64) -> i64 {
    (mu * SCALE).round() as i64
}

/// One player's standing in one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameRating {
    pub game: String,
    /// The rating shown (1500 at first).
    pub rating: i64,
    /// Its uncertainty, on the same scale (500 at first): the true skill is within about
    /// twice this of the rating.
    pub deviation: i64,
    /// Fewer than [`PROVISIONAL_GAMES`] rated games: the rating is a first guess.
    pub provisional: bool,
    pub played: i64,
    pub won: i64,
    pub abandoned: i64,
    /// The rating after each rated game, oldest first.
    pub history: Vec<HistoryPoint>,
}

/// The rating after one rated game.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryPoint {
    pub at: i64,
    /// The table played; `null` for a private one, which does not exist to a stranger.
    pub table: Option<String>,
    pub rating: i64,
    pub deviation: i64,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    pub rank: i64,
    /// The account's player id (`null` for a bot level).
    pub id: Option<i64>,
    pub nickname: String,
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    pub played: i64,
    pub won: i64,
}

/// Most history points a profile sends per game (the latest).
const HISTORY: i64 = 500;

fn ratings_of(c: &Connection, who: &str) -> DbResult<Vec<GameRating>> {
    let rows: Vec<(String, f64, f64, i64, i64, i64)> = c
        .prepare(
            "SELECT game, mu, sigma, games, won, abandoned FROM ratings WHERE who = ?1
             ORDER BY games DESC, game",
        )?
        .query_map([who], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for (game, mu, sigma, played, won, abandoned) in rows {
        let mut history: Vec<HistoryPoint> = c
            .prepare(
                "SELECT h.at, CASE WHEN p.table_id IS NULL THEN h.table_id END, h.mu, h.sigma
                 FROM rating_history h LEFT JOIN private_tables p ON p.table_id = h.table_id
                 WHERE h.game = ?1 AND h.who = ?2 AND h.unrated IS NULL
                 ORDER BY h.at DESC, h.seq DESC LIMIT ?3",
            )?
            .query_map(params![game, who, HISTORY], |r| {
                Ok(HistoryPoint {
                    at: r.get(0)?,
                    table: r.get(1)?,
                    rating: shown(r.get(2)?),
                    deviation: shown(r.get(3)?),
                })
            })?
            .collect::<Result<_, _>>()?;
        history.reverse();
        out.push(GameRating {
            game,
            rating: shown(mu),
            deviation: shown(sigma),
            provisional: played < PROVISIONAL_GAMES,
            played,
            won,
            abandoned,
            history,
        });
    }
    Ok(out)
}

/// A rated game of a player's, for the list of recent ones.
#[derive(Clone, Debug, Serialize)]
pub struct RatedGame {
    pub table: String,
    pub game: String,
    pub at: i64,
    pub place: i64,
    pub won: bool,
    pub abandoned: bool,
    /// The bot played the seat for its person for part of the game (see
    /// [`ASSISTED_SHARE`]): a gain was not kept.
    pub assisted: bool,
    /// Why the game did not rate this person (`null`: it did): [`SHARED_ADDRESS`] or
    /// [`NO_OPPONENT`].
    pub unrated: Option<String>,
    /// The rating after it.
    pub rating: i64,
}

/// The last 20 rated games of `who` at tables that are not private (a private table's
/// game is on no profile, whoever asks).
fn recent_rated(c: &Connection, who: &str) -> DbResult<Vec<RatedGame>> {
    let rows = c
        .prepare(
            "SELECT h.table_id, h.game, h.at, h.place, h.won, h.abandoned, h.mu, h.assisted,
                    h.unrated
             FROM rating_history h
             WHERE h.who = ?1
               AND NOT EXISTS (SELECT 1 FROM private_tables p WHERE p.table_id = h.table_id)
             ORDER BY h.at DESC, h.seq DESC LIMIT 20",
        )?
        .query_map([who], |r| {
            Ok(RatedGame {
                table: r.get(0)?,
                game: r.get(1)?,
                at: r.get(2)?,
                place: r.get(3)?,
                won: r.get(4)?,
                abandoned: r.get(5)?,
                assisted: r.get(7)?,
                unrated: r.get(8)?,
                rating: shown(r.get(6)?),
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// What a profile shows of a rated player: its ratings per game and its recent rated
/// games.
#[derive(Clone, Debug, Serialize)]
pub struct Ratings {
    pub games: Vec<GameRating>,
    pub recent: Vec<RatedGame>,
}

impl Db {
    /// The people seated at a rated game as it starts, with each seat's team (`None`: the
    /// table's bot level): the players its result will rate. Written again if the start
    /// is tried again.
    pub async fn save_roster(
        &self,
        table: String,
        seats: Vec<(usize, Option<i64>)>,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            crate::store::lease::check(c, &fence)?;
            c.execute("DELETE FROM rated_seats WHERE table_id = ?1", [&table])?;
            for (seat, (team, player)) in seats.iter().enumerate() {
                c.execute(
                    "INSERT INTO rated_seats (table_id, seat, team, player) VALUES (?1, ?2, ?3, ?4)",
                    params![table, seat as i64, *team as i64, player],
                )?;
            }
            Ok(())
        })
        .await
    }

    /// Keeps the address an account was made from (see [`network`]): accounts made from
    /// one address are not rated against each other.
    pub async fn note_signup_address(&self, player: i64, address: String) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "INSERT INTO signup_addresses (player, address, at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (player) DO NOTHING",
                params![player, address, crate::store::now()],
            )?;
            Ok(())
        })
        .await
    }

    /// Keeps an address `player` plays the rated table `table` from, until it is rated: at
    /// most [`MAX_TABLE_ADDRESSES`]; past them [`ANY_ADDRESS`], which shares with anyone.
    pub async fn note_table_address(
        &self,
        table: String,
        player: i64,
        address: String,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            crate::store::lease::check(c, &fence)?;
            let known: Vec<String> = c
                .prepare("SELECT address FROM table_addresses WHERE table_id = ?1 AND player = ?2")?
                .query_map(params![table, player], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            if known.contains(&address) || known.iter().any(|a| a == ANY_ADDRESS) {
                return Ok(());
            }
            let address = if known.len() >= MAX_TABLE_ADDRESSES {
                ANY_ADDRESS.to_string()
            } else {
                address
            };
            c.execute(
                "INSERT INTO table_addresses (table_id, player, address) VALUES (?1, ?2, ?3)
                 ON CONFLICT (table_id, player, address) DO NOTHING",
                params![table, player, address],
            )?;
            Ok(())
        })
        .await
    }

    /// The player who holds `seat` of a rated game under way (`None`: the bot level), or
    /// `Err` when the game kept no roster.
    pub async fn rostered(&self, table: String, seat: usize) -> DbResult<Option<i64>> {
        self.call(move |c| {
            c.query_row(
                "SELECT player FROM rated_seats WHERE table_id = ?1 AND seat = ?2",
                params![table, seat as i64],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| DbError(format!("table {table}: no player on record at seat {seat}")))
        })
        .await
    }

    /// Whether a player has an account.
    pub async fn is_account(&self, player: i64) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.query_row(
                "SELECT count(*) FROM accounts WHERE player = ?1",
                [player],
                |r| r.get::<_, i64>(0),
            )? > 0)
        })
        .await
    }

    /// A player's nickname and whether it is an account.
    pub async fn player_kind(&self, id: i64) -> DbResult<Option<(String, bool)>> {
        self.call(move |c| {
            c.query_row(
                "SELECT p.nickname, a.player IS NOT NULL FROM players p
                 LEFT JOIN accounts a ON a.player = p.id WHERE p.id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
        .await
    }

    /// The ratings and recent rated games of `who`.
    pub async fn ratings(&self, who: Rated) -> DbResult<Ratings> {
        self.call(move |c| {
            let key = who.key();
            Ok(Ratings {
                games: ratings_of(c, &key)?,
                recent: recent_rated(c, &key)?,
            })
        })
        .await
    }

    /// A game's leaderboard: accounts with at least [`PROVISIONAL_GAMES`] rated games, best
    /// first, `limit` of them from `offset`; and how many there are in all.
    pub async fn leaderboard(
        &self,
        game: String,
        offset: i64,
        limit: i64,
    ) -> DbResult<(Vec<Standing>, i64)> {
        self.call(move |c| {
            let total: i64 = c.query_row(
                "SELECT count(*) FROM ratings WHERE game = ?1 AND player IS NOT NULL
                 AND games >= ?2",
                params![game, PROVISIONAL_GAMES],
                |r| r.get(0),
            )?;
            let rows = c
                .prepare(
                    "SELECT r.player, p.nickname, r.mu, r.sigma, r.games, r.won FROM ratings r
                     JOIN players p ON p.id = r.player
                     WHERE r.game = ?1 AND r.player IS NOT NULL AND r.games >= ?2
                     ORDER BY r.mu DESC, r.sigma, r.player LIMIT ?3 OFFSET ?4",
                )?
                .query_map(params![game, PROVISIONAL_GAMES, limit, offset], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, f64>(2)?,
                        r.get::<_, f64>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, i64>(5)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            let list = rows
                .into_iter()
                .enumerate()
                .map(|(i, (id, nickname, mu, sigma, played, won))| Standing {
                    rank: offset + i as i64 + 1,
                    id: Some(id),
                    nickname,
                    rating: shown(mu),
                    deviation: shown(sigma),
                    provisional: false,
                    played,
                    won,
                })
                .collect();
            Ok((list, total))
        })
        .await
    }

    /// Every bot level's rating in a game (those that have played a rated game), best first.
    pub async fn bot_ratings(&self, game: String) -> DbResult<Vec<Standing>> {
        self.call(move |c| {
            let rows = c
                .prepare(
                    "SELECT bot, mu, sigma, games, won FROM ratings
                     WHERE game = ?1 AND bot IS NOT NULL ORDER BY mu DESC, bot",
                )?
                .query_map([game], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, f64>(1)?,
                        r.get::<_, f64>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, i64>(4)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows
                .into_iter()
                .enumerate()
                .map(|(i, (bot, mu, sigma, played, won))| Standing {
                    rank: i as i64 + 1,
                    id: None,
                    nickname: bot,
                    rating: shown(mu),
                    deviation: shown(sigma),
                    provisional: played < PROVISIONAL_GAMES,
                    played,
                    won,
                })
                .collect())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::weng_lin::weng_lin;
    use skillratings::Outcomes;

    fn seat(who: Rated, team: usize, place: u32) -> SeatResult {
        SeatResult {
            who,
            team,
            place,
            assisted: false,
        }
    }

    /// A rating resting on `games` rated games.
    fn prior(mu: f64, sigma: f64, games: i64) -> Prior {
        Prior {
            rating: WengLinRating::from((mu, sigma)),
            games,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn two_established_people_move_as_the_crate_moves_one_against_one() {
        let (a, b) = (Rated::Player(1), Rated::Player(2));
        let before = BTreeMap::from([
            (a.clone(), prior(30.0, 5.0, 10)),
            (b.clone(), prior(25.0, 25.0 / 3.0, 12)),
        ]);
        let after = update(&[seat(a.clone(), 0, 1), seat(b.clone(), 1, 2)], &before);
        let (na, nb) = weng_lin(
            &WengLinRating::from((30.0, 5.0)),
            &WengLinRating::new(),
            &Outcomes::WIN,
            &config(),
        );
        assert!(close(after[&a].rating, na.rating));
        assert!(close(after[&a].uncertainty, na.uncertainty));
        assert!(close(after[&b].rating, nb.rating));
        assert!(close(after[&b].uncertainty, nb.uncertainty));
        assert!(after[&a].rating > 30.0 && after[&b].rating < 25.0);
    }

    #[test]
    fn places_with_a_tie_rank_the_tied_seats_together() {
        // Chinchón of three established players: two share first place, the third is last.
        let (a, b, c) = (Rated::Player(1), Rated::Player(2), Rated::Player(3));
        let before = BTreeMap::from([
            (a.clone(), prior(25.0, 25.0 / 3.0, 10)),
            (b.clone(), prior(28.0, 6.0, 40)),
            (c.clone(), prior(25.0, 25.0 / 3.0, 10)),
        ]);
        let seats = [
            seat(a.clone(), 0, 1),
            seat(b.clone(), 1, 1),
            seat(c.clone(), 2, 3),
        ];
        let after = update(&seats, &before);
        let (ra, rb, rc) = (
            WengLinRating::new(),
            WengLinRating::from((28.0, 6.0)),
            WengLinRating::new(),
        );
        let crate_says = weng_lin_multi_team(
            &[
                (&[ra][..], MultiTeamOutcome::new(1)),
                (&[rb][..], MultiTeamOutcome::new(1)),
                (&[rc][..], MultiTeamOutcome::new(3)),
            ],
            &config(),
        );
        for (who, r) in [
            (&a, crate_says[0][0]),
            (&b, crate_says[1][0]),
            (&c, crate_says[2][0]),
        ] {
            assert!(close(after[who].rating, r.rating), "{who:?}");
            assert!(close(after[who].uncertainty, r.uncertainty));
        }
        // Sharing first place with a stronger player and beating the third is a gain; last
        // place is a loss.
        assert!(after[&a].rating > 25.0);
        assert!(after[&c].rating < 25.0);
        assert!(after[&c].uncertainty < 25.0 / 3.0);
    }

    #[test]
    fn a_level_takes_a_step_of_its_seats_changes_against_people_only() {
        // Mus: Ane (established) and the bot against two of the same bot level.
        let (ane, bot) = (Rated::Player(1), Rated::Bot("maestro".into()));
        let seats = [
            seat(ane.clone(), 0, 1),
            seat(bot.clone(), 1, 2),
            seat(bot.clone(), 0, 1),
            seat(bot.clone(), 1, 2),
        ];
        let before = BTreeMap::from([(ane.clone(), prior(25.0, 25.0 / 3.0, 10))]);
        let after = update(&seats, &before);
        let d = WengLinRating::new();
        let teams = [
            (&[d, d][..], MultiTeamOutcome::new(1)),
            (&[d, d][..], MultiTeamOutcome::new(2)),
        ];
        let crate_says = weng_lin_multi_team(&teams, &config());
        // Ane moves as the crate says: bot seats count fully for a person.
        assert!(close(after[&ane].rating, crate_says[0][0].rating));
        // The level: nothing from its seat beside Ane (against its own seats), and from
        // each of its two seats against Ane's side, a step of half (Ane, not the bot).
        let step = BOT_STEP * 0.5 * 2.0 * (crate_says[1][0].rating - 25.0);
        assert!(close(after[&bot].rating, 25.0 + step), "{:?}", after[&bot]);
        assert!(after[&bot].rating < 25.0);
    }

    #[test]
    fn a_provisional_opponent_counts_a_tenth_for_either_side() {
        let (old, new) = (Rated::Player(1), Rated::Player(2));
        let before = BTreeMap::from([(old.clone(), prior(25.0, 25.0 / 3.0, 30))]);
        let (full_old, full_new) = weng_lin(
            &WengLinRating::new(),
            &WengLinRating::new(),
            &Outcomes::WIN,
            &config(),
        );
        // The established player beats the newcomer: a tenth of the gain; the newcomer
        // loses all it would against anybody established.
        let after = update(&[seat(old.clone(), 0, 1), seat(new.clone(), 1, 2)], &before);
        assert!(close(
            after[&old].rating - 25.0,
            PROVISIONAL_WEIGHT * (full_old.rating - 25.0)
        ));
        assert!(close(after[&new].rating, full_new.rating));
        // Two newcomers: a tenth each way, so a win is worth at most a tenth of a full one.
        let after = update(
            &[seat(Rated::Player(3), 0, 1), seat(new.clone(), 1, 2)],
            &BTreeMap::new(),
        );
        let gain = after[&Rated::Player(3)].rating - 25.0;
        assert!(close(gain, PROVISIONAL_WEIGHT * (full_old.rating - 25.0)));
        assert!(gain * SCALE < 16.0, "{}", gain * SCALE);
    }

    #[test]
    fn an_assisted_seat_keeps_its_loss_and_not_its_gain() {
        let (a, b) = (Rated::Player(1), Rated::Bot("experto".into()));
        let mut helped = seat(a.clone(), 0, 1);
        helped.assisted = true;
        let after = update(&[helped.clone(), seat(b.clone(), 1, 2)], &BTreeMap::new());
        assert_eq!(after[&a].rating, 25.0);
        assert_eq!(after[&a].uncertainty, 25.0 / 3.0);
        helped.place = 2;
        let after = update(&[helped, seat(b.clone(), 1, 1)], &BTreeMap::new());
        let (lost, _) = weng_lin(
            &WengLinRating::new(),
            &WengLinRating::new(),
            &Outcomes::LOSS,
            &config(),
        );
        assert!(close(after[&a].rating, lost.rating));
        assert!(after[&a].rating < 25.0);
    }

    #[test]
    fn a_level_learns_only_from_established_people_who_played_their_seats() {
        let (ane, bot) = (Rated::Player(1), Rated::Bot("experto".into()));
        let games = [seat(ane.clone(), 0, 2), seat(bot.clone(), 1, 1)];
        // A newcomer losing to the level does not lift it.
        let after = update(&games, &BTreeMap::new());
        assert_eq!(after[&bot].rating, 25.0);
        assert!(after[&ane].rating < 25.0);
        // An established one does, by a step of what the crate says.
        let before = BTreeMap::from([(ane.clone(), prior(25.0, 25.0 / 3.0, 10))]);
        let after = update(&games, &before);
        let (_, full) = weng_lin(
            &WengLinRating::new(),
            &WengLinRating::new(),
            &Outcomes::LOSS,
            &config(),
        );
        assert!(close(
            after[&bot].rating - 25.0,
            BOT_STEP * (full.rating - 25.0)
        ));
        // Unless the bot played the person's seat too.
        let mut helped = games.clone();
        helped[0].assisted = true;
        assert_eq!(update(&helped, &before)[&bot].rating, 25.0);
    }

    #[test]
    fn people_on_other_sides_who_share_an_address_are_not_rated() {
        let addresses = BTreeMap::from([
            (1, BTreeSet::from(["10.0.0.1".to_string()])),
            (
                2,
                BTreeSet::from(["10.0.0.1".to_string(), "10.0.0.2".into()]),
            ),
            (3, BTreeSet::from(["10.0.0.3".to_string()])),
            (4, BTreeSet::from([ANY_ADDRESS.to_string()])),
        ]);
        // 1 and 2 share 10.0.0.1 on other sides; 3 shares nothing.
        let seats = [(0, Some(1)), (1, Some(2)), (2, Some(3)), (3, None)];
        assert_eq!(sharing(&seats, &addresses), BTreeSet::from([1, 2]));
        // Partners may share one.
        let mus = [(0, Some(1)), (1, Some(3)), (0, Some(2)), (1, None)];
        assert!(sharing(&mus, &addresses).is_empty());
        // A player seen from too many addresses shares with anyone, known or not.
        let seats = [(0, Some(4)), (1, Some(3)), (2, Some(9))];
        assert_eq!(sharing(&seats, &addresses), BTreeSet::from([3, 4, 9]));
    }

    #[test]
    fn an_address_is_kept_whole_for_ipv4_and_by_its_64_for_ipv6() {
        assert_eq!(network("192.0.2.7".parse().unwrap()), "192.0.2.7");
        assert_eq!(network("::ffff:192.0.2.7".parse().unwrap()), "192.0.2.7");
        let a = network("2001:db8:1:2:aaaa::1".parse().unwrap());
        assert_eq!(a, "2001:db8:1:2::/64");
        assert_eq!(network("2001:db8:1:2:ffff::9".parse().unwrap()), a);
        assert_ne!(network("2001:db8:1:3::1".parse().unwrap()), a);
    }
}
