//! The `umbral` family: its parameters parse and refuse bad ones, seeds give reproducible
//! members, `umbral:tight` never accepts an órdago below p = 0.8, and every member plays
//! legal whole games.

use crate::common::{self, one_game_rules};
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex};
use tapete_mus::view::Phase;
use tapete_mus::{Action, Jugada, Mode, MusGame, MusRules, MusView};
use tapete_mus_bots::leyes_cache;
use tapete_mus_bots::umbral::{umbral_params, Cut, Umbral};
use tapete_mus_bots::{self as bots, PLAYERS};
use tapete_table::{Bot, Game};

#[test]
fn parameters_parse_presets_and_overrides() {
    assert_eq!(umbral_params("").unwrap(), Umbral::default());
    assert_eq!(umbral_params("tight").unwrap(), Umbral::tight());
    assert_eq!(umbral_params("loose").unwrap(), Umbral::loose());
    let u = umbral_params("tight, call=0.6,ordago=0.85,cut=never,bet=4").unwrap();
    assert_eq!((u.call, u.ordago, u.cut, u.bet), (0.6, 0.85, Cut::Never, 4));
    assert_eq!(u.open, Umbral::tight().open);
    assert_eq!(umbral_params("cut=0.5").unwrap().cut, Cut::Mean(0.5));
    assert_eq!(Umbral::tight().ordago, 0.8);
    assert_eq!(Umbral::tight().cut, Cut::Always);
    assert!(bots::by_name("umbral:tight").is_ok());
    assert!(bots::by_name("UMBRAL:Loose").is_ok());
    assert!(PLAYERS.contains(&"umbral"));
}

#[test]
fn bad_parameters_are_refused_by_name() {
    for (spec, says) in [
        (
            "ordago=1.5",
            "umbral:ordago=1.5: ordago is a number from 0.5 to 0.95",
        ),
        ("call=abc", "umbral:call=abc"),
        ("bluff=0.1", "umbral:bluff: no such parameter"),
        ("cut=sometimes", "(or always, never)"),
        ("bet=1", "bet is a number from 2 to 10"),
        ("bet=3.5", "bet is a whole number"),
        ("seed=-1", "the seed is a whole number"),
        ("wild", "umbral:wild: not a parameter"),
    ] {
        let err = umbral_params(spec).unwrap_err();
        assert!(err.contains(says), "{spec}: {err}");
        let err = bots::by_name(&format!("umbral:{spec}")).err().unwrap();
        assert!(err.contains(says), "{spec} by name: {err}");
    }
}

#[test]
fn seeds_are_reproducible_members_within_the_ranges() {
    assert_eq!(Umbral::seeded(7), Umbral::seeded(7));
    assert_eq!(umbral_params("seed=7").unwrap(), Umbral::seeded(7));
    assert_ne!(Umbral::seeded(7), Umbral::seeded(8));
    for s in 0..50 {
        let u = Umbral::seeded(s);
        assert!((0.4..=0.9).contains(&u.open) && (0.3..=0.9).contains(&u.call));
        assert!((0.5..=0.95).contains(&u.raise) && (0.7..=1.0).contains(&u.throw));
        assert!((0.5..=0.95).contains(&u.ordago) && (2..=10).contains(&u.bet));
        assert!(matches!(u.cut, Cut::Mean(x) if (0.3..=0.8).contains(&x)));
    }
}

/// umbral:tight at a seat, checking each answer to an órdago against the exact leyes.
struct Checked {
    bot: Box<dyn Bot<MusGame>>,
    /// (accepted, refused) órdagos, and the lowest p of an accepted one.
    seen: Arc<Mutex<(u32, u32, f64)>>,
}

impl Bot<MusGame> for Checked {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let a = self.bot.act(view, legal, rng);
        if let (Phase::Bet { lance }, Some(bet)) = (view.phase, view.bet) {
            if bet.ordago && legal.contains(&Action::Quiero) {
                let four: [_; 4] = view.cards.as_slice().try_into().unwrap();
                let j = Jugada::from_cards(&four, view.rules.mode);
                let pos = view.position.unwrap();
                let p = leyes_cache::base(view.rules.mode, view.rules.real31, j)[pos].lance(lance);
                let mut seen = self.seen.lock().unwrap();
                if a == Action::Quiero {
                    assert!(
                        p >= 0.8,
                        "tight accepted an órdago at {lance:?} with {j} (p {p})"
                    );
                    seen.0 += 1;
                    seen.2 = seen.2.min(p);
                } else {
                    seen.1 += 1;
                }
            }
        }
        a
    }
}

#[test]
fn tight_never_accepts_an_ordago_below_eight_in_ten() {
    let seen = Arc::new(Mutex::new((0, 0, 1.0)));
    let rules = one_game_rules();
    for seed in 0..12 {
        let players: Vec<Box<dyn Bot<MusGame>>> = (0..4)
            .map(|seat| -> Box<dyn Bot<MusGame>> {
                if seat % 2 == 0 {
                    Box::new(Checked {
                        bot: bots::by_name("umbral:tight").unwrap(),
                        seen: seen.clone(),
                    })
                } else {
                    // Rivals who throw órdagos with middling hands.
                    bots::by_name("umbral:throw=0.7,open=0.4").unwrap()
                }
            })
            .collect();
        common::play_legal_game(&rules, seed, players, 0x0b1a, |_, _| {});
    }
    let (accepted, refused, lowest) = *seen.lock().unwrap();
    println!("tight: {accepted} órdagos accepted (lowest p {lowest:.3}), {refused} refused");
    assert!(
        accepted > 0 && refused > 0,
        "both answers met: {accepted} / {refused}"
    );
}

#[test]
fn the_family_plays_legal_whole_games() {
    let ocho = one_game_rules();
    let variants = MusRules {
        mode: Mode::CuatroReyes,
        senas: true,
        juegos: 3,
        ..one_game_rules()
    };
    let names = ["umbral", "umbral:tight", "umbral:loose", "umbral:seed=3"];
    for (i, rules) in [ocho, variants].iter().enumerate() {
        for seed in 0..3u64 {
            let players = (0..4)
                .map(|s| bots::by_name(names[(s + seed as usize + i) % 4]).unwrap())
                .collect();
            common::play_legal_game(rules, seed, players, 0x0b1b, |_, _| {});
        }
    }
}

#[test]
fn same_view_same_action_and_a_pair_is_kept() {
    // A hand with a pair of reyes: the discard keeps them and the ases.
    let (g, seat) = common::find(
        &one_game_rules(),
        |j| j.to_string().starts_with("RR"),
        |g| Some(common::turn(g)),
    );
    let view = g.view(seat);
    let legal = g.legal_actions(seat);
    let mut u = Umbral::default();
    let a = common::act_with(&mut u, &view, &legal, 1);
    assert_eq!(a, common::act_with(&mut u, &view, &legal, 2));
    let thrown = Umbral::discard(&view);
    assert!((1..=2).contains(&thrown.len()), "{thrown:?}");
}
