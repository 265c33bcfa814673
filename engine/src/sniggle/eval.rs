//! Sniggle: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::SniggleState;
use crate::api::Search;

impl SniggleState {
    /// Race progress: the mover's side's summed piece columns minus the
    /// best opposing seat's (teams: the other team's sum).
    pub(crate) fn evaluation(&self) -> i32 {
        let s = self.to_move as usize;
        let n = self.rules.players as usize;
        if self.rules.teams {
            let mine = self.progress(s) + self.progress(s ^ 2);
            let theirs = self.progress(s ^ 1) + self.progress((s ^ 1) ^ 2);
            return mine - theirs;
        }
        let best = (0..n)
            .filter(|&k| k != s)
            .map(|k| self.progress(k))
            .max()
            .unwrap_or(0);
        self.progress(s) - best
    }
}

impl Search for SniggleState {
    /// Race progress: the mover's side's summed piece columns minus the
    /// best opposing seat's (teams: the other team's sum).
    fn evaluate(&self) -> i32 {
        self.evaluation()
    }

    /// 4: four columns of race progress make one logistic unit (a 73 % win
    /// probability).
    fn eval_scale(&self) -> f64 {
        4.0
    }
}
