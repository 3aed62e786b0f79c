//! How a game plugs into tapete's front-ends.
//!
//! The [`Game`] contract is what a game *is*; a [`Host`] adds what a table around it needs:
//! its name and title, how many seats it takes, which computer players it offers, how its
//! events are told in words ([`Narrate`]), when seats may change hands, and any extra tools
//! a server may offer beside it (Mus's leyes). A host is a marker type, so that it can live
//! beside the game's bots without tying the engine crate to front-end concerns.
//!
//! Front-ends never name a game: the command line and the terminal take a `H: Host` through
//! a [`Visitor`], and the server holds games erased as [`Kind`] and [`TableGame`]. The list
//! of hosts is the catalog's; nothing here knows it.
//!
//! ```
//! use tapete_host::{kind_of, Kind};
//! use tapete_host::test_race::RaceHost;
//!
//! let kind = kind_of::<RaceHost>();
//! assert_eq!(kind.name(), "race");
//! let mut game = kind.new_game(&serde_json::Value::Null, 2, 7).unwrap();
//! assert_eq!(game.to_act(), vec![0]);
//! let told = game.apply(0, "2").unwrap();
//! assert_eq!(told[0].text, "seat 0 adds: 2");
//! assert_eq!(told[0].phrase.key, "story.race.adds");
//! assert!(game.apply(0, "2").is_err(), "seat 1 is to act");
//! ```

mod erased;
pub mod face;
pub mod golden;
pub mod screening;
#[doc(hidden)]
pub mod test_race;
pub mod text;
pub mod web;

pub use erased::{kind_of, BotJob, Kind, StoredGame, TableGame};
pub use face::Face;
pub use web::WebFace;

use serde_json::Value;
use std::ops::RangeInclusive;
pub use tapete_table::story;
use tapete_table::story::Line;
use tapete_table::{Bot, Game, Seat};

