//! Solitaire Sly: the dossier's vectors, hand-derived rule checks, bad
//! input and the dedicated solver. The reference generator's diff is in
//! `sly_solitaire_reference`.
//!
//! Rules: `docs/rules/sly_solitaire.md` §3 (Solitaire Sly,
//! rules S-1…S-7, S-SET-1…S-SET-5, vectors §3.4). Every expected value comes
//! from the dossier or the seed text, or is derived by hand in the comment
//! beside it; none is engine output pasted back.

use std::collections::BTreeSet;

use engine::sly_solitaire::{Grade, SlySolitaireGame, SlySolitaireState};
use engine::spec::Spec;
use engine::testkit::check_uniform;
use engine::{Game, Research, Search, State, ToMove, parse_legal_move, perft, visit_game};

use crate::common::{kit, legal, perft_file, play, set};

pub fn game(spec: &str) -> SlySolitaireGame {
    SlySolitaireGame::from_spec(&Spec::parse(spec).unwrap())
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The canonical layout of §3.1 S-SET-4, typed from the dossier's diagram
/// (rows 4–9, columns D–I; shapes dropped, S-4).
pub const CANONICAL_TEXT: &str =
    "12/12/12/3BLDLBO3/3LOLBOD3/3ODBLDB3/3DBODBL3/3BLDOLO3/3LDOBOD3/12/12/12 0";

/// The published 23-move solution (§3.3) in global notation.
const SOLUTION: &str = "7F-3F 7G-3G 9F-7F 9G-7G 9D-9F 9I-9G 4D-4F 4I-4G 8D-4D 8I-4I 8E-4E 8H-4H \
                        3F-5F 3G-5G 4D-4F 4F-6F 6F-8F 8F-10F 4I-4G 4G-6G 6G-8G 8G-10G 10F-10H";

// ---------------------------------------------------------------------------
// §3.4 vectors
// ---------------------------------------------------------------------------

#[test]
fn canonical_layout_is_the_dossiers() {
    let g = game("sly_solitaire");
    assert_eq!(
        g.game_string(),
        "sly_solitaire(layout=canonical,area=board)"
    );
    let s = g.initial_state(0);
    assert_eq!(s.to_text(), CANONICAL_TEXT);
    assert_eq!(
        s.pieces_left(),
        36,
        "S-SET-1: 6 squares + 3 triangles x 4 colours"
    );
    // S-SET-4: 9 of each colour; the seed does not change the canonical layout.
    for letter in ['B', 'L', 'D', 'O'] {
        assert_eq!(CANONICAL_TEXT.matches(letter).count(), 9, "{letter}");
    }
    assert_eq!(g.initial_state(99).to_text(), CANONICAL_TEXT);
    assert_eq!(s.to_move(), ToMove::Seat(0));
}

/// S-7 and §3.4: the published 23-move solution replays legally (each move
/// checked against the legal list) and ends with one piece, on global 10H;
/// the game is then over, graded a win, and the return is −1.
#[test]
fn published_solution_replays() {
    let g = game("sly_solitaire");
    let mut s = g.initial_state(0);
    let moves: Vec<&str> = SOLUTION.split_whitespace().collect();
    assert_eq!(moves.len(), 23);
    let mut left = 36;
    for m in &moves {
        assert!(!s.is_terminal(), "over before {m}");
        play(&mut s, m);
        assert_eq!(s.zobrist(), s.zobrist_from_scratch());
        assert!(
            s.pieces_left() < left,
            "{m} removes at least one piece (S-4)"
        );
        left = s.pieces_left();
    }
    assert_eq!(s.pieces_left(), 1);
    assert_eq!(s.squares(), vec![9 * 12 + 7], "the survivor is on 10H");
    assert!(s.is_terminal());
    assert_eq!(s.grade(), Some(Grade::Win));
    assert_eq!(s.end_reason(), Some("no move (win)"));
    assert_eq!(s.returns()[0], -1.0);
    assert_eq!(s.ply(), 23);
    // The survivor started on local 6B = global 8D (§3.3): it is black in
    // the canonical layout (row 8 "BLDOLO" starts with B at column D).
    assert_eq!(s.to_text(), "12/12/12/12/12/12/12/12/12/7B4/12/12 23");
}

/// §3.4 example (the rule book's worked jumps, local 3D = global 5F, a lined
/// piece): up to 3F over one piece, right to 5J over three (5G 5H 5I), down
/// to 10F over four (6F 7F 8F 9F); left is illegal (5E is open, 5D lined:
/// the run 5E 5D holds a lined piece).
#[test]
fn worked_jumps_from_5f() {
    let s = game("sly_solitaire").initial_state(0);
    let from_5f: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("5F-"))
        .collect();
    assert_eq!(from_5f, set("5F-3F 5F-5J 5F-10F"));
    for (m, removed) in [("5F-3F", 1), ("5F-5J", 3), ("5F-10F", 4)] {
        let mut t = s;
        play(&mut t, m);
        assert_eq!(t.pieces_left(), 36 - removed, "{m}");
    }
    let e = parse_legal_move(&s, "5F-5C").unwrap_err();
    assert!(e.0.contains("not legal"), "{e}");
}

