//! The games this server hosts. Adding a game means implementing [`ServerGame`] for it and
//! listing it in [`all`]; nothing else in the server changes.

use crate::kind::{kind_of, Kind, ServerGame};
use serde_json::{json, Value};
use tapete_mus::narrate::Narrator;
use tapete_mus::view::Phase;
use tapete_mus::{Event, MusGame, MusRules, MusView};
use tapete_table::{Bot, Game, Seat};

/// Every game kind the server offers, in lobby order.
pub fn all() -> Vec<std::sync::Arc<dyn Kind>> {
    vec![kind_of::<MusGame>()]
}

/// Bot levels a Mus table may use. Program bots (`cmd:`) are not offered: a web client
/// must never choose a command for the server to run.
const MUS_BOTS: &[&str] = &["random", "basico", "avanzado", "experto", "maestro"];

impl ServerGame for MusGame {
    const NAME: &'static str = "mus";
    const TITLE: &'static str = "Mus";
    const SEATS: usize = 4;

    fn bot_names() -> &'static [&'static str] {
        MUS_BOTS
    }

    fn default_bot() -> &'static str {
        "avanzado"
    }

    fn make_bot(name: &str) -> Result<Box<dyn Bot<Self>>, String> {
        if !MUS_BOTS.contains(&name) {
            return Err(format!(
                "`{name}` is not a bot level: choose one of {}",
                MUS_BOTS.join(", ")
            ));
        }
        tapete_mus_bots::by_name(name)
    }

    fn parse_action(text: &str) -> Result<tapete_mus::Action, String> {
        text.parse()
            .map_err(|e: tapete_mus::action::ParseActionError| format!("`{text}`: {e}"))
    }

    fn validate_rules(rules: &MusRules) -> Result<(), String> {
        rules.validate()
    }

    fn narrate(view: &MusView, seat: Option<Seat>) -> Vec<String> {
        let mut out = Vec::new();
        let base = match seat {
            Some(s) => Narrator::for_seat(s),
            None => Narrator::new(),
        }
        .with_mode(view.rules.mode);
        if let Some(last) = &view.last_hand {
            let mut n = base.clone().with_mano(last.mano);
            for e in &last.log {
                out.extend(n.lines(e));
            }
        }
        let mut n = base.with_mano(view.mano);
        for e in &view.log {
            out.extend(n.lines(e));
        }
        out
    }

    fn at_boundary(&self) -> bool {
        let v = self.view_without_history(0);
        match v.phase {
            Phase::Over => true,
            Phase::Mus => {
                v.mus_rounds == 0 && !v.log.iter().any(|e| matches!(e, Event::Said { .. }))
            }
            _ => false,
        }
    }

    fn full_view(&self) -> Value {
        let mut v = serde_json::to_value(self.spectator_view()).unwrap_or(Value::Null);
        let hands: Vec<Value> = (0..4)
            .map(|s| json!(self.cards_of(s).iter().collect::<Vec<_>>()))
            .collect();
        if let Value::Object(m) = &mut v {
            m.insert("hands".into(), Value::Array(hands));
        }
        v
    }
}
