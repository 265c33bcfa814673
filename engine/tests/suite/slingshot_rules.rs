//! Slingshot rule tests: one test per rule or worked example of the rules
//! dossier (`docs/rules/slingshot.md`), each citing its section.
//!
//! Every expected value comes from the dossier (worked examples, perft
//! counts, tables) or is derived by hand from its numbered rules in the
//! comments next to it; none is engine output pasted back.

use std::collections::BTreeSet;

use crate::common::{legal, play, pos, set_of};
use engine::Research;
use engine::slingshot::{Side, SlingshotGame, SlingshotMove, SlingshotState};
use engine::spec::Spec;
use engine::{Game, State, ToMove, apply_moves, parse_legal_move};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn game(spec: &str) -> SlingshotGame {
    SlingshotGame::from_spec(&Spec::parse(spec).unwrap()).unwrap()
}

fn g7() -> SlingshotGame {
    game("slingshot(size=7)")
}

fn g9() -> SlingshotGame {
    game("slingshot(size=9)")
}

/// The state after a move record from the initial (empty) board.
fn after(g: &SlingshotGame, record: &str) -> SlingshotState {
    let mut s = g.initial_state(0);
    apply_moves(&mut s, record).unwrap_or_else(|e| panic!("{record}: {e}"));
    s
}

/// Legal moves whose target is `t` (the text after the `x`).
fn with_target(moves: &BTreeSet<String>, t: &str) -> usize {
    moves
        .iter()
        .filter(|m| m.split_once('x').is_some_and(|(_, x)| x == t))
        .count()
}

/// Square index `rank * n + file` of a name, computed here (not by the engine).
fn sq(name: &str, n: usize) -> usize {
    let b = name.as_bytes();
    let file = (b[0] - b'a') as usize;
    let rank: usize = name[1..].parse().unwrap();
    (rank - 1) * n + file
}

/// The custodial move `A+BxT` in the dossier's notation: pair in increasing
/// square index (A.6).
fn custodial(a: &str, b: &str, t: &str, n: usize) -> String {
    let (a, b) = if sq(a, n) < sq(b, n) { (a, b) } else { (b, a) };
    format!("{a}+{b}x{t}")
}

/// Position text with one Teal stone at (rank r, file c), Black to move.
fn lone_target(n: usize, r: usize, c: usize) -> String {
    let rows: Vec<String> = (0..n)
        .rev()
        .map(|rank| {
            if rank != r {
                n.to_string()
            } else {
                let mut row = String::new();
                if c > 0 {
                    row += &c.to_string();
                }
                row.push('T');
                if c < n - 1 {
                    row += &(n - 1 - c).to_string();
                }
                row
            }
        })
        .collect();
    format!("{} B C 0 0", rows.join("/"))
}

/// A.4.6's formula N(r,c), for cross-checking the tables below.
fn pairs_formula(n: i32, r: i32, c: i32) -> i32 {
    let inner = |x: i32| (1..=n - 2).contains(&x) as i32;
    n * inner(r)
        + n * inner(c)
        + (n - 2 - (r - c).abs()).max(0)
        + (n - 2 - (r + c - (n - 1)).abs()).max(0)
}

/// Returns of seats 0 and 1.
fn returns2(s: &SlingshotState) -> [f64; 2] {
    let r = s.returns();
    [r[0], r[1]]
}

fn assert_terminal(s: &SlingshotState) {
    assert!(s.is_terminal(), "{}", s.to_text());
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.count_legal_moves(), 0);
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    assert!(v.is_empty());
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert_eq!(s.sample_legal_move(&mut rng, &mut v), None);
}

/// The game string: the dossier's defaults (S22 size 9, S21 supply 45, S4
/// ordinary corners, S19 pass) and rejects of bad parameters.
#[test]
fn game_string_defaults_and_rejects() {
    assert_eq!(
        g9().game_string(),
        "slingshot(size=9,supply=45,corners=ordinary,stuck=pass)"
    );
    assert_eq!(g9().num_seats(), 2);
    let g = game("slingshot(size=7,supply=unlimited,corners=neutral,stuck=lose)");
    assert_eq!(
        g.game_string(),
        "slingshot(size=7,supply=unlimited,corners=neutral,stuck=lose)"
    );
    for bad in [
        "slingshot(size=8)",
        "slingshot(size=11)",
        "slingshot(supply=2)",
        "slingshot(supply=abc)",
        "slingshot(supply=-1)",
        "slingshot(corners=wild)",
        "slingshot(stuck=maybe)",
        "slingshot(colour=1)",
    ] {
        let r = Spec::parse(bad).and_then(|s| SlingshotGame::from_spec(&s));
        assert!(r.is_err(), "accepted {bad}");
    }
    // The seed is unused: Slingshot has no random set-up.
    assert_eq!(
        g9().initial_state(1).to_text(),
        g9().initial_state(2).to_text()
    );
    assert_eq!(
        g9().initial_state(0).to_text(),
        "9/9/9/9/9/9/9/9/9 setup C 0 - 0"
    );
    assert_eq!(g9().initial_state(0).count_legal_moves(), 3240);
    assert_eq!(g7().initial_state(0).count_legal_moves(), 1176);
}

// ---------------------------------------------------------------------------
// A.7 worked examples and perft
// ---------------------------------------------------------------------------

/// A.7.1: setup Teal e5, a1 (9×9) → 39 first moves (32 on e5, 7 on a1, the
/// seven long-diagonal slots listed); perft 39 / 2,698 / 193,000.
#[test]
fn a7_1_setup_e5_a1() {
    let s = after(&g9(), "e5,a1 chooser=B");
    let moves = legal(&s);
    assert_eq!(moves.len(), 39);
    assert_eq!(with_target(&moves, "e5"), 32);
    let on_a1: BTreeSet<String> = moves
        .iter()
        .filter(|m| m.ends_with("xa1"))
        .cloned()
        .collect();
    let want: BTreeSet<String> = [
        ("c1", "a3"),
        ("d2", "b4"),
        ("e3", "c5"),
        ("f4", "d6"),
        ("g5", "e7"),
        ("h6", "f8"),
        ("i7", "g9"),
    ]
    .iter()
    .map(|&(a, b)| custodial(a, b, "a1", 9))
    .collect();
    assert_eq!(on_a1, want);
    // "These are the same seven slots as e5's diagonal pairs."
    for (a, b) in [("c1", "a3"), ("i7", "g9")] {
        assert!(moves.contains(&custodial(a, b, "e5", 9)));
    }
    // Its perft counts are in engine/data/perft/slingshot.txt.
}

