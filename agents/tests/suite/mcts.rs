//! MCTS alone: the three-seat race solved by max^n, the memory bound and
//! subtree reuse.

use agents::{Mcts, MctsConfig};
use engine::slingshot::SlingshotGame;
use engine::{Game, State};

use crate::common::{Nim, slingshot};

/// The three-seat race (`Nim` with `seats: 3`): seats 0, 1, 2 in turn take
/// 1 or 2 from a pile; the seat taking the last wins (return 1), the seat
/// after the winner gets 0 and the remaining seat −1. Every seat's three outcomes differ, so the
/// max^n solution is unique.
///
/// Solved by hand, with `W(n)` the winner's offset from the seat to move
/// (0 = the mover, 1 = the next seat, 2 = the one after) and the mover
/// preferring offset 0 (return 1) over 2 (return 0) over 1 (return −1):
/// W(1) = W(2) = 0; W(3) = 1 (both moves leave the next seat a win);
/// W(4) = 2 by taking 1 (taking 2 gives 1 + W(2) = 1);
/// W(5) = 0 by taking 1 (1 + W(4) = 3 ≡ 0; taking 2 gives 1 + W(3) = 2);
/// W(6) = 0 by taking 2 (1 + W(4) ≡ 0; taking 1 gives 1 + W(5) = 1);
/// W(7) = 1 (1 + W(6) = 1, 1 + W(5) = 1); and from there period 4.
#[test]
fn mcts_solves_a_three_seat_race_by_max_n() {
    // (pile, best move, mover's proven return) from the hand solution above.
    for (pile, best, ret) in [
        (4u32, 1u32, 0.0f64),
        (5, 1, 1.0),
        (6, 2, 1.0),
        (8, 1, 0.0),
        (9, 1, 1.0),
        (10, 2, 1.0),
    ] {
        for seat in 0..3 {
            let s = Nim {
                pile,
                to_move: seat,
                ply: 0,
                seats: 3,
            };
            let mut m = Mcts::<Nim>::new(
                MctsConfig {
                    iterations: 20_000,
                    c: 1.0,
                    ..MctsConfig::default()
                },
                pile as u64,
            );
            assert_eq!(m.search(&s), best, "pile {pile}, seat {seat}");
            let r = m.root_proven().expect("a small tree is proven");
            assert_eq!(r[seat], ret, "pile {pile}, seat {seat}: {r:?}");
            // Zero-sum over the three seats: 1 + 0 - 1.
            assert_eq!(r[0] + r[1] + r[2], 0.0);
        }
    }
    // Pile 7: every move loses (W = 1), so the proof says −1 for the mover.
    let s = Nim {
        pile: 7,
        to_move: 1,
        ply: 0,
        seats: 3,
    };
    let mut m = Mcts::<Nim>::new(MctsConfig::default(), 7);
    m.search(&s);
    assert_eq!(m.root_proven().map(|r| r[1]), Some(-1.0));
    // Without the solver, visits alone find the same moves.
    for (pile, best) in [(4u32, 1u32), (5, 1), (6, 2)] {
        let s = Nim {
            pile,
            to_move: 0,
            ply: 0,
            seats: 3,
        };
        let mut m = Mcts::<Nim>::new(
            MctsConfig {
                iterations: 5000,
                solver: false,
                ..MctsConfig::default()
            },
            3,
        );
        assert_eq!(m.search(&s), best, "no solver, pile {pile}");
        assert_eq!(m.root_proven(), None);
    }
}

#[test]
fn mcts_memory_bound_and_reuse() {
    // A tiny memory bound: the tree stops growing and the hits are counted.
    let s = slingshot("slingshot", "9/9/9/9/4T4/9/9/9/T8 B C 0 1");
    let mut m = Mcts::<<SlingshotGame as Game>::State>::new(
        MctsConfig {
            iterations: 20_000,
            mb: 1,
            ..MctsConfig::default()
        },
        1,
    );
    m.search(&s);
    assert!(
        m.tree_size() <= m.max_nodes(),
        "{} > {}",
        m.tree_size(),
        m.max_nodes()
    );
    assert!(
        m.last_mb_hits > 0,
        "a 1 MiB tree fills in 20,000 iterations ({} nodes)",
        m.tree_size()
    );
    // Reuse: after our move and a reply, the new root keeps its visits.
    let mut m = Mcts::<Nim>::new(
        MctsConfig {
            iterations: 3000,
            solver: false,
            ..MctsConfig::default()
        },
        1,
    );
    let mut s = Nim {
        pile: 40,
        to_move: 0,
        ply: 0,
        seats: 2,
    };
    let mv = m.search(&s);
    assert_eq!(m.last_reused, 0);
    s.apply(mv);
    s.apply(1);
    m.search(&s);
    assert!(m.last_reused > 0, "the subtree after {mv} then 1 was kept");
    // A position not in the tree starts afresh.
    let t = Nim {
        pile: 10,
        to_move: 0,
        ply: 7,
        seats: 2,
    };
    m.search(&t);
    assert_eq!(m.last_reused, 0);
}
