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

/// Per shape and seat, the rows and the columns holding such a piece (the
/// entry test G-3), one 16-bit lane a seat so that the test reads every
/// enemy at once, with the counts behind them (four bits per line: at most
/// 6 pieces of a shape) so that a move updates them in place instead of a
/// rebuild each ply.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Align {
    /// `rows[shape]`: bit `16 * seat + r` set while row `r` holds such a
    /// piece of `seat`.
    rows: [u64; 3],
    /// `cols[shape]`: bit `16 * seat + c` set while column `c` holds one.
    cols: [u64; 3],
    /// The pieces per row, four bits a row.
    row_n: [[u64; 3]; 4],
    /// The pieces per column, four bits a column.
    col_n: [[u64; 3]; 4],
}

/// Bit 0 of each seat's lane in [`Align`]'s words.
const LANE_LOW: u64 = 0x0001_0001_0001_0001;

/// The lanes of the seats in the bitmask `seats`, all ones.
#[inline(always)]
fn lanes_of(seats: u8) -> u64 {
    (0..4).fold(0, |acc, y| {
        acc | (u64::from(seats >> y & 1) * 0xFFFF) << (16 * y)
    })
}

/// Every lane whose bit `k` is set, all ones.
#[inline(always)]
fn lanes_with(w: u64, k: u32) -> u64 {
    (w >> k & LANE_LOW) * 0xFFFF
}

/// The union of the four lanes.
#[inline(always)]
fn fold_lanes(x: u64) -> u16 {
    let x = x | x >> 32;
    (x | x >> 16) as u16
}

impl Align {
    /// A piece of `seat` and `shape` arrives on `sq`.
    #[inline(always)]
    pub(crate) fn add(&mut self, seat: usize, shape: usize, sq: u32) {
        let (r, c) = (sly::row_of(sq), sly::col_of(sq));
        let lane = 16 * seat as u32;
        self.row_n[seat][shape] += 1 << (4 * r);
        self.col_n[seat][shape] += 1 << (4 * c);
        self.rows[shape] |= 1 << (lane + r);
        self.cols[shape] |= 1 << (lane + c);
    }

    /// A piece of `seat` and `shape` leaves `sq`.
    #[inline(always)]
    pub(crate) fn remove(&mut self, seat: usize, shape: usize, sq: u32) {
        let (r, c) = (sly::row_of(sq), sly::col_of(sq));
        let lane = 16 * seat as u32;
        let rn = self.row_n[seat][shape] - (1 << (4 * r));
        let cn = self.col_n[seat][shape] - (1 << (4 * c));
        self.row_n[seat][shape] = rn;
        self.col_n[seat][shape] = cn;
        self.rows[shape] &= !(u64::from(rn >> (4 * r) & 15 == 0) << (lane + r));
        self.cols[shape] &= !(u64::from(cn >> (4 * c) & 15 == 0) << (lane + c));
    }
}

/// A mover's destinations and the ones that give a choice of entries.
#[derive(Clone, Copy)]
struct Targets {
    /// Empty non-centre spaces of the row (bit = column).
    row: u16,
    /// Empty non-centre spaces of the column (bit = row).
    col: u16,
    /// Row destinations that earn an entry (G-3) that can be made (G-4:
    /// the gateway free, a piece in reserve).
    erow: u16,
    /// Column destinations likewise.
    ecol: u16,
}

impl Targets {
    /// The moves: one per destination, and `nopts` instead of one where an
    /// entry is made.
    #[inline(always)]
    fn count(self, nopts: usize) -> usize {
        let plain = (self.row as u32 | (self.col as u32) << 16).count_ones() as usize;
        let entries = (self.erow as u32 | (self.ecol as u32) << 16).count_ones() as usize;
        plain + entries * nopts.saturating_sub(1)
    }
}

/// The non-centre spaces of a row or column of index `k` (centres lie on
/// lines 1, 4, 7, 10 only, §2.2).
#[inline(always)]
const fn non_centre(k: u32) -> u16 {
    if k % 3 == 1 {
        !CENTRE_LINES & 0xFFF
    } else {
        0xFFF
    }
}

