//! King's Colour move generation: the hex geometry, castles and walls, the switcheroo types, KC-8 captures, promotion, check, mate and stalemate; the position text.

use std::fmt;
use std::sync::OnceLock;

use super::{
    CELLS, CaptureRule, End, EndReason, KcNotation, KingsColourMove, KingsColourState, Piece,
    REPETITION_WINDOW, Rules, Side,
};
use crate::board::hex::{DIAG, Hex, HexGrid, HexRays, KNIGHT, ORTHO};
use crate::board::{Bits, zobrist};
use crate::error::GameError;

/// The most pieces a side has: its King and eight men (KC-1); no move adds
/// one.
pub(crate) const MAX_PIECES: usize = 9;

/// Board tables shared by every state (built once).
pub struct Geometry {
    /// The board (side 7, 127 cells, q-major index order).
    pub grid: HexGrid<u128>,
    pub(crate) ortho: HexRays<u128>,
    pub(crate) diag: HexRays<u128>,
    /// The rays of `ortho` and `diag` as fixed tables, `[cell][k]`, with
    /// their union at `k = 6` (rows 127 and 128, off the board, empty):
    /// move generation indexes them with `cell & 127` or [`nearest`]'s cell,
    /// without bounds checks or a row stride read from the heap.
    pub(crate) lines: [Box<[[u128; 7]; 129]>; 2],
    /// The castles (KC-S2), by side.
    pub castle: [u128; 2],
    /// The walls (KC-S2), by side.
    pub wall: [u128; 2],
    /// The three colour classes (KC-G4).
    pub colour_mask: [u128; 3],
    /// Colour per cell (KC-G4).
    pub colour: Vec<u8>,
    /// Per side and cell: the King's destinations (orth ∪ diag ∪ knight) ∩
    /// own castle (KC-3).
    pub(crate) king_steps: [Vec<u128>; 2],
    /// The Kings' start cells.
    pub home: [u8; 2],
    pub(crate) keys: Vec<u64>,
}

impl fmt::Debug for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Geometry(kings_colour)")
    }
}

/// The colour of axial cell `h`, `(q − r) mod 3` (KC-G4).
pub fn colour_of(h: Hex) -> u8 {
    (h.q - h.r).rem_euclid(3) as u8
}

impl Geometry {
    pub(crate) fn build() -> Geometry {
        let grid = HexGrid::<u128>::new(7).expect("side 7 fits u128");
        let n = grid.len();
        let ortho = HexRays::new(&grid, &ORTHO);
        let diag = HexRays::new(&grid, &DIAG);
        let table = |rays: &HexRays<u128>| {
            let mut t = Box::new([[0u128; 7]; 129]);
            for (c, row) in t.iter_mut().enumerate().take(n) {
                for k in 0..6 {
                    row[k] = rays.ray(c, k);
                    row[6] |= row[k];
                }
            }
            t
        };
        let lines = [table(&ortho), table(&diag)];
        let homes = [Hex::new(-3, 0), Hex::new(3, 0)];
        let mut castle = [0u128; 2];
        let mut wall = [0u128; 2];
        for (s, &k) in homes.iter().enumerate() {
            for a in -1..=1 {
                for b in -1..=1 {
                    let h = k
                        .add(Hex::new(1, -1).scale(a))
                        .add(Hex::new(0, -1).scale(b));
                    castle[s] |= 1u128 << grid.index(h).expect("castle on board");
                }
            }
            wall[s] = grid.neighbour_set(castle[s]) & !castle[s];
        }
        let colour: Vec<u8> = (0..n).map(|c| colour_of(grid.hex(c))).collect();
        let mut colour_mask = [0u128; 3];
        for (c, &col) in colour.iter().enumerate() {
            colour_mask[col as usize] |= 1 << c;
        }
        let vecs: Vec<Hex> = ORTHO.iter().chain(&DIAG).chain(&KNIGHT).copied().collect();
        let leaps = grid.leaper_masks(&vecs);
        let king_steps = [
            leaps.iter().map(|&m| m & castle[0]).collect(),
            leaps.iter().map(|&m| m & castle[1]).collect(),
        ];
        let home = [
            grid.index(homes[0]).expect("on board") as u8,
            grid.index(homes[1]).expect("on board") as u8,
        ];
        Geometry {
            grid,
            ortho,
            diag,
            lines,
            castle,
            wall,
            colour_mask,
            colour,
            king_steps,
            home,
            keys: zobrist::keys(0x4B43_5F68_6578_3132, 6 * CELLS + 1),
        }
    }

