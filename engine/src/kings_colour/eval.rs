//! King's Colour: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::{KingsColourMove, KingsColourState, Side};
use crate::api::{Search, SearchDefaults};
use crate::board::Bits;

/// A heuristic for the side to move (see [`Search::evaluate`]): material
/// (man 100, Queen 450), +30 per man on the enemy wall (it may capture
/// into the castle, KC-8), +20 per own man in its castle (a defender), a
/// −40 penalty when in check.
pub(crate) fn evaluate(state: &KingsColourState) -> i32 {
    let g = state.geo;
    let s = state.side as usize;
    let side_value = |s: usize| -> i32 {
        let men = state.men(s);
        let q = state.occ[s] & state.queens;
        100 * men.count() as i32
            + 450 * q.count() as i32
            + 30 * ((men | q) & g.wall[1 - s]).count() as i32
            + 20 * (men & g.castle[s]).count() as i32
    };
    let mut v = side_value(s) - side_value(1 - s);
    if state.in_check(Side::from_index(s)) {
        v -= 40;
    }
    v
}

impl Search for KingsColourState {
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }

    /// MCTS's root win search on ([`SearchDefaults::root_win_search`]).
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults::root_win_search()
    }

    /// Captures and promotions, for quiescence searches.
    fn is_capture(&self, mv: KingsColourMove) -> bool {
        KingsColourState::is_capture(self, mv) || self.is_promotion(mv)
    }

    /// Refused in check, at the end of the game and where the pass would
    /// end it (the opponent without a move, the ply cap); no position
    /// before the pass counts as a repetition after it.
    fn null_move(&mut self) -> bool {
        if self.end.is_some()
            || KingsColourState::in_check(self, self.side_to_move())
            || self.ply + 1 >= self.rules.ply_cap
        {
            return false;
        }
        let (side, hash) = (self.side, self.hash);
        self.side ^= 1;
        self.hash ^= self.geo.side_key();
        if !self.has_legal_move() || KingsColourState::in_check(self, self.side_to_move()) {
            (self.side, self.hash) = (side, hash);
            return false;
        }
        self.ply += 1;
        self.since_irreversible = 0;
        self.history[self.ply as usize % crate::kings_colour::REPETITION_WINDOW] = self.hash;
        true
    }

    fn in_check(&self) -> bool {
        KingsColourState::in_check(self, self.side_to_move())
    }
}