/// The solver's bound by hand: at the start every row and column of the
/// block holds 6 pieces, so one jump removes at most 5 (36 - 5 = 31 left),
/// two at most 5 + 6 = 11 (25 left); with no limit, 1 piece. A finished
/// game is worth its score exactly.
#[test]
fn return_bound_by_hand() {
    let s = game("sly_solitaire").initial_state(0);
    assert_eq!(s.return_bound(1), Some(-31.0));
    assert_eq!(s.return_bound(2), Some(-25.0));
    assert_eq!(s.return_bound(u32::MAX), Some(-1.0));
    let mut t = s;
    play(&mut t, SOLUTION);
    assert_eq!(t.return_bound(5), Some(-1.0));
    let two = game("sly_solitaire")
        .parse_position("BB10/12/12/12/12/12/12/12/12/12/12/12 34")
        .unwrap();
    assert_eq!(two.return_bound(u32::MAX), Some(-2.0));
}

#[test]
fn perft_vectors_from_the_data_file() {
    let text = perft_file("sly_solitaire");
    let mut n = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let g = game(f[0]);
        let s = if f[1] == "start" {
            g.initial_state(0)
        } else {
            g.parse_position(f[1]).unwrap()
        };
        let depth: u32 = f[2].parse().unwrap();
        let want: u64 = f[3].parse().unwrap();
        assert_eq!(perft(&s, depth), want, "{line}");
        n += 1;
    }
    assert_eq!(n, 6);
}

/// Hand-made positions for single rules.
#[test]
fn rules_by_hand() {
    let g = game("sly_solitaire");
    // S-2: a run reaching the board edge gives no move. B on 1J, O on 1K
    // and 1L: B cannot jump right (the run 1K 1L reaches the edge); O on 1K
    // cannot jump left over B? It can: the run is 1J alone (B), landing 1I.
    // O on 1L: the run 1K is its own colour (S-3), no move left.
    let s = g
        .parse_position("9BOO/12/12/12/12/12/12/12/12/12/12/12 0")
        .unwrap();
    assert_eq!(legal(&s), set("1K-1I"));
    // S-2, S-3: the run may hold several colours but never the jumper's.
    // Row 5: B L D O on D E F G, 5C and 5H empty, all four colours
    // different, so every piece jumps both ways over the whole run on that
    // side: B right over L D O to 5H; L left over B to 5C, right over D O to
    // 5H; D left over L B to 5C, right over O to 5H; O left over D L B to 5C.
    let s = g
        .parse_position("12/12/12/12/3BLDO5/12/12/12/12/12/12/12 0")
        .unwrap();
    assert_eq!(legal(&s), set("5D-5H 5E-5C 5E-5H 5F-5C 5F-5H 5G-5C"));
    // Same row with B L B O: the middle B (5F): left run
    // 5E 5D holds B: illegal; right run 5G is O: to 5H. 5D B: right run
    // 5E 5F 5G holds B: illegal. 5E L: left over B to 5C, right over B O to
    // 5H. 5G O: left over B L B to 5C.
    let s2 = g
        .parse_position("12/12/12/12/3BLBO5/12/12/12/12/12/12/12 0")
        .unwrap();
    assert_eq!(legal(&s2), set("5E-5C 5E-5H 5F-5H 5G-5C"));
    let mut t = s;
    play(&mut t, "5D-5H");
    assert_eq!(t.pieces_left(), 1);
    assert!(t.is_terminal());
    assert_eq!(t.grade(), Some(Grade::Win));
    // A piece with a same-colour neighbour can still jump the other way.
    // Column E: B on 2E, B on 3E, L on 4E. 3E down over 4E to 5E; 2E cannot
    // jump down (run 3E 4E holds B); 4E up over 3E 2E to 1E.
    let s = g
        .parse_position("12/4B7/4B7/4L7/12/12/12/12/12/12/12/12 0")
        .unwrap();
    assert_eq!(legal(&s), set("3E-5E 4E-1E"));
    // S-6 grades: 2 pieces good, 3 fair, 4 bad.
    for (text, grade, ret) in [
        (
            "BB10/12/12/12/12/12/12/12/12/12/12/12 34",
            Grade::Good,
            -2.0,
        ),
        (
            "BB10/12/12/12/12/12/12/12/12/12/12/B11 33",
            Grade::Fair,
            -3.0,
        ),
        (
            "BB10/12/12/12/12/12/12/12/12/12/12/B10B 32",
            Grade::Bad,
            -4.0,
        ),
    ] {
        let s = g.parse_position(text).unwrap();
        assert!(s.is_terminal(), "{text}");
        assert_eq!(s.grade(), Some(grade));
        assert_eq!(s.returns()[0], ret);
    }
    // area=window (S-5 ruling alternative): a jump landing outside rows
    // 3-10 x C-J is not offered. B on 3F, O on 4F: O up over B to 2F is
    // off-window; B down over O to 5F is inside.
    let w = game("sly_solitaire(area=window)");
    let s = w
        .parse_position("12/12/5B6/5O6/12/12/12/12/12/12/12/12 0")
        .unwrap();
    assert_eq!(legal(&s), set("3F-5F"));
    let s = g
        .parse_position("12/12/5B6/5O6/12/12/12/12/12/12/12/12 0")
        .unwrap();
    assert_eq!(legal(&s), set("3F-5F 4F-2F"));
}

