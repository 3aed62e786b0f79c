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
//! A bot level is a rated player of each game it plays: the seats the table's bot holds
//! are that level's. When one level holds several seats of a game (a person with three
//! `maestro` bots), each seat is rated as if it were a player of its own, from the level's
//! rating before the game, and the level takes the sum of those changes (its seats on
//! both sides of a Mus game cancel out) and the smallest of their uncertainties.
//!
//! The players of a rated game are the people seated when it starts (and the bot level in
//! the other seats), kept in `rated_seats`; nobody else sits at it afterwards. A person
//! who stands up before the end still gets the result their seat reached (the bot played
//! it for them), and the game counts as abandoned for them. The update is written in the
//! same transaction as the end of the game ([`rate_table`], called from the storage's
//! finishing writes), and once per table: a table is rated exactly once, whatever crashes.

use crate::store::{params, Connection, OptionalExtension};
use crate::store::{Db, DbError, DbResult};
use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::BTreeMap;
use tapete_table::Outcome;

/// What a skill of the model is shown as: `mu` and `sigma` times this (1500 ± 500 at first).
pub const SCALE: f64 = 60.0;
/// Rated games under which a rating is provisional (shown with a `?`), and the least a
/// player needs to be on a leaderboard.
pub const PROVISIONAL_GAMES: i64 = 10;

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
}

/// The model's settings: the crate's defaults.
fn config() -> WengLinConfig {
    WengLinConfig::new()
}

/// The new rating of everyone at a finished game, from their ratings before it (a player
/// with none starts from the default). Teams are ranked by the best place of their seats.
pub fn update(
    seats: &[SeatResult],
    before: &BTreeMap<Rated, WengLinRating>,
) -> BTreeMap<Rated, WengLinRating> {
    let rating_of = |w: &Rated| before.get(w).copied().unwrap_or_default();
    let mut teams: BTreeMap<usize, (Vec<usize>, u32)> = BTreeMap::new();
    for (i, s) in seats.iter().enumerate() {
        let t = teams.entry(s.team).or_insert((Vec::new(), u32::MAX));
        t.0.push(i);
        t.1 = t.1.min(s.place);
    }
    let ratings: Vec<Vec<WengLinRating>> = teams
        .values()
        .map(|(members, _)| members.iter().map(|&i| rating_of(&seats[i].who)).collect())
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .values()
        .zip(&ratings)
        .map(|((_, place), r)| (r.as_slice(), MultiTeamOutcome::new(*place as usize)))
        .collect();
    let after = weng_lin_multi_team(&ranked, &config());
    let mut out: BTreeMap<Rated, WengLinRating> = BTreeMap::new();
    for ((members, _), new) in teams.values().zip(&after) {
        for (&i, n) in members.iter().zip(new) {
            let who = &seats[i].who;
            let old = rating_of(who);
            let e = out.entry(who.clone()).or_insert(old);
            e.rating += n.rating - old.rating;
            e.uncertainty = e.uncertainty.min(n.uncertainty);
        }
    }
    out
}

/// A finished table as rating reads it: game, rated, bot level, outcome, when finished.
type FinishedRow = (String, bool, String, Option<String>, Option<i64>);

/// Rates a table that has just finished, inside the transaction that finished it: every
/// player of its roster (account or bot level) gets its update, its history point and
/// its counts. Does nothing for an unrated table, one already rated, or one whose roster
/// or outcome cannot be read (said on the log: the end of a game is never refused for
/// its rating).
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
    let roster: Vec<(i64, i64, Option<i64>)> = c
        .prepare("SELECT seat, team, player FROM rated_seats WHERE table_id = ?1 ORDER BY seat")?
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    if roster.is_empty() {
        eprintln!("table {table}: not rated, it has no players on record");
        return Ok(());
    }
    let holders: BTreeMap<i64, Option<i64>> = c
        .prepare("SELECT seat, player FROM seats WHERE table_id = ?1")?
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let place_of = |seat: usize| -> u32 {
        match outcome.places.get(seat) {
            Some(p) => *p,
            None if outcome.winners.contains(&seat) => 1,
            None => 2,
        }
    };
    let mut seats = Vec::new();
    // Per rated player: best place, and whether they left their seat.
    let mut how: BTreeMap<Rated, (u32, bool, Option<i64>)> = BTreeMap::new();
    for (seat, team, player) in &roster {
        let who = match player {
            Some(p) => Rated::Player(*p),
            None => Rated::Bot(bot.clone()),
        };
        let place = place_of(*seat as usize);
        let left = player.is_some() && holders.get(seat).copied().flatten() != *player;
        let e = how.entry(who.clone()).or_insert((place, false, *player));
        e.0 = e.0.min(place);
        e.1 |= left;
        seats.push(SeatResult {
            who,
            team: *team as usize,
            place,
        });
    }
    let mut before = BTreeMap::new();
    for who in how.keys() {
        let r: Option<(f64, f64)> = c
            .query_row(
                "SELECT mu, sigma FROM ratings WHERE game = ?1 AND who = ?2",
                params![game, who.key()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some(r) = r {
            before.insert(who.clone(), WengLinRating::from(r));
        }
    }
    let after = update(&seats, &before);
    let at = finished.unwrap_or_else(crate::store::now);
    for (who, new) in &after {
        let (place, left, player) = how[who];
        let bot = match who {
            Rated::Bot(b) => Some(b.clone()),
            Rated::Player(_) => None,
        };
        let won = place == 1;
        c.execute(
            "INSERT INTO ratings (game, who, player, bot, mu, sigma, games, won, abandoned, updated)
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
                left as i64,
                at
            ],
        )?;
        c.execute(
            "INSERT INTO rating_history (table_id, who, game, player, mu, sigma, place, won,
                                         abandoned, at, seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,
                     (SELECT coalesce(max(seq), 0) + 1 FROM rating_history WHERE who = ?2))",
            params![
                table,
                who.key(),
                game,
                player,
                new.rating,
                new.uncertainty,
                place,
                won,
                left,
                at
            ],
        )?;
    }
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
                 WHERE h.game = ?1 AND h.who = ?2
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
    /// The rating after it.
    pub rating: i64,
}

