//! Move generation (E-1, E-2): for each own piece, one row word and one
//! column word of destinations (bit = column of its row, row of its
//! column): the empty spaces of its line (from
//! [`crate::board::sly::Lines`]) and the capturable pieces at its exact
//! distances (the occupied bits of the line that are not friendly, masked
//! by the kind's [`REACH`]). The order is fixed: pieces by square, then row
//! destinations by column, column destinations by row, captures by
//! distance and direction (up, down, left, right).

use super::state::{EmpireState, distances};
use crate::board::Bits;
use crate::board::sly::{self, Lines, SIDE};

/// The spaces of a 12-space line at a kind's exact capture distances (E-2)
/// from index `x`: `REACH[kind][x]`, bit `x - d` and `x + d` for each
/// distance `d` of the kind where on the board (commander 2 and 5,
/// horseman 3, archer 4).
const REACH: [[u16; 12]; 3] = {
    let mut t = [[0u16; 12]; 3];
    let mut k = 0;
    while k < 3 {
        let ds = distances(k as u8);
        let mut x = 0;
        while x < 12 {
            let mut j = 0;
            while j < 2 {
                let d = ds[j];
                if d != 0 {
                    if x >= d {
                        t[k][x as usize] |= 1 << (x - d);
                    }
                    if x + d < SIDE {
                        t[k][x as usize] |= 1 << (x + d);
                    }
                }
                j += 1;
            }
            x += 1;
        }
        k += 1;
    }
    t
};

/// One piece's destinations: the row word (bit = column) and the column
/// word (bit = row), each the empty spaces plus the captures, and the
/// captures alone.
#[derive(Copy, Clone)]
struct Reach {
    row: u16,
    col: u16,
    cap_row: u16,
    cap_col: u16,
}

impl Reach {
    /// The number of moves: every bit of both words.
    #[inline(always)]
    fn count(self) -> u32 {
        (self.row as u32 | (self.col as u32) << 16).count_ones()
    }
}

impl EmpireState {
    /// The row and column words of the pieces `seat` may not capture (E-2):
    /// its own, and in teams its partner's (all of them, ruling QE5; only
    /// the partner's commander under `partner_capture`).
    #[inline(always)]
    fn friendly_lines(&self, seat: usize) -> Lines {
        let mut f = self.seat_lines[seat];
        if self.rules.teams {
            let p = seat ^ 2;
            if self.rules.partner_capture {
                if let Some(c) = self.commander_of(p) {
                    f.toggle(c);
                }
            } else {
                let q = &self.seat_lines[p];
                for i in 0..12 {
                    f.rows[i] |= q.rows[i];
                    f.cols[i] |= q.cols[i];
                }
            }
        }
        f
    }

    /// The destinations of the piece on `sq` (E-1, E-2) given the friendly
    /// pieces' words.
    #[inline(always)]
    fn reach(&self, sq: u32, friend: &Lines) -> Reach {
        let (r, c) = (sly::row_of(sq) as usize, sly::col_of(sq) as usize);
        let k = ((self.board[sq as usize] - 1) % 3) as usize;
        let (ro, co) = (self.lines.rows[r], self.lines.cols[c]);
        let cap_row = ro & !friend.rows[r] & REACH[k][c];
        let cap_col = co & !friend.cols[c] & REACH[k][r];
        Reach {
            row: (!ro & 0xFFF) | cap_row,
            col: (!co & 0xFFF) | cap_col,
            cap_row,
            cap_col,
        }
    }

