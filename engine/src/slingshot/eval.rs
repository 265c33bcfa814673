//! Slingshot: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::state::{Outcome, Stage};
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

    /// Phase S is solved by rule D4: the side to move, with distance `a`
    /// (opponent singletons to stack on a path of its own, within its
    /// hand) against the opponent's `b`, wins in `2a − 1` plies when `a`
    /// is finite and `a ≤ b`, loses in `2b` plies when `b` is finite and
    /// smaller (or `a` infinite), and draws when neither is finite (plies
    /// 0: a draw's length is not scored). Stacking on the other's singleton
    /// leaves the other's usable squares as they were, so the two races do
    /// not interact. `None` in Phase C, at the set-up, and under
    /// `stuck=lose`, where running out of targets ends the race early.
    fn solved(&self) -> Option<(i8, u32)> {
        if self.stage != Stage::Play
            || !self.phase_s
            || self.rules.stuck_loses
            || self.outcome != Outcome::Ongoing
        {
            return None;
        }
        let me = self.to_move;
        let a = self.connection_distance(me);
        let b = self.connection_distance(me.other());
        Some(match (a, b) {
            (Some(a), b) if b.is_none_or(|b| a <= b) => (1, (2 * a).saturating_sub(1)),
            (_, Some(b)) => (-1, 2 * b),
            _ => (0, 0),
        })
    }

    /// 30: three squares of connection distance (10 each) make one logistic
    /// unit (a 73 % win probability).
    fn eval_scale(&self) -> f64 {
        30.0
    }

    /// MCTS's root win search on ([`SearchDefaults::root_win_search`]),
    /// and MCTS's `c`, `cutoff` and `scale` from `tune --spsa` at about the
    /// iterations 50 ms buys (12,000 on 7×7, 7,500 on 9×9; 600 games each),
    /// each checked against the generic values (0.7, 4, 30) at 50 ms a
    /// move: 7×7 `c=0.491,cutoff=3,scale=12.5` +104.4 Elo [+55.9, +157.1]
    /// (H1 after 192 games, seed 91), 9×9 `c=0.352,cutoff=3,scale=6.9`
    /// +137.0 [+76.2, +207.0] (H1 after 128, seed 92): `bash
    /// results/tune/mcts-spsa-50ms.sh`. Other sizes take the nearer one.
    fn search_defaults(&self) -> SearchDefaults {
        let (c, scale) = if self.rules.size <= 7 {
            (0.491, 12.5)
        } else {
            (0.352, 6.9)
        };
        SearchDefaults {
            playout_cutoff: Some(3),
            mcts_c: c,
            mcts_scale: Some(scale),
            ..SearchDefaults::root_win_search()
        }
    }
}
