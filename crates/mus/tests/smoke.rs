use tapete_cards::rng_from_seed;
use tapete_mus::{bots, MusGame, MusRules};
use tapete_table::{play_out, Game, Record};

#[test]
fn random_games_end() {
    for seed in 0..200u64 {
        let rules = MusRules::default();
        let mut g = MusGame::new(&rules, 4, seed).unwrap();
        let mut bots: Vec<_> = (0..4).map(|_| bots::by_name("random").unwrap()).collect();
        let mut rec = Record::new(rules, 4, seed);
        let mut rng = rng_from_seed(seed ^ 0xabc);
        play_out(&mut g, &mut bots, &mut rng, &mut rec, 200_000, |g, _, _, _| {
            g.audit().unwrap();
        })
        .unwrap();
        assert!(g.outcome().is_some());
        assert_eq!(rec.replay().unwrap(), g);
    }
}

#[test]
fn print_one_game() {
    let rules = MusRules::default();
    let mut g = MusGame::new(&rules, 4, 3).unwrap();
    let mut bots: Vec<_> = (0..4).map(|_| bots::by_name("random").unwrap()).collect();
    let mut rec = Record::new(rules, 4, 3);
    let mut rng = rng_from_seed(3);
    let mut n = 0;
    play_out(&mut g, &mut bots, &mut rng, &mut rec, 200_000, |_, s, a, ev| {
        n += 1;
        if n < 300 { println!("{s}: {a}  -> {}", serde_json::to_string(ev).unwrap()); }
    })
    .unwrap();
    println!("{} actions, {:?}", rec.actions.len(), g.outcome());
}
