//! A heuristic evaluation for alpha-beta: material, Soldier advancement,
//! and (off by default) Chariot mobility and check, from the side to
//! move's view.

use super::movegen::{BOARD, chariot_targets};
use super::{AndalusiaMove, AndalusiaState, Side};
use crate::api::{Search, SearchDefaults};

crate::api::eval_weights! {
    /// The weights of [`AndalusiaState::evaluate_with`]; each term is the
    /// side to move's figure minus the opponent's. The defaults: material
    /// (a Chariot is worth five Soldiers, chess's rook to pawn) and Soldier
    /// advancement.
    ///
    /// The mobility and in-check terms are off: with them (mobility 4,
    /// in-check −30) the value of nearly every root move differs, so the
    /// alpha-beta agent's seeded shuffle of equal moves never acts and its
    /// self-play games from the start position were all the same game
    /// (4 of 4 identical at depth 2). Coarser values leave ties among quiet
    /// moves and the games differ (6 of 6 at depths 2 and 3). Their effect
    /// on strength was not measured.
    pub struct EvalWeights {
        /// Per Chariot.
        chariot: 500,
        /// Per Soldier.
        soldier: 100,
        /// Per rank a Soldier has advanced from its start rank (a Soldier
        /// on rank 7 is one step from promotion, A-M5).
        advance: 10,
        /// Per point a Chariot can move to or capture on (pseudo-legal).
        mobility: 0,
        /// Added when the side to move is in check (negative: a
        /// liability).
        in_check: 0,
    }
}

impl EvalWeights {
    /// Material only.
    pub const MATERIAL: EvalWeights = EvalWeights {
        chariot: 500,
        soldier: 100,
        advance: 0,
        mobility: 0,
        in_check: 0,
    };
}

impl AndalusiaState {
    /// The sum over `side`'s Soldiers of the ranks advanced from the start
    /// rank (0 to 5).
    pub fn soldier_advance(&self, side: Side) -> u32 {
        let mut s = self.soldiers & self.colour[side.index()];
        let mut sum = 0;
        while s != 0 {
            let sq = s.trailing_zeros();
            s &= s - 1;
            let r = sq / 9;
            sum += match side {
                Side::White => r - 1,
                Side::Black => 7 - r,
            };
        }
        sum
    }

    /// The number of points `side`'s Chariots can move to or capture on,
    /// ignoring King safety.
    pub fn chariot_mobility(&self, side: Side) -> u32 {
        let own = self.colour[side.index()];
        let occ = self.colour[0] | self.colour[1];
        let mut cs = self.chariots & own;
        let mut n = 0;
        while cs != 0 {
            let c = cs.trailing_zeros();
            cs &= cs - 1;
            n += (chariot_targets(self.geo, c, occ) & !own & BOARD).count_ones();
        }
        n
    }

    /// The evaluation with weights `w`, from the side to move's view
    /// (larger is better).
    pub fn evaluate_with(&self, w: &EvalWeights) -> i32 {
        let me = self.side;
        let op = me.other();
        let count = |side: Side, set: u128| (set & self.colour[side.index()]).count_ones() as i32;
        let mut v = w.chariot * (count(me, self.chariots) - count(op, self.chariots))
            + w.soldier * (count(me, self.soldiers) - count(op, self.soldiers));
        if w.advance != 0 {
            v += w.advance * (self.soldier_advance(me) as i32 - self.soldier_advance(op) as i32);
        }
        if w.mobility != 0 {
            v += w.mobility * (self.chariot_mobility(me) as i32 - self.chariot_mobility(op) as i32);
        }
        if w.in_check != 0 && self.in_check() {
            v += w.in_check;
        }
        v
    }
}

impl Search for AndalusiaState {
    fn evaluate(&self) -> i32 {
        self.evaluate_with(&super::EvalWeights::DEFAULT)
    }

    fn evaluate_weighted(&self, w: &[i32]) -> i32 {
        self.evaluate_with(&super::EvalWeights::from_slice(w))
    }

    /// MCTS's root win search on ([`SearchDefaults::root_win_search`]).
    fn search_defaults(&self) -> SearchDefaults {
        // mcts's c, cut-off and scale tuned by SPSA at 28,000 iterations a
        // move (results/tune, "mcts on the games whose studies play
        // alpha-beta"): +176.7 [+114.9, +251.0] at 50 ms a move.
        SearchDefaults {
            eval_weights: super::EvalWeights::NAMED,
            playout_cutoff: Some(0),
            mcts_c: 0.509,
            mcts_scale: Some(152.0),
            ..SearchDefaults::root_win_search()
        }
    }

    /// Captures and promotions, for quiescence searches.
    fn is_capture(&self, mv: AndalusiaMove) -> bool {
        mv.is_capture() || mv.is_promotion()
    }

    fn null_move(&mut self) -> bool {
        AndalusiaState::null_move(self)
    }

    fn in_check(&self) -> bool {
        AndalusiaState::in_check(self)
    }
}
