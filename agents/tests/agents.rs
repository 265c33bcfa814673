//! Agents on small games whose best moves are known by hand: Nim (take 1
//! or 2, last take wins: the losing piles are the multiples of 3), a
//! chance game with 1–4 seats, and Slingshot positions with an immediate win.

use std::fmt;

use agents::{AgentSpec, AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, Uct, UctConfig};
use engine::Research;
use engine::slingshot::Slingshot;
use engine::spec::Spec;
use engine::{Game, GameError, MAX_SEATS, Returns, State, ToMove, parse_legal_move};

/// Nim with two seats: a pile, take 1 or 2, whoever takes the last wins.
#[derive(Clone, Debug, PartialEq)]
struct Nim {
    pile: u32,
    to_move: usize,
    ply: u32,
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pile {}", self.pile)
    }
}

impl State for Nim {
    type Move = u32;
    fn num_seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> ToMove {
        if self.pile == 0 {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=2).filter(|&k| k <= self.pile));
    }
    fn apply(&mut self, mv: u32) {
        self.pile -= mv;
        self.to_move = 1 - self.to_move;
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if self.pile == 0 {
            // The seat that just moved took the last one.
            r[1 - self.to_move] = 1.0;
            r[self.to_move] = -1.0;
        }
        r
    }
    fn zobrist(&self) -> u64 {
        (self.pile as u64) << 1 | self.to_move as u64
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn move_to_text(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        text.parse().map_err(|_| GameError::new("bad"))
    }
}

impl Research for Nim {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

#[test]
fn both_searchers_solve_nim() {
    for pile in [4u32, 5, 7, 8, 10, 11] {
        let s = Nim {
            pile,
            to_move: 0,
            ply: 0,
        };
        let want = pile % 3; // leave a multiple of 3
        let mut ab = AlphaBeta::<Nim>::new(
            AlphaBetaConfig {
                depth: 12,
                ms: 0,
                tt_mb: 1,
                ..AlphaBetaConfig::default()
            },
            1,
        );
        let (mv, v) = ab.search(&s);
        assert_eq!(mv, want, "alpha-beta on pile {pile}");
        assert!(v > 0, "a won position scores positive");
        let mut u = Uct::<Nim>::new(
            UctConfig {
                iterations: 3000,
                c: 1.4,
                ms: 0,
            },
            2,
        );
        assert_eq!(u.search(&s), want, "uct on pile {pile}");
        for solver in [false, true] {
            let mut m = Mcts::<Nim>::new(
                MctsConfig {
                    iterations: 3000,
                    solver,
                    ..MctsConfig::default()
                },
                2,
            );
            assert_eq!(m.search(&s), want, "mcts solver={solver} on pile {pile}");
            if solver {
                // Nim's tree is small: the solver proves the win.
                assert_eq!(m.root_proven().map(|r| r[0]), Some(1.0), "pile {pile}");
            }
        }
    }
    // A lost position (pile 6): alpha-beta sees the loss.
    let mut ab = AlphaBeta::<Nim>::new(
        AlphaBetaConfig {
            depth: 12,
            ms: 0,
            tt_mb: 1,
            ..AlphaBetaConfig::default()
        },
        1,
    );
    assert!(
        ab.search(&Nim {
            pile: 6,
            to_move: 1,
            ply: 0
        })
        .1 < 0
    );
}

/// A chance game for 1–4 seats: the last seat picks a coin `i`, whose
/// chance node then makes the mover win with probability `P[i]` (return
/// +1 for the mover, −1 for every other seat; a one-seat game scores ±1).
#[derive(Clone, Debug)]
struct Coins {
    seats: usize,
    picked: Option<usize>,
    outcome: Option<bool>,
    ply: u32,
}

const P: [f64; 4] = [0.3, 0.8, 0.55, 0.1];

impl fmt::Display for Coins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self)
    }
}

