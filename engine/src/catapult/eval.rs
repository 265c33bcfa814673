//! A heuristic evaluation for alpha-beta: material, range, advancement and
//! pieces under attack, from the side to move's view.

use super::movegen::capture_reach;
use super::{CatapultBits, CatapultMove, CatapultState, Side};
use crate::api::{Search, SearchDefaults};

crate::api::eval_weights! {
    /// The weights of [`CatapultState::evaluate_with`]; each term is the side
    /// to move's figure minus the opponent's. The defaults: material, range
    /// and pieces under attack.
    ///
    /// Measured with alpha-beta against a material-only evaluation, 400
    /// games per match (200 random 4-ply openings, each played with both
    /// colour assignments), score ± 1.96 standard errors:
    ///
    /// | added to material | 8×8 depth 2 | 8×8 depth 3 | Royal depth 2 | Royal depth 3 |
    /// |---|---|---|---|---|
    /// | attack 20 | 85.5 ± 3.5 % | 79.5 ± 4.0 % | 57.5 ± 4.9 % | 66.1 ± 4.7 % |
    /// | range 5 | 85.8 ± 3.4 % | 79.8 ± 3.9 % | 54.8 ± 4.9 % | 68.1 ± 4.6 % |
    /// | progress 3 | 50.5 ± 4.9 % | 68.0 ± 4.6 % | 30.2 ± 4.5 % | 57.0 ± 4.9 % |
    /// | range 5 + attack 20 | **94.8 ± 2.2 %** | **82.2 ± 3.7 %** | **64.6 ± 4.7 %** | 67.3 ± 4.6 % |
    /// | range 5 + progress 3 + attack 20 | 94.8 ± 2.2 % | 80.8 ± 3.9 % | 55.8 ± 4.9 % | 67.1 ± 4.6 % |
    ///
    /// Range and attack each help; progress (advancement) adds nothing on
    /// top of them and hurts in Royal at depth 2, so it is off.
    pub struct EvalWeights {
        /// Per piece (kings not counted: both sides keep theirs until the
        /// end).
        material: 100,
        /// Per unit of range summed over pieces (C-R-def; 1, 2, 4 or 8
        /// each).
        range: 5,
        /// Per step of progress towards the target corner summed over
        /// pieces (§1.10 Lemma 2: `x + y` for Light, `2n − 2 − x − y` for
        /// Dark).
        progress: 0,
        /// Per enemy piece the side to move can capture now, minus its own
        /// pieces the opponent could capture if it were to move.
        attack: 20,
    }
}

impl EvalWeights {
    /// Material only.
    pub const MATERIAL: EvalWeights = EvalWeights {
        material: 100,
        range: 0,
        progress: 0,
        attack: 0,
    };
}

/// The value of a capturable enemy king in Royal (C-K4): the side to move
/// wins next ply, so more than any material difference.
const KING_EN_PRISE: i32 = 50_000;

impl<B: CatapultBits> CatapultState<B> {
    /// Pieces of `side`, kings not counted.
    pub fn material(&self, side: Side) -> u32 {
        (self.pieces(side) & !self.kings).count()
    }

    /// The sum of the ranges of `side`'s pieces (C-R-def).
    pub fn range_sum(&self, side: Side) -> u32 {
        let c = self.range_classes(side);
        c[0].count() + 2 * c[1].count() + 4 * c[2].count() + 8 * c[3].count()
    }

    /// The progress of `side`'s pieces towards the target corner, summed:
    /// `x + y` per Light piece, `2n − 2 − x − y` per Dark piece (§1.10).
    pub fn progress(&self, side: Side) -> u32 {
        let n = self.geo.n;
        let sum: u32 = self.pieces(side).iter().map(|i| i % n + i / n).sum();
        match side {
            Side::Light => sum,
            Side::Dark => self.pieces(side).count() * (2 * n - 2) - sum,
        }
    }

    /// The squares `side` could land a capture on if it were to move (an
    /// enemy piece there can be taken).
    pub fn capture_reach(&self, side: Side) -> B {
        let (own, opp) = (self.pieces(side), self.pieces(side.other()));
        match side {
            Side::Light => capture_reach::<B, 0>(self.geo, own, opp),
            Side::Dark => capture_reach::<B, 1>(self.geo, own, opp),
        }
    }