/// A.7.2: setup a1, i9 → 14 (seven slots × two targets); perft 14 / 740 /
/// 50,520.
#[test]
fn a7_2_setup_a1_i9() {
    let s = after(&g9(), "a1,i9 chooser=B");
    let mut want = BTreeSet::new();
    for (a, b) in [
        ("c1", "a3"),
        ("d2", "b4"),
        ("e3", "c5"),
        ("f4", "d6"),
        ("g5", "e7"),
        ("h6", "f8"),
        ("i7", "g9"),
    ] {
        want.insert(custodial(a, b, "a1", 9));
        want.insert(custodial(a, b, "i9", 9));
    }
    assert_eq!(legal(&s), want);
    // Its perft counts are in engine/data/perft/slingshot.txt.
    // "reached for example by a1+a9" too.
    assert_eq!(after(&g9(), "a1,a9 chooser=B").count_legal_moves(), 14);
}

/// A.7.3: adjacent setup e5, e6 → 60: e5 has 8+9+7+7 (e4+e6 blocked),
/// e6 has 8+9+6+6 (e5+e7 blocked).
#[test]
fn a7_3_setup_e5_e6() {
    let s = after(&g9(), "e5,e6 chooser=B");
    let moves = legal(&s);
    assert_eq!(moves.len(), 60);
    assert_eq!(with_target(&moves, "e5"), 31);
    assert_eq!(with_target(&moves, "e6"), 29);
    assert!(!moves.contains("e4+e6xe5"));
    assert!(!moves.contains("e5+e7xe6"));
    assert!(moves.contains("d5+f5xe5") && moves.contains("d6+f6xe6"));
}

/// A.7.4: after A.7.1 and Black e4+e6xe5, Teal has 85: e4 27, e5 31, e6 27.
/// The block example: e4's diagonal midpoint f5 needs g4 and e6 (occupied).
#[test]
fn a7_4_teal_reply() {
    let s = after(&g9(), "e5,a1 chooser=B e4+e6xe5");
    assert_eq!(s.colour_to_move(), Some(Side::Teal));
    let moves = legal(&s);
    assert_eq!(moves.len(), 85);
    assert_eq!(with_target(&moves, "e4"), 27);
    assert_eq!(with_target(&moves, "e5"), 31);
    assert_eq!(with_target(&moves, "e6"), 27);
    assert!(!moves.contains(&custodial("g4", "e6", "e4", 9)));
    // The diagonal a1 stone is Teal's own: never a target for Teal.
    assert_eq!(with_target(&moves, "a1"), 0);
}

/// The A.7.5 diagram in the engine's position text.
const A75: &str = "BTBTBT1/TBTBTBT/BTBTBTB/TBTBTBT/BT1TBTB/TBTBTBT/1TBTBTB B C 0 0";

/// The A.7.5 diagram, rank 7 first, as printed in the dossier.
const A75_DIAGRAM: [&str; 7] = [
    "B T B T B T .",
    "T B T B T B T",
    "B T B T B T B",
    "T B T B T B T",
    "B T . T B T B",
    "T B T B T B T",
    ". T B T B T B",
];

/// The squares holding `letter` in the A.7.5 diagram.
fn a75_squares(letter: char) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, row) in A75_DIAGRAM.iter().enumerate() {
        for (file, ch) in row.split_whitespace().enumerate() {
            if ch.starts_with(letter) {
                out.insert(format!("{}{}", (b'a' + file as u8) as char, 7 - i));
            }
        }
    }
    out
}

/// A.7.5 (S13–S17, D4): Black has no custodial move, so Phase S starts for
/// both although Teal would have had 3; Black stacks first with 24 options;
/// stacks on e2, e4, e6 complete file e and Black wins on his 3rd stacking
/// move.
#[test]
fn a7_5_stalemate_global_phase_switch() {
    let g = g7();
    let teal = a75_squares('T');
    let black = a75_squares('B');
    assert_eq!((teal.len(), black.len()), (24, 22));

    let s = pos(&g, A75);
    assert_eq!(s.custodial_count(Side::Black), 0);
    assert_eq!(s.custodial_count(Side::Teal), 3);
    assert!(s.in_phase_s(), "S13: Phase S starts at once");
    assert_eq!(s.to_text().split(' ').nth(2), Some("S"));
    let stacks: BTreeSet<String> = teal.iter().map(|t| format!("*{t}")).collect();
    assert_eq!(legal(&s), stacks, "S15: a stack on every Teal singleton");
    assert_eq!(s.hand(Side::Black), 45 - 22);

    // Teal to move on the same board: still Phase C, the three moves of A.7.5.
    let t = pos(&g, &A75.replace(" B C", " T C"));
    assert!(!t.in_phase_s());
    assert_eq!(legal(&t), set_of(&["a1+c3xa3", "a1+c3xb2", "a1+c3xc1"]));

    // The race: Black e2, e4, e6 (k_Black = 3), Teal two stacks of its own.
    let mut s = s;
    play(&mut s, "*e2");
    assert!(!s.is_terminal());
    // S13 is global: Teal now stacks (on Black singletons) instead of its
    // three custodial moves; e2 is a stack and a1 is empty.
    let teal_opts: BTreeSet<String> = black.iter().map(|b| format!("*{b}")).collect();
    assert_eq!(legal(&s), teal_opts);
    play(&mut s, "*b4");
    assert!(!legal(&s).contains("*e2") && !legal(&s).contains("*a3"));
    play(&mut s, "*e4");
    assert!(!s.is_terminal());
    play(&mut s, "*d2");
    assert!(!s.is_terminal());
    play(&mut s, "*e6");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [1.0, -1.0], "Black is seat 0 here");
    assert_eq!(s.ply(), 5);
}

/// Black's first-move counts over every set-up (chooser=B).
fn first_move_counts(g: &SlingshotGame) -> Vec<(String, usize)> {
    let s0 = g.initial_state(0);
    let mut setups = Vec::new();
    s0.legal_moves(&mut setups);
    setups
        .iter()
        .map(|&m| {
            let mut s = s0;
            s.apply(m);
            s.apply(SlingshotMove::Choose(Side::Black));
            (s0.move_to_text(m), s.count_legal_moves())
        })
        .collect()
}