/// A game as the front-ends host it. Implemented by a marker type per game.
pub trait Host: Send + Sync + 'static {
    /// The game's rules engine.
    type G: Game<View: Send, Rules: Default> + PartialEq + std::fmt::Debug;
    /// Tells events in words; one per audience (a seat or the spectators).
    type Narrator: Narrate<Self::G> + Clone + Send + Sync;
    /// What a simulation or an arena counts from the events beyond wins (Mus: lances,
    /// piedras, órdagos); `()` for nothing.
    /// They serialize, so that an arena's shards played apart can be merged.
    type Stats: tapete_table::arena::Observer<Self::G>
        + serde::Serialize
        + serde::de::DeserializeOwned;

    /// The name used on the command line, in the API, in records and in the database
    /// (`"mus"`): the game's own.
    const NAME: &'static str = <Self::G as Game>::NAME;
    /// The name shown to people (`"Mus"`).
    const TITLE: &'static str;
    /// How many seats a table of this game may have.
    const SEATS: RangeInclusive<usize>;
    /// The seat count a table gets when none is chosen.
    const DEFAULT_SEATS: usize;
    /// Whether seats play in partnerships across the table (Mus: 0 and 2 against 1 and 3).
    /// An arena then seats its sides alternately; otherwise side A holds one seat.
    const PARTNERS: bool = false;
    /// Whether a seat's score counts against it (Chinchón's points: the fewer the
    /// better). A league's points difference then takes scores negated.
    const SCORES_AGAINST: bool = false;

    /// The game's pages for the server: its table module `{name}.js` (which draws a table of
    /// the game), its styles, pages of its own and its words, from the front-end crate's
    /// `web/` folder (see [`web_face!`]). None by default: the table page then shows the
    /// view as JSON with a button per legal action.
    const WEB: WebFace = WebFace::NONE;

    /// What each table option means, by key, in a few words (for `--help` and the lobby).
    fn rule_docs() -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// The options an arena plays by default: the game's defaults, or a shorter match
    /// where a whole one would be needlessly long.
    fn arena_rules() -> <Self::G as Game>::Rules {
        Default::default()
    }

    /// The options of a table that plays `boards` duplicate boards — the same deals at
    /// every table given one seed — from `rules`: what a duplicate tournament's tables play.
    /// A game without duplicate play (the default) says so.
    fn duplicate_rules(
        _rules: <Self::G as Game>::Rules,
        _boards: u32,
    ) -> Result<<Self::G as Game>::Rules, String> {
        Err(format!("{} is not played in duplicate", Self::TITLE))
    }

    /// A tournament's courtesy taken juego by juego: `rules` with one more juego given,
    /// before play, to the side `seat` plays on — what the other side loses for each
    /// courtesy time it did not come. `Ok(None)` when that juego would decide the match
    /// (the absent side then loses it outright). A game without juegos to give (the
    /// default) says so.
    fn give_juego(
        _rules: <Self::G as Game>::Rules,
        _seat: Seat,
    ) -> Result<Option<<Self::G as Game>::Rules>, String> {
        Err(format!("{} has no juegos to give one by one", Self::TITLE))
    }

    /// The options another game at the same table plays ("otra", a rematch): by default
    /// the same; options that recorded something of one match only (Mus's juegos given at
    /// a tournament's courtesy) are dropped.
    fn rematch_rules(rules: <Self::G as Game>::Rules) -> <Self::G as Game>::Rules {
        rules
    }

    /// The result of `game` if play stopped now — a tournament's match past its time
    /// limit — by the game's own rules of who is ahead (Mus: vacas, then juegos, then
    /// piedras); `None` (the default) for a game that cannot say, which then plays on.
    fn adjudicate(_game: &Self::G) -> Option<tapete_table::Outcome> {
        None
    }

    /// The built-in computer players, weakest first. Some take parameters after a colon
    /// (`maestro:ms=200`); [`Host::make_bot`] accepts those forms too.
    fn bot_names() -> &'static [&'static str];
    /// The level a new table gets when none is chosen.
    fn default_bot() -> &'static str;
    /// The players a name stands for in a population (a gauntlet's opponents): a family
    /// of players drawn from seeds may take a sample size (Mus: `umbral:30`, thirty
    /// members, each a name [`Host::make_bot`] accepts); any other name is itself.
    fn sample(name: &str) -> Result<Vec<String>, String> {
        Ok(vec![name.to_string()])
    }
    /// A computer player by name (one of [`Host::bot_names`], possibly with parameters),
    /// or an error naming the choices. Outside programs (`cmd:`) are the caller's to make.
    fn make_bot(name: &str) -> Result<Box<dyn Bot<Self::G>>, String>;
    /// An action from its text, or an error that names what is wrong with the text.
    fn parse_action(text: &str) -> Result<<Self::G as Game>::Action, String>;
    /// Checks table options beyond their JSON shape, for a table of `seats` seats.
    fn validate_rules(rules: &<Self::G as Game>::Rules, seats: usize) -> Result<(), String>;
    /// A narrator for `seat` (or a spectator) of `game`, starting from its current state.
    fn narrator(game: &Self::G, seat: Option<Seat>) -> Self::Narrator;
    /// Whether seats may change hands now without anybody having seen another seat's cards
    /// of this hand (between hands, or before anything happened).
    fn at_boundary(game: &Self::G) -> bool;
    /// Everything, every hidden card included: for replays of finished games. It is what
    /// a replay page is sent, so it takes the page's form ([`Host::page_view`]).
    fn full_view(game: &Self::G) -> Value;
    /// `view` as a page receives it, in every state a server sends: by default the view
    /// itself. A game whose view carries what its page never shows trims it here (tikki
    /// keeps only the points of every finished round but the last), so frames stay small
    /// however long the game; bots, the bot protocol, records and golden playthroughs see
    /// the view unchanged.
    fn page_view(view: &<Self::G as Game>::View) -> impl serde::Serialize + '_ {
        view
    }
    /// [`Host::Stats`] as JSON object members, merged into `sim` and `arena` output.
    fn stats_json(_stats: &Self::Stats) -> serde_json::Map<String, Value> {
        serde_json::Map::new()
    }
    /// [`Host::Stats`] as text for `sim` and `arena`, the two sides named `sides`.
    fn stats_text(_stats: &Self::Stats, _sides: [&str; 2]) -> String {
        String::new()
    }
    /// The score of `game` as JSON (`tapete play --json` and `replay --json`).
    fn scores(game: &Self::G) -> Value;
    /// The score of `game` as rows of text, a header row first.
    fn score_rows(game: &Self::G) -> Vec<Vec<String>>;
    /// Every seat's hand face up, one row per seat: what a replay shows after a deal.
    fn hands_rows(game: &Self::G) -> Vec<Vec<String>>;
    /// The game's [`tapete_table::Resample`] (a full state consistent with a seat's view),
    /// for the conformance checks; `None` for games without one. Hosts of resampling games
    /// return `Some(<G as Resample>::resample)`.
    fn resampler() -> Option<tapete_table::conformance::Resampler<Self::G>> {
        None
    }
    /// Whether the game has a review ([`Host::review`]).
    fn reviews() -> bool {
        false
    }
    /// The review of `seat` in `record` ([`tapete_review`]): every real choice it made,
    /// valued from its own view. Games without one refuse.
    fn review(
        _record: &tapete_table::Record<Self::G>,
        _seat: Seat,
        _settings: &tapete_review::Settings,
        _progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<tapete_review::Review, tapete_review::ReviewError> {
        Err(tapete_review::ReviewError::Unsupported(Self::TITLE.into()))
    }
    /// Each decision of `record` weighed for collusion screening
    /// ([`tapete_review::screen`]): what the hidden cards of the chooser's partner — in a
    /// game without partners, of the seat its choice could help — alone explain of it.
    /// Empty (the default) for a game without a screen.
    fn screen(_record: &tapete_table::Record<Self::G>) -> Vec<tapete_review::screen::Screened> {
        Vec::new()
    }
    /// The names of extra tools a server offers for this game (`GET /api/tools/GAME/NAME`).
    fn tools() -> &'static [&'static str] {
        &[]
    }
    /// Runs one of [`Host::tools`] on a query (the URL's parameters as a JSON object).
    fn tool(name: &str, _query: &Value) -> Result<Value, String> {
        Err(format!("{} has no tool `{name}`", Self::NAME))
    }
}