/// The last 20 rated games of `who` at tables that are not private (a private table's
/// game is on no profile, whoever asks).
fn recent_rated(c: &Connection, who: &str) -> DbResult<Vec<RatedGame>> {
    let rows = c
        .prepare(
            "SELECT h.table_id, h.game, h.at, h.place, h.won, h.abandoned, h.mu
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
        SeatResult { who, team, place }
    }

    #[test]
    fn two_seats_move_as_the_crate_moves_one_against_one() {
        let (a, b) = (Rated::Player(1), Rated::Bot("x".into()));
        let mut before = BTreeMap::new();
        before.insert(a.clone(), WengLinRating::from((30.0, 5.0)));
        let after = update(&[seat(a.clone(), 0, 1), seat(b.clone(), 1, 2)], &before);
        let (na, nb) = weng_lin(
            &WengLinRating::from((30.0, 5.0)),
            &WengLinRating::new(),
            &Outcomes::WIN,
            &config(),
        );
        assert!((after[&a].rating - na.rating).abs() < 1e-12);
        assert!((after[&a].uncertainty - na.uncertainty).abs() < 1e-12);
        assert!((after[&b].rating - nb.rating).abs() < 1e-12);
        assert!(after[&a].rating > 30.0 && after[&b].rating < 25.0);
    }

    #[test]
    fn places_with_a_tie_rank_the_tied_seats_together() {
        // Chinchón of three: two share first place, the third is last.
        let (a, b, c) = (Rated::Player(1), Rated::Player(2), Rated::Player(3));
        let mut before = BTreeMap::new();
        before.insert(b.clone(), WengLinRating::from((28.0, 6.0)));
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
            assert!((after[who].rating - r.rating).abs() < 1e-12, "{who:?}");
            assert!((after[who].uncertainty - r.uncertainty).abs() < 1e-12);
        }
        // Sharing first place with a stronger player and beating the third is a gain; last
        // place is a loss.
        assert!(after[&a].rating > 25.0);
        assert!(after[&c].rating < 25.0);
        assert!(after[&c].uncertainty < 25.0 / 3.0);
    }

    #[test]
    fn a_level_on_both_sides_takes_the_sum_of_its_seats_changes() {
        // Mus: Ane and the bot against two of the same bot level.
        let (ane, bot) = (Rated::Player(1), Rated::Bot("maestro".into()));
        let seats = [
            seat(ane.clone(), 0, 1),
            seat(bot.clone(), 1, 2),
            seat(bot.clone(), 0, 1),
            seat(bot.clone(), 1, 2),
        ];
        let after = update(&seats, &BTreeMap::new());
        let d = WengLinRating::new();
        let teams = [
            (&[d, d][..], MultiTeamOutcome::new(1)),
            (&[d, d][..], MultiTeamOutcome::new(2)),
        ];
        let crate_says = weng_lin_multi_team(&teams, &config());
        assert!((after[&ane].rating - crate_says[0][0].rating).abs() < 1e-12);
        let sum = (crate_says[0][1].rating - 25.0) + 2.0 * (crate_says[1][0].rating - 25.0);
        assert!((after[&bot].rating - (25.0 + sum)).abs() < 1e-12);
    }
}
