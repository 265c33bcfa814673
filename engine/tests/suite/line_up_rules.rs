//! Line Up: the dossier's turn table, hand-derived rule checks, perft from
//! the data file, bad input and the generic kit.
//!
//! Rules: `docs/rules/line_up.md` §5 (U-SET-1, U-SET-2, U-1…U-6). Every
//! expected value comes from the dossier or is derived by hand in the
//! comment next to it.

use std::collections::BTreeSet;

use engine::line_up::{LineUpGame, LineUpState, Outcome};
use engine::spec::Spec;
use engine::{Game, Research, Search, State, ToMove, perft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{kit, legal, perft_file, play, set};

fn game(spec: &str) -> LineUpGame {
    LineUpGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn pos(text: &str) -> LineUpState {
    game("line_up")
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The dossier's turn table (§5.2, U-1), turns 1–18: player (1 or 2),
/// place or move, piece type.
const TABLE: [(u8, &str, &str); 18] = [
    (1, "place", "square"),
    (2, "place", "triangle"),
    (1, "place", "cylinder"),
    (2, "place", "square"),
    (1, "place", "triangle"),
    (2, "place", "cylinder"),
    (1, "place", "square"),
    (2, "place", "triangle"),
    (1, "move", "cylinder"),
    (2, "place", "square"),
    (1, "place", "triangle"),
    (2, "move", "cylinder"),
    (1, "move", "square"),
    (2, "move", "triangle"),
    (1, "move", "cylinder"),
    (2, "move", "square"),
    (1, "move", "triangle"),
    (2, "move", "cylinder"),
];

/// U-1/U-2: the engine's schedule reproduces the rule book's table. Random
/// games (seeded) are played until one lasts 18 turns; at each turn the
/// player, and the kind and type of every legal move (read from the
/// position text's letter on the moving piece) match the table.
#[test]
fn turn_table() {
    let g = game("line_up");
    let letters = ["square", "triangle", "cylinder"];
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    'games: for _ in 0..200 {
        let mut s = g.initial_state(0);
        for (n, &(player, action, kind)) in TABLE.iter().enumerate() {
            let ToMove::Seat(seat) = s.to_move() else {
                continue 'games;
            };
            assert_eq!(seat + 1, player as usize, "turn {}", n + 1);
            let text = s.to_text();
            let cells: Vec<char> = text
                .split(' ')
                .next()
                .unwrap()
                .chars()
                .filter(|&c| c != '/')
                .collect();
            let moves = legal(&s);
            for m in &moves {
                match m.split_once('-') {
                    None => assert_eq!(action, "place", "turn {}: {m}", n + 1),
                    Some((from, _)) => {
                        assert_eq!(action, "move", "turn {}: {m}", n + 1);
                        // Cell index from the name: row 3i+2, column B/E/H/K.
                        let row: usize = from[..from.len() - 1].parse().unwrap();
                        let col = "BEHK".find(&from[from.len() - 1..]).unwrap();
                        let ch = cells[4 * ((row - 2) / 3) + col];
                        let owner = if ch.is_ascii_uppercase() { 1 } else { 2 };
                        let t = "stc".find(ch.to_ascii_lowercase()).unwrap();
                        assert_eq!((owner, letters[t]), (player, kind), "turn {}: {m}", n + 1);
                    }
                }
            }
            let v: Vec<&String> = moves.iter().collect();
            let m = v[rng.random_range(0..v.len())].clone();
            play(&mut s, &m);
        }
        return;
    }
    panic!("no random game lasted 18 turns");
}

/// U-3: the cylinder steps to any empty king neighbour, squares and
/// triangles orthogonally only. After 8 placements (turn 9: the first
/// player moves his cylinder):
/// ```text
///  2:  S . . .
///  5:  . C t .      first player: S 2B, C 5E, T 8E, S 11K
///  8:  s T . .      second player: t 5H, s 8B, c 11B, t 11E
/// 11:  c t . S
/// ```
/// The cylinder on 5E (grid (1,1)) has 8 king neighbours: 2B (S), 2E, 2H,
/// 5B, 5H (t), 8B (s), 8E (T), 8H: the empty ones are 2E 2H 5B 8H.
#[test]
fn cylinder_steps_in_eight_directions() {
    let s = pos("S.../.Ct./sT../ct.S 8");
    assert_eq!(s.to_move(), ToMove::Seat(0));
    assert_eq!(legal(&s), set("5E-2E 5E-2H 5E-5B 5E-8H"));
}

/// U-3 for squares: after turn 12 (ply 12) the first player moves a square
/// (turn 13). Position (first player S 2B, S 11K, C 2E, T 8E, T 11H):
/// ```text
///  2:  S C . .
///  5:  . . t .      second player: t 5H, t 11E, s 8B, s 5K, c 8H
///  8:  s T c .
/// 11:  . t T S
/// ```
/// 2B steps to 5B only (2E is taken; no diagonal to 5E); 11K steps to 8K
/// (11H taken): 2B-5B, 11K-8K.
#[test]
fn squares_step_orthogonally() {
    let s = pos("SC../..ts/sTc./.tTS 12");
    assert_eq!(s.to_move(), ToMove::Seat(0));
    assert_eq!(legal(&s), set("2B-5B 11K-8K"));
}

/// U-4 and ruling QU2: the first player's fourth piece (turn 7) completes
/// row 2 during the placement: he wins at once.
#[test]
fn line_in_the_placement_wins() {
    let mut s = game("line_up").initial_state(0);
    play(&mut s, "2B 5B 2E 5E 2H 5H");
    assert!(!s.is_terminal());
    play(&mut s, "2K");
    assert_eq!(s.ending(), Some((Outcome::Line, Some(0))));
    assert_eq!(s.end_reason(), Some("line"));
    assert_eq!(s.returns()[..2], [1.0, -1.0]);
    // The diagonal 2B 5E 8H 11K counts too (10 lines): the second player
    // completes it on turn 10 with t 2B, s 5E, c 8H, s 11K.
    let mut s = game("line_up").initial_state(0);
    // 1 S 2E, 2 t 2B, 3 C 2H, 4 s 5E, 5 T 5B, 6 c 8H, 7 S 8B, 8 t 11B,
    // 9 C 2H-2K (cylinder move), 10 s 11K: second player's 2B 5E 8H 11K.
    play(&mut s, "2E 2B 2H 5E 5B 8H 8B 11B 2H-2K");
    assert!(!s.is_terminal());
    play(&mut s, "11K");
    assert_eq!(s.ending(), Some((Outcome::Line, Some(1))));
    assert_eq!(s.returns()[..2], [-1.0, 1.0]);
}

/// U-5: turn 9, the first player must move his cylinder on 2B; its king
/// neighbours 2E (t), 5B (s), 5E (S) are all occupied: he loses at once.
/// ```text
///  2:  C t . .
///  5:  s S . .
///  8:  S T t c
/// 11:  . . . .
/// ```
/// With 5B empty instead (s on 11K) the cylinder has one move, 2B-5B.
#[test]
fn immobile_player_loses() {
    let s = pos("Ct../sS../STtc/.... 8");
    assert_eq!(s.ending(), Some((Outcome::Immobile, Some(1))));
    assert_eq!(s.end_reason(), Some("immobile"));
    assert!(s.is_terminal());
    assert_eq!(s.returns()[..2], [-1.0, 1.0]);
    let s = pos("Ct../.S../STtc/...s 8");
    assert_eq!(legal(&s), set("2B-5B"));
}

/// Without a solution table (no `table` parameter), `solved` knows
/// nothing; during the placement it never does.
#[test]
fn solved_needs_the_table() {
    assert_eq!(pos("S..c/s.C./Ts.t/St.T 14").solved(), None);
    assert_eq!(pos("..../..../..../.... 0").solved(), None);
}

/// U-6: the ply cap draws; `first_seat=1` seats the first player in seat 1.
#[test]
fn ply_cap_and_first_seat() {
    let g = game("line_up(ply_cap=12)");
    let mut s = g.initial_state(0);
    // 11 placements and turn 9's cylinder move, no line, nobody immobile:
    // turn 12 (ply 11) the second player moves his cylinder; after it the
    // cap of 12 plies draws.
    play(&mut s, "2B 2E 5E 5B 8E 8B 11H 11B 5E-5H 2H 8H");
    assert!(!s.is_terminal(), "{s}");
    let m = legal(&s).into_iter().next().unwrap();
    play(&mut s, &m);
    assert_eq!(s.ending(), Some((Outcome::PlyCap, None)));
    assert_eq!(s.returns()[..2], [0.0, 0.0]);
    let g = game("line_up(first_seat=1)");
    let s = g.initial_state(0);
    assert_eq!(s.to_move(), ToMove::Seat(1));
    assert_eq!(s.first_mover_seat(), Some(1));
    assert_eq!(
        (
            s.seat_role(1).colour.as_str(),
            s.seat_role(0).colour.as_str()
        ),
        ("first", "second")
    );
}

/// The repetition option: each player moves each type once in 6 plies
/// (U-1), and the same pieces step back in the next 6 (the phase `n mod 6`
/// is the same again), so the start position recurs after 12 plies. With
/// `repetitions=2` that second occurrence draws; without the option play
/// goes on. Position at ply 12 (turn 13: the first player moves a square):
/// ```text
///  2: S . . c      first: S 2B, S 11B, C 5H, T 8B, T 11K
///  5: s . C .      second: c 2K, s 5B, s 8E, t 8K, t 11E
///  8: T s . t
/// 11: S t . T
/// ```
#[test]
fn repetition_option() {
    let start = "S..c/s.C./Ts.t/St.T 12";
    let g = game("line_up(repetitions=2)");
    let cycle = find_cycle(&g, start);
    assert_eq!(cycle.len(), 12);
    let mut s = g.parse_position(start).unwrap();
    for (i, m) in cycle.iter().enumerate() {
        assert!(!s.is_terminal(), "ply {i} of the cycle: {s}");
        play(&mut s, m);
    }
    assert_eq!(s.ending(), Some((Outcome::Repetition, None)), "{s}");
    assert_eq!(s.end_reason(), Some("repetition"));
    assert_eq!(s.to_text().split(' ').next(), start.split(' ').next());
    let mut s = game("line_up").parse_position(start).unwrap();
    for m in &cycle {
        play(&mut s, m);
    }
    assert!(!s.is_terminal());
}

/// Six steps from `start` that never land on a square vacated earlier in
/// the six, followed by the same six pieces stepping back (ply k + 6 undoes
/// ply k: same player and type, U-1), all legal and none ending the game.
fn find_cycle(g: &LineUpGame, start: &str) -> Vec<String> {
    fn undo(m: &str) -> String {
        let (a, b) = m.split_once('-').unwrap();
        format!("{b}-{a}")
    }
    fn dfs(s: &LineUpState, vacated: &mut Vec<String>, line: &mut Vec<String>) -> bool {
        if s.is_terminal() {
            return false;
        }
        if line.len() == 6 {
            let mut t = s.clone();
            for m in line.clone() {
                if t.is_terminal() || !legal(&t).contains(&undo(&m)) {
                    return false;
                }
                play(&mut t, &undo(&m));
            }
            return true;
        }
        for m in legal(s) {
            let (from, to) = m.split_once('-').unwrap();
            if vacated.iter().any(|v| v == to) {
                continue;
            }
            let mut c = s.clone();
            play(&mut c, &m);
            vacated.push(from.to_string());
            line.push(m.clone());
            if dfs(&c, vacated, line) {
                return true;
            }
            line.pop();
            vacated.pop();
        }
        false
    }
    let s = g.parse_position(start).unwrap();
    let mut line = Vec::new();
    assert!(dfs(&s, &mut Vec::new(), &mut line), "no cycle found");
    let back: Vec<String> = line.iter().map(|m| undo(m)).collect();
    line.extend(back);
    line
}

/// The perft vectors of `engine/data/perft/line_up.txt` up to depth 6 (deeper
/// ones are for the release-build runner).
#[test]
fn perft_vectors() {
    let text = perft_file("line_up");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let depth: u32 = f[2].parse().unwrap();
        if depth > 6 {
            continue;
        }
        let g = game(f[0]);
        let s = if f[1] == "start" {
            g.initial_state(0)
        } else {
            g.parse_position(f[1]).unwrap()
        };
        assert_eq!(perft(&s, depth), f[3].parse::<u64>().unwrap(), "{line}");
        n += 1;
    }
    assert_eq!(n, 6);
}

/// Game strings, positions and moves that must be refused with a one-line
/// error.
#[test]
fn bad_input() {
    for spec in [
        "line_up(size=5)",
        "line_up(first_seat=2)",
        "line_up(ply_cap=5)",
        "line_up(ply_cap=x)",
        "line_up(repetitions=1)",
    ] {
        let e = LineUpGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_err();
        assert!(!e.0.contains('\n'), "{e}");
    }
    let g = game("line_up");
    for (text, needle) in [
        ("..../..../..../.... ", "2 fields"),
        ("..../..../.... 0", "4 rows"),
        ("...../..../..../.... 0", "4 rows"),
        ("X.../..../..../.... 0", "unknown cell"),
        ("..../..../..../.... x", "plies"),
        ("S.../..../..../.... 0", "schedule"), // a square before turn 1
        ("SS../..../..../.... 1", "schedule"),
        ("C.../..../..../.... 1", "schedule"), // turn 1 places a square
        ("..../..../..../.... 300", "ply cap"),
        // The player to move (first, ply 8) has four in a line.
        ("SCTS/t.../s.t./c... 8", "four in a line"),
    ] {
        let e = g.parse_position(text).unwrap_err();
        assert!(e.0.contains(needle), "{text}: {e}");
        assert!(!e.0.contains('\n'));
    }
    let s = g.initial_state(0);
    for (text, needle) in [
        ("2A", "not a centre"),
        ("13B", "bad Sly square"),
        ("2B-8B", "neighbouring"),
        ("", "bad Sly square"),
        ("2B-", "bad Sly square"),
    ] {
        let e = s.parse_move(text).unwrap_err();
        assert!(e.0.contains(needle), "{text}: {e}");
    }
    // A legal-looking step when a placement is due.
    let e = engine::parse_legal_move(&s, "2B-2E").unwrap_err();
    assert!(e.0.contains("not legal"), "{e}");
}

/// The generic kit: 3,000 random games (text and key round-trips, uniform
/// sampling lists only legal moves, symmetries map legal moves to legal
/// moves), plus the exact uniformity check at a few positions.
#[test]
fn kit_and_uniform_sampling() {
    let r = kit("line_up", 3000, 0x11E0, 200);
    assert_eq!(r.games, 3000);
    let r = kit("line_up(repetitions=3,first_seat=1)", 500, 0x11E1, 200);
    assert_eq!(r.games, 500);
    for text in [
        "..../..../..../.... 0",
        "S..c/s.C./Ts.t/St.T 14",
        "S.../.Ct./sT../ct.S 8",
    ] {
        engine::testkit::check_uniform(&pos(text), 20_000, 3).unwrap();
    }
}

/// The symmetry set: the 8 maps of the grid give the orbit of a corner
/// placement (the 4 corners) and of an inner one (the 4 inner cells).
#[test]
fn symmetries_keep_the_game() {
    let s = game("line_up").initial_state(0);
    assert_eq!(s.symmetry_count(), 8);
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let orbit = |name: &str| -> BTreeSet<String> {
        let m = s.parse_move(name).unwrap();
        (0..8)
            .map(|k| s.move_to_text(s.transform_move(m, k)))
            .collect()
    };
    assert_eq!(orbit("2B"), set("2B 2K 11B 11K"));
    assert_eq!(orbit("5E"), set("5E 5H 8E 8H"));
    assert_eq!(orbit("2E"), set("2E 2H 5B 8B 5K 8K 11E 11H"));
}

/// `Research::illegal_reason` names the rule a move breaks, worked by hand
/// from U-1, U-2 and U-3; legal moves give `None`.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let why = |s: &LineUpState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    // Turn 1: the first player places a square (U-1: T(1) = square; U-2:
    // all five pieces are still unplaced).
    let mut s = game("line_up").initial_state(0);
    let step = why(&s, "2B-2E");
    assert!(step.starts_with("turn 1 is the first player's square turn"));
    assert!(step.ends_with("(U-1, U-2)"));
    assert!(
        why(&s, "3B").starts_with("bad move"),
        "not a centre (U-SET-1)"
    );
    assert_eq!(s.illegal_reason("2B"), None);
    // Turn 2: the second player places a triangle, on an empty centre.
    play(&mut s, "2B");
    assert_eq!(why(&s, "2B"), "the centre 2B is taken (U-2)");

    // After 12 plies every piece is placed (turn 11 was the last placement)
    // and turn 13 is the first player's square turn (U-1: (13 - 1) mod 3 =
    // 0). First: squares 2B 11B, triangles 8B 11K, cylinder 5H. Second:
    // squares 5B 8E, triangles 8K 11E, cylinder 2K.
    let board = "S..c/s.C./Ts.t/St.T";
    let s = pos(&format!("{board} 12"));
    let place = why(&s, "2E");
    assert!(place.starts_with("turn 13 is the first player's square turn"));
    assert!(place.ends_with("steps one on the board (U-1, U-2)"));
    // U-3: a square steps orthogonally; 2B to 5E is diagonal.
    assert!(why(&s, "2B-5E").ends_with("only the cylinder steps diagonally (U-3)"));
    // U-1: the triangle on 8B is not the square the turn calls for.
    assert!(why(&s, "8B-5E").ends_with("(U-1), and the piece on 8B is a triangle"));
    assert_eq!(
        why(&s, "5B-5E"),
        "the piece on 5B is the second player's, and the first player is to move"
    );
    assert_eq!(why(&s, "2E-2H"), "no piece on 2E");
    assert_eq!(s.illegal_reason("2B-2E"), None);

    // Turn 15 is the first player's cylinder turn ((15 - 1) mod 3 = 2):
    // the cylinder on 5H steps to any empty king neighbour (U-3); 8E holds
    // the second player's square.
    let s = pos(&format!("{board} 14"));
    assert_eq!(
        why(&s, "5H-8E"),
        "8E is taken, and a piece steps to an empty centre (U-3)"
    );
    assert_eq!(s.illegal_reason("5H-2E"), None);
    assert_eq!(s.illegal_reason("5H-8H"), None);
}
