//! Bagel: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::BagelState;
use crate::api::Search;
use crate::board::Bits;

/// Score difference (100 per window) plus open windows (windows holding
/// only the player's discs and empty tiles, weighted by how full they
/// are), from the mover's view.
pub(crate) fn evaluate(state: &BagelState) -> i32 {
    let geo = state.geo();
    let me = state.to_move.idx();
    let (mine, theirs) = (state.discs[me], state.discs[1 - me]);
    let mut v = 100 * (state.score[me] as i32 - state.score[1 - me] as i32);
    const W: [i32; 5] = [0, 1, 4, 16, 0];
    for &w in &geo.windows {
        let (m, o) = ((w & mine).count(), (w & theirs).count());
        if o == 0 && (m as usize) < geo.k {
            v += W[m as usize];
        } else if m == 0 && (o as usize) < geo.k {
            v -= W[o as usize];
        }
    }
    v
}

impl Search for BagelState {
    /// Score difference (100 per window) plus open windows (windows holding
    /// only the player's discs and empty tiles, weighted by how full they
    /// are), from the mover's view.
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }
}