/// A.7.7 and S22: on 7×7, 1,176 set-ups; first moves 10 (a1+a7) to 44
/// (d4+f2), mean 29.7 (A.6).
#[test]
fn a7_7_first_moves_over_all_7x7_setups() {
    let counts = first_move_counts(&g7());
    assert_eq!(counts.len(), 1176);
    let min = counts.iter().map(|c| c.1).min().unwrap();
    let max = counts.iter().map(|c| c.1).max().unwrap();
    assert_eq!((min, max), (10, 44));
    let mean = counts.iter().map(|c| c.1).sum::<usize>() as f64 / 1176.0;
    assert!((mean - 29.7).abs() < 0.05, "mean {mean}");
    assert_eq!(after(&g7(), "a1,a7 chooser=B").count_legal_moves(), 10);
    assert_eq!(after(&g7(), "d4,f2 chooser=B").count_legal_moves(), 44);
}

/// S22 and A.6: on 9×9, 3,240 set-ups; first moves 14 to 60, mean 43.1.
#[test]
fn first_moves_over_all_9x9_setups() {
    let counts = first_move_counts(&g9());
    assert_eq!(counts.len(), 3240);
    let min = counts.iter().map(|c| c.1).min().unwrap();
    let max = counts.iter().map(|c| c.1).max().unwrap();
    assert_eq!((min, max), (14, 60));
    let mean = counts.iter().map(|c| c.1).sum::<usize>() as f64 / 3240.0;
    assert!((mean - 43.1).abs() < 0.05, "mean {mean}");
    // A.7.3 is a maximum, A.7.2 a minimum.
    let of = |t: &str| counts.iter().find(|c| c.0 == t).unwrap().1;
    assert_eq!(of("e5,e6"), 60);
    assert_eq!(of("a1,i9"), 14);
}

/// S23, the 5×5 research board, counted by hand from S5 and S9: C(25, 2)
/// = 300 set-ups. With Teal on c3 and a1, Black's first moves are c3's 16
/// slots (5 midpoints on its row with a vertical pair, 5 on its column, 3
/// on each diagonal) and a1's 3 (midpoints b2, c3, d4 on its diagonal; its
/// rank and file are edges, so they hold no midpoint), and no pair holds the
/// other target: 19. Two opposite corners give 3 + 3 = 6, the fewest (each
/// corner has 3, every other square more).
#[test]
fn s23_first_moves_on_the_5x5_board() {
    let g5 = game("slingshot(size=5)");
    let counts = first_move_counts(&g5);
    assert_eq!(counts.len(), 300);
    let of = |t: &str| counts.iter().find(|c| c.0 == t).unwrap().1;
    assert_eq!(of("a1,c3"), 19);
    assert_eq!(of("a1,e5"), 6);
    assert_eq!(counts.iter().map(|c| c.1).min(), Some(6));
    let err = SlingshotGame::from_spec(&Spec::parse("slingshot(size=6)").unwrap()).unwrap_err();
    assert!(err.to_string().contains("expected one of 5|7|9"), "{err}");
}

// ---------------------------------------------------------------------------
// A.4 custodial geometry
// ---------------------------------------------------------------------------

/// A.4.6 9×9 table, rank 9 first.
const TABLE_9: [[i32; 9]; 9] = [
    [7, 15, 15, 15, 15, 15, 15, 15, 7],
    [15, 26, 26, 26, 26, 26, 26, 26, 15],
    [15, 26, 28, 28, 28, 28, 28, 26, 15],
    [15, 26, 28, 30, 30, 30, 28, 26, 15],
    [15, 26, 28, 30, 32, 30, 28, 26, 15],
    [15, 26, 28, 30, 30, 30, 28, 26, 15],
    [15, 26, 28, 28, 28, 28, 28, 26, 15],
    [15, 26, 26, 26, 26, 26, 26, 26, 15],
    [7, 15, 15, 15, 15, 15, 15, 15, 7],
];

/// A.4.6 7×7 table, rank 7 first.
const TABLE_7: [[i32; 7]; 7] = [
    [5, 11, 11, 11, 11, 11, 5],
    [11, 20, 20, 20, 20, 20, 11],
    [11, 20, 22, 22, 22, 20, 11],
    [11, 20, 22, 24, 22, 20, 11],
    [11, 20, 22, 22, 22, 20, 11],
    [11, 20, 20, 20, 20, 20, 11],
    [5, 11, 11, 11, 11, 11, 5],
];

fn check_table(g: &SlingshotGame, n: usize, table: &[&[i32]]) {
    for (i, row) in table.iter().enumerate() {
        let r = n - 1 - i;
        for (c, &want) in row.iter().enumerate() {
            assert_eq!(want, pairs_formula(n as i32, r as i32, c as i32));
            let s = pos(g, &lone_target(n, r, c));
            assert!(!s.in_phase_s());
            assert_eq!(
                s.count_legal_moves() as i32,
                want,
                "{n}x{n} lone target {}",
                s.to_text()
            );
            assert_eq!(s.custodial_count(Side::Black) as i32, want);
            assert_eq!(legal(&s).len() as i32, want);
        }
    }
}

/// A.4.6: pairs for a lone target on every square, 9×9.
#[test]
fn a4_6_lone_target_table_9x9() {
    let t: Vec<&[i32]> = TABLE_9.iter().map(|r| &r[..]).collect();
    check_table(&g9(), 9, &t);
}

/// A.4.6: pairs for a lone target on every square, 7×7.
#[test]
fn a4_6_lone_target_table_7x7() {
    let t: Vec<&[i32]> = TABLE_7.iter().map(|r| &r[..]).collect();
    check_table(&g7(), 7, &t);
}

/// A.4.5: all 32 pairs for a lone target on e5 (9×9), listed.
#[test]
fn a4_5_e5_thirty_two_pairs() {
    let s = pos(&g9(), &lone_target(9, 4, 4));
    let mut want = BTreeSet::new();
    // Row (rank 5): midpoint x5 uses x4, x6.
    for f in "abcdefghi".chars() {
        want.insert(custodial(&format!("{f}4"), &format!("{f}6"), "e5", 9));
    }
    // Column (file e): midpoint ek uses dk, fk.
    for k in 1..=9 {
        want.insert(custodial(&format!("d{k}"), &format!("f{k}"), "e5", 9));
    }
    let diagonal = [
        ("c1", "a3"),
        ("d2", "b4"),
        ("e3", "c5"),
        ("f4", "d6"),
        ("g5", "e7"),
        ("h6", "f8"),
        ("i7", "g9"),
    ];
    let anti = [
        ("g1", "i3"),
        ("f2", "h4"),
        ("e3", "g5"),
        ("d4", "f6"),
        ("c5", "e7"),
        ("b6", "d8"),
        ("a7", "c9"),
    ];
    for (a, b) in diagonal.iter().chain(anti.iter()) {
        want.insert(custodial(a, b, "e5", 9));
    }
    assert_eq!(want.len(), 32);
    assert_eq!(legal(&s), want);
}

