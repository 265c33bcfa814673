//! Bagel: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::BagelState;
use crate::api::{Search, SearchDefaults};
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

    /// MCTS playouts to the end: cut off after 4 plies and scored by the
    /// evaluation, `mcts` lost to plain `uct` at equal time (7–25, −221 Elo
    /// [−387, −115]), and played to the end it is level (20–20, every game
    /// pair split): `boardlab sprt --game bagel --agents "mcts(ms=50)"
    /// "uct(iterations=1000000000,ms=50)" --elo0 -20 --elo1 20
    /// --max-games 40 --threads 1 --seed 7 --openings 20 --opening-plies
    /// 2`, and the same with `mcts(ms=50,cutoff=end)`.
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            playout_cutoff: None,
            ..SearchDefaults::default()
        }
    }
}
