//! Mus as tapete's front-ends host it: its name, four seats, the bot levels, narration
//! from the engine's events, seat-change boundaries, the full view for replays and the
//! leyes tool.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use tapete_host::row;
use tapete_host::story::Line;
use tapete_host::{Host, Narrate, WebFace};
use tapete_mus::narrate::{cards_text, jugada_of, seat_label, Narrator};
use tapete_mus::view::Phase;
use tapete_mus::{Event, MusGame, MusRules};
use tapete_table::conformance::Resampler;
use tapete_table::{Bot, Game, Resample, Seat};

/// The host of [`MusGame`].
pub struct MusHost;

/// Mus's narrator for one audience: the engine's [`Narrator`], speaking to a seat or to
/// the spectators.
#[derive(Clone, Debug)]
pub struct MusNarrator(Narrator);

impl Narrate<MusGame> for MusNarrator {
    fn opening(&mut self, game: &MusGame) -> Vec<Line> {
        let view = game.view_without_history(0);
        view.log.iter().flat_map(|e| self.0.told(e)).collect()
    }

    fn lines(&mut self, event: &Event) -> Vec<Line> {
        self.0.told(event)
    }

    fn begins_hand(&self, event: &Event) -> bool {
        matches!(event, Event::HandStarted { .. })
    }
}

impl Host for MusHost {
    type G = MusGame;
    type Narrator = MusNarrator;
    type Stats = crate::stats::MusStats;
    const TITLE: &'static str = "Mus";
    /// Mus's table page, its leyes calculator (`/leyes`) and their words.
    const WEB: WebFace = tapete_host::web_face!(
        files: ["mus.js", "leyes.html", "leyes.js", "leyes.css"],
        catalogs: ["en", "es"],
    );
    const SEATS: std::ops::RangeInclusive<usize> = 4..=4;
    const DEFAULT_SEATS: usize = 4;
    const PARTNERS: bool = true;

    fn rule_docs() -> &'static [(&'static str, &'static str)] {
        &[
            (
                "mode",
                "deck mode: 8reyes (3s are reyes, 2s are ases) or 4reyes",
            ),
            (
                "real31",
                "31 real: 7-7-7 with a figure beats every other 31",
            ),
            ("target", "piedras to win a juego: 30 or 40"),
            ("juegos", "juegos per vaca (best of N): 1, 3 or 5"),
            ("vacas", "vacas per match (best of N): 1, 3 or 5"),
            ("punto_y_miedo", "a first bet declined at punto pays 2"),
            (
                "senas",
                "partners pass a seña each hand (from the second juego on)",
            ),
            (
                "boards",
                "duplicate boards: 0 plays juegos; 1 to 32 plays that many boards, one hand \
                 each from 0–0, won on net piedras",
            ),
        ]
    }

    /// `boards` boards (1 to [`tapete_mus::MAX_BOARDS`]), each the first hand of a juego:
    /// juegos and vacas do not count, and a board has no señas.
    fn duplicate_rules(rules: MusRules, boards: u32) -> Result<MusRules, String> {
        let max = u32::from(tapete_mus::MAX_BOARDS);
        if !(1..=max).contains(&boards) {
            return Err(format!(
                "a duplicate table plays 1 to {max} boards, not {boards}"
            ));
        }
        Ok(MusRules {
            boards: boards as u8,
            senas: false,
            ..rules
        })
    }

    /// One more juego given to the pair of `seat` ([`MusRules::with_juego_given`]).
    fn give_juego(rules: MusRules, seat: Seat) -> Result<Option<MusRules>, String> {
        rules.with_juego_given((seat % 2) as u8)
    }

    /// Every lance's betting weighed with and without the partner's cards
    /// ([`tapete_mus_bots::screen`]).
    fn screen(record: &tapete_table::Record<MusGame>) -> Vec<tapete_review::screen::Screened> {
        tapete_mus_bots::screen::screen(record)
    }

    /// A rematch starts level: the juegos given at a tournament's courtesy were that
    /// match's.
    fn rematch_rules(rules: MusRules) -> MusRules {
        MusRules {
            juegos_given: Vec::new(),
            ..rules
        }
    }

    /// One juego to the target: an arena counts juegos.
    fn arena_rules() -> MusRules {
        MusRules {
            juegos: 1,
            vacas: 1,
            ..MusRules::default()
        }
    }

    /// Who is ahead where play stands ([`MusGame::standing_now`]).
    fn adjudicate(game: &MusGame) -> Option<tapete_table::Outcome> {
        Some(game.standing_now())
    }

    fn bot_names() -> &'static [&'static str] {
        tapete_mus_bots::PLAYERS
    }

    fn default_bot() -> &'static str {
        "avanzado"
    }

    fn sample(name: &str) -> Result<Vec<String>, String> {
        Ok(tapete_mus_bots::umbral::sample(name)?.unwrap_or_else(|| vec![name.to_string()]))
    }

    fn make_bot(name: &str) -> Result<Box<dyn Bot<MusGame>>, String> {
        if name.trim().to_lowercase().starts_with("cmd:") {
            return Err("outside programs are not a built-in level".into());
        }
        tapete_mus_bots::by_name(name)
    }

    fn parse_action(text: &str) -> Result<tapete_mus::Action, String> {
        text.parse()
            .map_err(|e: tapete_mus::action::ParseActionError| format!("`{text}`: {e}"))
    }

    fn validate_rules(rules: &MusRules, _seats: usize) -> Result<(), String> {
        rules.validate()?;
        // Señas start at the match's second juego: a match of one juego never shows one.
        if rules.senas && rules.juegos == 1 && rules.vacas == 1 {
            return Err(
                "señas are passed from the second juego of the match on, and a match \
                        of 1 juego in 1 vaca has no second: choose more juegos or vacas, or \
                        turn señas off"
                    .into(),
            );
        }
        Ok(())
    }

    fn narrator(game: &MusGame, seat: Option<Seat>) -> MusNarrator {
        let base = match seat {
            Some(s) => Narrator::for_seat(s),
            None => Narrator::new(),
        };
        let view = game.view_without_history(0);
        MusNarrator(base.with_mode(view.rules.mode))
    }

    fn at_boundary(game: &MusGame) -> bool {
        let v = game.view_without_history(0);
        match v.phase {
            Phase::Over => true,
            Phase::Mus => {
                v.mus_rounds == 0 && !v.log.iter().any(|e| matches!(e, Event::Said { .. }))
            }
            _ => false,
        }
    }

    fn stats_json(stats: &crate::stats::MusStats) -> serde_json::Map<String, Value> {
        crate::stats::to_json(stats)
    }

    fn stats_text(stats: &crate::stats::MusStats, sides: [&str; 2]) -> String {
        crate::stats::to_text(stats, sides)
    }

    fn scores(game: &MusGame) -> Value {
        json!(game.scores())
    }

    fn score_rows(game: &MusGame) -> Vec<Vec<String>> {
        let scores = game.scores();
        let mut rows = vec![row!["", "piedras", "games", "vacas"]];
        for pair in 0..2 {
            rows.push(row![
                format!("pair {}–{}", pair, pair + 2),
                scores.piedras[pair],
                scores.games[pair],
                scores.vacas[pair]
            ]);
        }
        rows
    }

    fn hands_rows(game: &MusGame) -> Vec<Vec<String>> {
        (0..4)
            .map(|seat| {
                let cards = game.cards_of(seat).to_vec();
                let jugada = jugada_of(&cards, game.rules().mode).map(|j| j.to_string());
                vec![
                    seat_label(seat, game.mano()),
                    cards_text(&cards),
                    jugada.unwrap_or_default(),
                ]
            })
            .collect()
    }

    fn full_view(game: &MusGame) -> Value {
        let mut v = serde_json::to_value(game.spectator_view()).unwrap_or(Value::Null);
        let hands: Vec<Value> = (0..4)
            .map(|s| json!(game.cards_of(s).iter().collect::<Vec<_>>()))
            .collect();
        if let Value::Object(m) = &mut v {
            m.insert("hands".into(), Value::Array(hands));
        }
        v
    }

    fn resampler() -> Option<Resampler<MusGame>> {
        Some(<MusGame as Resample>::resample)
    }

    fn reviews() -> bool {
        true
    }

    fn review(
        record: &tapete_table::Record<MusGame>,
        seat: tapete_table::Seat,
        settings: &tapete_review::Settings,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<tapete_review::Review, tapete_review::ReviewError> {
        tapete_review::review(
            &tapete_mus_bots::review::MusReviewer,
            record,
            seat,
            settings,
            progress,
        )
    }

    fn tools() -> &'static [&'static str] {
        &["leyes"]
    }

    fn tool(name: &str, query: &Value) -> Result<Value, String> {
        match name {
            "leyes" => leyes(query),
            _ => Err(format!("mus has no tool `{name}`: its tool is leyes")),
        }
    }
}

