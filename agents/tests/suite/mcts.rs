//! MCTS alone: the three-seat race solved by max^n, the memory bound and
//! subtree reuse.

use agents::{Mcts, MctsConfig};
use engine::slingshot::SlingshotGame;
use engine::spinner::SpinnerGame;
use engine::{Game, State, parse_legal_move};

use crate::common::toy_state_text;
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

/// A subtraction game: two seats in turn take 1, 2 or 4 from a pile, and
/// whoever takes the last wins. Unlike Nim with takes 1 and 2 a won pile
/// often has several winning moves of different lengths (pile 4: take 4
/// wins at once, take 1 leaves the lost pile 3 and wins in 3 plies), so it
/// tells the quickest win from any win.
#[derive(Clone, Debug, PartialEq)]
struct Subtract {
    pile: u32,
    to_move: usize,
    ply: u32,
}

impl std::fmt::Display for Subtract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pile {} seat {}", self.pile, self.to_move)
    }
}

impl State for Subtract {
    type Move = u32;
    fn num_seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> engine::ToMove {
        if self.pile == 0 {
            engine::ToMove::Terminal
        } else {
            engine::ToMove::Seat(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend([1, 2, 4].into_iter().filter(|&k| k <= self.pile));
    }
    fn apply(&mut self, mv: u32) {
        self.pile -= mv;
        self.to_move = 1 - self.to_move;
        self.ply += 1;
    }
    fn returns(&self) -> engine::Returns {
        let mut r = [0.0; engine::MAX_SEATS];
        if self.pile == 0 {
            r[1 - self.to_move] = 1.0;
            r[self.to_move] = -1.0;
        }
        r
    }
    fn zobrist(&self) -> u64 {
        (self.pile as u64) << 1 | self.to_move as u64
    }
    toy_state_text!(u32);
}

impl engine::Research for Subtract {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

impl engine::Search for Subtract {}

/// The exact value and distance of a pile for the seat to move by plain
/// exhaustive minimax (the reference, independent of the agents): a win
/// takes the quickest winning move, a loss the slowest reply.
fn subtract_value(pile: u32) -> (bool, u32) {
    if pile == 0 {
        return (false, 0); // the mover has lost: the last take was made
    }
    let kids: Vec<(bool, u32)> = [1, 2, 4]
        .into_iter()
        .filter(|&k| k <= pile)
        .map(|k| subtract_value(pile - k))
        .collect();
    match kids.iter().filter(|k| !k.0).map(|k| k.1).min() {
        Some(d) => (true, d + 1),
        None => (false, kids.iter().map(|k| k.1).max().unwrap() + 1),
    }
}

/// MCTS-Solver backs up proven distances: from every pile up to 16 (and
/// several seeds) it proves the exhaustive value at the exhaustive
/// distance, plays a quickest win (a move after which the exhaustive
/// distance is one less) and, when lost, a slowest loss.
#[test]
fn mcts_solver_plays_the_quickest_win_and_the_slowest_loss() {
    // The reference by hand, for the record: piles ≡ 0 (mod 3) are lost.
    assert_eq!(subtract_value(4), (true, 1));
    assert_eq!(subtract_value(3), (false, 2));
    assert_eq!(subtract_value(7), (true, 3));
    for pile in 1..=16u32 {
        let (wins, dist) = subtract_value(pile);
        for seed in 0..4 {
            let s = Subtract {
                pile,
                to_move: 0,
                ply: 0,
            };
            let mut m = Mcts::<Subtract>::new(
                MctsConfig {
                    iterations: 20_000,
                    ..MctsConfig::default()
                },
                seed,
            );
            let mv = m.search(&s);
            let info = agents::Agent::<Subtract>::last_info(&m).unwrap();
            let want = format!("{} in {dist} plies", if wins { "win" } else { "loss" });
            assert_eq!(
                info.proven.as_deref(),
                Some(want.as_str()),
                "pile {pile} seed {seed}"
            );
            let (child_wins, child_dist) = subtract_value(pile - mv);
            assert_eq!(child_wins, !wins, "pile {pile} seed {seed}: take {mv}");
            assert_eq!(child_dist + 1, dist, "pile {pile} seed {seed}: take {mv}");
        }
    }
}

/// The root win search proves root moves without growing their subtrees;
/// where the same seat moves again (the spinner game places 1 to 3 pieces
/// a turn, one ply each), the next search finds the proven move's node and
/// must not take it as a tree to reuse (it has no children to choose
/// from). From a position of a seeded game (`boardlab play --game spinner
/// --seed 5`, both seats `mcts(iterations=1000,minimax=3)`, ply 52) X
/// places twice; each search returns a legal move.
#[test]
fn mcts_root_win_search_then_reuse_plays_on_when_the_seat_moves_again() {
    let game = SpinnerGame::from_spec(&engine::spec::Spec::parse("spinner").unwrap()).unwrap();
    let mut s = game
        .parse_position("OOOOOOXO/OOO1OOXO/2*1X*XO/2X2XO1/2O2X2/2*2*2/8/1O6 X place2 52")
        .unwrap();
    let mut m = Mcts::<<SpinnerGame as Game>::State>::new(
        MctsConfig {
            iterations: 1000,
            minimax: 3,
            ..MctsConfig::default()
        },
        5,
    );
    let seat = s.to_move();
    for _ in 0..2 {
        assert_eq!(s.to_move(), seat, "{s}");
        let mv = m.search(&s);
        let text = s.move_to_text(mv);
        assert!(parse_legal_move(&s, &text).is_ok(), "{text} in {s}");
        s.apply(mv);
    }
}

/// A three-seat kingmaker: seat 0 either yields (seat 2 wins at once) or
/// hands the choice to seat 1, who then makes seat 0 or seat 2 the
/// winner. The winner gets 1, the others −1, so seat 1 loses either way
/// and is indifferent: the game has no one max^n value, and the only
/// certain fact is that yielding loses for seat 0.
#[derive(Clone, Debug, PartialEq)]
struct Kingmaker {
    /// 0: seat 0 to move; 1: seat 1 to move; 2: over.
    stage: u8,
    winner: usize,
    ply: u32,
}

impl std::fmt::Display for Kingmaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stage {} winner {}", self.stage, self.winner)
    }
}

impl State for Kingmaker {
    type Move = u32;
    fn num_seats(&self) -> usize {
        3
    }
    fn to_move(&self) -> engine::ToMove {
        match self.stage {
            0 => engine::ToMove::Seat(0),
            1 => engine::ToMove::Seat(1),
            _ => engine::ToMove::Terminal,
        }
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.stage < 2 {
            out.extend([0, 1]);
        }
    }
    fn apply(&mut self, mv: u32) {
        (self.stage, self.winner) = match (self.stage, mv) {
            (0, 0) => (2, 2), // yield
            (0, _) => (1, 0), // the choice goes to seat 1
            (_, 0) => (2, 0),
            _ => (2, 2),
        };
        self.ply += 1;
    }
    fn returns(&self) -> engine::Returns {
        let mut r = [0.0; engine::MAX_SEATS];
        if self.stage == 2 {
            for (s, x) in r.iter_mut().enumerate().take(3) {
                *x = if s == self.winner { 1.0 } else { -1.0 };
            }
        }
        r
    }
    fn zobrist(&self) -> u64 {
        u64::from(self.stage) << 2 | self.winner as u64
    }
    toy_state_text!(u32);
}

impl engine::Research for Kingmaker {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

impl engine::Search for Kingmaker {}

/// With three seats the solver proves no value that hangs on how an
/// indifferent seat breaks a tie: seat 1's choice and so the root stay
/// unproven (before, the tie-break proved the root won or lost for seat 0
/// by the shuffled child order, and a root proven lost stops searching),
/// the yield is still proven lost, and seat 0 hands the choice over.
#[test]
fn mcts_solver_proves_nothing_an_indifferent_seat_decides() {
    let start = Kingmaker {
        stage: 0,
        winner: 0,
        ply: 0,
    };
    for seed in 0..16 {
        let mut m = Mcts::<Kingmaker>::new(
            MctsConfig {
                iterations: 200,
                ..MctsConfig::default()
            },
            seed,
        );
        assert_eq!(m.search(&start), 1, "seed {seed}");
        assert_eq!(m.root_proven(), None, "seed {seed}");
        // Seat 1's node alone: both moves lose for it, with different
        // winners, so it is not proven either.
        let mut at_one = start.clone();
        at_one.apply(1);
        m.search(&at_one);
        assert_eq!(m.root_proven(), None, "seed {seed}");
    }
}