impl State for Coins {
    type Move = usize;
    fn num_seats(&self) -> usize {
        self.seats
    }
    fn to_move(&self) -> ToMove {
        match (self.picked, self.outcome) {
            (None, _) => ToMove::Seat(self.seats - 1),
            (Some(_), None) => ToMove::Chance,
            _ => ToMove::Terminal,
        }
    }
    fn legal_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.picked.is_none() {
            out.extend(0..P.len());
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>) {
        out.clear();
        if let (Some(i), None) = (self.picked, self.outcome) {
            out.push((1, P[i]));
            out.push((0, 1.0 - P[i]));
        }
    }
    fn apply(&mut self, mv: usize) {
        if self.picked.is_none() {
            self.picked = Some(mv);
        } else {
            self.outcome = Some(mv == 1);
        }
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Some(win) = self.outcome {
            let mover = self.seats - 1;
            for (s, x) in r.iter_mut().enumerate().take(self.seats) {
                *x = if (s == mover) == win { 1.0 } else { -1.0 };
            }
        }
        r
    }
    fn zobrist(&self) -> u64 {
        self.ply as u64 * 31
            + self.picked.unwrap_or(9) as u64 * 7
            + self.outcome.map_or(3, |b| b as u64)
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn move_to_text(&self, mv: usize) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<usize, GameError> {
        text.parse().map_err(|_| GameError::new("bad"))
    }
}

impl Research for Coins {
    fn first_mover_seat(&self) -> Option<usize> {
        None
    }
}

#[test]
fn mcts_samples_chance_nodes_for_one_to_four_seats() {
    for seats in 1..=4 {
        let s = Coins {
            seats,
            picked: None,
            outcome: None,
            ply: 0,
        };
        let mut u = Uct::<Coins>::new(
            UctConfig {
                iterations: 4000,
                c: 0.5,
                ms: 0,
            },
            seats as u64,
        );
        assert_eq!(u.search(&s), 1, "uct: the 0.8 coin, {seats} seats");
        let mut m = Mcts::<Coins>::new(
            MctsConfig {
                iterations: 4000,
                c: 0.5,
                ..MctsConfig::default()
            },
            seats as u64,
        );
        assert_eq!(m.search(&s), 1, "mcts: the 0.8 coin, {seats} seats");
        // The solver proves the exact expected returns, 0.8·1 + 0.2·(-1),
        // once every coin is proven (a wider c visits the poor coins).
        let mut m = Mcts::<Coins>::new(
            MctsConfig {
                iterations: 4000,
                c: 4.0,
                ..MctsConfig::default()
            },
            seats as u64,
        );
        assert_eq!(m.search(&s), 1, "mcts c=4: the 0.8 coin, {seats} seats");
        let r = m.root_proven().expect("the coin game is small enough to prove");
        assert!((r[seats - 1] - 0.6).abs() < 1e-6, "{seats} seats: {r:?}");
    }
    // Alpha-beta takes the expectation at chance nodes.
    let s = Coins {
        seats: 2,
        picked: None,
        outcome: None,
        ply: 0,
    };
    let mut ab = AlphaBeta::<Coins>::new(
        AlphaBetaConfig {
            depth: 4,
            ms: 0,
            tt_mb: 1,
            ..AlphaBetaConfig::default()
        },
        3,
    );
    assert_eq!(ab.search(&s).0, 1);
}

fn slingshot(g: &str, position: &str) -> <Slingshot as Game>::State {
    let game = Slingshot::from_spec(&Spec::parse(g).unwrap()).unwrap();
    game.parse_position(position).unwrap()
}

#[test]
fn every_agent_takes_an_immediate_slingshot_win() {
    // 7×7, Black (seat 0) to move: file d is Black but for the Teal stone
    // on d4; flipping d4 (e.g. a3+a5xd4, S9 row line) completes rank 1 to
    // rank 7 (S3, S12). Hand-checked: several moves flip d4, all win.
    let s = slingshot("slingshot(size=7)", "3B3/3B3/3B3/T2T2T/3B3/3B3/3B3 B C 0 0");
    let win = parse_legal_move(&s, "a3+a5xd4").unwrap();
    let mut t = s;
    t.apply(win);
    assert_eq!(t.returns()[0], 1.0);
    for spec in [
        "uct(iterations=300)",
        "mcts(iterations=300)",
        "mcts(iterations=300,reuse=false,cutoff=end)",
        "alphabeta(depth=1)",
        "alphabeta(depth=3)",
    ] {
        let mut agent = AgentSpec::parse(spec)
            .unwrap()
            .build::<<Slingshot as Game>::State>(5);
        let mv = agent.select(&s);
        let mut t = s;
        t.apply(mv);
        assert!(
            t.is_terminal() && t.returns()[0] == 1.0,
            "{spec} played {}",
            s.move_to_text(mv)
        );
    }
}

#[test]
fn agents_are_reproducible_for_a_seed() {
    let s = slingshot("slingshot", "9/9/9/9/4T4/9/9/9/T8 B C 0 1");
    for spec in [
        "random",
        "uct(iterations=200)",
        "mcts(iterations=200)",
        "alphabeta(depth=2)",
    ] {
        let a = AgentSpec::parse(spec).unwrap();
        let m1 = a.build::<<Slingshot as Game>::State>(11).select(&s);
        let m2 = a.build::<<Slingshot as Game>::State>(11).select(&s);
        assert_eq!(m1, m2, "{spec}");
    }
    let bytes = Uct::<<Slingshot as Game>::State>::bytes_per_node();
    assert!(bytes <= 32, "UCT node is {bytes} bytes");
    let bytes = Mcts::<<Slingshot as Game>::State>::bytes_per_node();
    assert!(bytes <= 56, "MCTS node is {bytes} bytes");
}

/// A three-seat race: seats 0, 1, 2 in turn take 1 or 2 from a pile; the
/// seat taking the last wins (return 1), the seat after the winner gets 0
/// and the remaining seat −1. Every seat's three outcomes differ, so the
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
#[derive(Clone, Debug, PartialEq)]
struct Race3 {
    pile: u32,
    to_move: usize,
    ply: u32,
}

impl fmt::Display for Race3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pile {} seat {}", self.pile, self.to_move)
    }
}

