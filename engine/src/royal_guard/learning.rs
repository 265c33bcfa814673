//! Action ids and observation planes of Royal Guard and FIDE chess
//! ([`Learning`]).
//!
//! Actions, over the squares `rank × 8 + file` (`a1` = 0): a move from `f`
//! to `t` is `f × 64 + t` (castling is the king's move, a queen promotion
//! the pawn's move); an under-promotion adds `4096 × k`, `k` = 1 knight,
//! 2 bishop, 3 rook. 16,384 actions.
//!
//! Observation, `[19, 8, 8]`, the board seen from the mover's side (rows
//! from the mover's eighth rank down to its first; files `a` to `h`):
//! planes 0–5 the mover's pawns, knights, bishops, rooks, queens, king;
//! 6–11 the opponent's; 12–15 castling rights (mover's king side, queen
//! side, opponent's king side, queen side; constant planes); 16 the
//! en-passant target square; 17 the plies since the last capture or pawn
//! move over 100 (constant); 18 royal powers on (constant; 0 in FIDE chess).

use super::MoveKind;
use super::RoyalGuardMove;
use super::position::{BK, BQ, NO_EP, WK, WQ};
use super::state::RoyalGuardState;
use crate::api::{ActionSeq, Learning};
use crate::board::planes::from_to;

/// Observation planes.
const PLANES: usize = 19;

impl Learning for RoyalGuardState {
    fn num_actions(&self) -> usize {
        4 * 4096
    }

    fn move_actions(&self, mv: RoyalGuardMove) -> ActionSeq {
        let under = match mv.kind() {
            MoveKind::PromoKnight => 1,
            MoveKind::PromoBishop => 2,
            MoveKind::PromoRook => 3,
            _ => 0,
        };
        ActionSeq::one(under * 4096 + from_to(mv.from() as u32, mv.to() as u32, 64))
    }

    fn observation_shape(&self) -> [usize; 3] {
        [PLANES, 8, 8]
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        out.fill(0.0);
        let b = &self.board;
        let me = b.side as usize;
        // Square `sq` at the mover's row-major cell: white sees rank 8 on
        // top; black sees the board turned round its horizontal axis.
        let cell = |sq: usize| {
            let (rank, file) = (sq / 8, sq % 8);
            let row = if me == 0 { 7 - rank } else { rank };
            row * 8 + file
        };
        for (k, &set) in b.by_piece.iter().enumerate() {
            for (slot, colour) in [me, 1 - me].into_iter().enumerate() {
                let mut bits = set & b.by_color[colour];
                while bits != 0 {
                    let sq = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    out[(slot * 6 + k) * 64 + cell(sq)] = 1.0;
                }
            }
        }
        let rights = if me == 0 {
            [WK, WQ, BK, BQ]
        } else {
            [BK, BQ, WK, WQ]
        };
        for (j, r) in rights.into_iter().enumerate() {
            if b.castling & r != 0 {
                out[(12 + j) * 64..][..64].fill(1.0);
            }
        }
        if b.ep != NO_EP {
            out[16 * 64 + cell(b.ep as usize)] = 1.0;
        }
        out[17 * 64..][..64].fill(f32::from(b.halfmove) / 100.0);
        if b.royal {
            out[18 * 64..][..64].fill(1.0);
        }
    }
}
