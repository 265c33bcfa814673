//! A heuristic for alpha-beta and playout cut-offs.
//!
//! For the seat to move, its side's score minus the best opposing side's.
//! A side's score: 10 per piece entered (G-5 counts them), minus 4 per own
//! piece on a gateway that a forced leave would move off (G-2: the field
//! holds two or more enemy pieces), plus 1 per own piece on a line (row or
//! column) with an enemy piece of another shape (half an alignment, G-3).

use super::state::GatewayState;
use crate::api::Search;
use crate::board::Bits;
use crate::board::sly::{self, FIELDS};

fn seat_score(s: &GatewayState, seat: usize) -> i32 {
    let (t, q) = s.reserve(seat);
    let mut score = 10 * (8 - t as i32 - q as i32);
    let enemies = s.enemies(seat);
    let mut enemy_all = crate::board::B192::ZERO;
    for y in 0..s.rules.players as usize {
        if enemies >> y & 1 == 1 {
            enemy_all |= s.pieces[y];
        }
    }
    for sq in s.pieces[seat].iter() {
        if sly::is_centre(sq) && (enemy_all & FIELDS[sly::field_of(sq) as usize]).count() >= 2 {
            score -= 4;
        }
        let line = sly::ROWS[sly::row_of(sq) as usize] | sly::COLS[sly::col_of(sq) as usize];
        if !(line & enemy_all).is_zero() {
            score += 1;
        }
    }
    score
}

/// The heuristic value for the seat to move (larger is better).
pub(crate) fn evaluate(s: &GatewayState) -> i32 {
    let me = s.to_move as usize;
    let mine = s.side_mask(me);
    let side = |m: u8| -> i32 {
        (0..s.rules.players as usize)
            .filter(|&k| m >> k & 1 == 1)
            .map(|k| seat_score(s, k))
            .sum()
    };
    let mut best = i32::MIN;
    for k in 0..s.rules.players as usize {
        if mine >> k & 1 == 0 {
            best = best.max(side(s.side_mask(k)));
        }
    }
    side(mine) - best
}

impl Search for GatewayState {
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }
}
