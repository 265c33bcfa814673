//! The spinner game: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::SpinnerState;
use crate::api::Search;

/// Connection distance (B.5 engine notes): 10 per square of the
/// opponent's distance minus the mover's (at a spin: the player about
/// to spin); a blocked player counts as 4n² squares away.
pub(crate) fn evaluate(state: &SpinnerState) -> i32 {
    let p = state.to_move as usize;
    let big = 4 * (state.geo.n * state.geo.n) as i32;
    let me = state.connection_distance(p).map_or(big, |d| d as i32);
    let them = state.connection_distance(1 - p).map_or(big, |d| d as i32);
    10 * (them - me)
}

impl Search for SpinnerState {
    /// Connection distance (B.5 engine notes): 10 per square of the
    /// opponent's distance minus the mover's (at a spin: the player about
    /// to spin); a blocked player counts as 4n² squares away.
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }

    /// 30: three squares of connection distance (10 each) make one logistic
    /// unit (a 73 % win probability).
    fn eval_scale(&self) -> f64 {
        30.0
    }
}
