//! Sniggle move generation: steps and jumps along a track (N-2), the column rule chain (N-3), the gap rule (N-4), goals (N-5, N-8).

use super::state::Outcome;
use super::{NO_SQ, ROW_MASK, Rules, SEAT_LETTERS, SniggleState};
use crate::api::MAX_SEATS;
use crate::board::sly::{COLS, FIELD_COLUMNS};
use crate::board::{B192, Bits, sly};

/// The landing column of a step from column `c` in a track with
/// occupancy `row` (N-2): the lowest empty column right of `c`; `None` if
/// the run of pieces reaches column L.
#[inline(always)]
pub(crate) fn landing(row: u16, c: u32) -> Option<u32> {
    let free = !(row as u32) & ROW_MASK & (ROW_MASK << (c + 1));
    (free != 0).then(|| free.trailing_zeros())
}

/// Whether a seat whose pieces occupy the columns `cols` (bit c = column c)
/// leaves no empty field between two occupied ones (N-4).
#[inline(always)]
pub(crate) fn gap_free(cols: u16) -> bool {
    let c = cols as u32;
    let f = ((c & 7 != 0) as u32)
        | (((c >> 3) & 7 != 0) as u32) << 1
        | (((c >> 6) & 7 != 0) as u32) << 2
        | (((c >> 9) & 7 != 0) as u32) << 3;
    if f == 0 {
        return true;
    }
    let x = f >> f.trailing_zeros();
    x & (x + 1) == 0
}

impl SniggleState {
    /// The rules of this position's variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The pieces of `seat` (bit `r * 12 + c`, [`sly::square`]).
    #[inline(always)]
    pub fn pieces(&self, seat: usize) -> B192 {
        self.pieces[seat]
    }

    /// The triangles of all seats (the rest of the pieces are squares).
    pub fn triangles(&self) -> B192 {
        self.triangles
    }

    /// Mid-turn (N-3): the square of the piece that must step again.
    pub fn continuing(&self) -> Option<u32> {
        (self.chain != NO_SQ).then_some(self.chain as u32)
    }

    /// The winning seats once the game is won (one seat, or both partners).
    pub fn winners(&self) -> Option<Vec<usize>> {
        match self.outcome {
            Outcome::Win(m) => Some((0..MAX_SEATS).filter(|&s| m >> s & 1 == 1).collect()),
            _ => None,
        }
    }

    /// The seats on the same side as `seat`: itself, and with teams its
    /// partner (N-7), as a bit mask.
    #[inline(always)]
    pub(crate) fn side_mask(&self, seat: usize) -> u8 {
        if self.rules.teams {
            0b0101 << (seat & 1)
        } else {
            1 << seat
        }
    }

    /// The seats whose pieces count in `seat`'s column rule (N-3, N-6, N-7
    /// and ruling QN3), as a bit mask.
    #[inline(always)]
    pub(crate) fn counted_mask(&self, seat: usize) -> u8 {
        let all = (1u8 << self.rules.players) - 1;
        if self.rules.partners_count {
            all & !(1 << seat)
        } else {
            all & !self.side_mask(seat)
        }
    }

    /// The number of `seat`'s opponents' pieces in board column `c` (N-3).
    #[inline(always)]
    pub(crate) fn opponents_in_column(&self, seat: usize, c: u32) -> u32 {
        let m = self.counted_mask(seat);
        let mut u = B192::ZERO;
        for (k, p) in self.pieces.iter().enumerate() {
            if m >> k & 1 == 1 {
                u |= *p;
            }
        }
        (u & COLS[c as usize]).count()
    }

    /// The first row (0-based) of `seat`'s band.
    #[inline(always)]
    pub(crate) fn first_row(&self, seat: usize) -> u32 {
        3 * self.rules.bands[seat] as u32
    }

    /// `seat`'s three tracks as 12-bit rows, top first.
    #[inline(always)]
    pub(crate) fn tracks(&self, seat: usize) -> [u16; 3] {
        let r0 = self.first_row(seat);
        let p = self.pieces[seat];
        [
            sly::row_bits(p, r0),
            sly::row_bits(p, r0 + 1),
            sly::row_bits(p, r0 + 2),
        ]
    }

