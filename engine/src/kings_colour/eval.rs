//! King's Colour: the heuristic evaluation behind `Search::evaluate` (alpha-beta
//! leaves and MCTS cut-offs), from the side to move's view.

use super::{KingsColourMove, KingsColourState, Side};
use crate::api::{Search, SearchDefaults};
use crate::board::Bits;

crate::api::eval_weights! {
    /// The weights of [`KingsColourState::evaluate_with`]; each count is
    /// the side to move's minus the opponent's.
    pub struct EvalWeights {
        /// Per man.
        man: 100,
        /// Per Queen.
        queen: 450,
        /// Per man or Queen on the enemy wall (it may capture into the
        /// castle, KC-8).
        wall: 30,
        /// Per own man in its castle (a defender).
        castle: 20,
        /// Added when the side to move is in check (negative: a
        /// liability).
        in_check: -40,
    }
}

impl KingsColourState {
    /// A heuristic for the side to move with weights `w` (see
    /// [`Search::evaluate`]): material, men and Queens on the enemy wall,
    /// men in their own castle, and being in check.
    pub fn evaluate_with(&self, w: &EvalWeights) -> i32 {
        let g = self.geo;
        let s = self.side as usize;
        let side_value = |s: usize| -> i32 {
            let men = self.men(s);
            let q = self.occ[s] & self.queens;
            w.man * men.count() as i32
                + w.queen * q.count() as i32
                + w.wall * ((men | q) & g.wall[1 - s]).count() as i32
                + w.castle * (men & g.castle[s]).count() as i32
        };
        let mut v = side_value(s) - side_value(1 - s);
        if self.in_check(Side::from_index(s)) {
            v += w.in_check;
        }
        v
    }
}

impl Search for KingsColourState {
    /// Material (man 100, Queen 450), +30 per man or Queen on the enemy
    /// wall, +20 per own man in its castle, −40 in check
    /// ([`EvalWeights::DEFAULT`]).
    fn evaluate(&self) -> i32 {
        self.evaluate_with(&EvalWeights::DEFAULT)
    }

    fn evaluate_weighted(&self, w: &[i32]) -> i32 {
        self.evaluate_with(&EvalWeights::from_slice(w))
    }

    /// MCTS's root win search on ([`SearchDefaults::root_win_search`]),
    /// and MCTS's `c`, `cutoff` and `scale` from `tune --spsa` at 17,000
    /// iterations a move (about what 50 ms buys; 600 games, seed 84),
    /// checked against the generic values (0.7, 4, the evaluation scale
    /// 100) at 50 ms a move: `c=0.177,cutoff=7,scale=133` +237.5 Elo
    /// [+157.1, +349.4], H1 after 64 games (seed 94, `bash
    /// results/tune/mcts-spsa-50ms.sh`).
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            eval_weights: EvalWeights::NAMED,
            playout_cutoff: Some(7),
            mcts_c: 0.177,
            mcts_scale: Some(133.0),
            ..SearchDefaults::root_win_search()
        }
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