/// The leyes of a hand (`tapete mus leyes` on the web): parameters `hand`, `partner`,
/// `mode`, `real31`, `position`, `pares`, `juego`, `exact`, as strings.
fn leyes(query: &Value) -> Result<Value, String> {
    const KNOWN: [&str; 8] = [
        "hand", "partner", "mode", "real31", "position", "pares", "juego", "exact",
    ];
    let mut q = BTreeMap::new();
    if let Value::Object(m) = query {
        for (k, v) in m {
            if !KNOWN.contains(&k.as_str()) {
                return Err(format!("unknown parameter `{k}`: use {}", KNOWN.join(", ")));
            }
            let text = match v {
                Value::String(s) => s.trim().to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                _ => return Err(format!("{k}: give text")),
            };
            q.insert(k.as_str(), text);
        }
    }
    let flag = |name: &str| -> Result<bool, String> {
        match q.get(name).map(String::as_str) {
            None | Some("") | Some("false") | Some("0") => Ok(false),
            Some("true") | Some("1") => Ok(true),
            Some(other) => Err(format!("{name}=`{other}`: use true or false")),
        }
    };
    let real31 = flag("real31")?;
    let exact = flag("exact")?;
    let mode = match q.get("mode").filter(|s| !s.is_empty()) {
        None => tapete_mus::Mode::default(),
        Some(m) => m.parse().map_err(|e| format!("mode: {e}"))?,
    };
    let position = match q.get("position").map(String::as_str) {
        None | Some("") | Some("all") => None,
        Some(p) => Some(p.parse::<usize>().ok().filter(|p| *p < 4).ok_or_else(|| {
            format!("`{p}` is not a position: use 0 (mano), 1, 2, 3 (postre) or all")
        })?),
    };
    let text = |name: &str| q.get(name).filter(|s| !s.is_empty()).cloned();
    let hand = text("hand").ok_or("give a hand: `hand=RRCA` or `hand=12o 3c 11e 1b`")?;
    let (partner, pares, juego) = (text("partner"), text("pares"), text("juego"));
    let leyes = tapete_mus_odds::query::Query {
        hand: &hand,
        partner: partner.as_deref(),
        mode,
        real31,
        pares: pares.as_deref(),
        juego: juego.as_deref(),
        position,
    }
    .run()?;
    Ok(leyes.to_json(exact))
}
