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

use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use tapete_table::Outcome;

mod store;
pub use store::*;

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

/// What a profile shows of a rated player: its ratings per game and its recent rated
/// games.
#[derive(Clone, Debug, Serialize)]
pub struct Ratings {
    pub games: Vec<GameRating>,
    pub recent: Vec<RatedGame>,
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
