//! What ratings store: every rating and its history, the rated games' players
//! (`rated_seats`), the addresses they played from, and the update of a finished rated
//! table, written in the transaction that finishes it ([`rate_table`]).

use super::*;
use crate::store::{params, Connection, OptionalExtension};
use crate::store::{Db, DbError, DbResult};

/// A finished table as rating reads it: game, rated, bot level, outcome, when finished.
pub(crate) type FinishedRow = (String, bool, String, Option<String>, Option<i64>);

/// How a person came out of a rated game, beside their rating: their best place, whether
/// they left the seat, whether the bot played it for them, and why it was not rated.
#[derive(Clone, Debug)]
pub(crate) struct Played {
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
pub(crate) fn shown(mu: f64) -> i64 {
    (mu * SCALE).round() as i64
}

/// Most history points a profile sends per game (the latest).
pub(crate) const HISTORY: i64 = 500;

pub(crate) fn ratings_of(c: &Connection, who: &str) -> DbResult<Vec<GameRating>> {
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
pub(crate) fn recent_rated(c: &Connection, who: &str) -> DbResult<Vec<RatedGame>> {
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
