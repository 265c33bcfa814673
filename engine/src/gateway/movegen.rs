//! Move generation (G-1…G-4).
//!
//! The movers: the pieces a forced leave (G-2) names, if any of them can
//! move, else every own piece (ruling QG5; `stuck=pass` passes instead).
//! Per mover: its destinations are the empty, non-centre bits of its row
//! and column words. Which destinations earn an entry (G-3) is one 12-bit
//! mask per line: for each enemy colour Y and the two shapes `a`, `b` the
//! mover lacks, the columns (rows) holding a Y piece of shape `b` when the
//! mover's row holds a Y piece of shape `a`, and the other way round. An
//! earned destination whose gateway is free (G-4) gives one move per
//! reserve shape left (plus the plain move under `entry=optional`).
//!
//! Order: movers by square, row destinations by column, then column
//! destinations by row; per destination the plain move, then `+T`, `+S`.

use super::state::GatewayState;
use crate::board::sly::{self, CENTRE_LINES, FIELDS, SIDE};
use crate::board::{B192, Bits};

/// Per seat and shape, the rows and the columns holding such a piece
/// (enemies of the mover only; zero for the others).
pub(crate) struct Align {
    rows: [[u16; 3]; 4],
    cols: [[u16; 3]; 4],
    enemies: u8,
}

/// A mover's destinations and the ones that earn an entry.
#[derive(Clone, Copy)]
struct Targets {
    /// Empty non-centre spaces of the row (bit = column).
    row: u16,
    /// Empty non-centre spaces of the column (bit = row).
    col: u16,
    /// Row destinations that earn an entry.
    erow: u16,
    /// Column destinations that earn an entry.
    ecol: u16,
}

/// The non-centre spaces of a row or column of index `k` (centres lie on
/// lines 1, 4, 7, 10 only, §2.2).
#[inline(always)]
fn non_centre(k: u32) -> u16 {
    if k % 3 == 1 {
        !CENTRE_LINES & 0xFFF
    } else {
        0xFFF
    }
}

impl GatewayState {
    /// The alignment tables for the seat to move (G-3).
    #[inline]
    pub(crate) fn align(&self) -> Align {
        let s = self.to_move as usize;
        let enemies = self.enemies(s);
        let mut a = Align {
            rows: [[0; 3]; 4],
            cols: [[0; 3]; 4],
            enemies,
        };
        for y in 0..self.rules.players as usize {
            if enemies >> y & 1 == 0 {
                continue;
            }
            for sq in self.pieces[y].iter() {
                let sh = (self.board[sq as usize] as usize - 1) % 3;
                a.rows[y][sh] |= 1 << sly::row_of(sq);
                a.cols[y][sh] |= 1 << sly::col_of(sq);
            }
        }
        a
    }

    /// The pieces the seat to move may move (G-2 and ruling QG5).
    #[inline]
    pub(crate) fn movers(&self) -> B192 {
        let s = self.to_move as usize;
        let own = self.pieces[s];
        let on_gates = own & sly::CENTRES;
        if on_gates.is_zero() {
            return own;
        }
        let enemies = self.enemies(s);
        let mut forced = B192::ZERO;
        for sq in on_gates.iter() {
            let field = FIELDS[sly::field_of(sq) as usize];
            let mut total = 0;
            let mut most = 0;
            for y in 0..self.rules.players as usize {
                if enemies >> y & 1 == 1 {
                    let k = (self.pieces[y] & field).count();
                    total += k;
                    most = most.max(k);
                }
            }
            let count = if self.rules.per_colour { most } else { total };
            if count >= 2 {
                forced |= B192::bit(sq);
            }
        }
        if forced.is_zero() {
            return own;
        }
        if forced.iter().any(|sq| {
            let t = self.dests(sq);
            t.0 | t.1 != 0
        }) {
            forced
        } else if self.rules.stuck_pass {
            B192::ZERO
        } else {
            own
        }
    }

    /// The empty non-centre spaces of `sq`'s row and column (G-1).
    #[inline(always)]
    fn dests(&self, sq: u32) -> (u16, u16) {
        let (row, col) = self.lines.empty_lines(sq);
        (
            row & non_centre(sly::row_of(sq)),
            col & non_centre(sly::col_of(sq)),
        )
    }