/// The centre line (1, 4, 7 or 10) of the band or field column of line `k`.
#[inline(always)]
const fn centre_line(k: u32) -> u32 {
    k / 3 * 3 + 1
}

/// What a space's moves need of its row and column, worked out once
/// instead of by divisions each ply.
#[derive(Clone, Copy)]
struct Place {
    /// Its row and column.
    row: u32,
    col: u32,
    /// The non-centre spaces of its row (bit = column) and of its column
    /// (bit = row).
    row_spaces: u16,
    col_spaces: u16,
    /// The centre lines of its band and of its field column.
    row_gate: u32,
    col_gate: u32,
}

/// [`Place`] per space.
const PLACES: [Place; (SIDE * SIDE) as usize] = {
    let mut t = [Place {
        row: 0,
        col: 0,
        row_spaces: 0,
        col_spaces: 0,
        row_gate: 0,
        col_gate: 0,
    }; (SIDE * SIDE) as usize];
    let mut sq = 0;
    while sq < SIDE * SIDE {
        let (r, c) = (sly::row_of(sq), sly::col_of(sq));
        t[sq as usize] = Place {
            row: r,
            col: c,
            row_spaces: non_centre(r),
            col_spaces: non_centre(c),
            row_gate: centre_line(r),
            col_gate: centre_line(c),
        };
        sq += 1;
    }
    t
};

/// Per piece code (1 + 3 × seat + shape), the two shapes other than its
/// own, in the order (shape + 1, shape + 2) mod 3.
const OTHER_SHAPES: [(u8, u8); 13] = {
    let mut t = [(0, 0); 13];
    let mut v = 1;
    while v < 13 {
        let m = (v - 1) % 3;
        t[v] = (((m + 1) % 3) as u8, ((m + 2) % 3) as u8);
        v += 1;
    }
    t
};

/// The 12-bit line of the spaces whose field's gateway is free, from the
/// occupancy word of the centre line crossing the fields (bits 1, 4, 7, 10
/// are the gateways): each free gateway's bit spread over its field's
/// three spaces.
#[inline(always)]
fn free_gate_spaces(occupied: u16) -> u16 {
    let free = CENTRE_LINES & !occupied;
    free | free << 1 | free >> 1
}

