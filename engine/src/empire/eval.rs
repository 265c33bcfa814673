//! A heuristic for alpha-beta and playout cut-offs.
//!
//! For the seat to move, its side's score minus the best opposing side's,
//! where a side's score is: material (horseman 3, archer 3: both capture at
//! one distance; the commander is not counted, losing it ends the game), 8
//! per throne held (E-3(a)), and −6 when its commander stands where an
//! enemy could capture it (E-2, E-3(c)).

use super::state::EmpireState;
use crate::api::Search;
use crate::board::Bits;

fn side_score(s: &EmpireState, mask: u8) -> i32 {
    let mut score = 0;
    for k in 0..s.rules.players as usize {
        if mask >> k & 1 == 0 {
            continue;
        }
        let p = s.pieces[k];
        score += 3 * (p.count() as i32 - 1).max(0);
        if let Some(c) = s.commander_of(k)
            && s.attacked(k, c)
        {
            score -= 6;
        }
    }
    score + 8 * s.thrones_held(mask) as i32
}

/// The heuristic value for the seat to move (larger is better).
pub(crate) fn evaluate(s: &EmpireState) -> i32 {
    let me = s.to_move as usize;
    let mine = s.side_mask(me);
    let mine_score = side_score(s, mine);
    let mut best = i32::MIN;
    for k in 0..s.rules.players as usize {
        if mine >> k & 1 == 1 || !s.is_alive(k) {
            continue;
        }
        best = best.max(side_score(s, s.side_mask(k)));
    }
    if best == i32::MIN {
        mine_score
    } else {
        mine_score - best
    }
}

impl Search for EmpireState {
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }
}