    /// Whether the piece on `from`, moved to `to`, earns an entry with the
    /// first piece seen from `to` along each line (`line=blocked`).
    fn earns_blocked(&self, from: u32, to: u32) -> bool {
        let s = self.to_move as usize;
        let m = (self.board[from as usize] - 1) % 3;
        let first = |dr: i32, dc: i32| -> Option<u8> {
            let (mut r, mut c) = (sly::row_of(to) as i32, sly::col_of(to) as i32);
            loop {
                r += dr;
                c += dc;
                if !(0..SIDE as i32).contains(&r) || !(0..SIDE as i32).contains(&c) {
                    return None;
                }
                let sq = sly::square(r as u32, c as u32);
                if sq != from && self.board[sq as usize] != 0 {
                    return Some(self.board[sq as usize]);
                }
            }
        };
        let enemies = self.enemies(s);
        let row = [first(0, -1), first(0, 1)];
        let col = [first(-1, 0), first(1, 0)];
        row.iter().flatten().any(|&q| {
            col.iter().flatten().any(|&r| {
                let (yq, sq) = ((q as usize - 1) / 3, (q - 1) % 3);
                let (yr, sr) = ((r as usize - 1) / 3, (r - 1) % 3);
                yq == yr && enemies >> yq & 1 == 1 && sq != sr && sq != m && sr != m
            })
        })
    }

    /// The destinations of the piece on `sq` and those earning an entry.
    #[inline(always)]
    fn targets(&self, sq: u32, al: &Align) -> Targets {
        let (row, col) = self.dests(sq);
        let (r0, c0) = (sly::row_of(sq), sly::col_of(sq));
        let m = ((self.board[sq as usize] - 1) % 3) as usize;
        let (a, b) = ((m + 1) % 3, (m + 2) % 3);
        let (mut erow, mut ecol) = (0u16, 0u16);
        if self.rules.blocked {
            let mut bits = row;
            while bits != 0 {
                let k = bits.trailing_zeros();
                bits &= bits - 1;
                if self.earns_blocked(sq, sly::square(r0, k)) {
                    erow |= 1 << k;
                }
            }
            let mut bits = col;
            while bits != 0 {
                let k = bits.trailing_zeros();
                bits &= bits - 1;
                if self.earns_blocked(sq, sly::square(k, c0)) {
                    ecol |= 1 << k;
                }
            }
        } else {
            for y in 0..self.rules.players as usize {
                if al.enemies >> y & 1 == 0 {
                    continue;
                }
                let (rw, cl) = (&al.rows[y], &al.cols[y]);
                // Row moves land on (r0, c): Q in row r0, R in column c.
                if rw[a] >> r0 & 1 == 1 {
                    erow |= cl[b];
                }
                if rw[b] >> r0 & 1 == 1 {
                    erow |= cl[a];
                }
                // Column moves land on (r, c0): Q in row r, R in column c0.
                if cl[b] >> c0 & 1 == 1 {
                    ecol |= rw[a];
                }
                if cl[a] >> c0 & 1 == 1 {
                    ecol |= rw[b];
                }
            }
            erow &= row;
            ecol &= col;
        }
        Targets {
            row,
            col,
            erow,
            ecol,
        }
    }

    /// The entry codes an earned entry offers now (G-4, ruling QG4): the
    /// plain move first under `entry=optional`, then 1 (triangle) and 2
    /// (square) while in reserve. Returns the codes and how many.
    #[inline(always)]
    fn entry_options(&self) -> ([u8; 3], usize) {
        let s = self.to_move as usize;
        let mut out = [0u8; 3];
        let mut n = 0;
        if self.reserve[s] == [0, 0] {
            return (out, 0);
        }
        if self.rules.entry_optional {
            out[n] = 0;
            n += 1;
        }
        if self.reserve[s][0] > 0 {
            out[n] = 1;
            n += 1;
        }
        if self.reserve[s][1] > 0 {
            out[n] = 2;
            n += 1;
        }
        (out, n)
    }

    /// Whether the gateway of `to`'s field is free once the piece on
    /// `from` has left (G-4).
    #[inline(always)]
    fn gate_free(&self, from: u32, to: u32) -> bool {
        let g = sly::centre_of_field(sly::field_of(to));
        g == from || self.board[g as usize] == 0
    }