    /// The evaluation with weights `w`, from the side to move's view
    /// (larger is better). In Royal an enemy king the side to move can
    /// capture scores 50,000 (a win next ply, C-K4).
    pub fn evaluate_with(&self, w: &EvalWeights) -> i32 {
        let me = self.side_to_move();
        let op = me.other();
        let mut v = 0;
        if w.attack != 0 || self.rules.royal {
            let mine = self.capture_reach(me) & self.pieces(op);
            if self.rules.royal && !(mine & self.kings).is_zero() {
                return KING_EN_PRISE;
            }
            let theirs = self.capture_reach(op) & self.pieces(me);
            v += w.attack * (mine.count() as i32 - theirs.count() as i32);
        }
        if w.material != 0 {
            v += w.material * (self.material(me) as i32 - self.material(op) as i32);
        }
        if w.range != 0 {
            v += w.range * (self.range_sum(me) as i32 - self.range_sum(op) as i32);
        }
        if w.progress != 0 {
            v += w.progress * (self.progress(me) as i32 - self.progress(op) as i32);
        }
        v
    }
}

impl<B: CatapultBits> Search for CatapultState<B> {
    fn evaluate(&self) -> i32 {
        self.evaluate_with(&super::EvalWeights::DEFAULT)
    }

    fn evaluate_weighted(&self, w: &[i32]) -> i32 {
        self.evaluate_with(&super::EvalWeights::from_slice(w))
    }

    /// MCTS's root win search on ([`SearchDefaults::root_win_search`]),
    /// but not with the Dagger: over its ~600 compound actions a ply the
    /// search took about 450 ms a move (docs/cli.md, per-game defaults).
    /// Plain Catapult 8×8 (no Dagger, not Royal): MCTS's `c`, `cutoff`
    /// and `scale` from `tune --spsa` at 40,000 iterations a move (about
    /// what 50 ms buys; 600 games, seed 87), checked against the generic
    /// values (0.7, 4, the evaluation scale 100) at 50 ms a move:
    /// `c=0.458,cutoff=0,scale=90.2` +394 Elo [+253, +3600], H1 after 32
    /// games (seed 97, `bash results/tune/mcts-spsa-50ms.sh`). The other
    /// forms and 9×9 keep the generic values (not measured there).
    /// Plain Catapult 8×8's alpha-beta also orders captures first by
    /// material (`mvv`), since 6 December.
    fn search_defaults(&self) -> SearchDefaults {
        let base = if self.rules.dagger {
            SearchDefaults::default()
        } else {
            SearchDefaults::root_win_search()
        };
        let tuned = self.rules.size == 8 && !self.rules.dagger && !self.rules.royal;
        SearchDefaults {
            eval_weights: super::EvalWeights::NAMED,
            // Captures first, by material: +81 [+34, +132] Elo at 50 ms a
            // move on plain Catapult 8×8, SPRT H1 after 96 games
            // (results/search-switches, "Catapult").
            capture_order: tuned,
            playout_cutoff: if tuned { Some(0) } else { base.playout_cutoff },
            mcts_c: if tuned { 0.458 } else { base.mcts_c },
            mcts_scale: if tuned { Some(90.2) } else { base.mcts_scale },
            ..base
        }
    }

    /// The opponent to move, the dagger where it was (a compound turn is
    /// one move here, so every position is at a turn boundary); refused at
    /// the end of the game and where the pass would reach the ply cap.
    fn null_move(&mut self) -> bool {
        if !self.ongoing() || self.ply + 1 >= self.rules.ply_cap {
            return false;
        }
        self.side = self.side.other();
        self.hash ^= self.geo.z_dark_to_move;
        self.ply += 1;
        true
    }

    /// A move with a capture in it (C-M2), for quiescence searches.
    fn is_capture(&self, mv: CatapultMove) -> bool {
        match mv {
            CatapultMove::Move(s) | CatapultMove::MoveThenPass(s) => s.is_capture(),
            CatapultMove::Double(a, b) => a.is_capture() || b.is_capture(),
            CatapultMove::Pass => false,
        }
    }

    /// The single captures only (C-M2), one move each: with the dagger the
    /// holder's double turns that hold a capture (hundreds at the start)
    /// are left to the full-width search, and a single capture keeps the
    /// dagger (C-D2). Without the dagger these are all the captures.
    fn quiescence_moves(&self, out: &mut Vec<CatapultMove>) {
        out.clear();
        if !self.ongoing() {
            return;
        }
        match self.side {
            Side::Light => self.single_captures::<0>(out),
            Side::Dark => self.single_captures::<1>(out),
        }
    }

    /// The material a single capture removes at the default weights (100
    /// a piece; a king in Royal is worth the game, [`KING_EN_PRISE`]); a
    /// double turn's gain is not estimated.
    fn capture_gain(&self, mv: CatapultMove) -> Option<i32> {
        let step = match mv {
            CatapultMove::Move(s) | CatapultMove::MoveThenPass(s) => s,
            CatapultMove::Double(..) | CatapultMove::Pass => return None,
        };
        let taken = self.captured(step);
        if self.rules.royal && !(taken & self.kings).is_zero() {
            return Some(KING_EN_PRISE);
        }
        Some(super::EvalWeights::DEFAULT.material * (taken & !self.kings).count() as i32)
    }
}
