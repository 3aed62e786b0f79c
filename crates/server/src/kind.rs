//! How a game plugs into the server: [`ServerGame`] adds to the shared [`Game`] contract
//! the few things a table host needs (a name, bot names, narration, when seats may change
//! hands), and [`kind_of`] erases it into the object-safe [`Kind`] and [`TableGame`] the
//! server core holds. The core never names a concrete game.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::marker::PhantomData;
use tapete_table::{Bot, Game, Outcome, Seat};

/// A game the server can host.
pub trait ServerGame: Game<View: Send> {
    /// The name used in the API and the database (`"mus"`).
    const NAME: &'static str;
    /// The name shown to people (`"Mus"`).
    const TITLE: &'static str;
    /// Seats at a table.
    const SEATS: usize;

    /// The bot levels a table may fill its empty seats with, weakest first.
    fn bot_names() -> &'static [&'static str];
    /// The level a new table gets when none is chosen.
    fn default_bot() -> &'static str;
    /// A bot of one of [`ServerGame::bot_names`].
    fn make_bot(name: &str) -> Result<Box<dyn Bot<Self>>, String>;
    /// An action from its text, or an error that names what is wrong with the text.
    fn parse_action(text: &str) -> Result<Self::Action, String>;
    /// Checks table options beyond their JSON shape.
    fn validate_rules(rules: &Self::Rules) -> Result<(), String>;
    /// The story of the current and previous hand as `view` shows it, one line per event,
    /// told to `seat` (or to a spectator).
    fn narrate(view: &Self::View, seat: Option<Seat>) -> Vec<String>;
    /// Whether seats may change hands now (between hands, or before anything happened).
    fn at_boundary(&self) -> bool;
    /// Everything, every hidden card included: for replays of finished games.
    fn full_view(&self) -> Value;
}

/// A kind of game, erased: what the lobby and table creation need.
pub trait Kind: Send + Sync {
    /// See [`ServerGame::NAME`].
    fn name(&self) -> &'static str;
    /// See [`ServerGame::TITLE`].
    fn title(&self) -> &'static str;
    /// See [`ServerGame::SEATS`].
    fn seats(&self) -> usize;
    /// The default table options, as JSON.
    fn default_rules(&self) -> Value;
    /// See [`ServerGame::bot_names`].
    fn bot_names(&self) -> &'static [&'static str];
    /// See [`ServerGame::default_bot`].
    fn default_bot(&self) -> &'static str;
    /// A new game from options (missing keys take defaults; unknown keys are refused)
    /// and a seed.
    fn new_game(&self, rules: &Value, seed: u64) -> Result<Box<dyn TableGame>, String>;
}

/// A game in progress, erased. Actions travel as their text form.
pub trait TableGame: Send + Sync {
    /// The options the game was made with, every key filled in.
    fn rules(&self) -> Value;
    /// The seats that may act now (empty once over).
    fn to_act(&self) -> Vec<Seat>;
    /// The actions `seat` may take now, as text.
    fn legal(&self, seat: Seat) -> Vec<String>;
    /// The canonical text of `action` if `seat` may play it now, or why not. Equivalent
    /// spellings (`envido` for `envido 2`) become the one text records store.
    fn check(&self, seat: Seat, action: &str) -> Result<String, String>;
    /// Parses and applies one action; on error nothing changed.
    fn apply(&mut self, seat: Seat, action: &str) -> Result<(), String>;
    /// What `seat` may know (`None`: a spectator), as JSON.
    fn view(&self, seat: Option<Seat>) -> Value;
    /// The narration of the current and previous hand, for `seat` (or a spectator).
    fn lines(&self, seat: Option<Seat>) -> Vec<String>;
    /// [`TableGame::view`] as JSON text, made without an intermediate JSON tree: what a
    /// table sends every seat after every action.
    fn view_text(&self, seat: Option<Seat>) -> String;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// See [`ServerGame::at_boundary`].
    fn at_boundary(&self) -> bool;
    /// See [`ServerGame::full_view`].
    fn full_view(&self) -> Value;
    /// A copy of the game, to try an action before it is stored.
    fn clone_box(&self) -> Box<dyn TableGame>;
    /// A decision for the bot `bot` at `seat`, packed to run on another thread: it holds
    /// only that seat's view and legal actions, never the game.
    fn bot_job(&self, seat: Seat, bot: &str, seed: u64) -> Result<BotJob, String>;
}

/// A bot's decision waiting to run; it returns the action's text.
pub type BotJob = Box<dyn FnOnce() -> String + Send>;

struct KindOf<G>(PhantomData<fn() -> G>);

/// The erased kind of `G`.
pub fn kind_of<G: ServerGame>() -> std::sync::Arc<dyn Kind>
where
    G::Rules: Default,
{
    std::sync::Arc::new(KindOf::<G>(PhantomData))
}