/// A.4.4 (reconstruction of the seed's Figure 3) for Black against e5.
#[test]
fn a4_4_figure_3_cases() {
    let s = pos(&g9(), &lone_target(9, 4, 4));
    // a: a4+a6 (row line, midpoint a5 far away); b: e4+e6 (target is the
    // midpoint); c: c5+e7 (anti-diagonal, midpoint d6).
    for ok in ["a4+a6xe5", "e4+e6xe5", "c5+e7xe5"] {
        assert!(parse_legal_move(&s, ok).is_ok(), "{ok} should be legal");
    }
    // d: c4+e6 against the row is not perpendicular; e: f5+e6 has no
    // square between; f5+d7 crosses the diagonal at a corner (A.4.3).
    for bad in ["c4+e6xe5", "f5+e6xe5", "f5+d7xe5", "e3+e7xe5", "a3+c5xe5"] {
        assert!(
            parse_legal_move(&s, bad).is_err(),
            "{bad} should be illegal"
        );
    }
    // Case a with something on the midpoint and on the row: still legal.
    let busy = pos(&g9(), "9/9/9/9/T3T2BT/9/9/9/9 B C 0 0");
    for ok in ["a4+a6xe5", "a4+a6xi5", "i4+i6xe5", "h4+h6xa5"] {
        assert!(parse_legal_move(&busy, ok).is_ok(), "{ok} should be legal");
    }
    // h5 is Black's own stone: never a target for Black (S9.1).
    assert!(parse_legal_move(&busy, "a4+a6xh5").is_err());
    // The pair squares must be empty (S9.4): a Teal stone on a6 blocks a4+a6.
    let blocked = pos(&g9(), "9/9/9/T8/4T4/9/9/9/9 B C 0 0");
    assert!(parse_legal_move(&blocked, "a4+a6xe5").is_err());
    assert!(parse_legal_move(&blocked, "b4+b6xe5").is_ok());
    // Edges (A.4.6): a target on rank 1 has no row-line pairs; a corner only
    // its long diagonal.
    let edge = pos(&g9(), &lone_target(9, 0, 4));
    assert!(parse_legal_move(&edge, "a1+a2xe1").is_err());
    assert!(parse_legal_move(&edge, "d1+f1xe1").is_ok());
    let corner = pos(&g9(), &lone_target(9, 0, 0));
    let want: BTreeSet<String> = [
        ("c1", "a3"),
        ("d2", "b4"),
        ("e3", "c5"),
        ("f4", "d6"),
        ("g5", "e7"),
        ("h6", "f8"),
        ("i7", "g9"),
    ]
    .iter()
    .map(|&(a, b)| custodial(a, b, "a1", 9))
    .collect();
    assert_eq!(legal(&corner), want);
}

/// S11: several targets on one line give one move per target; S9.1: own
/// stones on the line are not targets.
#[test]
fn s11_choice_of_target_on_one_line() {
    // 7×7: Teal on a4, c4, g4 and Black on e4: the row pair d3+d5 (midpoint
    // d4) can flip any of the three Teal stones, not e4.
    let s = pos(&g7(), "7/7/7/T1T1B1T/7/7/7 B C 0 0");
    let moves = legal(&s);
    for t in ["a4", "c4", "g4"] {
        assert!(moves.contains(&format!("d3+d5x{t}")), "d3+d5x{t}");
    }
    assert!(!moves.contains("d3+d5xe4"));
}

// ---------------------------------------------------------------------------
// Notation (A.6) and position text
// ---------------------------------------------------------------------------

/// A.6 notation: parse and print.
#[test]
fn move_notation_parse_and_print() {
    let s = g9().initial_state(0);
    let n = 9;
    let cases: [(&str, SlingshotMove, &str); 7] = [
        (
            "e4+e6xe5",
            SlingshotMove::Custodial {
                a: sq("e4", n) as u8,
                b: sq("e6", n) as u8,
                t: sq("e5", n) as u8,
            },
            "e4+e6xe5",
        ),
        (
            "e6+e4xe5",
            SlingshotMove::Custodial {
                a: sq("e4", n) as u8,
                b: sq("e6", n) as u8,
                t: sq("e5", n) as u8,
            },
            "e4+e6xe5",
        ),
        ("*e1", SlingshotMove::Stack(sq("e1", n) as u8), "*e1"),
        ("pass", SlingshotMove::Pass, "pass"),
        ("chooser=B", SlingshotMove::Choose(Side::Black), "chooser=B"),
        ("chooser=T", SlingshotMove::Choose(Side::Teal), "chooser=T"),
        (
            "e5,a1",
            SlingshotMove::Setup(sq("a1", n) as u8, sq("e5", n) as u8),
            "a1,e5",
        ),
    ];
    for (text, mv, printed) in cases {
        assert_eq!(s.parse_move(text), Ok(mv), "{text}");
        assert_eq!(s.move_to_text(mv), printed);
        assert_eq!(s.parse_move(printed), Ok(mv));
    }
    // The dossier's own typography A+B×T is read too.
    assert_eq!(s.parse_move("e4+e6×e5"), s.parse_move("e4+e6xe5"));
    // Squares on the edges of both sizes.
    assert_eq!(s.parse_move("i9,a1"), Ok(SlingshotMove::Setup(0, 80)));
    let s7 = g7().initial_state(0);
    assert_eq!(s7.parse_move("g7,a1"), Ok(SlingshotMove::Setup(0, 48)));
    assert_eq!(s7.parse_move("*d4"), Ok(SlingshotMove::Stack(24)));
}

