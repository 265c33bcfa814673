//! Blockade: the dossier's escape table (§6.3), the example opening,
//! placement and slide rules, the rulings as options, perft from the data
//! file, bad input and the generic kit.
//!
//! Rules: `docs/rules/blockade.md` §6 (B-SET-1, B-SET-2, B-1…B-7, QB1…QB7).
//! Every expected value comes from the dossier or is derived by hand in the
//! comment next to it.

use engine::blockade::{BlockadeGame, BlockadeState, EscapeRules, Outcome, Side, has_escape};
use engine::board::B192;
use engine::spec::Spec;
use engine::{Game, Research, State, ToMove, perft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{kit, legal, perft_file, play};

fn game(spec: &str) -> BlockadeGame {
    BlockadeGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// Square index `(row − 1) * 12 + column`, computed here from the name.
fn sq(name: &str) -> u32 {
    let (row, col) = name.split_at(name.len() - 1);
    (row.parse::<u32>().unwrap() - 1) * 12 + (col.as_bytes()[0] - b'A') as u32
}

fn guards(names: &str) -> B192 {
    names
        .split_whitespace()
        .fold(B192::ZERO, |b, n| b | B192::bit(sq(n)))
}

fn escapes(side: Side, names: &str, r: EscapeRules) -> bool {
    let (me, enemy) = match side {
        Side::North => ("2E", "11H"),
        Side::South => ("11H", "2E"),
    };
    has_escape(side, sq(me), sq(enemy), guards(names), r)
}

use engine::board::Bits;

/// §6.3: every row of the escape table, both kings (guards of either
/// colour; the search does not care whose).
#[test]
fn escape_table() {
    let r = EscapeRules::default();
    for (g, north, south) in [
        ("", true, true),
        ("4E", false, true),
        ("11E", false, true),
        ("4E 9H", false, false),
        ("4E 9H 10L", false, true),
        ("4E 9H 10L 5K", false, false),
        ("4E 9H 9G 3G", true, false),
    ] {
        assert_eq!(escapes(Side::North, g, r), north, "North with guards {g:?}");
        assert_eq!(escapes(Side::South, g, r), south, "South with guards {g:?}");
    }
}

/// The rulings as options, each on a hand-worked guard set where it
/// decides:
/// * QB3 `side_edge=turn`: guard 4E only. North stops on 3E, turns west,
///   runs 3D 3C 3B 3A; the west edge now turns it south, down column A off
///   the bottom: an escape (with `dead` the branch dies: none).
/// * QB5 `enemy_king=stop`: guards 4E 3I 10C. North: 3E, east to 3H
///   (stopped by 3I), south down column H to 10H, next 11H is the South
///   king: with `invalid` the branch dies (no other path: row 3 west and
///   row 2 run off the sides); with `stop` it turns on 10H, runs west to
///   10D (stopped by 10C) and south 11D 12D off the bottom.
/// * QB6 `clear=neighbours`: guards 4E 3H. North: 3E, east to 3G, south
///   down column G off the bottom, passing 10G, 11G and 12G, neighbours of
///   the South king on 11H: an escape with `square`, none with
///   `neighbours`.
#[test]
fn rulings_as_options() {
    let d = EscapeRules::default();
    let turn = EscapeRules {
        side_edge_turns: true,
        ..d
    };
    assert!(!escapes(Side::North, "4E", d));
    assert!(escapes(Side::North, "4E", turn));
    let stop = EscapeRules {
        enemy_king_stops: true,
        ..d
    };
    assert!(!escapes(Side::North, "4E 3I 10C", d));
    assert!(escapes(Side::North, "4E 3I 10C", stop));
    let clear = EscapeRules {
        clear_neighbours: true,
        ..d
    };
    assert!(escapes(Side::North, "4E 3H", d));
    assert!(!escapes(Side::North, "4E 3H", clear));
}

/// QB4 never changes whether a king escapes. A zero-length segment at p
/// (turned onto heading h2, a guard right ahead) can only turn again onto
/// the reverse of the heading h it arrived with (h itself is blocked at p).
/// The segment that brought the king to p started at some q where both
/// turns, h and its reverse, were already open (or q is the king's square,
/// where all four are), and the run from p in the reverse heading passes
/// only free spaces back to q and then continues as the run from q would:
/// it adds no new space and no new turning point. So `zero_turns=forbidden`
/// must agree with `allowed` on any guard set; checked on 3,000 random sets
/// of 4 to 40 guards for both kings.
#[test]
fn zero_length_segments_change_nothing() {
    let d = EscapeRules::default();
    let forbid = EscapeRules {
        zero_turns: false,
        ..d
    };
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut differ_from_straight = 0;
    for _ in 0..3000 {
        let n = rng.random_range(4..40);
        let mut g = B192::ZERO;
        for _ in 0..n {
            let s = rng.random_range(0..144);
            if s != sq("2E") && s != sq("11H") {
                g |= B192::bit(s);
            }
        }
        for (side, me, enemy) in [(Side::North, "2E", "11H"), (Side::South, "11H", "2E")] {
            let a = has_escape(side, sq(me), sq(enemy), g, d);
            let b = has_escape(side, sq(me), sq(enemy), g, forbid);
            assert_eq!(a, b, "{side:?} with guards {g:?}");
            differ_from_straight += a as u32;
        }
    }
    assert!(
        differ_from_straight > 100,
        "the sample has escapes: {differ_from_straight}"
    );
}

/// §6.3's opening through the game: South places 4E (blocking North's
/// column), North 9H (blocking South's), South 10L (a threat: 11H→10H,
/// east to 10K, north up column K). If North ignores it (1A), South
/// escapes at the start of his turn (B-2); 5K answers it.
#[test]
fn example_opening() {
    let g = game("blockade");
    let mut s = g.initial_state(0);
    assert_eq!(
        s.to_text(),
        "12/4k7/12/12/12/12/12/12/12/12/7K4/12 S 0",
        "B-SET-2: North 2E, South 11H, South first"
    );
    assert_eq!(s.seat_role(0).colour, "south");
    play(&mut s, "4E 9H 10L");
    assert!(!s.is_terminal());
    let mut lost = s;
    play(&mut lost, "1A");
    assert_eq!(lost.ending(), Some((Outcome::Escape, Some(Side::South))));
    assert_eq!(lost.end_reason(), Some("escape"));
    assert_eq!(lost.returns()[..2], [1.0, -1.0]);
    play(&mut s, "5K");
    assert!(!s.is_terminal());
    assert_eq!(s.to_move(), ToMove::Seat(0));
}

/// QB2: with `first_turn=exempt` the first player does not win at once;
/// the second player's first check is made, so South's first guard must
/// block column E (else North escapes straight down). With
/// `first_turn=checked` South escapes at once (the literal reading).
/// `first=north` seats North in seat 0.
#[test]
fn first_turn_exemption() {
    let g = game("blockade");
    let mut s = g.initial_state(0);
    assert!(!s.is_terminal());
    play(&mut s, "1A");
    assert_eq!(s.ending(), Some((Outcome::Escape, Some(Side::North))));
    let s = game("blockade(first_turn=checked)").initial_state(0);
    assert_eq!(s.ending(), Some((Outcome::Escape, Some(Side::South))));
    let s = game("blockade(first=north)").initial_state(0);
    assert_eq!((s.side(), s.to_move()), (Side::North, ToMove::Seat(0)));
    assert_eq!(s.seat_role(0).colour, "north");
}

/// B-3: the first guard may not stand on a centre nor in a king's field:
/// 144 − 18 (two fields) − 14 (centres outside them) = 112 placements;
/// 11E (a centre, §6.3) is refused as a first guard and allowed as South's
/// second; 4E (non-centre) is allowed; 3E (North's field) never.
#[test]
fn placement_rules() {
    let g = game("blockade");
    let s = g.initial_state(0);
    let m = legal(&s);
    assert_eq!(m.len(), 112);
    assert!(m.contains("4E") && !m.contains("11E") && !m.contains("3E") && !m.contains("12I"));
    let mut s = s;
    play(&mut s, "4E 9H");
    let m = legal(&s);
    assert_eq!(m.len(), 144 - 18 - 2);
    assert!(m.contains("11E") && m.contains("5B") && !m.contains("3E"));
}

/// B-4 after all 12 guards are placed (South to move, ply 12):
/// ```text
///  1  g . G | . . . | . . . | . . g      North g: 1A 1L 4A 4L 7A 9H
///  2  . . . | . k . | . . . | . . .      South G: 1C 4E 6B 6K 7D 7I
///  4  g . . | . G . | . . . | . . g
///  6  . G . | . . . | . . . | . G .
///  7  g . . | G . . | . . G | . . .
///  9  . . . | . . . | . g . | . . .
/// 11  . . . | . . . | . K . | . . .
/// ```
/// South cannot escape (up column H stops on 10H under 9H; rows 10 and 11
/// run off the sides; 12H off his own edge). Slides by hand:
/// * 7D: west 7C 7B (7A is a guard); east 7E 7F 7G 7H (7I); north 6D 5D
///   4D (3D 2D 1D are North's field: passed over, not ended on); south 8D
///   to 12D: 14.
/// * 1C: west 1B; east over North's field 1D 1E 1F to 1G 1H 1I 1J 1K (1L
///   is a guard); south 2C to 12C (11): 17.
/// * 6K: west 6J to 6C (8, 6B is a guard); east 6L; north 5K to 1K (5);
///   south 7K to 12K (6): 20.
#[test]
fn slide_rules() {
    let g = game("blockade");
    let s = g
        .parse_position("g1G8g/4k7/12/g3G6g/12/1G8G1/g2G4G3/12/7g4/12/7K4/12 S 12")
        .unwrap();
    assert!(!s.is_terminal());
    let m = legal(&s);
    let from = |p: &str| -> Vec<String> {
        m.iter()
            .filter(|x| x.starts_with(&format!("{p}-")))
            .map(|x| x[p.len() + 1..].to_string())
            .collect()
    };
    let mut d7 = from("7D");
    d7.sort();
    let mut want: Vec<String> = "7C 7B 7E 7F 7G 7H 6D 5D 4D 8D 9D 10D 11D 12D"
        .split(' ')
        .map(String::from)
        .collect();
    want.sort();
    assert_eq!(d7, want);
    assert_eq!(from("1C").len(), 17);
    assert!(from("1C").contains(&"1G".to_string()) && !from("1C").contains(&"1E".to_string()));
    assert_eq!(from("6K").len(), 20);
}

/// B-6: a side with no guard move passes. Kings on 2B and 11K (fields
/// rows 1-3 × A-C and rows 10-12 × J-L), South to move at ply 12:
/// ```text
///  2  . k . | ...            North g: 4D 5D 6A 6B 6C 9K
///  4  G G G | g . .          South G: 4A 4B 4C 5A 5B 5C
///  5  G G G | g . .
///  6  g g g | . . .
///  9  ...           . g .
/// 11  ...           . K .
/// ```
/// Every South guard is walled in: row 5 by row 6 and 5D, row 4 upwards
/// only into North's field (4A and 4C run through it off the top edge, 4B
/// meets the king on 2B), so no slide ends anywhere: `pass` is the only
/// move. South has no escape (up column K stops on 10K under 9K; rows 10
/// and 11 run off the sides). After the pass North (2B) has none either:
/// down column B stops on 3B above 4B, and row 3 runs off both sides.
#[test]
fn pass_when_stuck() {
    let g = game("blockade(north=2B,south=11K)");
    let s = g
        .parse_position("12/1k10/12/GGGg8/GGGg8/ggg9/12/12/10g1/12/10K1/12 S 12")
        .unwrap();
    assert!(!s.is_terminal());
    assert_eq!(
        legal(&s).into_iter().collect::<Vec<_>>(),
        vec!["pass".to_string()]
    );
    let mut t = s;
    play(&mut t, "pass");
    assert!(!t.is_terminal());
    assert_eq!(t.to_move(), ToMove::Seat(1));
}

/// The perft vectors of `engine/data/perft/blockade.txt`.
#[test]
fn perft_vectors() {
    let text = perft_file("blockade");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let g = game(f[0]);
        let s = if f[1] == "start" {
            g.initial_state(0)
        } else {
            g.parse_position(f[1]).unwrap()
        };
        assert_eq!(
            perft(&s, f[2].parse().unwrap()),
            f[3].parse::<u64>().unwrap(),
            "{line}"
        );
        n += 1;
    }
    assert_eq!(n, 3);
}

/// Game strings, positions and moves that must be refused with a one-line
/// error.
#[test]
fn bad_input() {
    for (spec, needle) in [
        ("blockade(kings=2)", "unknown parameter"),
        ("blockade(north=2X)", "bad Sly square"),
        ("blockade(north=2E,south=3F)", "same field"),
        ("blockade(first=east)", "first"),
        ("blockade(side_edge=bounce)", "side_edge"),
        ("blockade(ply_cap=5)", "ply_cap"),
    ] {
        let e = BlockadeGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_err();
        assert!(e.0.contains(needle), "{spec}: {e}");
        assert!(!e.0.contains('\n'));
    }
    let g = game("blockade");
    for (text, needle) in [
        ("12/4k7/12 S 0", "12"),
        ("12/4k7/12/12/12/12/12/12/12/12/7K4/12 S", "3 fields"),
        ("12/4k7/12/12/12/12/12/12/12/12/7K4/12 X 0", "side to move"),
        ("12/4k7/12/12/12/12/12/12/12/12/7K4/12 N 0", "turn"),
        (
            "12/5k6/12/12/12/12/12/12/12/12/7K4/12 S 0",
            "north king must stand on 2E",
        ),
        ("12/12/12/12/12/12/12/12/12/12/7K4/12 S 0", "found none"),
        ("12/4k7/12/12/12/12/12/12/12/12/7K4/12 S x", "plies"),
        ("12/4k7/12/12/12/12/12/12/12/12/7K5/12 S 0", "spaces"),
        ("12/4k7/12/12/12/12/12/12/12/12/7K4/12 S 301", "ply cap"),
        ("12/4k7/12/12/12/12/12/12/12/12/7K4/12/12 S 0", "rows"),
        (
            "12/4k7/12/12/12/12/12/12/12/12/7K3X/12 S 0",
            "unknown piece",
        ),
        // A guard in North's field, and wrong guard counts for the ply.
        ("12/4kG6/12/12/12/12/12/12/12/12/7K4/12 N 1", "king's field"),
        ("12/4k7/12/G11/12/12/12/12/12/12/7K4/12 S 0", "placed 0"),
        ("12/4k7/12/G11/12/12/12/12/12/12/7K4/12 S 2", "placed 1"),
    ] {
        let e = g.parse_position(text).unwrap_err();
        assert!(e.0.contains(needle), "{text}: {e}");
        assert!(!e.0.contains('\n'));
    }
    let s = g.initial_state(0);
    for (text, needle) in [
        ("4E-5F", "row or column"),
        ("4E-4E", "row or column"),
        ("13A", "bad Sly square"),
        ("", "bad Sly square"),
    ] {
        let e = s.parse_move(text).unwrap_err();
        assert!(e.0.contains(needle), "{text}: {e}");
    }
    for text in ["11E", "3E", "11H", "4E-4F", "pass"] {
        let e = engine::parse_legal_move(&s, text).unwrap_err();
        assert!(e.0.contains("not legal"), "{text}: {e}");
    }
}

/// The generic kit on the default game and on the rulings' alternatives
/// (text and key round-trips, counts, sampling), and exact uniformity of
/// the sampler in both phases.
#[test]
fn kit_and_uniform_sampling() {
    for (spec, games) in [
        ("blockade", 2000),
        (
            "blockade(side_edge=turn,enemy_king=stop,clear=neighbours,first=north)",
            500,
        ),
        (
            "blockade(north=5B,south=8K,zero_turns=forbidden,first_turn=checked)",
            500,
        ),
    ] {
        let r = kit(spec, games, 0xB10C, 300);
        assert_eq!(r.games, games, "{spec}");
    }
    let g = game("blockade");
    let mid = g
        .parse_position("g1G8g/4k7/12/g3G6g/12/1G8G1/g2G4G3/12/7g4/12/7K4/12 S 12")
        .unwrap();
    engine::testkit::check_uniform(&mid, 40_000, 5).unwrap();
    engine::testkit::check_uniform(&g.initial_state(0), 40_000, 6).unwrap();
}

#[allow(dead_code)]
fn _types(_: BlockadeState) {}

/// `Research::illegal_reason` names the rule a move breaks, worked by hand
/// from B-3, B-4 and B-6 (kings 2E and 11H, B-SET-2); legal moves give
/// `None`.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let g = game("blockade");
    let why = |s: &BlockadeState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    // The start: South places its first guard (B-1, B-3).
    let s = g.initial_state(0);
    // B-3 (b): 11E is a centre (rows 2 5 8 11 x B E H K).
    assert_eq!(
        why(&s, "11E"),
        "11E is a centre, and South's first guard may not stand on one (B-3)"
    );
    // B-3 (a): 3E is in North's king's field, rows 1-3 x D-F.
    assert_eq!(
        why(&s, "3E"),
        "3E lies in North's king's field (the field of 2E), where no guard is placed (B-3)"
    );
    assert_eq!(why(&s, "2E"), "2E is taken by North's king (B-3)");
    assert!(why(&s, "4E-4H").starts_with("South has 6 guard(s) in hand"));
    assert!(why(&s, "pass").ends_with("only with none (B-6)"));
    assert!(why(&s, "4E-4E").starts_with("bad move"));
    assert_eq!(s.illegal_reason("4E"), None);

    // The slide_rules position: South G 1C 4E 6B 6K 7D 7I, North g 1A 1L
    // 4A 4L 7A 9H, South to move at ply 12 (all guards placed).
    let s = g
        .parse_position("g1G8g/4k7/12/g3G6g/12/1G8G1/g2G4G3/12/7g4/12/7K4/12 S 12")
        .unwrap();
    assert!(why(&s, "5E").ends_with("so a turn slides one (B-4)"));
    assert_eq!(why(&s, "5A-5B"), "no piece on 5A");
    assert_eq!(
        why(&s, "1A-2A"),
        "the guard on 1A is North's, and South is to move"
    );
    assert!(why(&s, "11H-10H").starts_with("the king on 11H never moves"));
    // B-4: passing no piece: from 6K west, 6B (South's guard) is in the
    // way of 6A; 7I is itself taken.
    assert_eq!(
        why(&s, "6K-6A"),
        "the slide from 6K to 6A would pass South's guard on 6B, and a guard passes no piece (B-4)"
    );
    assert!(why(&s, "7D-7I").starts_with("7I is taken by South's guard"));
    // B-4: 6D 5D 4D are empty, but 3D is in North's field (rows 1-3 x
    // D-F).
    assert!(why(&s, "7D-3D").starts_with("3D lies in North's king's field"));
    assert!(why(&s, "7D-3D").ends_with("not end there (B-4)"));
    assert!(why(&s, "pass").ends_with("(B-6)"));
    assert_eq!(s.illegal_reason("7D-4D"), None);
    assert_eq!(s.illegal_reason("1C-1G"), None);

    // pass_when_stuck's position: South's guards are walled in (B-6).
    let stuck = game("blockade(north=2B,south=11K)")
        .parse_position("12/1k10/12/GGGg8/GGGg8/ggg9/12/12/10g1/12/10K1/12 S 12")
        .unwrap();
    assert_eq!(
        why(&stuck, "5C-5D"),
        "South has no legal move and must pass (B-6)"
    );
    assert_eq!(stuck.illegal_reason("pass"), None);

    // B-2, §6.3's table: with 4E (and 4L) North has no escape but South
    // has, up column H, so South wins at the start of its second turn.
    let mut s = g.initial_state(0);
    play(&mut s, "4E 4L");
    assert_eq!(why(&s, "5E"), "the game is already over");
}