    /// The shared tables.
    pub fn get() -> &'static Geometry {
        static G: OnceLock<Geometry> = OnceLock::new();
        G.get_or_init(Geometry::build)
    }

    /// The name of cell `c` (KC-G3).
    pub fn name(&self, c: usize) -> String {
        self.grid.name(c, &KcNotation)
    }

    /// The cell named `text` (KC-G3).
    ///
    /// # Errors
    /// Text that names no cell of the board.
    pub fn parse_cell(&self, text: &str) -> Result<usize, GameError> {
        self.grid.parse_cell(text, &KcNotation)
    }

    #[inline(always)]
    pub(crate) fn key(&self, side: usize, kind: usize, cell: usize) -> u64 {
        self.keys[(side * 3 + kind) * CELLS + cell]
    }

    #[inline(always)]
    pub(crate) fn side_key(&self) -> u64 {
        self.keys[6 * CELLS]
    }
}

#[inline(always)]
pub(crate) fn bit(c: usize) -> u128 {
    1u128 << c
}

/// Whether the rays of `vectors[k]` run to higher cell indices (as
/// [`HexRays`] decides it), for the fixed tables of [`Geometry::lines`].
const fn ascending(vectors: &[Hex; 6]) -> [bool; 6] {
    let mut a = [false; 6];
    let mut k = 0;
    while k < 6 {
        a[k] = vectors[k].q > 0 || (vectors[k].q == 0 && vectors[k].r > 0);
        k += 1;
    }
    a
}

/// [`ascending`] of the orthogonal (`LINE_ASC[0]`) and diagonal vectors.
const LINE_ASC: [[bool; 6]; 2] = [ascending(&ORTHO), ascending(&DIAG)];

/// The nearest member of `hit` (a subset of one ray) to the ray's start:
/// the lowest cell of an ascending ray, the highest otherwise; 128 (an
/// empty row of [`Geometry::lines`]) for an empty `hit`.
#[inline(always)]
fn nearest(hit: u128, asc: bool) -> usize {
    (if asc {
        hit.trailing_zeros()
    } else {
        127u32.wrapping_sub(hit.leading_zeros())
    })
    .min(128) as usize
}

impl KingsColourState {
    pub(crate) fn empty(rules: Rules) -> KingsColourState {
        let geo = Geometry::get();
        KingsColourState {
            geo,
            rules,
            occ: [0; 2],
            queens: 0,
            kings: geo.home,
            side: 0,
            ply: 0,
            hash: 0,
            end: None,
            since_irreversible: 0,
            history: [0; REPETITION_WINDOW],
        }
    }