/// Malformed moves are errors, not panics (and not silently accepted).
#[test]
fn move_notation_rejects() {
    let s9 = g9().initial_state(0);
    let s7 = g7().initial_state(0);
    let bad_both = [
        "",
        " ",
        "garbage",
        "e5",
        "e5,e5",
        "e5,",
        ",e5",
        "a0,a1",
        "a1,b0",
        "e5,a1,b2",
        "E5,a1",
        "*",
        "*e",
        "*e0",
        "**e1",
        "chooser=",
        "chooser=X",
        "chooser=BT",
        "chooser",
        "e4+e6",
        "e4+e6x",
        "e4e6xe5",
        "e4+xe5",
        "+e6xe5",
        "e4+e4xe5",
        "e4+e6xe4",
        "e4+e6xe6",
        "e4+e6xe5xe3",
        "passs",
        "pass pass",
        "é4+e6xe5",
        "e4+e6xé5",
        "ñ,a1",
        "a-1,a2",
        "a1.5,a2",
        "a01,b2",
        "z1,a1",
        "*a99999999999999999999999",
        "e4+e6xe5+",
    ];
    for bad in bad_both {
        assert!(s9.parse_move(bad).is_err(), "9x9 accepted {bad:?}");
        assert!(s7.parse_move(bad).is_err(), "7x7 accepted {bad:?}");
    }
    // Off the board.
    for bad in ["j1,a1", "a10,a1", "*j5", "e4+e6xj5"] {
        assert!(s9.parse_move(bad).is_err(), "9x9 accepted {bad:?}");
    }
    for bad in [
        "h1,a1", "a8,a1", "*h4", "*a8", "g6+g8xg7", "e4+e6xh5", "i9,a1",
    ] {
        assert!(s7.parse_move(bad).is_err(), "7x7 accepted {bad:?}");
    }
    // Syntactically fine, but not legal here.
    assert!(parse_legal_move(&s9, "pass").is_err());
    assert!(parse_legal_move(&s9, "chooser=B").is_err());
    assert!(parse_legal_move(&s9, "e4+e6xe5").is_err());
    let chosen = after(&g9(), "e5,a1 chooser=B");
    assert!(parse_legal_move(&chosen, "b2,c3").is_err());
    assert!(parse_legal_move(&chosen, "*e5").is_err());
}

/// A leading `+` sign in a rank number: `usize::from_str` accepts "+5", so
/// `parse_square` reads "e+5" as e5. Malformed squares should be errors.
#[test]
fn move_notation_rejects_plus_sign_in_rank() {
    let s = g9().initial_state(0);
    for bad in ["*e+1", "e+5,a1", "a1,e+5", "e4+e6xe+5"] {
        assert!(s.parse_move(bad).is_err(), "accepted {bad:?}");
    }
}

/// Position text: round trip of hand-made positions of every kind.
#[test]
fn position_text_round_trips() {
    let g = g7();
    for text in [
        "7/7/7/7/7/7/7 setup C 0 - 0",
        "7/7/7/3T3/7/7/6T choose C 0 - 1",
        "7/7/7/2BTB2/7/7/6T T C 0 1 3",
        A75,
        "X6/7/7/7/7/7/6X B S 1 1 40",
    ] {
        let s = pos(&g, text);
        let back = pos(&g, &s.to_text());
        assert_eq!(back.to_text(), s.to_text());
        assert_eq!(back.zobrist(), s.zobrist());
        assert_eq!(s.zobrist(), s.zobrist_from_scratch());
    }
    // The first two are the initial state and the state after a set-up.
    assert_eq!(
        pos(&g, "7/7/7/7/7/7/7 setup C 0 - 0").to_text(),
        g.initial_state(0).to_text()
    );
    assert_eq!(
        pos(&g, "7/7/7/3T3/7/7/6T choose C 0 - 1").zobrist(),
        after(&g, "d4,g1").zobrist()
    );
}

/// Position text rejects: errors, not panics.
#[test]
fn position_text_rejects() {
    let g = g7();
    let bad = [
        "",
        "garbage",
        "7/7/7/7/7/7/7",
        "7/7/7/7/7/7/7 B C 0",
        "7/7/7/7/7/7/7 B C 0 0 0 0",
        // Wrong row count.
        "7/7/7/7/7/7 B C 0 0",
        "7/7/7/7/7/7/7/7 B C 0 0",
        "9/9/9/9/4T4/9/9/9/9 B C 0 0",
        // Bad letters.
        "7/7/7/7/7/7/3Q3 B C 0 0",
        "7/7/7/7/7/7/3b3 B C 0 0",
        "7/7/7/7/7/7/3-3 B C 0 0",
        // Stacks in phase C.
        "7/7/7/3X3/7/7/6T B C 0 0",
        // Wrong row length.
        "7/7/7/7/7/7/8 B C 0 0",
        "7/7/7/7/7/7/6 B C 0 0",
        "7/7/7/7/7/7/BBBBBBBB B C 0 0",
        "7/7/7/7/7/7/TTTTTT B C 0 0",
        "7/7/7/7/7/7/7B B C 0 0",
        "7/7/7/7/7/7/99999999999999999999 B C 0 0",
        // '#' without corners=neutral.
        "#5#/7/7/7/7/7/#5# B C 0 0",
        // Bad fields.
        "7/7/7/3T3/7/7/7 Q C 0 0",
        "7/7/7/3T3/7/7/7 B Z 0 0",
        "7/7/7/3T3/7/7/7 B S 3 0",
        "7/7/7/3T3/7/7/7 B C 1 0",
        "7/7/7/3T3/7/7/7 B C 0 2",
        "7/7/7/3T3/7/7/7 B C 0 -",
        "7/7/7/3T3/7/7/7 B C 0 0 x",
        "7/7/7/3T3/7/7/7 B C 0 0 -1",
        "7/7/7/3T3/7/7/7 setup C 0 - 0",
        "7/7/7/3T3/7/7/7 choose C 0 - 0",
        "7/7/7/7/7/7/7 setup C 0 0 0",
        // The side to move already has a path.
        "3B3/3B3/3B3/3B3/3B3/3B3/3B3 B C 0 0",
    ];
    for text in bad {
        assert!(g.parse_position(text).is_err(), "accepted {text:?}");
    }
    // More pieces than the supply (S21).
    let small = game("slingshot(size=7,supply=5)");
    assert!(
        small
            .parse_position("BBBBBB1/7/7/3T3/7/7/7 T C 0 0")
            .is_err()
    );
    assert!(small.parse_position("BBBBB2/7/7/3T3/7/7/7 T C 0 0").is_ok());
    // corners=neutral needs '#' on exactly the four corners.
    let neutral = game("slingshot(size=7,corners=neutral)");
    assert!(neutral.parse_position("7/7/7/3T3/7/7/7 B C 0 0").is_err());
    assert!(
        neutral
            .parse_position("#5#/7/7/3T3/7/7/##4# B C 0 0")
            .is_err()
    );
    assert!(
        neutral
            .parse_position("#5#/7/7/3T3/7/7/#5# B C 0 0")
            .is_ok()
    );
}

