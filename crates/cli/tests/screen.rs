//! `tapete screen` over records: partners who bet by both their hands (the test's own
//! players, which look at the partner's cards in the game itself) are flagged; partners
//! who bet by the same rule on what they may know are not; too few decisions flag nothing.

use crate::common::{tapete, tmp};
use serde_json::Value;
use tapete_mus::view::Phase;
use tapete_mus::{Action, Jugada, MusGame, MusRules};
use tapete_mus_bots::leyes_cache::{leyes, leyes_with_partner};
use tapete_mus_bots::review::conditions;
use tapete_table::{Game, Record};

/// One seat's choice: cut the mus, and in a lance's betting bet from a 0.68 chance of
/// winning it and accept from 0.6 — the chance from the seat's own knowledge, or (`peek`)
/// with its partner's cards seen in the game itself.
fn choose(game: &MusGame, seat: usize, peek: bool) -> Action {
    let legal = game.legal_actions(seat);
    let has = |a: &Action| legal.contains(a);
    if has(&Action::NoHayMus) {
        return Action::NoHayMus;
    }
    let view = game.view(seat);
    let Phase::Bet { lance } = view.phase else {
        return legal[0].clone();
    };
    let mode = view.rules.mode;
    let four = |v: &tapete_mus::MusView| -> [tapete_cards::Card; 4] {
        v.cards.as_slice().try_into().unwrap()
    };
    let hand = Jugada::from_cards(&four(&view), mode);
    let cond = conditions(&view).unwrap();
    let odds = if peek {
        let partner = Jugada::from_cards(&four(&game.view((seat + 2) % 4)), mode);
        leyes_with_partner(mode, false, hand, partner, &cond).unwrap()
    } else {
        leyes(mode, false, hand, &cond).unwrap()
    };
    let p = odds[view.position.unwrap()].lance(lance);
    if has(&Action::Quiero) {
        return if p >= 0.6 {
            Action::Quiero
        } else {
            Action::NoQuiero
        };
    }
    if p >= 0.68 && has(&Action::Envido(2)) {
        return Action::Envido(2);
    }
    if has(&Action::Paso) {
        return Action::Paso;
    }
    legal[0].clone()
}

/// `games` records of the peeking pair (seats 0 and 2) against the honest one, in a fresh
/// directory.
fn records(name: &str, games: u64) -> std::path::PathBuf {
    let dir = tmp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rules = MusRules {
        juegos: 1,
        ..MusRules::default()
    };
    for g in 0..games {
        let seed = g.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5eed;
        let mut game = MusGame::new(&rules, 4, seed).unwrap();
        let mut record: Record<MusGame> = Record::new(rules.clone(), 4, seed);
        record.players = ["peeking", "honest", "peeking", "honest"]
            .map(String::from)
            .to_vec();
        let mut steps = 0;
        while let Some(&seat) = game.to_act().seats().first() {
            let a = choose(&game, seat, seat % 2 == 0);
            game.apply(seat, &a).unwrap();
            record.actions.push((seat, a));
            steps += 1;
            assert!(steps < 20_000, "game {g} did not end");
        }
        std::fs::write(
            dir.join(format!("game-{g:04}.json")),
            serde_json::to_string(&record).unwrap(),
        )
        .unwrap();
    }
    dir
}

fn pair<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["players"][0] == name)
        .unwrap_or_else(|| panic!("no pair {name}: {v}"))
}

