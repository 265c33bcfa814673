//! A heuristic evaluation for alpha-beta, in centipawns from the side to
//! move: material, piece-square terms (formulas, not copied tables), and
//! with royal powers on, royal mobility (the King steps a royal R/B/N can
//! make, RG-3, and royal pawns' forward threats, RG-4).

use super::attacks::KING;
use super::position::Board;
use super::{MoveKind, Piece, RoyalGuardMove, RoyalGuardState, Side};
use crate::api::Search;

/// Material values in centipawns, by [`Piece`].
pub const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Centipawns per free King step of a royal R/B/N.
pub const ROYAL_STEP: i32 = 3;

/// Centipawns per royal piece (the status itself: extra defence of its
/// King's neighbourhood).
pub const ROYAL_PIECE: i32 = 8;

/// Distance from the centre, 0 (d4, e4, d5, e5) to 6 (corners).
#[inline]
fn centre_dist(sq: usize) -> i32 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// The piece-square term for a piece of `c` on `sq`.
#[inline]
fn pst(c: Side, p: Piece, sq: usize, endgame: bool) -> i32 {
    // Ranks counted from the piece's own side.
    let rel_rank = if c == Side::White { sq / 8 } else { 7 - sq / 8 } as i32;
    let cd = centre_dist(sq);
    match p {
        Piece::Pawn => {
            let file = (sq % 8) as i32;
            let central = if (2..=5).contains(&file) { 4 } else { 0 };
            (rel_rank - 1) * if endgame { 12 } else { 6 } + central * (rel_rank - 1).min(2)
        }
        Piece::Knight => 18 - 6 * cd,
        Piece::Bishop => 10 - 3 * cd,
        Piece::Rook => {
            if rel_rank == 6 {
                15
            } else {
                0
            }
        }
        Piece::Queen => 4 - cd,
        Piece::King => {
            if endgame {
                20 - 6 * cd
            } else if rel_rank == 0 {
                // On the back rank, best tucked away at the side.
                let file = (sq % 8) as i32;
                if file <= 2 || file >= 6 { 20 } else { 0 }
            } else {
                -10 * rel_rank
            }
        }
    }
}

/// White's score minus Black's, then from the side to move.
pub fn evaluate(b: &Board) -> i32 {
    let queens = b.by_piece[Piece::Queen as usize].count_ones();
    let minors_majors = (b.by_piece[Piece::Knight as usize]
        | b.by_piece[Piece::Bishop as usize]
        | b.by_piece[Piece::Rook as usize])
        .count_ones();
    let endgame = queens == 0 || minors_majors <= 2;
    let mut score = 0;
    for c in [Side::White, Side::Black] {
        let sign = if c == Side::White { 1 } else { -1 };
        let mut s = 0;
        for p in Piece::ALL {
            let mut bb = b.pieces(c, p);
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                s += VALUE[p as usize] + pst(c, p, sq, endgame);
                bb &= bb - 1;
            }
        }
        let royal = b.royal_set(c);
        if royal != 0 {
            let own = b.color(c);
            let opp = b.color(c.other());
            let mut nbr = royal & !b.by_piece[Piece::Pawn as usize];
            while nbr != 0 {
                let sq = nbr.trailing_zeros() as usize;
                s += ROYAL_PIECE + ROYAL_STEP * (KING[sq] & !own).count_ones() as i32;
                nbr &= nbr - 1;
            }
            let rp = royal & b.by_piece[Piece::Pawn as usize];
            let ahead = match c {
                Side::White => rp << 8,
                Side::Black => rp >> 8,
            };
            s += ROYAL_PIECE * rp.count_ones() as i32 + 10 * (ahead & opp).count_ones() as i32;
        }
        score += sign * s;
    }
    if b.side() == Side::White {
        score
    } else {
        -score
    }
}

impl Search for RoyalGuardState {
    fn evaluate(&self) -> i32 {
        evaluate(self.board())
    }

    /// Captures (en passant included) and promotions, for quiescence
    /// searches.
    fn is_capture(&self, mv: RoyalGuardMove) -> bool {
        let board = self.board();
        let them = board.by_color[1 - board.side as usize];
        them >> mv.to() & 1 != 0
            || matches!(
                mv.kind(),
                MoveKind::EnPassant
                    | MoveKind::PromoKnight
                    | MoveKind::PromoBishop
                    | MoveKind::PromoRook
                    | MoveKind::PromoQueen
            )
    }
}