/// A run of empty squares that overflows the column counter must be an
/// error, not an arithmetic-overflow panic.
#[test]
fn position_text_rejects_overflowing_run() {
    let g = g7();
    let text = "B4294967295/7/7/7/7/7/7 B C 0 0";
    let r = std::panic::catch_unwind(|| g.parse_position(text).is_err());
    assert_eq!(r.ok(), Some(true), "{text:?} should be an error");
}

// ---------------------------------------------------------------------------
// Wins (S3, S12, S17) and seats (S5, S7)
// ---------------------------------------------------------------------------

/// 7×7, Black to move: Black d1–d3 and d5–d7, Teal on d4 (and on a1, b1,
/// a2, g1, g2, a7, g7). Flipping d4 completes file d.
const BLACK_WINS: &str = "T2B2T/3B3/3B3/3T3/3B3/T2B2T/TT1B2T B C 0 0";

/// S12: Black completes a rank-1-to-rank-7 path with a custodial move; the
/// game ends, +1 for the seat playing Black.
#[test]
fn s12_black_wins_with_a_custodial_move() {
    for (seat, want) in [("0", [1.0, -1.0]), ("1", [-1.0, 1.0])] {
        let text = BLACK_WINS.replace(" 0 0", &format!(" 0 {seat}"));
        let mut s = pos(&g7(), &text);
        assert_eq!(s.to_move(), ToMove::Seat(seat.parse().unwrap()));
        assert_eq!(returns2(&s), [0.0, 0.0]);
        // Column line through d4, midpoint d4 itself (A.4.4 case b).
        play(&mut s, "c4+e4xd4");
        assert_terminal(&s);
        assert_eq!(returns2(&s), want, "black-seat {seat}");
    }
    // Another pair on the same line flips d4 too and also wins.
    let mut s = pos(&g7(), BLACK_WINS);
    play(&mut s, "c6+e6xd4");
    assert_terminal(&s);
    // A move that flips another stone does not end the game: g7 only along
    // its long diagonal, midpoint b2 with c1 + a3 (A.4.6 corner fact).
    let mut s = pos(&g7(), BLACK_WINS);
    play(&mut s, "c1+a3xg7");
    assert!(!s.is_terminal());
    assert_eq!(s.colour_to_move(), Some(Side::Teal));
}

/// S12 for Teal: completing file a to file g along rank 4 (black-seat 1,
/// so Teal is seat 0).
#[test]
fn s12_teal_wins_with_a_custodial_move() {
    let mut s = pos(&g7(), "1B3B1/7/7/TTTBTTT/7/7/1B3B1 T C 0 1");
    assert_eq!(s.to_move(), ToMove::Seat(0));
    // Row line (rank 4), midpoint d4: pair d3 + d5.
    play(&mut s, "d3+d5xd4");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [1.0, -1.0]);
}

/// S3: diagonal contact does not connect. Black d1–d3 and e5–e7, Teal on
/// e4: flipping e4 with a3+a5 leaves d3–e4 touching only at a corner; with
/// d4+f4 the d4 stone joins them.
#[test]
fn s3_diagonal_contact_is_not_a_path() {
    let text = "1T2B1T/4B2/4B2/4T2/3B3/3B2T/3B2T B C 0 0";
    let mut s = pos(&g7(), text);
    play(&mut s, "a3+a5xe4");
    assert!(!s.is_terminal(), "{}", s.to_text());
    let mut s = pos(&g7(), text);
    play(&mut s, "d4+f4xe4");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [1.0, -1.0]);
}

/// S5, S7, Q4: seat 0 sets up, seat 1 chooses; `chooser=T` makes seat 0
/// (the setter) play Black and move first; `chooser=B` makes seat 1 Black.
#[test]
fn s7_pie_choice() {
    let g = g9();
    let s = g.initial_state(0);
    assert_eq!(s.to_move(), ToMove::Seat(0));
    assert_eq!(s.setter_seat(), Some(0));
    assert_eq!(s.first_mover_seat(), None);
    let s = after(&g, "e5,a1");
    assert_eq!(s.to_move(), ToMove::Seat(1));
    assert_eq!(legal(&s), set_of(&["chooser=B", "chooser=T"]));

    let t = after(&g, "e5,a1 chooser=T");
    assert_eq!(t.to_move(), ToMove::Seat(0));
    assert_eq!(t.first_mover_seat(), Some(0));
    assert_eq!(t.colour_to_move(), Some(Side::Black));
    assert!(t.seat_role(0).colour == "black" && t.seat_role(1).colour == "teal");
    assert_eq!(t.count_legal_moves(), 39, "A.7.1 whoever plays Black");

    let mut b = after(&g, "e5,a1 chooser=B");
    assert_eq!(b.to_move(), ToMove::Seat(1));
    assert_eq!(b.first_mover_seat(), Some(1));
    assert!(b.seat_role(1).colour == "black" && b.seat_role(0).colour == "teal");
    play(&mut b, "e4+e6xe5");
    assert_eq!(b.to_move(), ToMove::Seat(0));
    assert_eq!(b.colour_to_move(), Some(Side::Teal));
    // S6: the set-up stones are Teal's (43 in hand before any flip; after
    // the flip of e5 Teal has only a1 on the board).
    assert_eq!(after(&g, "e5,a1 chooser=B").hand(Side::Teal), 43);
    assert_eq!(b.hand(Side::Teal), 44);
    assert_eq!(b.hand(Side::Black), 42);
}

// ---------------------------------------------------------------------------
// Supply, passes, draws (S19–S21) and the rule variants
// ---------------------------------------------------------------------------

