//! A chance game with 1–4 seats: UCT and MCTS sample its chance nodes,
//! MCTS-Solver proves the expected returns, alpha-beta takes the
//! expectation.

use std::fmt;

use agents::{AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, Uct, UctConfig};
use engine::Research;
use engine::{MAX_SEATS, Returns, Search, State, ToMove};

use crate::common::toy_state_text;

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
    toy_state_text!(usize);
}

impl Research for Coins {
    fn first_mover_seat(&self) -> Option<usize> {
        None
    }
}

impl Search for Coins {}

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
        let r = m
            .root_proven()
            .expect("the coin game is small enough to prove");
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
