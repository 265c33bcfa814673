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

    /// The move a uniform draw `rng.random_range(0..count)` picks, the
    /// draw's index counted in [`EmpireState::for_each_move`]'s order (as
    /// the games recorded before it were sampled): one pass over the
    /// pieces, their move counts kept on the stack, then the chosen piece's
    /// moves alone again. `None` when `seat` has no move.
    #[inline]
    pub(crate) fn sample_move<R: rand::Rng + ?Sized>(
        &self,
        seat: usize,
        rng: &mut R,
    ) -> Option<(u8, u8)> {
        // At most 44 pieces on the board (11 a seat, E-SET).
        let mut squares = [0u8; 64];
        let mut counts = [0u8; 64];
        let mut caps = [0u8; 8];
        let (mut k, mut n) = (0, 0usize);
        for sq in self.pieces[seat].iter() {
            let (row, col) = self.lines.empty_lines(sq);
            let c =
                (row.count_ones() + col.count_ones()) as usize + self.captures(seat, sq, &mut caps);
            squares[k] = sq as u8;
            counts[k] = c as u8;
            n += c;
            k += 1;
        }
        if n == 0 {
            return None;
        }
        let mut i = rng.random_range(0..n);
        for (&sq, &c) in squares[..k].iter().zip(&counts[..k]) {
            let c = c as usize;
            if i >= c {
                i -= c;
                continue;
            }
            let sq = sq as u32;
            let (row, col) = self.lines.empty_lines(sq);
            let (nr, nc) = (row.count_ones() as usize, col.count_ones() as usize);
            return Some(if i < nr {
                (
                    sq as u8,
                    (sly::row_of(sq) * SIDE + (row as u64).nth(i as u32)) as u8,
                )
            } else if i < nr + nc {
                (
                    sq as u8,
                    ((col as u64).nth((i - nr) as u32) * SIDE + sly::col_of(sq)) as u8,
                )
            } else {
                self.captures(seat, sq, &mut caps);
                (sq as u8, caps[i - nr - nc])
            });
        }
        unreachable!("the draw is below the move count")
    }
}
