//! A tournament's courtesy taken juego by juego, through the erased face the server uses:
//! Mus gives a juego until one would decide the match; the games without juegos say so;
//! options written only when set (the juegos given) are read back, typos still refused.

use serde_json::json;

#[test]
fn juegos_are_given_through_the_catalog_until_one_would_decide_the_match() {
    for kind in tapete_catalog::kinds() {
        let seats = if kind.partners() { 4 } else { 2 };
        let rules = kind.check_rules(&json!({}), seats).unwrap();
        let given = kind.give_juego(&rules, seats, 1);
        if kind.name() != "mus" {
            let e = given.unwrap_err();
            assert!(e.contains("no juegos"), "{}: {e}", kind.name());
            continue;
        }
        // Best of three: the juego given to seat 1's pair leaves the match to play; a
        // second would win it.
        let once = given.unwrap().expect("one juego leaves the match to play");
        assert_eq!(once["juegos_given"], json!([1]));
        assert_eq!(kind.check_rules(&once, seats).unwrap(), once);
        kind.new_game(&once, seats, 5).unwrap();
        assert_eq!(kind.give_juego(&once, seats, 3).unwrap(), None);
        // A rematch starts level: the juegos given were that match's.
        assert_eq!(kind.rematch_rules(&once), rules);
        // Seat 0's pair may still be given one: one each.
        let level = kind.give_juego(&once, seats, 2).unwrap().unwrap();
        assert_eq!(level["juegos_given"], json!([1, 0]));
        // No seat 4; no juegos on boards; a typo is still an unknown option, by name.
        assert!(kind.give_juego(&rules, seats, 4).is_err());
        let boards = kind.duplicate_rules(&rules, seats, 2).unwrap();
        assert!(kind.give_juego(&boards, seats, 0).is_err());
        let e = kind
            .check_rules(&json!({"juegos_givn": [1]}), seats)
            .unwrap_err();
        assert!(e.contains("unknown rule `juegos_givn`"), "{e}");
        let e = kind
            .check_rules(&json!({"juegos_given": [1, 1]}), seats)
            .unwrap_err();
        assert!(e.contains("would win the match"), "{e}");
    }
}
