//! Slingshot: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::state::Stage;
use super::{Side, SlingshotState};
use crate::api::{Search, SearchDefaults};

/// Connection distance (A.6 engine notes, D4): the fewest cost-1
/// squares on a path between a player's sides. In Phase C empty squares
/// and opponent singletons cost 1; the value is 10 per square of the
/// opponent's distance minus the mover's. In Phase S the race is exact
/// (D4): about ±1000 for the side that wins it.
pub(crate) fn evaluate(state: &SlingshotState) -> i32 {
    match state.stage {
        Stage::Setup => 0,
        Stage::Choose => {
            let mut as_black = *state;
            as_black.stage = Stage::Play;
            as_black.to_move = Side::Black;
            as_black.evaluate_for(Side::Black).abs()
        }
        Stage::Play => state.evaluate_for(state.to_move),
    }
}

impl Search for SlingshotState {
    /// Connection distance (A.6 engine notes, D4): the fewest cost-1
    /// squares on a path between a player's sides. In Phase C empty squares
    /// and opponent singletons cost 1; the value is 10 per square of the
    /// opponent's distance minus the mover's. In Phase S the race is exact
    /// (D4): about ±1000 for the side that wins it.
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }

    /// 30: three squares of connection distance (10 each) make one logistic
    /// unit (a 73 % win probability).
    fn eval_scale(&self) -> f64 {
        30.0
    }

    /// MCTS's root win search on ([`SearchDefaults::root_win_search`]).
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults::root_win_search()
    }
}
