//! Sniggle: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::SniggleState;
use crate::api::{Search, SearchDefaults};

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

    /// Two seats: MCTS playouts to the end. Cut off after 4 plies and
    /// scored by the race progress, `mcts` was not level with plain `uct`
    /// at equal time (H0 after 512 games, 245–267, −14.9 Elo [−42.1,
    /// +12.0], results/mcts-vs-uct); played to the end it was ahead (H1
    /// after 96 games, 58–38, +73.5 [+15.8, +135.5]): `boardlab sprt
    /// --game "sniggle(players=2)" --agents "mcts(ms=50,cutoff=end)"
    /// "uct(iterations=1000000000,ms=50)" --elo0 -20 --elo1 20 --threads 2
    /// --seed 2028 --openings 80 --opening-plies 2`. Its exploration
    /// constant `c=0.916` comes from `tune --spsa` at 10,000 iterations a
    /// move and beat `c=0.7` at 50 ms (H1 after 512 games, 284–228, +38.2
    /// [+12.4, +64.4], seed 74, results/tune). Three and four seats play
    /// as plain UCT does (`c=1.4`, no solver), with tree reuse: against two
    /// `uct` seats at 50 ms a move on three-seat Sniggle (fair share 1/3),
    /// `mcts` won 8 of 64 games with the generic values, 49 of 201 with
    /// two-seat Sniggle's, and 72 of 201 with `cutoff=end,c=1.4,solver=false`
    /// (0.358 [0.295, 0.427]); with the solver on it stayed below its share
    /// at either `c` (results/mcts-vs-uct, "Three and four seats").
    fn search_defaults(&self) -> SearchDefaults {
        if self.rules.players == 2 {
            SearchDefaults {
                playout_cutoff: None,
                mcts_c: 0.916,
                ..SearchDefaults::default()
            }
        } else {
            SearchDefaults {
                playout_cutoff: None,
                mcts_c: 1.4,
                mcts_solver: false,
                ..SearchDefaults::default()
            }
        }
    }
}