#[test]
fn random_layouts_come_from_the_seed() {
    let g = game("sly_solitaire(layout=random)");
    assert_eq!(g.game_string(), "sly_solitaire(layout=random,area=board)");
    let a = g.initial_state(1);
    assert_eq!(
        a.to_text(),
        g.initial_state(1).to_text(),
        "same seed, same layout"
    );
    assert_ne!(a.to_text(), g.initial_state(2).to_text());
    for seed in 0..50 {
        let s = g.initial_state(seed);
        let t = s.to_text();
        // S-SET-5: the 36 pieces (9 a colour) fill rows 4-9 x D-I.
        for letter in ['B', 'L', 'D', 'O'] {
            assert_eq!(t.matches(letter).count(), 9, "{t}");
        }
        let rows: Vec<&str> = t.split(' ').next().unwrap().split('/').collect();
        for (r, row) in rows.iter().enumerate() {
            if (3..9).contains(&r) {
                assert!(
                    row.starts_with('3') && row.ends_with('3') && row.len() == 8,
                    "{t}"
                );
            } else {
                assert_eq!(*row, "12");
            }
        }
    }
}

#[test]
fn bad_input_is_one_line_errors() {
    struct Name;
    impl engine::GameVisitor for Name {
        type Output = String;
        fn visit<G: Game>(self, g: G) -> String {
            g.game_string()
        }
    }
    assert_eq!(
        visit_game("sly_solitaire(layout=random)", Name).unwrap(),
        "sly_solitaire(layout=random,area=board)"
    );
    for (bad, needle) in [
        ("sly_solitaire(layout=spiral)", "canonical|random"),
        ("sly_solitaire(colours=3)", "unknown parameter"),
        ("sly_solitaire(area=8x8)", "board|window"),
    ] {
        let e = visit_game(bad, Name).unwrap_err();
        assert!(e.0.contains(needle) && !e.0.contains('\n'), "{bad}: {e}");
    }
    let g = game("sly_solitaire");
    for (bad, needle) in [
        ("", "expected the board"),
        ("12/12 0", "expected 12"),
        ("12/12/12/12/12/12/12/12/12/12/12/12 0", "no piece"),
        ("X11/12/12/12/12/12/12/12/12/12/12/12 0", "colour"),
        ("B12/12/12/12/12/12/12/12/12/12/12/12 0", "13 spaces"),
        ("B10/12/12/12/12/12/12/12/12/12/12/12 0", "11 spaces"),
        (
            "BBBBBBBBBB2/12/12/12/12/12/12/12/12/12/12/12 0",
            "at most 9",
        ),
        ("B11/12/12/12/12/12/12/12/12/12/12/12 36", "impossible"),
        ("B11/12/12/12/12/12/12/12/12/12/12/12 x", "ply"),
        ("B011/12/12/12/12/12/12/12/12/12/12/12 0", "empty count"),
    ] {
        let e = g.parse_position(bad).unwrap_err();
        assert!(e.0.contains(needle) && !e.0.contains('\n'), "{bad:?}: {e}");
    }
    let e = game("sly_solitaire(area=window)")
        .parse_position("B11/12/12/12/12/12/12/12/12/12/12/12 0")
        .unwrap_err();
    assert!(e.0.contains("outside the playing area"), "{e}");
    let s = g.initial_state(0);
    for (bad, needle) in [
        ("7F3F", "no '-'"),
        ("7F-3G", "one row or column"),
        ("7F-6F", "at least one piece"),
        ("7Z-3F", "bad Sly square"),
        ("13F-3F", "bad Sly square"),
    ] {
        let e = s.parse_move(bad).unwrap_err();
        assert!(e.0.contains(needle) && !e.0.contains('\n'), "{bad}: {e}");
    }
    // Well-formed but illegal: 4D-4B (run 4C? empty: no neighbour).
    assert!(parse_legal_move(&s, "4D-4B").is_err());
    // A finished game refuses moves.
    let mut t = s;
    crate::common::play(&mut t, SOLUTION);
    assert!(
        parse_legal_move(&t, "10H-10F")
            .unwrap_err()
            .0
            .contains("over")
    );
}

