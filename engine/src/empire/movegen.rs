//! Move generation (E-1, E-2): for each own piece, the empty spaces of its
//! row and column (two 12-bit words from [`crate::board::sly::Lines`]), then
//! the captures at its exact distances (four look-ups per distance). The
//! order is fixed: pieces by square, then row destinations by column, column
//! destinations by row, captures by distance and direction (up, down, left,
//! right).

use super::state::{EmpireState, distances};
use crate::board::Bits;
use crate::board::sly::{self, SIDE};

impl EmpireState {
    /// The capture targets of the piece on `sq` owned by `seat` (E-2), at
    /// most 8 (a commander at 2 and 5 in four directions); returns how many
    /// were written.
    #[inline(always)]
    fn captures(&self, seat: usize, sq: u32, out: &mut [u8; 8]) -> usize {
        let v = self.board[sq as usize];
        let mut n = 0;
        for d in distances((v - 1) % 3) {
            if d == 0 {
                continue;
            }
            sly::for_each_at_distance(sq, d, |t| {
                let w = self.board[t as usize];
                if w != 0 && self.can_capture(seat, w) {
                    out[n] = t as u8;
                    n += 1;
                }
            });
        }
        n
    }

    /// Calls `f(from, to)` for every legal move of `seat`, in the fixed
    /// order.
    #[inline]
    pub(crate) fn for_each_move(&self, seat: usize, mut f: impl FnMut(u8, u8)) {
        let mut caps = [0u8; 8];
        for sq in self.pieces[seat].iter() {
            let (r, c) = (sly::row_of(sq), sly::col_of(sq));
            let (mut row, mut col) = self.lines.empty_lines(sq);
            while row != 0 {
                let k = row.trailing_zeros();
                row &= row - 1;
                f(sq as u8, (r * SIDE + k) as u8);
            }
            while col != 0 {
                let k = col.trailing_zeros();
                col &= col - 1;
                f(sq as u8, (k * SIDE + c) as u8);
            }
            let n = self.captures(seat, sq, &mut caps);
            for &t in &caps[..n] {
                f(sq as u8, t);
            }
        }
    }

    /// The number of legal moves of `seat` (no pass), without a list.
    #[inline]
    pub(crate) fn count_moves(&self, seat: usize) -> usize {
        let mut caps = [0u8; 8];
        let mut n = 0;
        for sq in self.pieces[seat].iter() {
            let (row, col) = self.lines.empty_lines(sq);
            n += (row.count_ones() + col.count_ones()) as usize;
            n += self.captures(seat, sq, &mut caps);
        }
        n
    }

    /// The `i`-th move (0-based) of [`EmpireState::for_each_move`]'s order,
    /// without a list: counts piece by piece, then picks inside the piece.
    #[inline]
    pub(crate) fn nth_move(&self, seat: usize, mut i: usize) -> (u8, u8) {
        let mut caps = [0u8; 8];
        for sq in self.pieces[seat].iter() {
            let (row, col) = self.lines.empty_lines(sq);
            let (nr, nc) = (row.count_ones() as usize, col.count_ones() as usize);
            if i < nr {
                return (
                    sq as u8,
                    (sly::row_of(sq) * SIDE + (row as u64).nth(i as u32)) as u8,
                );
            }
            i -= nr;
            if i < nc {
                return (
                    sq as u8,
                    ((col as u64).nth(i as u32) * SIDE + sly::col_of(sq)) as u8,
                );
            }
            i -= nc;
            let n = self.captures(seat, sq, &mut caps);
            if i < n {
                return (sq as u8, caps[i]);
            }
            i -= n;
        }
        unreachable!("move index past the move count")
    }
}