    /// Calls `f(target)` for each capture of the piece on `sq` in the fixed
    /// order: by distance, then up, down, left, right.
    #[inline(always)]
    fn for_each_capture(&self, sq: u32, t: Reach, mut f: impl FnMut(u32)) {
        let (r, c) = (sly::row_of(sq), sly::col_of(sq));
        for d in distances((self.board[sq as usize] - 1) % 3) {
            if d == 0 {
                continue;
            }
            if r >= d && t.cap_col >> (r - d) & 1 == 1 {
                f(sq - d * SIDE);
            }
            if r + d < SIDE && t.cap_col >> (r + d) & 1 == 1 {
                f(sq + d * SIDE);
            }
            if c >= d && t.cap_row >> (c - d) & 1 == 1 {
                f(sq - d);
            }
            if c + d < SIDE && t.cap_row >> (c + d) & 1 == 1 {
                f(sq + d);
            }
        }
    }

    /// Calls `f(from, to)` for every legal move of `seat`, in the fixed
    /// order.
    #[inline]
    pub(crate) fn for_each_move(&self, seat: usize, mut f: impl FnMut(u8, u8)) {
        let friend = self.friendly_lines(seat);
        for sq in self.pieces[seat].iter() {
            let t = self.reach(sq, &friend);
            let (r, c) = (sly::row_of(sq), sly::col_of(sq));
            let mut row = t.row & !t.cap_row;
            while row != 0 {
                let k = row.trailing_zeros();
                row &= row - 1;
                f(sq as u8, (r * SIDE + k) as u8);
            }
            let mut col = t.col & !t.cap_col;
            while col != 0 {
                let k = col.trailing_zeros();
                col &= col - 1;
                f(sq as u8, (k * SIDE + c) as u8);
            }
            if t.cap_row | t.cap_col != 0 {
                self.for_each_capture(sq, t, |to| f(sq as u8, to as u8));
            }
        }
    }

    /// The number of legal moves of `seat` (no pass), without a list.
    #[inline]
    pub(crate) fn count_moves(&self, seat: usize) -> usize {
        let friend = self.friendly_lines(seat);
        self.pieces[seat]
            .iter()
            .map(|sq| self.reach(sq, &friend).count() as usize)
            .sum()
    }

    /// The move a uniform draw `rng.random_range(0..count)` picks, the
    /// draw's index counted in [`EmpireState::for_each_move`]'s order (as
    /// the games recorded before it were sampled): one pass over the
    /// pieces, their destination words kept on the stack, then the chosen
    /// piece's moves alone. `None` when `seat` has no move.
    #[inline]
    pub(crate) fn sample_move<R: rand::Rng + ?Sized>(
        &self,
        seat: usize,
        rng: &mut R,
    ) -> Option<(u8, u8)> {
        let friend = self.friendly_lines(seat);
        // At most 44 pieces on the board (11 a seat, E-SET).
        let none = Reach {
            row: 0,
            col: 0,
            cap_row: 0,
            cap_col: 0,
        };
        let mut pieces = [(0u32, none, 0u32); 44];
        let (mut k, mut n) = (0, 0usize);
        for sq in self.pieces[seat].iter() {
            let t = self.reach(sq, &friend);
            let c = t.count();
            pieces[k] = (sq, t, c);
            n += c as usize;
            k += 1;
        }
        if n == 0 {
            return None;
        }
        let mut i = rng.random_range(0..n) as u32;
        for &(sq, t, c) in &pieces[..k] {
            if i >= c {
                i -= c;
                continue;
            }
            let (row, col) = (t.row & !t.cap_row, t.col & !t.cap_col);
            let (nr, nc) = (row.count_ones(), col.count_ones());
            return Some(if i < nr {
                (
                    sq as u8,
                    (sly::row_of(sq) * SIDE + (row as u64).nth(i)) as u8,
                )
            } else if i < nr + nc {
                (
                    sq as u8,
                    ((col as u64).nth(i - nr) * SIDE + sly::col_of(sq)) as u8,
                )
            } else {
                let mut j = i - nr - nc;
                let mut to = 0;
                self.for_each_capture(sq, t, |x| {
                    if j == 0 {
                        to = x;
                    }
                    j = j.wrapping_sub(1);
                });
                (sq as u8, to as u8)
            });
        }
        unreachable!("the draw is below the move count")
    }
}
