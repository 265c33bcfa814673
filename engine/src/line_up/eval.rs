//! A heuristic for Line Up (alpha-beta leaves, MCTS cut-offs): open lines
//! and trapped pieces.
//!
//! * For each of the 10 lines (U-4) holding pieces of one player only, that
//!   player scores `4^k` for its `k` pieces on it (a line with 3 and an
//!   empty cell is worth 64).
//! * A piece of the type the player must move next in his own cycle
//!   (U-1) with no empty neighbour is a threat of U-5: 40 against him.
//!
//! The value is the mover's score minus the opponent's, in these units.

use super::state::LineUpState;
use super::{LINES, STOCK};
use crate::api::{Search, SearchDefaults};

const LINE_WEIGHT: [i32; 5] = [0, 1, 4, 16, 64];

/// The heuristic value for the player to move.
pub(super) fn evaluate(s: &LineUpState) -> i32 {
    let me = s.player();
    let (mine, theirs) = (s.all(me), s.all(1 - me));
    let mut v = 0;
    for l in LINES {
        let (a, b) = ((mine & l).count_ones(), (theirs & l).count_ones());
        if b == 0 {
            v += LINE_WEIGHT[a as usize];
        } else if a == 0 {
            v -= LINE_WEIGHT[b as usize];
        }
    }
    // The next type each player must use: the mover's on turn n + 2, the
    // opponent's on turn n + 1 (U-1).
    let empty = s.empty();
    for (p, ahead, sign) in [(me, 2u32, -40), (1 - me, 1, 40)] {
        let t = ((s.ply + ahead) % 3) as usize;
        let pieces = s.pieces(p)[t];
        if pieces.count_ones() < STOCK[t] {
            continue; // still to place
        }
        let nb = LineUpState::steps(t);
        let mut q = pieces;
        let mut stuck = true;
        while q != 0 {
            if nb[q.trailing_zeros() as usize] & empty != 0 {
                stuck = false;
            }
            q &= q - 1;
        }
        if stuck {
            v += sign;
        }
    }
    v
}

impl Search for LineUpState {
    /// The solution table's value where one is loaded and covers this
    /// position (see [`super::solve`]).
    fn solved(&self) -> Option<(i8, u32)> {
        super::solve::lookup(self)
    }

    fn evaluate(&self) -> i32 {
        evaluate(self)
    }

    /// MCTS's `c`, `cutoff` and `scale` from `tune --spsa` at 90,000
    /// iterations a move (about what 50 ms buys; 600 games, seed 83),
    /// checked against the generic values (0.7, 4, the evaluation scale
    /// 100) at 50 ms a move: `c=0.818,cutoff=6,scale=33.5` +38.8 Elo
    /// [+12.0, +66.0], H1 after 288 games (seed 93, `bash
    /// results/tune/mcts-spsa-50ms.sh`).
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            playout_cutoff: Some(6),
            mcts_c: 0.818,
            mcts_scale: Some(33.5),
            ..SearchDefaults::default()
        }
    }
}