    /// Calls `f(from, to)` for each legal first step of `seat` (N-2, N-4),
    /// track by track from the top, columns from the left.
    #[inline(always)]
    pub(crate) fn for_each_step(&self, seat: usize, mut f: impl FnMut(u8, u8)) {
        let r0 = self.first_row(seat);
        let t = self.tracks(seat);
        for i in 0..3 {
            let row = t[i];
            let others = t[(i + 1) % 3] | t[(i + 2) % 3];
            let mut bits = row as u32;
            while bits != 0 {
                let c = bits.trailing_zeros();
                bits &= bits - 1;
                if let Some(l) = landing(row, c) {
                    let moved = row ^ (1 << c) ^ (1 << l);
                    if gap_free(moved | others) {
                        let r = r0 + i as u32;
                        f(sly::square(r, c) as u8, sly::square(r, l) as u8);
                    }
                }
            }
        }
    }

    /// The square a continuation step from `sq` lands on, if N-2 and N-4
    /// allow it (ruling QN4 and N-4's stop).
    #[inline(always)]
    pub(crate) fn continuation(&self, seat: usize, sq: u32) -> Option<u32> {
        let i = (sly::row_of(sq) - self.first_row(seat)) as usize;
        let t = self.tracks(seat);
        let row = t[i];
        let c = sly::col_of(sq);
        let l = landing(row, c)?;
        let moved = row ^ (1 << c) ^ (1 << l);
        gap_free(moved | t[(i + 1) % 3] | t[(i + 2) % 3]).then(|| sly::square(sly::row_of(sq), l))
    }

    /// Whether all 9 of `seat`'s pieces are in its goal field (N-5); such a
    /// seat can never step again.
    #[inline(always)]
    pub fn in_goal(&self, seat: usize) -> bool {
        (self.pieces[seat] & !FIELD_COLUMNS[3]).is_zero()
    }

    /// The squares `seat`'s triangles must finish on under N-8.
    pub(crate) fn triangle_goal(&self, seat: usize) -> B192 {
        let r0 = self.first_row(seat);
        let mut g = B192::ZERO;
        for t in 0..3 {
            g |= B192::bit(sly::square(
                r0 + t,
                9 + self.rules.triangle_at[t as usize] as u32,
            ));
        }
        g
    }

    /// Whether `seat` has finished: all pieces in the goal field (N-5) and,
    /// under N-8, the triangles on their finishing squares.
    pub fn finished(&self, seat: usize) -> bool {
        self.in_goal(seat)
            && (!self.rules.triangles
                || self.pieces[seat] & self.triangles == self.triangle_goal(seat))
    }

    #[inline(always)]
    pub(crate) fn toggle_piece(&mut self, seat: usize, sq: u32) {
        self.pieces[seat] ^= B192::bit(sq);
        self.hash ^= self.keys.piece[seat][sq as usize];
    }

    #[inline(always)]
    pub(crate) fn set_chain(&mut self, sq: u8) {
        if self.chain != NO_SQ {
            self.hash ^= self.keys.chain[self.chain as usize];
        }
        self.chain = sq;
        if sq != NO_SQ {
            self.hash ^= self.keys.chain[sq as usize];
        }
    }

    /// The end of a turn: the mover's win (N-5, N-7), else the next seat to
    /// the left (N-6), and the draw when no seat can ever move (our ruling
    /// under N-9).
    pub(crate) fn end_turn(&mut self) {
        let s = self.to_move as usize;
        if self.finished(s) && (!self.rules.teams || self.finished(s ^ 2)) {
            self.outcome = Outcome::Win(self.side_mask(s));
            return;
        }
        let next = (s + 1) % self.rules.players as usize;
        self.hash ^= self.keys.seat[s] ^ self.keys.seat[next];
        self.to_move = next as u8;
        if (0..self.rules.players as usize).all(|k| self.in_goal(k)) {
            self.outcome = Outcome::Draw;
        }
    }

    /// Progress of `seat`: the sum of its pieces' column indices (9 at the
    /// start, 90 with all in the goal field).
    pub(crate) fn progress(&self, seat: usize) -> i32 {
        self.tracks(seat)
            .iter()
            .map(|&row| {
                let mut b = row as u32;
                let mut s = 0;
                while b != 0 {
                    s += b.trailing_zeros() as i32;
                    b &= b - 1;
                }
                s
            })
            .sum()
    }

    pub(crate) fn letter(&self, sq: u32) -> Option<char> {
        let b = B192::bit(sq);
        let seat = (0..self.rules.players as usize).find(|&k| !(self.pieces[k] & b).is_zero())?;
        let ch = SEAT_LETTERS[seat];
        Some(if (self.triangles & b).is_zero() {
            ch
        } else {
            ch.to_ascii_lowercase()
        })
    }
}