// ---------------------------------------------------------------------------
// The generic kit and uniform sampling
// ---------------------------------------------------------------------------

#[test]
fn generic_kit_and_uniform_sampling() {
    let r = kit("sly_solitaire(layout=random)", 200, 11, 40);
    assert_eq!(r.games, 200);
    kit("sly_solitaire(area=window)", 50, 12, 40);
    let s = game("sly_solitaire").initial_state(0);
    check_uniform(&s, 20_000, 3).unwrap();
}

// ---------------------------------------------------------------------------
// The dedicated solver
// ---------------------------------------------------------------------------

/// Replays a solver line with the legality check of the game API and
/// returns the end.
fn replay_line(
    s: &SlySolitaireState,
    line: &[engine::sly_solitaire::SlySolitaireMove],
) -> SlySolitaireState {
    let mut end = *s;
    for &m in line {
        let m = parse_legal_move(&end, &end.move_to_text(m)).unwrap();
        end.apply(m);
    }
    end
}

/// The canonical layout can be won (the rule book's 23-move solution shows
/// it): the solver proves one piece and its line replays legally to an end
/// with one piece, graded win. The search is deterministic, and a budget of
/// 10 positions leaves the result unproven.
#[test]
fn solver_wins_the_canonical_layout() {
    use engine::sly_solitaire::solve::solve;
    let s = game("sly_solitaire").initial_state(0);
    let r = solve(&s, 16, 0, false);
    assert!(r.proven);
    assert_eq!(r.pieces, 1);
    let end = replay_line(&s, &r.line);
    assert!(end.is_terminal());
    assert_eq!((end.pieces_left(), end.grade()), (1, Some(Grade::Win)));
    assert_eq!(solve(&s, 16, 0, false), r);
    assert!(!solve(&s, 16, 10, false).proven);
}

/// The fewest-moves bounds (`sly_solitaire::bound`) by hand.
///
/// * Canonical start: rows 4–9 × D–I full, so the row–column graph is the
///   complete 6 × 6 one, whose largest matching has 6 edges: the line
///   cover bound is 6. The removal bound: 35 pieces to remove, at most
///   5 + 6 + 7 + 8 + 9 = 35 in five moves: 5. No piece is isolated: 0.
/// * B L on 5D 5E, D O on 6F 7F: B jumps L to 5F, then down over D and O
///   to 8F, one piece in two moves; no single move takes three pieces (no
///   line holds more than two). The pieces need row 5 and column F (6F
///   and 7F share no row, 5D and 5E no column): cover bound 2, exact.
/// * B on 5D, L D on 5F 5G: B has no neighbour (isolated) and cannot move;
///   D jumps L to 5E, beside B, which jumps D to 5F: two moves. One row
///   holds all (cover bound 1); the isolation bound says B needs a landing
///   beside it before a last move: 1 + 1 = 2, exact.
#[test]
fn fewest_moves_bounds_by_hand() {
    use engine::sly_solitaire::bound::{
        isolation_bound, line_cover_bound, moves_lower_bound, removal_bound,
    };
    use engine::sly_solitaire::solve::solve;
    let s = game("sly_solitaire").initial_state(0);
    assert_eq!(
        (
            line_cover_bound(&s, 1),
            removal_bound(&s, 1),
            isolation_bound(&s, 1)
        ),
        (6, 5, 0)
    );
    assert_eq!(moves_lower_bound(&s, 1), 6);
    let g = game("sly_solitaire");
    let two = g
        .parse_position("12/12/12/12/3BL7/5D6/5O6/12/12/12/12/12 0")
        .unwrap();
    assert_eq!(
        (line_cover_bound(&two, 1), moves_lower_bound(&two, 1)),
        (2, 2)
    );
    let r = solve(&two, 1, 0, true);
    assert_eq!((r.pieces, r.line.len(), r.proven), (1, 2, true));
    let iso = g
        .parse_position("12/12/12/12/3B1LD5/12/12/12/12/12/12/12 0")
        .unwrap();
    assert_eq!(
        (
            line_cover_bound(&iso, 1),
            isolation_bound(&iso, 1),
            moves_lower_bound(&iso, 1)
        ),
        (1, 2, 2)
    );
    let r = solve(&iso, 1, 0, true);
    let line: Vec<String> = r.line.iter().map(|&m| iso.move_to_text(m)).collect();
    assert_eq!((r.pieces, line.join(" ")), (1, "5G-5E 5D-5F".to_string()));
    // With nothing left to remove, no move is needed.
    assert_eq!(moves_lower_bound(&iso, 3), 0);
}