    /// The shared board tables.
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move (also after the end: the side that would move).
    pub fn side_to_move(&self) -> Side {
        Side::from_index(self.side as usize)
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The King's cell of `side`.
    pub fn king(&self, side: Side) -> usize {
        self.kings[side.index()] as usize
    }

    /// The cells of `side`'s pieces (King included).
    pub fn pieces(&self, side: Side) -> u128 {
        self.occ[side.index()]
    }

    /// The piece on cell `c` and its side, with the type KC-12 derives.
    pub fn piece_at(&self, c: usize) -> Option<(Side, Piece)> {
        let s = if self.occ[0] >> c & 1 == 1 {
            0
        } else if self.occ[1] >> c & 1 == 1 {
            1
        } else {
            return None;
        };
        let p = if self.kings[s] as usize == c {
            Piece::King
        } else if self.queens >> c & 1 == 1 {
            Piece::Queen
        } else if self.geo.colour[c] == self.geo.colour[self.kings[s] as usize] {
            Piece::Rook
        } else {
            Piece::Bishop
        };
        Some((Side::from_index(s), p))
    }

    /// Whether `side`'s King is attacked (KC-11).
    pub fn in_check(&self, side: Side) -> bool {
        let s = side.index();
        let (eo, ed) = self.attackers(1 - s);
        self.attacked(self.kings[s] as usize, self.occ[0] | self.occ[1], eo, ed)
    }

    /// Whether `mv` captures (its end cell holds an enemy piece).
    pub fn is_capture(&self, mv: KingsColourMove) -> bool {
        self.occ[1 - self.side as usize] >> mv.to & 1 == 1
    }

    /// Whether `mv` promotes (KC-10: a man ending in the enemy castle).
    pub fn is_promotion(&self, mv: KingsColourMove) -> bool {
        let s = self.side as usize;
        mv.from != self.kings[s]
            && self.queens >> mv.from & 1 == 0
            && self.geo.castle[1 - s] >> mv.to & 1 == 1
    }

    /// The men (not Queens, not the King) of side `s`.
    #[inline(always)]
    pub(crate) fn men(&self, s: usize) -> u128 {
        self.occ[s] & !self.queens & !bit(self.kings[s] as usize)
    }

    /// Side `s`'s orthogonal and diagonal movers (KC-12): Rooks + Queens,
    /// Bishops + Queens.
    #[inline(always)]
    pub(crate) fn attackers(&self, s: usize) -> (u128, u128) {
        let men = self.men(s);
        let on = self.geo.colour_mask[self.geo.colour[self.kings[s] as usize] as usize];
        let q = self.occ[s] & self.queens;
        ((men & on) | q, (men & !on) | q)
    }

    /// Whether cell `x` is reached by a member of `eo` orthogonally or `ed`
    /// diagonally, with `occ` blocking (KC-7, KC-11).
    #[inline]
    pub(crate) fn attacked(&self, x: usize, occ: u128, eo: u128, ed: u128) -> bool {
        let g = self.geo;
        for (l, e) in [(0, eo), (1, ed)] {
            let rays = &g.lines[l][x & 127];
            if rays[6] & e == 0 {
                continue;
            }
            for k in 0..6 {
                let ray = rays[k];
                // The ray holds an attacker; the first piece on it is one.
                if ray & e != 0 && e >> nearest(ray & occ, LINE_ASC[l][k]) & 1 == 1 {
                    return true;
                }
            }
        }
        false
    }

    /// KC-8 (ruling KC-R2): may a piece of side `s` on `from` capture an enemy
    /// on `to`?
    #[inline(always)]
    pub(crate) fn capture_ok(&self, s: usize, from: usize, to: usize) -> bool {
        let g = self.geo;
        let (f, t) = (bit(from), bit(to));
        match self.rules.capture {
            CaptureRule::Literal => {
                (g.wall[1 - s] & f != 0 && g.castle[1 - s] & t != 0)
                    || (g.castle[s] & f != 0 && g.wall[s] & t != 0)
            }
            CaptureRule::Wide => (0..2).any(|c| {
                (g.wall[c] & f != 0 && g.castle[c] & t != 0)
                    || (g.castle[c] & f != 0 && g.wall[c] & t != 0)
            }),
        }
    }

    /// The cells a slider on `from` reaches along the six rays of line type
    /// `l` (0 orthogonal, 1 diagonal): on each ray the empty cells up to
    /// the first piece, and that piece. Branch-free: a ray with no piece
    /// loses the empty row 128 of [`Geometry::lines`], nothing.
    #[inline(always)]
    fn reach(&self, l: usize, from: usize, occ: u128) -> u128 {
        let lines = &self.geo.lines[l];
        let rays = &lines[from & 127];
        let mut t = 0;
        for k in 0..6 {
            let ray = rays[k];
            t |= ray & !lines[nearest(ray & occ, LINE_ASC[l][k])][k];
        }
        t
    }

    /// The cells side `s`'s piece on `from` may capture on (KC-8, ruling
    /// KC-R2), as [`Self::capture_ok`] decides for each.
    #[inline(always)]
    fn capture_targets(&self, s: usize, from: usize) -> u128 {
        let g = self.geo;
        let f = bit(from);
        let when = |on: bool, m: u128| if on { m } else { 0 };
        match self.rules.capture {
            CaptureRule::Literal => {
                when(g.wall[1 - s] & f != 0, g.castle[1 - s])
                    | when(g.castle[s] & f != 0, g.wall[s])
            }
            CaptureRule::Wide => (0..2).fold(0, |m, c| {
                m | when(g.wall[c] & f != 0, g.castle[c]) | when(g.castle[c] & f != 0, g.wall[c])
            }),
        }
    }

    /// The pseudo-legal destinations of the man or Queen of side `s` on
    /// `from` (KC-4–KC-8, KC-12): along each ray the empty cells up to the
    /// first piece, and that piece if it is an enemy other than the King
    /// that this piece may capture.
    #[inline]
    pub(crate) fn man_targets(&self, s: usize, from: usize, occ: u128) -> u128 {
        let g = self.geo;
        let queen = self.queens >> from & 1 == 1;
        let rook = queen || g.colour[from] == g.colour[self.kings[s] as usize];
        let bishop = queen || !rook;
        let mut reach = 0;
        if rook {
            reach |= self.reach(0, from, occ);
        }
        if bishop {
            reach |= self.reach(1, from, occ);
        }
        let o = 1 - s;
        let prey = self.occ[o] & !bit(self.kings[o] as usize) & self.capture_targets(s, from);
        (reach & !occ) | (reach & prey)
    }

    /// The King's pseudo-legal destinations (KC-3, KC-9).
    #[inline]
    pub(crate) fn king_targets(&self, s: usize) -> u128 {
        let mut t = self.geo.king_steps[s][self.kings[s] as usize] & !self.occ[s];
        if !self.rules.king_captures {
            t &= !self.occ[1 - s];
        }
        t
    }

    /// Own pieces that are the only blocker between the King and an enemy
    /// slider of the matching line type.
    #[inline]
    pub(crate) fn pinned(&self, s: usize, occ: u128, eo: u128, ed: u128) -> u128 {
        let g = self.geo;
        let x = self.kings[s] as usize;
        let mut pinned = 0;
        for (l, e) in [(0, eo), (1, ed)] {
            let rays = &g.lines[l];
            for k in 0..6 {
                let ray = rays[x & 127][k];
                if ray & e == 0 {
                    continue;
                }
                // The ray holds an enemy slider, so a first piece; an own
                // first piece with an enemy slider next behind it is pinned.
                let b1 = nearest(ray & occ, LINE_ASC[l][k]);
                let beyond = rays[b1][k] & occ;
                if self.occ[s] >> b1 & 1 == 1
                    && beyond != 0
                    && e >> nearest(beyond, LINE_ASC[l][k]) & 1 == 1
                {
                    pinned |= bit(b1);
                }
            }
        }
        pinned
    }

    #[inline(always)]
    pub(crate) fn man_move_legal(
        &self,
        s: usize,
        from: usize,
        to: usize,
        occ: u128,
        eo: u128,
        ed: u128,
    ) -> bool {
        let occ2 = (occ & !bit(from)) | bit(to);
        !self.attacked(self.kings[s] as usize, occ2, eo & !bit(to), ed & !bit(to))
    }

    #[inline(always)]
    pub(crate) fn king_move_legal(
        &self,
        s: usize,
        to: usize,
        occ: u128,
        eo: u128,
        ed: u128,
    ) -> bool {
        let occ2 = (occ & !bit(self.kings[s] as usize)) | bit(to);
        !self.attacked(to, occ2, eo & !bit(to), ed & !bit(to))
    }

    /// What the legality tests of the side to move need: its seat, the
    /// occupancy, the enemy's orthogonal and diagonal sliders, its King's
    /// cell, and the pieces whose moves need a test (all of them in check,
    /// else the pinned ones).
    #[inline(always)]
    fn legality(&self) -> (usize, u128, u128, u128, usize, u128) {
        let s = self.side as usize;
        let occ = self.occ[0] | self.occ[1];
        let (eo, ed) = self.attackers(1 - s);
        let king = self.kings[s] as usize;
        let pinned = if self.attacked(king, occ, eo, ed) {
            u128::MAX
        } else {
            self.pinned(s, occ, eo, ed)
        };
        (s, occ, eo, ed, king, pinned)
    }

    /// Calls `f` with each legal move in the fixed order (men and Queens by
    /// cell index, then the King); stops when `f` returns false. Returns
    /// false iff stopped.
    #[inline]
    pub(crate) fn for_each_legal(&self, mut f: impl FnMut(KingsColourMove) -> bool) -> bool {
        let (s, occ, eo, ed, king, pinned) = self.legality();
        for from in (self.occ[s] & !bit(king)).iter() {
            let from = from as usize;
            let t = self.man_targets(s, from, occ);
            let test = pinned >> from & 1 == 1;
            for to in t.iter() {
                let to = to as usize;
                if (!test || self.man_move_legal(s, from, to, occ, eo, ed))
                    && !f(KingsColourMove {
                        from: from as u8,
                        to: to as u8,
                    })
                {
                    return false;
                }
            }
        }
        for to in self.king_targets(s).iter() {
            let to = to as usize;
            if self.king_move_legal(s, to, occ, eo, ed)
                && !f(KingsColourMove {
                    from: king as u8,
                    to: to as u8,
                })
            {
                return false;
            }
        }
        true
    }

    /// Each piece's legal destinations, in [`Self::for_each_legal`]'s order
    /// (men and Queens by cell index, then the King; destinations by cell
    /// index), written to `out` as `(from, destinations)`; returns the
    /// number of pieces written and the number of legal moves. A uniform
    /// random move is then a draw of an index and a walk over `out`, with
    /// no list of moves built.
    #[inline]
    pub(crate) fn legal_targets(&self, out: &mut [(u8, u128); MAX_PIECES]) -> (usize, usize) {
        let (s, occ, eo, ed, king, pinned) = self.legality();
        let (mut len, mut n) = (0, 0);
        let mut put = |from: usize, t: u128| {
            if t != 0 {
                out[len] = (from as u8, t);
                len += 1;
                n += t.count() as usize;
            }
        };
        for from in (self.occ[s] & !bit(king)).iter() {
            let from = from as usize;
            let mut t = self.man_targets(s, from, occ);
            if pinned >> from & 1 == 1 {
                for to in t.iter() {
                    if !self.man_move_legal(s, from, to as usize, occ, eo, ed) {
                        t &= !bit(to as usize);
                    }
                }
            }
            put(from, t);
        }
        let mut t = self.king_targets(s);
        for to in t.iter() {
            if !self.king_move_legal(s, to as usize, occ, eo, ed) {
                t &= !bit(to as usize);
            }
        }
        put(king, t);
        (len, n)
    }

    /// The number of legal moves, built without a list (bulk count).
    #[inline]
    pub(crate) fn count(&self) -> usize {
        let (s, occ, eo, ed, king, pinned) = self.legality();
        let mut n = 0;
        for from in (self.occ[s] & !bit(king)).iter() {
            let from = from as usize;
            let t = self.man_targets(s, from, occ);
            if pinned >> from & 1 == 1 {
                for to in t.iter() {
                    n += self.man_move_legal(s, from, to as usize, occ, eo, ed) as usize;
                }
            } else {
                n += t.count() as usize;
            }
        }
        for to in self.king_targets(s).iter() {
            n += self.king_move_legal(s, to as usize, occ, eo, ed) as usize;
        }
        n
    }

    pub(crate) fn has_legal_move(&self) -> bool {
        !self.for_each_legal(|_| false)
    }

    /// Plays `mv` on the board only (no end test, no history): moves the
    /// piece, removes a capture, promotes (KC-10), flips the side. Returns
    /// whether the move was irreversible (capture or promotion).
    #[inline]
    pub(crate) fn make(&mut self, mv: KingsColourMove) -> bool {
        let g = self.geo;
        let s = self.side as usize;
        let o = 1 - s;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let mut irreversible = false;
        if self.occ[o] >> to & 1 == 1 {
            let kind = if self.queens >> to & 1 == 1 { 1 } else { 0 };
            self.hash ^= g.key(o, kind, to);
            self.occ[o] &= !bit(to);
            self.queens &= !bit(to);
            irreversible = true;
        }
        self.occ[s] = (self.occ[s] & !bit(from)) | bit(to);
        if from == self.kings[s] as usize {
            self.kings[s] = to as u8;
            self.hash ^= g.key(s, 2, from) ^ g.key(s, 2, to);
        } else if self.queens >> from & 1 == 1 {
            self.queens = (self.queens & !bit(from)) | bit(to);
            self.hash ^= g.key(s, 1, from) ^ g.key(s, 1, to);
        } else if g.castle[o] >> to & 1 == 1 {
            self.queens |= bit(to);
            self.hash ^= g.key(s, 0, from) ^ g.key(s, 1, to);
            irreversible = true;
        } else {
            self.hash ^= g.key(s, 0, from) ^ g.key(s, 0, to);
        }
        self.side = o as u8;
        self.hash ^= g.side_key();
        self.ply += 1;
        irreversible
    }

    /// Records the position in the history and decides whether the game is
    /// over (KC-11, KC-13, KC-14).
    pub(crate) fn settle(&mut self, irreversible: bool) {
        if irreversible {
            self.since_irreversible = 0;
        } else {
            self.since_irreversible += 1;
        }
        self.history[self.ply as usize % REPETITION_WINDOW] = self.hash;
        let mover = Side::from_index(1 - self.side as usize);
        self.end = if !self.has_legal_move() {
            if self.in_check(mover.opp()) {
                Some(End {
                    winner: Some(mover),
                    reason: EndReason::Checkmate,
                })
            } else {
                Some(End {
                    winner: self.rules.stalemate_loses.then_some(mover),
                    reason: EndReason::Stalemate,
                })
            }
        } else if self.rules.repetition > 0 && self.repetitions() >= self.rules.repetition {
            Some(End {
                winner: None,
                reason: EndReason::Repetition,
            })
        } else if self.ply >= self.rules.ply_cap {
            Some(End {
                winner: None,
                reason: EndReason::PlyCap,
            })
        } else {
            None
        };
    }

    /// How often the current (position, side to move) occurred since the
    /// last capture or promotion, within the window (this one included).
    pub fn repetitions(&self) -> u32 {
        let mut n = 1;
        let back = (self.since_irreversible as usize).min(REPETITION_WINDOW - 1);
        let mut d = 2;
        while d <= back {
            if self.history[(self.ply as usize - d) % REPETITION_WINDOW] == self.hash {
                n += 1;
            }
            d += 2;
        }
        n
    }

    /// perft with bulk counting on this module's own make (no clone of the
    /// history, no end test): equal to [`crate::perft`] while no repetition
    /// or ply cap ends a game inside the horizon (checkmate and stalemate
    /// count 0 either way). For the bench.
    pub fn perft_fast(&self, depth: u32) -> u64 {
        fn rec(s: &KingsColourState, depth: u32, bufs: &mut [Vec<KingsColourMove>]) -> u64 {
            if depth == 1 {
                return s.count() as u64;
            }
            let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
            buf.clear();
            s.for_each_legal(|m| {
                buf.push(m);
                true
            });
            let mut total = 0;
            for &m in buf.iter() {
                let mut c = s.clone_board();
                c.make(m);
                total += rec(&c, depth - 1, rest);
            }
            total
        }
        if depth == 0 {
            return 1;
        }
        if self.end.is_some() {
            return 0;
        }
        let mut bufs: Vec<Vec<KingsColourMove>> =
            (0..depth).map(|_| Vec::with_capacity(256)).collect();
        rec(self, depth, &mut bufs)
    }

    /// A copy without history (cheaper clone for the fast perft).
    #[inline(always)]
    pub(crate) fn clone_board(&self) -> KingsColourState {
        KingsColourState {
            history: [0; REPETITION_WINDOW],
            ..*self
        }
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let g = self.geo;
        let mut h = 0;
        for s in 0..2 {
            for c in self.occ[s].iter() {
                let c = c as usize;
                let kind = if c == self.kings[s] as usize {
                    2
                } else if self.queens >> c & 1 == 1 {
                    1
                } else {
                    0
                };
                h ^= g.key(s, kind, c);
            }
        }
        if self.side == 1 {
            h ^= g.side_key();
        }
        h
    }

    pub(crate) fn letter(&self, c: usize) -> Option<char> {
        let (side, p) = self.piece_at(c)?;
        let l = match p {
            Piece::King => 'K',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Queen => 'Q',
        };
        Some(if side == Side::White {
            l
        } else {
            l.to_ascii_lowercase()
        })
    }

    /// The cells of column `col` (0 = A) from row 1 upwards.
    pub(crate) fn column(&self, col: i32) -> impl Iterator<Item = usize> + '_ {
        let q = col - 6;
        let (lo, hi) = ((-6 - q).max(-6), (6 - q).min(6));
        (lo..=hi).map(move |r| self.geo.grid.index(Hex::new(q, r)).expect("on board"))
    }