impl GatewayState {
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
        // Pooled enemies (the default) count as one: their union, once.
        let mut pooled = B192::ZERO;
        if !self.rules.per_colour {
            for y in 0..self.rules.players as usize {
                if enemies >> y & 1 == 1 {
                    pooled |= self.pieces[y];
                }
            }
        }
        let mut forced = B192::ZERO;
        for sq in on_gates.iter() {
            let field = FIELDS[sly::field_of(sq) as usize];
            let count = if self.rules.per_colour {
                (0..self.rules.players as usize)
                    .filter(|&y| enemies >> y & 1 == 1)
                    .map(|y| (self.pieces[y] & field).count())
                    .max()
                    .unwrap_or(0)
            } else {
                (pooled & field).count()
            };
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
        let p = &PLACES[sq as usize];
        (
            !self.lines.rows[p.row as usize] & p.row_spaces,
            !self.lines.cols[p.col as usize] & p.col_spaces,
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

    /// The destinations of the piece on `sq` and those where an entry is
    /// made (`entries`: some entry option is left, G-4).
    #[inline(always)]
    fn targets(&self, sq: u32, entries: bool) -> Targets {
        let (row, col) = self.dests(sq);
        if !entries {
            return Targets {
                row,
                col,
                erow: 0,
                ecol: 0,
            };
        }
        let p = &PLACES[sq as usize];
        let (r0, c0) = (p.row, p.col);
        let (a, b) = OTHER_SHAPES[self.board[sq as usize] as usize];
        let (a, b) = (a as usize, b as usize);
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
            // Every enemy at once, one lane each (see [`Align`]).
            let al = &self.align;
            let em = lanes_of(self.enemies(self.to_move as usize));
            let (ra, rb, ca, cb) = (al.rows[a], al.rows[b], al.cols[a], al.cols[b]);
            // Row moves land on (r0, c): Q in row r0, R in column c.
            erow = fold_lanes((cb & lanes_with(ra, r0) | ca & lanes_with(rb, r0)) & em) & row;
            // Column moves land on (r, c0): Q in row r, R in column c0.
            ecol = fold_lanes((ra & lanes_with(cb, c0) | rb & lanes_with(ca, c0)) & em) & col;
        }
        // G-4: only where the gateway of the destination's field is free
        // once the mover has left (it may stand on it).
        if erow != 0 {
            let g = p.row_gate;
            let occ = self.lines.rows[g as usize] & !(u16::from(g == r0) << c0);
            erow &= free_gate_spaces(occ);
        }
        if ecol != 0 {
            let g = p.col_gate;
            let occ = self.lines.cols[g as usize] & !(u16::from(g == c0) << r0);
            ecol &= free_gate_spaces(occ);
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

    /// Calls `f(from, to, entry)` for every legal move, in the fixed order.
    #[inline]
    pub(crate) fn for_each_move(&self, mut f: impl FnMut(u8, u8, u8)) {
        let (opts, nopts) = self.entry_options();
        for sq in self.movers().iter() {
            let t = self.targets(sq, nopts > 0);
            let (r0, c0) = (sly::row_of(sq), sly::col_of(sq));
            let mut emit = |to: u32, entry: bool| {
                if entry {
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

    /// The number of legal moves (no pass), without a list.
    #[inline]
    pub(crate) fn count_moves(&self) -> usize {
        let (_, nopts) = self.entry_options();
        self.movers()
            .iter()
            .map(|sq| self.targets(sq, nopts > 0).count(nopts))
            .sum()
    }

    /// The move a uniform draw `rng.random_range(0..count)` picks, the
    /// draw's index counted in [`GatewayState::for_each_move`]'s order (as
    /// the games recorded before it were sampled): one pass over the
    /// movers with their targets and move counts kept on the stack, then
    /// the chosen mover's moves alone. `None` when the seat to move has no
    /// move.
    #[inline]
    pub(crate) fn sample_move<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Option<super::GatewayMove> {
        let (opts, nopts) = self.entry_options();
        // At most 44 pieces on the board (11 a seat), each with at most 22
        // destinations of at most 3 moves: the counts fit a byte. Kept
        // small (8 bytes a mover) because the arrays are cleared each ply.
        let none = Targets {
            row: 0,
            col: 0,
            erow: 0,
            ecol: 0,
        };
        let mut squares = [0u8; 44];
        let mut counts = [0u8; 44];
        let mut targets = [none; 44];
        let (mut k, mut n) = (0, 0);
        for sq in self.movers().iter() {
            let t = self.targets(sq, nopts > 0);
            let c = t.count(nopts);
            squares[k] = sq as u8;
            counts[k] = c as u8;
            targets[k] = t;
            k += 1;
            n += c;
        }
        if n == 0 {
            return None;
        }
        let mut i = rng.random_range(0..n);
        let mut m = 0;
        while i >= usize::from(counts[m]) {
            i -= usize::from(counts[m]);
            m += 1;
        }
        let (sq, t) = (u32::from(squares[m]), targets[m]);
        let (r0, c0) = (sly::row_of(sq), sly::col_of(sq));
        let lines = [(t.row, t.erow, true), (t.col, t.ecol, false)];
        for (mut bits, entries, is_row) in lines {
            while bits != 0 {
                let k = bits.trailing_zeros();
                bits &= bits - 1;
                let to = if is_row {
                    sly::square(r0, k)
                } else {
                    sly::square(k, c0)
                };
                let entry = entries >> k & 1 == 1;
                let moves = if entry { nopts } else { 1 };
                if i < moves {
                    return Some(super::GatewayMove::Move {
                        from: sq as u8,
                        to: to as u8,
                        entry: if entry { opts[i] } else { 0 },
                    });
                }
                i -= moves;
            }
        }
        unreachable!("the draw is below the move count")
    }
}
