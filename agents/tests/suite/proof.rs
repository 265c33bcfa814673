//! Depth-bounded proof-number search (`agents::proof`) against references
//! outside it: plain full-width minimax ([`wins_within`]) on Nim and on
//! seeded Line Up positions, and, on Line Up, the retrograde solve of
//! `engine/src/line_up/solve.rs` as committed in
//! `results/line-up-solved/solution.txt` (after 1. 5E the second player
//! wins with exactly 5H and 8E).

use agents::proof::{Proven, Prover};
use engine::line_up::LineUpGame;
use engine::{Game, State, ToMove};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::{Nim, wins_within};

/// The prover's answer as a yes/no, failing on an unfinished search.
fn proves<S: State>(p: &mut Prover, s: &S, seat: usize, plies: u32) -> bool {
    match p.prove(s, seat, plies).0 {
        Proven::Win => true,
        Proven::NoWin => false,
        Proven::Unknown => panic!("no budget was set, yet the search did not finish"),
    }
}

#[test]
fn proof_agrees_with_plain_minimax_on_nim() {
    let mut p = Prover::new(1, 0);
    for pile in 1..=16 {
        for to_move in 0..2 {
            let s = Nim {
                pile,
                to_move,
                ply: 0,
                seats: 2,
            };
            for seat in 0..2 {
                for plies in 0..=12 {
                    assert_eq!(
                        proves(&mut p, &s, seat, plies),
                        wins_within(&s, seat, plies),
                        "pile {pile}, seat {to_move} to move, does seat {seat} win within {plies}?"
                    );
                }
            }
        }
    }
}

#[test]
fn proof_agrees_with_plain_minimax_on_line_up_positions() {
    // Seeded random games stopped between plies 6 and 14 (lines are
    // possible from ply 7 on, and the movement phase from ply 12), each
    // seat asked for a win within 1 to 4 plies.
    let game = LineUpGame::new(Default::default()).unwrap();
    let mut p = Prover::new(16, 0);
    let (mut wins, mut asked) = (0, 0);
    for seed in 0..60u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = game.initial_state(seed);
        let stop = 6 + seed % 9;
        let mut buf = Vec::new();
        while s.ply() < stop as u32 && !s.is_terminal() {
            let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
            s.apply(m);
        }
        if s.to_move() == ToMove::Terminal {
            continue;
        }
        for seat in 0..2 {
            for plies in 1..=4 {
                let want = wins_within(&s, seat, plies);
                assert_eq!(
                    proves(&mut p, &s, seat, plies),
                    want,
                    "{}: does seat {seat} win within {plies}?",
                    s.to_text()
                );
                asked += 1;
                wins += usize::from(want);
            }
        }
    }
    // Both answers occur, so the comparison tests something.
    assert!(wins > 20 && wins < asked - 20, "{wins} wins of {asked}");
}

#[test]
fn proof_agrees_with_the_retrograde_solve_of_line_up() {
    // results/line-up-solved/solution.txt: "after 1. 5E: the second
    // player wins with 2 of 15 replies: 5H 8E"; every other reply is a
    // first-player win (no reply draws).
    let game = LineUpGame::new(Default::default()).unwrap();
    let mut p = Prover::new(256, 0);
    let mut s = game.initial_state(0);
    s.apply(s.parse_move("5E").unwrap());
    s.apply(s.parse_move("5H").unwrap());
    assert!(proves(&mut p, &s, 1, 40), "1. 5E 5H: a second-player win");
    let mut s = game.initial_state(0);
    s.apply(s.parse_move("5E").unwrap());
    s.apply(s.parse_move("2B").unwrap());
    assert!(proves(&mut p, &s, 0, 40), "1. 5E 2B: a first-player win");
}