/// A layout whose win the first pass misses within its first 200,000
/// positions (the generic branch and bound gave up on it after 10^8): the
/// restarts find a line, which replays legally to one piece.
#[test]
fn solver_restarts_find_a_hard_win() {
    use engine::sly_solitaire::solve::solve;
    let s = game("sly_solitaire(layout=random)")
        .parse_position("12/12/12/3OOLDLB3/3LBBODB3/3BOBOBL3/3LODDOL3/3BDBLDO3/3DOLDLD3/12/12/12 0")
        .unwrap();
    let r = solve(&s, 64, 0, false);
    assert!(r.proven);
    assert!(
        r.nodes > 200_000,
        "{} nodes: no restart was needed",
        r.nodes
    );
    let end = replay_line(&s, &r.line);
    assert_eq!((end.is_terminal(), end.pieces_left()), (true, 1));
}

/// `Research::illegal_reason` names the rule a jump breaks, worked by hand
/// from S-1, S-2, S-3 and S-5 on the canonical layout (S-SET-4; row 5 is
/// L O L | B O D on D-I, 3D is empty) and small positions; legal jumps
/// give `None`.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let g = game("sly_solitaire");
    let why = |s: &SlySolitaireState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    let s = g.initial_state(0);
    // S-1: a move picks a piece; 1A is empty.
    assert_eq!(why(&s, "1A-3A"), "no piece on 1A (S-1)");
    // S-2: the neighbour of 4D towards row 2 (3D) is empty.
    assert!(why(&s, "4D-2D").starts_with("the space next to 4D towards 2D is empty"));
    // S-2, no shorter jumps: right of 5F the run is 5G 5H 5I, so 5F lands
    // on 5J (the rule book's example), not 5H.
    assert_eq!(
        why(&s, "5F-5H"),
        "the run of pieces from 5G ends at 5I, so 5F jumps the whole run and lands on 5J (S-2)"
    );
    // S-3: left of the lined 5F the run is 5E (open) and 5D (lined): the
    // rule book's "left is illegal".
    let left = why(&s, "5F-5C");
    assert!(left.starts_with("5F would jump 5D, a piece of its own colour (lined)"));
    assert!(left.ends_with("(S-3)"));
    assert!(why(&s, "5F5C").starts_with("bad sly_solitaire move"));
    assert_eq!(s.illegal_reason("5F-3F"), None);
    assert_eq!(s.illegal_reason("7F-3F"), None);

    // S-2: B on 1J, O on 1K 1L: the run right of 1J reaches the edge.
    let s = g
        .parse_position("9BOO/12/12/12/12/12/12/12/12/12/12/12 0")
        .unwrap();
    assert!(why(&s, "1J-1L").starts_with("the run of pieces from 1K reaches the edge"));
    assert_eq!(s.illegal_reason("1K-1I"), None);

    // S-5: row 4 holds B L D O on C-F; O on 4F jumps left over 4E 4D 4C to
    // 4B, which is on the board but outside the window (columns C-J).
    let row4 = "12/12/12/2BLDO6/12/12/12/12/12/12/12/12 0";
    let w = game("sly_solitaire(area=window)")
        .parse_position(row4)
        .unwrap();
    assert!(why(&w, "4F-4B").contains("outside the rule book's 8x8 window"));
    assert!(why(&w, "4F-4B").ends_with("(area=window, S-5)"));
    assert_eq!(
        g.parse_position(row4).unwrap().illegal_reason("4F-4B"),
        None
    );

    // S-6: B B on 1A 1B have no jump (S-3 one way, the edge the other).
    let s = g
        .parse_position("BB10/12/12/12/12/12/12/12/12/12/12/12 34")
        .unwrap();
    assert_eq!(why(&s, "1A-1C"), "the game is already over");
}