    #[allow(clippy::needless_range_loop)]
    pub(crate) fn parse_text(rules: Rules, text: &str) -> Result<KingsColourState, GameError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 2 || fields.len() > 3 {
            crate::bail!(
                "bad position {text:?}: expected '<13 columns A-M separated by /> <w|b> [ply]'"
            );
        }
        let mut st = KingsColourState::empty(rules);
        let g = st.geo;
        let cols: Vec<&str> = fields[0].split('/').collect();
        if cols.len() != 13 {
            crate::bail!(
                "bad position: {} columns, expected 13 (A-M) separated by '/'",
                cols.len()
            );
        }
        let mut kings: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        let mut declared: Vec<(usize, usize, char)> = Vec::new();
        for (ci, col) in cols.iter().enumerate() {
            let cells: Vec<usize> = st.column(ci as i32).collect();
            let letter = (b'A' + ci as u8) as char;
            let mut at = 0usize;
            let b = col.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i].is_ascii_digit() {
                    let j = b[i..]
                        .iter()
                        .position(|x| !x.is_ascii_digit())
                        .map_or(b.len(), |p| i + p);
                    let run: usize = col[i..j].parse().unwrap_or(usize::MAX);
                    if run == 0 || run > cells.len() {
                        crate::bail!(
                            "bad position: column {letter} has a bad run {:?}",
                            &col[i..j]
                        );
                    }
                    at = at.saturating_add(run);
                    i = j;
                } else {
                    let ch = b[i] as char;
                    if at >= cells.len() {
                        crate::bail!(
                            "bad position: column {letter} has more than {} cells",
                            cells.len()
                        );
                    }
                    let c = cells[at];
                    let s = if ch.is_ascii_uppercase() { 0 } else { 1 };
                    match ch.to_ascii_uppercase() {
                        'K' => kings[s].push(c),
                        'R' | 'B' => {}
                        'Q' => st.queens |= bit(c),
                        _ => crate::bail!(
                            "bad position: unknown piece {ch:?} in column {letter} (expected K R B Q, upper case White, lower case Black, or a digit)"
                        ),
                    }
                    st.occ[s] |= bit(c);
                    declared.push((c, s, ch.to_ascii_uppercase()));
                    at += 1;
                    i += 1;
                }
            }
            if at != cells.len() {
                crate::bail!(
                    "bad position: column {letter} describes {at} cells, expected {}",
                    cells.len()
                );
            }
        }
        for s in 0..2 {
            let side = Side::from_index(s);
            if kings[s].len() != 1 {
                crate::bail!(
                    "bad position: {} {} Kings, expected exactly 1",
                    kings[s].len(),
                    side.name()
                );
            }
            let k = kings[s][0];
            if g.castle[s] >> k & 1 == 0 {
                crate::bail!(
                    "bad position: the {} King on {} is outside its castle (KC-3)",
                    side.name(),
                    g.name(k)
                );
            }
            st.kings[s] = k as u8;
            let others = st.occ[s].count() - 1;
            if others > 8 {
                crate::bail!(
                    "bad position: {} has {others} pieces besides its King, at most 8 (KC-1)",
                    side.name()
                );
            }
            let stray = st.men(s) & g.castle[1 - s];
            if stray != 0 {
                crate::bail!(
                    "bad position: the {} man on {} is in the enemy castle but not a Queen (KC-10)",
                    side.name(),
                    g.name(stray.lowest() as usize)
                );
            }
        }
        for &(c, _, ch) in &declared {
            let (side, p) = st.piece_at(c).expect("placed");
            let want = match p {
                Piece::King => 'K',
                Piece::Rook => 'R',
                Piece::Bishop => 'B',
                Piece::Queen => 'Q',
            };
            if want != ch {
                crate::bail!(
                    "bad position: the {} man on {} is a {:?} by KC-12 (its King is on {}), not {ch}",
                    side.name(),
                    g.name(c),
                    p,
                    g.name(st.kings[side.index()] as usize)
                );
            }
        }
        st.side = match fields[1] {
            "w" | "W" => 0,
            "b" | "B" => 1,
            other => crate::bail!("bad position: side to move {other:?}, expected w or b"),
        };
        if let Some(p) = fields.get(2) {
            st.ply = crate::board::text::parse_ply(p).ok_or_else(|| {
                GameError::new(format!(
                    "bad position: ply {p:?}, expected a number up to {}",
                    crate::board::text::MAX_PLY
                ))
            })?;
        }
        let waiting = Side::from_index(1 - st.side as usize);
        if st.in_check(waiting) {
            crate::bail!(
                "bad position: the {} King is in check but it is not {} to move",
                waiting.name(),
                waiting.name()
            );
        }
        st.hash = st.compute_hash();
        st.history[st.ply as usize % REPETITION_WINDOW] = st.hash;
        // The end test of `settle`, without a move; a fresh history.
        st.settle(true);
        Ok(st)
    }
}