    /// Calls `f(from, to, entry)` for every legal move, in the fixed order.
    #[inline]
    pub(crate) fn for_each_move(&self, mut f: impl FnMut(u8, u8, u8)) {
        let al = self.align();
        let (opts, nopts) = self.entry_options();
        for sq in self.movers().iter() {
            let t = self.targets(sq, &al);
            let (r0, c0) = (sly::row_of(sq), sly::col_of(sq));
            let mut emit = |to: u32, earned: bool| {
                if earned && nopts > 0 && self.gate_free(sq, to) {
                    for &e in &opts[..nopts] {
                        f(sq as u8, to as u8, e);
                    }
                } else {
                    f(sq as u8, to as u8, 0);
                }
            };
            let mut bits = t.row;
            while bits != 0 {
                let k = bits.trailing_zeros();
                bits &= bits - 1;
                emit(sly::square(r0, k), t.erow >> k & 1 == 1);
            }
            let mut bits = t.col;
            while bits != 0 {
                let k = bits.trailing_zeros();
                bits &= bits - 1;
                emit(sly::square(k, c0), t.ecol >> k & 1 == 1);
            }
        }
    }

    /// The moves of one mover: destinations plus the extra entry choices.
    #[inline(always)]
    fn piece_count(&self, sq: u32, t: &Targets, nopts: usize) -> usize {
        let mut n = (t.row.count_ones() + t.col.count_ones()) as usize;
        if nopts > 1 {
            let (r0, c0) = (sly::row_of(sq), sly::col_of(sq));
            let mut bits = t.erow;
            while bits != 0 {
                let k = bits.trailing_zeros();
                bits &= bits - 1;
                if self.gate_free(sq, sly::square(r0, k)) {
                    n += nopts - 1;
                }
            }
            let mut bits = t.ecol;
            while bits != 0 {
                let k = bits.trailing_zeros();
                bits &= bits - 1;
                if self.gate_free(sq, sly::square(k, c0)) {
                    n += nopts - 1;
                }
            }
        }
        n
    }

    /// The number of legal moves (no pass), without a list.
    #[inline]
    pub(crate) fn count_moves(&self) -> usize {
        let al = self.align();
        let (_, nopts) = self.entry_options();
        self.movers()
            .iter()
            .map(|sq| self.piece_count(sq, &self.targets(sq, &al), nopts))
            .sum()
    }

    /// The move a uniform draw `rng.random_range(0..count)` picks, the
    /// draw's index counted in [`GatewayState::for_each_move`]'s order (as
    /// the games recorded before it were sampled): the alignments and entry
    /// options computed once, one pass over the movers with their targets
    /// and move counts kept on the stack, then the chosen mover's moves
    /// alone. `None` when the seat to move has no move.
    #[inline]
    pub(crate) fn sample_move<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Option<super::GatewayMove> {
        let al = self.align();
        let (opts, nopts) = self.entry_options();
        // At most 44 pieces on the board (11 a seat).
        let none = Targets {
            row: 0,
            col: 0,
            erow: 0,
            ecol: 0,
        };
        let mut movers = [(0u32, none, 0usize); 64];
        let (mut k, mut n) = (0, 0);
        for sq in self.movers().iter() {
            let t = self.targets(sq, &al);
            let c = self.piece_count(sq, &t, nopts);
            movers[k] = (sq, t, c);
            k += 1;
            n += c;
        }
        if n == 0 {
            return None;
        }
        let mut i = rng.random_range(0..n);
        for &(sq, t, c) in &movers[..k] {
            if i >= c {
                i -= c;
                continue;
            }
            let (r0, c0) = (sly::row_of(sq), sly::col_of(sq));
            let dests = (0..12u32)
                .filter(|&k| t.row >> k & 1 == 1)
                .map(|k| (sly::square(r0, k), t.erow >> k & 1 == 1))
                .chain(
                    (0..12u32)
                        .filter(|&k| t.col >> k & 1 == 1)
                        .map(|k| (sly::square(k, c0), t.ecol >> k & 1 == 1)),
                );
            for (to, earned) in dests {
                let entries = earned && nopts > 0 && self.gate_free(sq, to);
                let moves = if entries { nopts } else { 1 };
                if i < moves {
                    return Some(super::GatewayMove::Move {
                        from: sq as u8,
                        to: to as u8,
                        entry: if entries { opts[i] } else { 0 },
                    });
                }
                i -= moves;
            }
        }
        unreachable!("the draw is below the move count")
    }
}