/// Tells a game's events in players' words, one [`Line`] each (a catalog key, its
/// arguments and its English text), for one audience.
///
/// The server keeps the lines of the current and the previous hand for each audience and
/// sends them as data, for each page to tell in its person's language; the terminal prints
/// their English text; replays show each step's. Lines come from the events `apply`
/// returned, never from diffing states.
pub trait Narrate<G: Game> {
    /// Lines for the state the narrator starts from (a new game's first deal).
    fn opening(&mut self, game: &G) -> Vec<Line>;
    /// Lines for one event.
    fn lines(&mut self, event: &G::Event) -> Vec<Line>;
    /// Whether `event` begins a new hand (the story a newcomer is told starts at the
    /// previous one).
    fn begins_hand(&self, event: &G::Event) -> bool;
}

/// Something done with one game's types, chosen by name at run time: the catalog calls
/// `visit::<H>()` with the host the name belongs to.
pub trait Visitor {
    /// What the visit produces.
    type Output;
    /// Does the work for host `H` (every game of the catalog has a terminal face too).
    fn visit<H: Face>(self) -> Self::Output;
}

/// Parses table options for `H`: missing keys take their defaults and unknown keys are
/// refused with the list of known ones (a typo must not pass silently); then
/// [`Host::validate_rules`] checks them as options for a new game.
pub fn parse_rules<H: Host>(rules: &Value, seats: usize) -> Result<<H::G as Game>::Rules, String> {
    let parsed = read_rules::<H>(rules)?;
    H::validate_rules(&parsed, seats)?;
    Ok(parsed)
}