/// Parses options, refusing keys the game does not know (a typo must not pass silently).
fn parse_rules<G: ServerGame>(rules: &Value) -> Result<G::Rules, String>
where
    G::Rules: Default,
{
    let defaults = serde_json::to_value(G::Rules::default()).map_err(|e| e.to_string())?;
    let given = match rules {
        Value::Null => serde_json::Map::new(),
        Value::Object(m) => m.clone(),
        _ => return Err("rules must be a JSON object".into()),
    };
    if let Value::Object(known) = &defaults {
        if let Some(k) = given.keys().find(|k| !known.contains_key(*k)) {
            let names: Vec<&str> = known.keys().map(String::as_str).collect();
            return Err(format!(
                "unknown rule `{k}` for {}: the rules are {}",
                G::NAME,
                names.join(", ")
            ));
        }
    }
    let parsed: G::Rules =
        serde_json::from_value(Value::Object(given)).map_err(|e| format!("rules: {e}"))?;
    G::validate_rules(&parsed)?;
    Ok(parsed)
}

impl<G: ServerGame> Kind for KindOf<G>
where
    G::Rules: Default,
{
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn title(&self) -> &'static str {
        G::TITLE
    }
    fn seats(&self) -> usize {
        G::SEATS
    }
    fn default_rules(&self) -> Value {
        serde_json::to_value(G::Rules::default()).unwrap_or(Value::Null)
    }
    fn bot_names(&self) -> &'static [&'static str] {
        G::bot_names()
    }
    fn default_bot(&self) -> &'static str {
        G::default_bot()
    }
    fn new_game(&self, rules: &Value, seed: u64) -> Result<Box<dyn TableGame>, String> {
        let rules = parse_rules::<G>(rules)?;
        let game = G::new(&rules, G::SEATS, seed).map_err(|e| e.to_string())?;
        Ok(Box::new(Erased { game, rules }))
    }
}

#[derive(Clone)]
struct Erased<G: Game> {
    game: G,
    rules: G::Rules,
}

impl<G: ServerGame> TableGame for Erased<G> {
    fn rules(&self) -> Value {
        serde_json::to_value(&self.rules).unwrap_or(Value::Null)
    }
    fn to_act(&self) -> Vec<Seat> {
        self.game.to_act().seats().to_vec()
    }
    fn legal(&self, seat: Seat) -> Vec<String> {
        self.game
            .legal_actions(seat)
            .iter()
            .map(ToString::to_string)
            .collect()
    }
    fn check(&self, seat: Seat, action: &str) -> Result<String, String> {
        let parsed = G::parse_action(action)?;
        if !self.game.to_act().seats().contains(&seat) {
            return Err(format!("it is not seat {seat}'s turn"));
        }
        let legal = self.game.legal_actions(seat);
        if legal.contains(&parsed) {
            Ok(parsed.to_string())
        } else {
            let list: Vec<String> = legal.iter().map(ToString::to_string).collect();
            Err(format!(
                "`{parsed}` is not legal now; legal: {}",
                list.join(", ")
            ))
        }
    }
    fn apply(&mut self, seat: Seat, action: &str) -> Result<(), String> {
        let parsed = G::parse_action(action)?;
        self.game
            .apply(seat, &parsed)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    fn view(&self, seat: Option<Seat>) -> Value {
        let v = match seat {
            Some(s) => self.game.view(s),
            None => self.game.spectator_view(),
        };
        serde_json::to_value(v).unwrap_or(Value::Null)
    }
    fn lines(&self, seat: Option<Seat>) -> Vec<String> {
        let v = match seat {
            Some(s) => self.game.view(s),
            None => self.game.spectator_view(),
        };
        G::narrate(&v, seat)
    }
    fn view_text(&self, seat: Option<Seat>) -> String {
        let text = match seat {
            Some(s) => serde_json::to_string(&self.game.view(s)),
            None => serde_json::to_string(&self.game.spectator_view()),
        };
        text.unwrap_or_else(|_| "null".into())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn at_boundary(&self) -> bool {
        self.game.at_boundary()
    }
    fn full_view(&self) -> Value {
        self.game.full_view()
    }
    fn clone_box(&self) -> Box<dyn TableGame> {
        Box::new(self.clone())
    }
    fn bot_job(&self, seat: Seat, bot: &str, seed: u64) -> Result<BotJob, String> {
        let mut b = G::make_bot(bot)?;
        let view = self.game.view(seat);
        let legal = self.game.legal_actions(seat);
        if legal.is_empty() {
            return Err(format!("seat {seat} has nothing to do"));
        }
        Ok(Box::new(move || {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let a = b.act(&view, &legal, &mut rng);
            // A bot answering outside `legal` would be a bot bug; the table refuses it
            // like any other action, so the first legal one is the safe fallback.
            if legal.contains(&a) {
                a.to_string()
            } else {
                legal[0].to_string()
            }
        }))
    }
}
