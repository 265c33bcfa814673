//! Agents on small games whose best moves are known by hand: Nim (take 1
//! or 2, last take wins: the losing piles are the multiples of 3), a
//! chance game with 1–4 seats, and Slingshot positions with an immediate win.

use std::fmt;

use agents::{AgentSpec, AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig};
use engine::Research;
use engine::slingshot::SlingshotGame;
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
            },
            1,
        );
        let (mv, v) = ab.search(&s);
        assert_eq!(mv, want, "alpha-beta on pile {pile}");
        assert!(v > 0, "a won position scores positive");
        let mut m = Mcts::<Nim>::new(
            MctsConfig {
                iterations: 3000,
                c: 1.4,
                ms: 0,
            },
            2,
        );
        assert_eq!(m.search(&s), want, "mcts on pile {pile}");
    }
    // A lost position (pile 6): alpha-beta sees the loss.
    let mut ab = AlphaBeta::<Nim>::new(
        AlphaBetaConfig {
            depth: 12,
            ms: 0,
            tt_mb: 1,
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
        let mut m = Mcts::<Coins>::new(
            MctsConfig {
                iterations: 4000,
                c: 0.5,
                ms: 0,
            },
            seats as u64,
        );
        assert_eq!(m.search(&s), 1, "the 0.8 coin, {seats} seats");
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
        },
        3,
    );
    assert_eq!(ab.search(&s).0, 1);
}

fn slingshot(g: &str, position: &str) -> <SlingshotGame as Game>::State {
    let game = SlingshotGame::from_spec(&Spec::parse(g).unwrap()).unwrap();
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
        "mcts(iterations=300)",
        "alphabeta(depth=1)",
        "alphabeta(depth=3)",
    ] {
        let mut agent = AgentSpec::parse(spec)
            .unwrap()
            .build::<<SlingshotGame as Game>::State>(5);
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
    for spec in ["random", "mcts(iterations=200)", "alphabeta(depth=2)"] {
        let a = AgentSpec::parse(spec).unwrap();
        let m1 = a.build::<<SlingshotGame as Game>::State>(11).select(&s);
        let m2 = a.build::<<SlingshotGame as Game>::State>(11).select(&s);
        assert_eq!(m1, m2, "{spec}");
    }
    let bytes = Mcts::<<SlingshotGame as Game>::State>::bytes_per_node();
    assert!(bytes <= 32, "MCTS node is {bytes} bytes");
}