/// S21 with supply=5 (7×7), worked by hand:
/// * d4,g7 chooser=B: Black hand 5, Teal 3; 29 moves as in A.7.7.
/// * c4+e4xd4: Black c4 d4 e4 (hand 2), Teal g7 (hand 4).
/// * d3+d5xd4 (Teal, row line, midpoint d4): Teal d3 d4 d5 g7 (hand 1),
///   Black c4 e4 (hand 3).
/// * c3+e3xd3 (Black, column line, midpoint d3): Black c3 c4 d3 e3 e4
///   (hand 0), Teal d4 d5 g7 (hand 2).
/// * Teal has 2 < 3 in hand: no custodial move, Phase S (S13); Teal stacks
///   on any of the 5 Black singletons.
/// * *d3: Black (4 singletons + 1 stack) has 0 in hand: must pass (S19).
/// * Teal (3 + 1, hand 1) stacks *c4; Black passes; Teal (hand 0) passes:
///   two passes in a row, a draw (S20).
#[test]
fn s21_supply_limit_leads_to_passes_and_a_draw() {
    let g = game("slingshot(size=7,supply=5)");
    let mut s = after(&g, "d4,g7 chooser=B");
    assert_eq!((s.hand(Side::Black), s.hand(Side::Teal)), (5, 3));
    assert_eq!(s.count_legal_moves(), 29);
    play(&mut s, "c4+e4xd4");
    assert_eq!((s.hand(Side::Black), s.hand(Side::Teal)), (2, 4));
    assert!(!s.in_phase_s());
    play(&mut s, "d3+d5xd4");
    assert_eq!((s.hand(Side::Black), s.hand(Side::Teal)), (3, 1));
    assert!(!s.in_phase_s());
    play(&mut s, "c3+e3xd3");
    assert_eq!((s.hand(Side::Black), s.hand(Side::Teal)), (0, 2));
    assert!(s.in_phase_s());
    assert_eq!(s.colour_to_move(), Some(Side::Teal));
    assert_eq!(legal(&s), set_of(&["*c3", "*d3", "*e3", "*c4", "*e4"]));
    play(&mut s, "*d3");
    assert_eq!((s.hand(Side::Black), s.hand(Side::Teal)), (0, 1));
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert_eq!(legal(&s), set_of(&["*c3", "*e3", "*c4", "*e4"]));
    play(&mut s, "*c4");
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert_eq!(s.hand(Side::Teal), 0);
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [0.0, 0.0]);
    // With the standard supply the same Black turn is a custodial move.
    let std = after(&g7(), "d4,g7 chooser=B c4+e4xd4 d3+d5xd4 c3+e3xd3");
    assert!(!std.in_phase_s());
}

/// S20: two passes in a row draw. Phase S with no singletons at all: neither
/// side can stack (S19).
#[test]
fn s20_two_passes_draw() {
    let g = g7();
    let mut s = pos(&g, "X6/7/7/7/7/7/6X B S 0 0");
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert!(!s.is_terminal());
    assert_eq!(s.to_text().split(' ').nth(3), Some("1"));
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [0.0, 0.0]);
    // A position with one pass already made.
    let mut s = pos(&g, "X6/7/7/7/7/7/6X T S 1 1");
    play(&mut s, "pass");
    assert_terminal(&s);
    // A stack between two passes resets the count: Black stacks on the only
    // Teal singleton a4, Teal (no Black singleton) passes, Black passes,
    // and only now do two passes follow each other.
    let mut s = pos(&g, "7/7/7/T6/7/7/6X B S 0 0");
    assert_eq!(legal(&s), set_of(&["*a4"]));
    play(&mut s, "*a4");
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert!(!s.is_terminal());
    assert_eq!(legal(&s), set_of(&["pass"]));
    play(&mut s, "pass");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [0.0, 0.0]);
    let mut s = pos(&g, "7/7/7/T6/7/7/6X B S 1 0");
    play(&mut s, "*a4");
    play(&mut s, "pass");
    assert!(!s.is_terminal(), "the stack reset the pass count");
}

/// Q6 alternative `stuck=lose`: a player who cannot stack loses at once.
#[test]
fn stuck_lose_option() {
    let lose = game("slingshot(size=7,stuck=lose)");
    // Black stacks on the only Teal singleton; Teal then has no Black
    // singleton: Teal loses (Black is seat 0) though Black has no path.
    let mut s = pos(&lose, "7/7/7/T6/7/7/6X B S 0 0");
    play(&mut s, "*a4");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [1.0, -1.0]);
    // Black to move and stuck: over at once, Teal (seat 0) wins.
    let s = pos(&lose, "X6/7/7/7/7/7/6X B S 0 1");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [1.0, -1.0]);
    // Under the default stuck=pass the first position goes on with a pass.
    let mut s = pos(&g7(), "7/7/7/T6/7/7/6X B S 0 0");
    play(&mut s, "*a4");
    assert_eq!(legal(&s), set_of(&["pass"]));
}

/// Q3 alternative `corners=neutral`: corners are unplayable and usable by
/// both players.
#[test]
fn neutral_corners_option() {
    let g = game("slingshot(size=7,corners=neutral)");
    let s = g.initial_state(0);
    assert_eq!(s.to_text(), "#5#/7/7/7/7/7/#5# setup C 0 - 0");
    // C(45, 2) set-ups: the four corners are not playable.
    assert_eq!(s.count_legal_moves(), 990);
    assert!(parse_legal_move(&s, "a1,d4").is_err());
    assert!(parse_legal_move(&s, "b1,d4").is_ok());
    // A lone target on b1: 11 pairs on the ordinary board (A.4.6), of which
    // b1's column midpoints b1 (a1+c1) and b7 (a7+c7) use corners: 9.
    let b1 = "#5#/7/7/7/7/7/#T4# B C 0 0";
    assert_eq!(pos(&g, b1).count_legal_moves(), 9);
    assert_eq!(
        pos(&g7(), "7/7/7/7/7/7/1T5 B C 0 0").count_legal_moves(),
        11
    );
    assert!(parse_legal_move(&pos(&g, b1), "a1+c1xb1").is_err());
    // Black a2, a3, a5, a6 and the flip of a4 (row line, midpoint c4):
    // with neutral corners a1 and a7 finish the path.
    let text = "#5#/B6/B5T/T4TT/B6/B5T/#5# B C 0 0";
    let mut s = pos(&g, text);
    play(&mut s, "c3+c5xa4");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [1.0, -1.0]);
    // On the ordinary board (corners empty) the same move does not win.
    let mut s = pos(&g7(), &text.replace("#5#", "7"));
    play(&mut s, "c3+c5xa4");
    assert!(!s.is_terminal());
}

/// S4: corners are ordinary squares; a Black stone on a1 touches rank 1.
#[test]
fn s4_ordinary_corner_counts_for_its_edges() {
    // Black a2–a7 with a1 Teal: flipping a1 (only along its long diagonal,
    // midpoint b2: c1 + a3 is blocked by Black a3, so midpoint c3: d2 + b4)
    // completes file a.
    let mut s = pos(&g7(), "B6/B6/B6/B6/B6/B6/T5T B C 0 0");
    assert!(parse_legal_move(&s, "c1+a3xa1").is_err());
    play(&mut s, "d2+b4xa1");
    assert_terminal(&s);
    assert_eq!(returns2(&s), [1.0, -1.0]);
}