impl State for Race3 {
    type Move = u32;
    fn num_seats(&self) -> usize {
        3
    }
    fn to_move(&self) -> ToMove {
        if self.pile == 0 {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=2).filter(|&k| k <= self.pile));
    }
    fn apply(&mut self, mv: u32) {
        self.pile -= mv;
        self.to_move = (self.to_move + 1) % 3;
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if self.pile == 0 {
            let winner = (self.to_move + 2) % 3;
            r[winner] = 1.0;
            r[(winner + 1) % 3] = 0.0;
            r[(winner + 2) % 3] = -1.0;
        }
        r
    }
    fn zobrist(&self) -> u64 {
        (self.pile as u64) << 2 | self.to_move as u64
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn move_to_text(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        text.parse().map_err(|_| GameError::new("bad"))
    }
}

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
            let s = Race3 {
                pile,
                to_move: seat,
                ply: 0,
            };
            let mut m = Mcts::<Race3>::new(
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
    let s = Race3 {
        pile: 7,
        to_move: 1,
        ply: 0,
    };
    let mut m = Mcts::<Race3>::new(MctsConfig::default(), 7);
    m.search(&s);
    assert_eq!(m.root_proven().map(|r| r[1]), Some(-1.0));
    // Without the solver, visits alone find the same moves.
    for (pile, best) in [(4u32, 1u32), (5, 1), (6, 2)] {
        let s = Race3 {
            pile,
            to_move: 0,
            ply: 0,
        };
        let mut m = Mcts::<Race3>::new(
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
    let mut m = Mcts::<<Slingshot as Game>::State>::new(
        MctsConfig {
            iterations: 20_000,
            mb: 1,
            ..MctsConfig::default()
        },
        1,
    );
    m.search(&s);
    assert!(m.tree_size() <= m.max_nodes(), "{} > {}", m.tree_size(), m.max_nodes());
    assert!(m.last_mb_hits > 0, "a 1 MiB tree fills in 20,000 iterations ({} nodes)", m.tree_size());
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
    };
    m.search(&t);
    assert_eq!(m.last_reused, 0);
}
