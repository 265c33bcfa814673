//! Sniggle: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::SniggleState;
use crate::api::Search;

/// Race progress: the mover's side's summed piece columns minus the
/// best opposing seat's (teams: the other team's sum).
pub(crate) fn evaluate(state: &SniggleState) -> i32 {
    let s = state.to_move as usize;
    let n = state.rules.players as usize;
    if state.rules.teams {
        let mine = state.progress(s) + state.progress(s ^ 2);
        let theirs = state.progress(s ^ 1) + state.progress((s ^ 1) ^ 2);
        return mine - theirs;
    }
    let best = (0..n)
        .filter(|&k| k != s)
        .map(|k| state.progress(k))
        .max()
        .unwrap_or(0);
    state.progress(s) - best
}

impl Search for SniggleState {
    /// Race progress: the mover's side's summed piece columns minus the
    /// best opposing seat's (teams: the other team's sum).
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }

    /// 4: four columns of race progress make one logistic unit (a 73 % win
    /// probability).
    fn eval_scale(&self) -> f64 {
        4.0
    }
}
