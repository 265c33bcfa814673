//! A heuristic for Blockade (alpha-beta leaves, MCTS cut-offs), from the
//! escape floods of both kings (B-5):
//!
//! * the opponent's king has an escape path now: he wins at the start of
//!   his turn unless the mover blocks it (−200);
//! * each king's flood area (spaces it can pass through on some path,
//!   turning at guards): a roomier king has more ways out (+1 per space of
//!   the mover's, −1 per space of the opponent's);
//! * how close the area comes to the target edge: 4 per row of the best
//!   row reached, counted towards that king's edge.
//!
//! The value is for the side to move, in these units.

use super::Side;
use super::state::BlockadeState;
use crate::api::{Search, SearchDefaults};
use crate::board::{Bits, sly};

fn reach_score(s: &BlockadeState, side: Side) -> (bool, i32) {
    let f = s.flood(side, false);
    let area = f.area.count() as i32;
    let rows = (0..12u32)
        .filter(|&r| !(f.area & sly::ROWS[r as usize]).is_zero())
        .map(|r| if side == Side::North { r } else { 11 - r });
    (f.escape, area + 4 * rows.max().unwrap_or(0) as i32)
}

pub(super) fn evaluate(s: &BlockadeState) -> i32 {
    let me = s.side();
    let (_, mine) = reach_score(s, me);
    let (threat, theirs) = reach_score(s, me.other());
    mine - theirs - if threat { 200 } else { 0 }
}

impl Search for BlockadeState {
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }

    /// MCTS's `c` and `scale` from `tune --spsa` at 20,000 iterations a
    /// move (100 iterations, 200 games, seed 90; its `cutoff` stayed at
    /// the generic 4), checked against the generic values (0.7, 4, the
    /// evaluation scale 100) at 50 ms a move: `c=0.424,scale=103.8` +44.9
    /// Elo [+18.0, +72.4], H1 after 288 games (seed 101,
    /// `bash results/tune/mcts-spsa-50ms.sh`). Every rule variant.
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            mcts_c: 0.424,
            mcts_scale: Some(103.8),
            ..SearchDefaults::default()
        }
    }
}