// ---------------------------------------------------------------------------
// D1, D2, D5 on random games
// ---------------------------------------------------------------------------

/// D1 (at most (n²−3)/2 custodial moves), D2 (in Phase C the mover has 2
/// fewer pieces on the board than the opponent) and D5 (every game ends
/// within (n²−3)/2 + singletons + 2 plies after the pie; "singletons"
/// counted when Phase S starts) on random games of both sizes.
#[test]
fn d5_random_games_end_within_the_bound() {
    let mut buf = Vec::new();
    for (n, games) in [(7u32, 400), (9, 250)] {
        let g = game(&format!("slingshot(size={n})"));
        let mut rng = ChaCha8Rng::seed_from_u64(0xD5 + n as u64);
        let max_c = (n * n - 3) / 2;
        for _ in 0..games {
            let mut s = g.initial_state(0);
            let mut custodial = 0;
            let mut singletons_at_s = None;
            while !s.is_terminal() {
                if let Some(me) = s.colour_to_move() {
                    if s.in_phase_s() {
                        singletons_at_s.get_or_insert(
                            s.singletons(Side::Black).count_ones()
                                + s.singletons(Side::Teal).count_ones(),
                        );
                    } else {
                        let mine = s.singletons(me).count_ones();
                        let theirs = s.singletons(me.other()).count_ones();
                        assert_eq!(mine + 2, theirs, "D2 in {}", s.to_text());
                        custodial += 1;
                    }
                }
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                s.apply(m);
            }
            assert!(custodial <= max_c, "D1: {custodial} custodial moves");
            let plies = s.ply() - 2;
            let bound = max_c + singletons_at_s.unwrap_or(0) + 2;
            assert!(
                plies <= bound,
                "D5: {plies} plies > {bound} in {}",
                s.to_text()
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Illegal moves: the reason a player is given (Research::illegal_reason)
// ---------------------------------------------------------------------------

/// Each illegal move is answered with the rule it breaks, in every stage:
/// the set-up and the choice (S5, S7), Phase C after A.7.1/A.7.4 (S8, S9,
/// Q2, Q11) and Phase S at A.7.5 (S13, S15, S18). The expected words come
/// from the rule cited.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let why = |s: &SlingshotState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    // S5: the first move is the setter's two Teal stones; then the chooser's
    // colour; after both, the set-up moves are gone (S7).
    let g = g9();
    let s = g.initial_state(0);
    assert!(why(&s, "chooser=B").ends_with("places two Teal stones, e.g. e5,a1 (S5)"));
    assert!(why(&s, "e4+e6xe5").ends_with("(S5)"));
    let s = after(&g, "e5,a1");
    assert!(why(&s, "e4,e6").contains("picks a colour: chooser=B or chooser=T (S5)"));
    // S4 with corners=neutral: the corners are unplayable.
    let n = game("slingshot(corners=neutral)").initial_state(0);
    assert_eq!(
        why(&n, "a1,e5"),
        "a1 is a neutral corner, where no stone goes (corners=neutral, S4)"
    );

    // A.7.1: Teal e5 and a1, Black to move in Phase C with 39 moves.
    let s = after(&g, "e5,a1 chooser=B");
    assert!(why(&s, "e5,a1").ends_with("(S5, S7)"));
    // S8: a custodial move exists, so neither a stack nor a pass.
    assert!(why(&s, "*e5").starts_with("Black has a custodial move, and one must be made (S8)"));
    assert!(why(&s, "pass").contains("(S8)"));
    // S9: the target is an opponent singleton, and e6 is empty.
    assert_eq!(
        why(&s, "d5+f5xe6"),
        "no piece on e6, and the target is an opponent singleton (S9, Q2)"
    );
    // S9: d4 and g4 are three files apart, not M ± p.
    assert!(
        why(&s, "d4+g4xe5")
            .ends_with("with exactly one between them on a row, column or diagonal (S9)")
    );
    // S9: the pair d4, d6 lies on file d around d5, so its target line is
    // rank 5 through d5; a1 is not on it (e5 is: d4+d6xe5 is legal).
    assert_eq!(
        why(&s, "d4+d6xa1"),
        "a1 is not on the line through d5 perpendicular to d4-d6 (S9)"
    );
    assert_eq!(s.illegal_reason("d4+d6xe5"), None);
    // Q1: the midpoint may be the target: the diagonal pair d4, f6 around
    // e5 has the other diagonal (d6, f4...) through e5 as its line.
    assert_eq!(s.illegal_reason("d4+f6xe5"), None);

    // A.7.4: after e4+e6xe5 Black holds e4 e5 e6, Teal a1, Teal to move.
    let s = after(&g, "e5,a1 chooser=B e4+e6xe5");
    // Q2: a1 is Teal's own piece.
    assert_eq!(
        why(&s, "a2+c2xa1"),
        "the piece on a1 is Teal's own, and the target is an opponent singleton (S9, Q2)"
    );
    // Q11: e4 and e6 hold Black pieces; the geometry (rank 5 through e5)
    // is right, so only the emptiness breaks.
    assert_eq!(
        why(&s, "e4+e6xe5"),
        "e4 is not empty, and both custodial squares must be (S9, Q11)"
    );
    assert_eq!(s.illegal_reason("d4+f4xe5"), None);

    // A.7.5 (7×7): Black has no custodial move, so Phase S for both (S13).
    let g = g7();
    let s = pos(&g, A75);
    assert!(why(&s, "a1+c3xb2").starts_with("custodial play has ended for both players (S13)"));
    // S15: a stack goes on an opponent singleton: a7 is Black's, a1 empty.
    assert_eq!(
        why(&s, "*a7"),
        "the piece on a7 is Black's own, and a stack goes on an opponent singleton (S15)"
    );
    assert_eq!(
        why(&s, "*a1"),
        "no piece on a1, and a stack goes on an opponent singleton (S15)"
    );
    // S18, S19: stacking is compulsory while a Teal singleton exists.
    assert!(why(&s, "pass").ends_with("a pass only without a stacking move (S18, S19)"));
    assert_eq!(s.illegal_reason("*b7"), None);
    // S15, S16: after Black's *e2, e2 is a stack and cannot be stacked on.
    let mut s = s;
    play(&mut s, "*e2");
    assert_eq!(
        why(&s, "*e2"),
        "e2 is a stack, and a stack goes on an opponent singleton (S15)"
    );
    // Malformed text keeps the parser's message.
    assert!(why(&s, "*z9").starts_with("bad move"));
}