/// Reads table options for `H` as [`parse_rules`] does, without [`Host::validate_rules`]:
/// for games made again from storage, whose options were checked when they were new
/// (bounds added since must not stop them replaying); the game's own `new` still refuses
/// options it cannot play.
pub fn read_rules<H: Host>(rules: &Value) -> Result<<H::G as Game>::Rules, String> {
    let defaults = serde_json::to_value(<H::G as Game>::Rules::default())
        .map_err(|e| format!("{}'s default rules: {e}", H::NAME))?;
    let given = match rules {
        Value::Null => serde_json::Map::new(),
        Value::Object(m) => m.clone(),
        _ => return Err("rules must be a JSON object".into()),
    };
    let unknown = |k: &str| {
        let names: Vec<&str> = match &defaults {
            Value::Object(known) => known.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        format!(
            "unknown rule `{k}` for {}: the rules are {}",
            H::NAME,
            names.join(", ")
        )
    };
    // An option written only when set (Mus's `juegos_given`) is not among the defaults'
    // keys: it is known when the options read back carry it.
    let extra: Vec<String> = match &defaults {
        Value::Object(known) => given
            .keys()
            .filter(|k| !known.contains_key(*k))
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    let mut merged = defaults.clone();
    if let Value::Object(m) = &mut merged {
        m.extend(given);
    }
    let parsed: <H::G as Game>::Rules = serde_json::from_value(merged).map_err(|e| {
        let text = e.to_string();
        match extra
            .iter()
            .find(|k| text.contains(&format!("unknown field `{k}`")))
        {
            Some(k) => unknown(k),
            None => format!("rules: {e}"),
        }
    })?;
    if !extra.is_empty() {
        let back = serde_json::to_value(&parsed).unwrap_or(Value::Null);
        if let Some(k) = extra.iter().find(|k| back.get(k.as_str()).is_none()) {
            return Err(unknown(k));
        }
    }
    Ok(parsed)
}

/// Checks a seat count against `H::SEATS`, naming the range when it is outside.
pub fn check_seats<H: Host>(seats: usize) -> Result<(), String> {
    if H::SEATS.contains(&seats) {
        Ok(())
    } else if H::SEATS.start() == H::SEATS.end() {
        Err(format!(
            "{} is played by {} players, not {seats}",
            H::TITLE,
            H::SEATS.start()
        ))
    } else {
        Err(format!(
            "{} is played by {}–{} players, not {seats}",
            H::TITLE,
            H::SEATS.start(),
            H::SEATS.end()
        ))
    }
}

/// A computer player for `H` by name: a built-in level ([`Host::make_bot`]) or
/// `cmd:COMMAND`, an outside program speaking the bot protocol, waiting at most `timeout`
/// for each answer (the `random` player decides whatever the program fails to). Only
/// trusted front-ends (the command line) should accept `cmd:`; the server never does.
pub fn bot_by_name<H: Host>(
    name: &str,
    timeout: std::time::Duration,
) -> Result<Box<dyn Bot<H::G>>, String> {
    let trimmed = name.trim();
    let (level, command) = trimmed.split_once(':').unwrap_or((trimmed, ""));
    if level.trim().eq_ignore_ascii_case("cmd") {
        let command = command.trim();
        if command.is_empty() {
            return Err(format!(
                "`cmd:` needs a command to run, e.g. cmd:python3 {}_bot.py",
                H::NAME
            ));
        }
        let options = tapete_table::ProcessOptions {
            timeout,
            ..tapete_table::ProcessOptions::new(H::NAME)
        };
        return Ok(Box::new(tapete_table::ProcessBot::new(
            command,
            options,
            Box::new(tapete_table::RandomBot),
        )));
    }
    H::make_bot(trimmed)
}