#[test]
fn partners_who_bet_by_both_hands_are_flagged_and_honest_ones_are_not() {
    let dir = records("screen-records", 60);
    let out = tapete(&["screen", dir.to_str().unwrap(), "--json"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["records"], 60);
    let peeking = pair(&v, "peeking");
    let honest = pair(&v, "honest");
    assert_eq!(peeking["games"], 60, "{peeking}");
    assert!(peeking["decisions"].as_u64().unwrap() >= 300, "{peeking}");
    assert_eq!(peeking["flagged"], true, "{peeking}");
    assert!(peeking["z"].as_f64().unwrap() >= 4.0, "{peeking}");
    assert_eq!(honest["flagged"], false, "{honest}");
    assert!(honest["z"].as_f64().unwrap().abs() < 3.0, "{honest}");
    // The table in words says the same.
    let text = tapete(&["screen", dir.to_str().unwrap()], "");
    let text = String::from_utf8_lossy(&text.stdout);
    let line = text.lines().find(|l| l.starts_with("peeking")).unwrap();
    assert!(line.contains("FLAGGED"), "{text}");
    let line = text.lines().find(|l| l.starts_with("honest")).unwrap();
    assert!(!line.contains("FLAGGED"), "{text}");

    // Too few decisions: judged by nobody, flagged never.
    let few = records("screen-few", 3);
    let out = tapete(&["screen", few.to_str().unwrap(), "--json"], "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let peeking = pair(&v, "peeking");
    assert_eq!(
        (peeking["judged"].clone(), peeking["flagged"].clone()),
        (false.into(), false.into()),
        "{peeking}"
    );
    let text = tapete(&["screen", few.to_str().unwrap()], "");
    assert!(String::from_utf8_lossy(&text.stdout).contains("too few decisions"));
    // No such file: a clear error, exit 2.
    let out = tapete(&["screen", "/nonexistent/records"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such file"));
}

/// A Chinchón duel of `players` (seat order), each seat played by `basico`, `random`, or
/// (`"throw"`) a player who loses on purpose: it never closes and keeps its high cards.
fn duel(seed: u64, players: [(&str, &str); 2]) -> Record<tapete_chinchon::ChinchonGame> {
    use rand::SeedableRng;
    use tapete_chinchon::{Action as C, ChinchonGame, ChinchonRules};
    use tapete_table::Bot;
    let rules = ChinchonRules::default();
    let mut game = ChinchonGame::new(&rules, 2, seed).unwrap();
    let mut record = Record::new(rules, 2, seed);
    record.players = players.iter().map(|p| p.0.to_string()).collect();
    let mut bots: Vec<Option<Box<dyn Bot<ChinchonGame>>>> = players
        .iter()
        .map(|p| match p.1 {
            "throw" => None,
            level => Some(tapete_chinchon::bots::by_name(level).unwrap()),
        })
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    while let Some(&seat) = game.to_act().seats().first() {
        let legal = game.legal_actions(seat);
        let a = match &mut bots[seat] {
            Some(bot) => bot.act(&game.view(seat), &legal, &mut rng),
            None => {
                let low = |a: &C| a.card().map_or(99, |c| i32::from(c.number().unwrap_or(0)));
                *legal
                    .iter()
                    .filter(|a| !matches!(a, C::Cierro(_) | C::Tomo | C::Meto(_)))
                    .min_by_key(|a| low(a))
                    .unwrap_or(&legal[0])
            }
        };
        game.apply(seat, &a).unwrap();
        record.actions.push((seat, a));
        assert!(record.actions.len() < 20_000, "game {seed} did not end");
    }
    record
}

#[test]
fn accounts_who_throw_games_to_each_other_are_flagged_and_honest_ones_are_not() {
    // Eight accounts: six play as `basico`, two as `random`; ana and bea never meet in
    // these 300 honest games (seventy-odd each: enough to know their strength).
    let accounts = [
        ("ana", "basico"),
        ("bea", "basico"),
        ("cris", "basico"),
        ("dani", "basico"),
        ("eva", "basico"),
        ("fede", "basico"),
        ("gil", "random"),
        ("hugo", "random"),
    ];
    let dir = tmp("screen-trading");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: String, r: &Record<tapete_chinchon::ChinchonGame>| {
        std::fs::write(dir.join(name), serde_json::to_string(r).unwrap()).unwrap();
    };
    let mut honest = 0u64;
    let mut seed = 0u64;
    while honest < 300 {
        seed += 1;
        let (i, j) = ((seed * 7) % 8, (seed * 7 / 8 + seed) % 8);
        if i == j || (i.min(j), i.max(j)) == (0, 1) {
            continue;
        }
        let r = duel(seed, [accounts[i as usize], accounts[j as usize]]);
        write(format!("honest-{honest:04}.json"), &r);
        honest += 1;
    }
    let screen = |dir: &std::path::Path| -> Value {
        let out = tapete(
            &[
                "screen",
                dir.to_str().unwrap(),
                "--min-meetings",
                "5",
                "--json",
            ],
            "",
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let v = screen(&dir);
    assert_eq!(v["records"], 300);
    let trading = v["trading"].as_array().unwrap();
    assert!(trading.len() >= 20, "most pairs met five times: {v}");
    assert!(
        trading.iter().all(|t| t["flagged"] == false),
        "an honest pair flagged: {}",
        v["trading"]
    );
    // Twenty games ana throws to bea, seats in turn.
    for k in 0..20u64 {
        let players = if k % 2 == 0 {
            [("ana", "throw"), ("bea", "basico")]
        } else {
            [("bea", "basico"), ("ana", "throw")]
        };
        write(format!("thrown-{k:02}.json"), &duel(10_000 + k, players));
    }
    let v = screen(&dir);
    let flagged: Vec<&Value> = v["trading"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["flagged"] == true)
        .collect();
    assert_eq!(flagged.len(), 1, "{}", v["trading"]);
    assert_eq!(flagged[0]["players"], serde_json::json!(["bea", "ana"]));
    assert_eq!(flagged[0]["games"], 20);
    assert_eq!(flagged[0]["evidence"].as_array().unwrap().len(), 20);
    // The words say it too.
    let text = tapete(
        &["screen", dir.to_str().unwrap(), "--min-meetings", "5"],
        "",
    );
    let text = String::from_utf8_lossy(&text.stdout);
    let line = text.lines().find(|l| l.starts_with("bea & ana")).unwrap();
    assert!(line.contains("FLAGGED"), "{text}");
}
