//! Hex-hex boards in a bit set: axial coordinates, cell indices, steps,
//! leaper and neighbour masks, rays for sliders, the three line directions
//! and the k-windows along them.
//!
//! Written for Bagel (side 4, 37 cells, and Big Bagel, side 5, 61 cells, in
//! a `u64`) and King's Colour (side 7, 127 cells, in a `u128`); any side
//! `2..=7` whose cell count fits the bit set works.
//!
//! # Coordinates
//! Axial `(q, r)` with `s = -q - r`; the centre is `(0, 0)` and a cell exists
//! iff `max(|q|, |r|, |s|) <= side - 1` (the *radius*).
//!
//! # Cell index order (fixed)
//! **Column-major by `q` ascending, then `r` ascending.** So index 0 is
//! `(-R, 0)`, the first column holds `(-R, 0) … (-R, R)`, and the centre is
//! index `cells / 2`. This is the order the King's Colour dossier suggests
//! (KC-G3: columns A…M = `q` ascending, rows ascending; D4 = 27) and, with
//! Bagel's `(column c, row n) ↦ (q, r) = (c − R, n − 1 − c)`, the Bagel
//! dossier's B-G6 order (`a1 a2 … g7`, the hole included as a cell).
//!
//! Because every vector has `dq != 0` (then a ray is monotone in `q`) or
//! `dq == 0, dr != 0` (monotone in `r`), every ray is monotone in the index:
//! the nearest blocker on a ray is its lowest or highest member, which
//! [`HexRays::slide`] uses.
//!
//! # Names
//! The toolkit has no notation of its own: a game implements
//! [`HexNotation`] (axial cell ↔ text) and calls [`HexGrid::name`] /
//! [`HexGrid::parse_cell`].

use super::bits::Bits;
use crate::error::GameError;
use std::fmt;

/// An axial hex coordinate `(q, r)`; `s = -q - r`. Also used for step
/// vectors.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Hex {
    /// The `q` coordinate.
    pub q: i32,
    /// The `r` coordinate.
    pub r: i32,
}

impl Hex {
    /// The centre / zero vector.
    pub const ZERO: Hex = Hex { q: 0, r: 0 };

    /// `(q, r)`.
    #[inline(always)]
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate, `-q - r`.
    #[inline(always)]
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// The sum.
    #[inline(always)]
    pub const fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }

    /// The difference `self - o`.
    #[inline(always)]
    pub const fn sub(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }

    /// The vector times `k`.
    #[inline(always)]
    pub const fn scale(self, k: i32) -> Hex {
        Hex::new(self.q * k, self.r * k)
    }

    /// The opposite vector.
    #[inline(always)]
    pub const fn neg(self) -> Hex {
        Hex::new(-self.q, -self.r)
    }

    /// The hex distance from the centre, `max(|q|, |r|, |s|)`.
    #[inline(always)]
    pub const fn norm(self) -> i32 {
        let (a, b, c) = (self.q.abs(), self.r.abs(), self.s().abs());
        let m = if a > b { a } else { b };
        if m > c { m } else { c }
    }

    /// The hex distance (fewest orthogonal steps) between two cells.
    #[inline(always)]
    pub const fn distance(self, o: Hex) -> i32 {
        self.sub(o).norm()
    }

    /// Rotated 60° about the centre: `(q, r, s) ↦ (-r, -s, -q)`. Six
    /// rotations are the identity; [`ORTHO`] and [`DIAG`] map to
    /// themselves (each to the next entry).
    #[inline(always)]
    pub const fn rotate60(self) -> Hex {
        Hex::new(-self.r, -self.s())
    }

    /// Reflected in the `q` axis line through the centre: `(q, r, s) ↦
    /// (q, s, r)`.
    #[inline(always)]
    pub const fn reflect(self) -> Hex {
        Hex::new(self.q, self.s())
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.q, self.r)
    }
}

/// The six orthogonal steps to the edge-adjacent cells, counter-clockwise
/// (KC-G2's order): `(1,0) (1,-1) (0,-1) (-1,0) (-1,1) (0,1)`. Entry
/// `i + 3` is the opposite of entry `i`.
pub const ORTHO: [Hex; 6] = [
    Hex::new(1, 0),
    Hex::new(1, -1),
    Hex::new(0, -1),
    Hex::new(-1, 0),
    Hex::new(-1, 1),
    Hex::new(0, 1),
];

/// The six "diagonal" steps through a vertex, each the sum of two
/// orthogonal steps 60° apart (KC-G2's order): `(2,-1) (1,-2) (-1,-1)
/// (-2,1) (-1,2) (1,1)`. Entry `i + 3` is the opposite of entry `i`.
pub const DIAG: [Hex; 6] = [
    Hex::new(2, -1),
    Hex::new(1, -2),
    Hex::new(-1, -1),
    Hex::new(-2, 1),
    Hex::new(-1, 2),
    Hex::new(1, 1),
];

/// The twelve knight-like vectors of KC-G2: `(1,2) (2,1) (3,-1) (3,-2)
/// (2,-3) (1,-3)` and their negatives (entry `i + 6` is the negative of
/// entry `i`). All at hex distance 3, not on a line or diagonal.
pub const KNIGHT: [Hex; 12] = [
    Hex::new(1, 2),
    Hex::new(2, 1),
    Hex::new(3, -1),
    Hex::new(3, -2),
    Hex::new(2, -3),
    Hex::new(1, -3),
    Hex::new(-1, -2),
    Hex::new(-2, -1),
    Hex::new(-3, 1),
    Hex::new(-3, 2),
    Hex::new(-2, 3),
    Hex::new(-1, 3),
];

/// The three line directions, as the positive step along the line:
/// 0 = `(0, 1)` (lines of constant `q`), 1 = `(1, -1)` (constant `s`),
/// 2 = `(1, 0)` (constant `r`). In Bagel's notation these are the columns,
/// the rows and the diagonals (B-G2).
pub const LINE_DIRS: [Hex; 3] = [Hex::new(0, 1), Hex::new(1, -1), Hex::new(1, 0)];

/// A game's cell notation, the mapping hook between axial cells and text.
/// The toolkit never names cells itself.
pub trait HexNotation {
    /// The name of an on-board cell.
    fn name(&self, h: Hex) -> String;
    /// The cell named `text`, or `None` if `text` names no cell (the grid
    /// checks that the result is on the board).
    fn parse(&self, text: &str) -> Option<Hex>;
    /// What a cell name looks like, for error messages (e.g. `"a column
    /// a-g then a row 1-7"`).
    fn expected(&self) -> String;
}

/// One full line of the board: the cells from one edge to the other in the
/// direction [`LINE_DIRS`]`[dir]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexLine<B: Bits> {
    /// The direction index `0..3` ([`LINE_DIRS`]).
    pub dir: usize,
    /// Cell indices in step order (from the edge where the step enters).
    pub cells: Vec<u8>,
    /// The same cells as a set.
    pub mask: B,
}

/// `k` consecutive cells of one line ([`HexGrid::windows`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexWindow<B: Bits> {
    /// The direction index `0..3` ([`LINE_DIRS`]).
    pub dir: usize,
    /// The index of the line in [`HexGrid::lines`].
    pub line: usize,
    /// The position of the first cell within the line's `cells`.
    pub start: usize,
    /// Cell indices in step order.
    pub cells: Vec<u8>,
    /// The same cells as a set.
    pub mask: B,
}

/// Marker for "no cell" in the `u8` step tables.
pub const NO_CELL: u8 = u8::MAX;

/// A hex-hex board of side `side` (`2..=7`), radius `side - 1`,
/// `3·side·(side−1) + 1` cells, in the bit set `B` (`u64` holds side ≤ 5,
/// `u128` side ≤ 7). Cells are indexed as the module doc says.
#[derive(Clone, Debug)]
pub struct HexGrid<B: Bits> {
    side: i32,
    radius: i32,
    /// Index → axial cell.
    cells: Vec<Hex>,
    /// `(q + R) * (2R + 1) + (r + R)` → index, or [`NO_CELL`].
    lookup: Vec<u8>,
    all: B,
    /// Orthogonal neighbour sets per cell.
    neighbours: Vec<B>,
    /// The `3 · (2·side − 1)` lines, direction 0 first; within a direction
    /// by the index of the first cell.
    lines: Vec<HexLine<B>>,
    /// `line_of[dir * cells + cell]` = the line through `cell` in `dir`.
    line_of: Vec<u8>,
}

impl<B: Bits> HexGrid<B> {
    /// The board of side `side`.
    ///
    /// # Errors
    /// A side outside `2..=7` or one whose cells do not fit `B`.
    pub fn new(side: usize) -> Result<HexGrid<B>, GameError> {
        if !(2..=7).contains(&side) {
            crate::bail!("hex board side {side} out of range: expected 2-7");
        }
        let n = 3 * side * (side - 1) + 1;
        if n > B::WIDTH as usize {
            crate::bail!(
                "hex board side {side} has {n} cells, more than the {}-bit set holds",
                B::WIDTH
            );
        }
        let side = side as i32;
        let radius = side - 1;
        let span = (2 * radius + 1) as usize;
        let mut cells = Vec::with_capacity(n);
        let mut lookup = vec![NO_CELL; span * span];
        for q in -radius..=radius {
            for r in -radius..=radius {
                let h = Hex::new(q, r);
                if h.norm() <= radius {
                    lookup[(q + radius) as usize * span + (r + radius) as usize] =
                        cells.len() as u8;
                    cells.push(h);
                }
            }
        }
        debug_assert_eq!(cells.len(), n);
        let mut all = B::ZERO;
        for i in 0..n {
            all |= B::bit(i as u32);
        }
        let mut g = HexGrid {
            side,
            radius,
            cells,
            lookup,
            all,
            neighbours: Vec::new(),
            lines: Vec::new(),
            line_of: vec![NO_CELL; 3 * n],
        };
        g.neighbours = g.leaper_masks(&ORTHO);
        for (dir, &step) in LINE_DIRS.iter().enumerate() {
            // A line starts at each cell whose predecessor is off the board;
            // cells are visited in index order, so lines come sorted by
            // their first cell.
            for start in 0..n {
                if g.step(start, step.neg()).is_some() {
                    continue;
                }
                let mut line = Vec::new();
                let mut mask = B::ZERO;
                let mut at = Some(start);
                while let Some(c) = at {
                    line.push(c as u8);
                    mask |= B::bit(c as u32);
                    g.line_of[dir * n + c] = g.lines.len() as u8;
                    at = g.step(c, step);
                }
                g.lines.push(HexLine {
                    dir,
                    cells: line,
                    mask,
                });
            }
        }
        Ok(g)
    }

    /// The side (cells along one edge).
    #[inline(always)]
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// The radius, `side - 1`.
    #[inline(always)]
    pub fn radius(&self) -> i32 {
        self.radius
    }

    /// The number of cells, `3·side·(side−1) + 1`.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false (a board has at least 7 cells); for clippy.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Every cell.
    #[inline(always)]
    pub fn all(&self) -> B {
        self.all
    }

    /// The index of the centre `(0, 0)`, `len() / 2`.
    #[inline(always)]
    pub fn centre(&self) -> usize {
        self.cells.len() / 2
    }

    /// Whether `h` is on the board.
    #[inline(always)]
    pub fn is_valid(&self, h: Hex) -> bool {
        h.norm() <= self.radius
    }

    /// The index of cell `h`, or `None` off the board.
    #[inline(always)]
    pub fn index(&self, h: Hex) -> Option<usize> {
        if !self.is_valid(h) {
            return None;
        }
        let span = (2 * self.radius + 1) as usize;
        let i = self.lookup[(h.q + self.radius) as usize * span + (h.r + self.radius) as usize];
        Some(i as usize)
    }

    /// The axial coordinates of cell `index` (`< len()`).
    #[inline(always)]
    pub fn hex(&self, index: usize) -> Hex {
        self.cells[index]
    }

    /// The cell one step `v` from `cell`, if on the board. `v` may be any
    /// vector (an orthogonal or diagonal step, a knight jump, a multiple).
    #[inline]
    pub fn step(&self, cell: usize, v: Hex) -> Option<usize> {
        self.index(self.cells[cell].add(v))
    }

    /// The step table for `vectors`: entry `cell * vectors.len() + k` is the
    /// cell `vectors[k]` away from `cell`, or [`NO_CELL`]. For hot loops
    /// that want no bounds arithmetic.
    pub fn step_table(&self, vectors: &[Hex]) -> Vec<u8> {
        let mut t = Vec::with_capacity(self.len() * vectors.len());
        for cell in 0..self.len() {
            for &v in vectors {
                t.push(self.step(cell, v).map_or(NO_CELL, |c| c as u8));
            }
        }
        t
    }

    /// Per cell, the set of cells one jump away by any of `vectors` (a
    /// leaper's targets: the knight's 12, a king's 6 + 6, …). Index by cell.
    pub fn leaper_masks(&self, vectors: &[Hex]) -> Vec<B> {
        (0..self.len())
            .map(|cell| {
                vectors
                    .iter()
                    .filter_map(|&v| self.step(cell, v))
                    .fold(B::ZERO, |m, c| m | B::bit(c as u32))
            })
            .collect()
    }

    /// The orthogonal neighbours of `cell` (2 to 6 cells).
    #[inline(always)]
    pub fn neighbours(&self, cell: usize) -> B {
        self.neighbours[cell]
    }

    /// The union of `masks[c]` over the members `c` of `set`: with
    /// [`HexGrid::leaper_masks`] the cells one jump from any member (the
    /// shift-free neighbour set; a hex board has no wrap-free shifts).
    #[inline]
    pub fn expand(set: B, masks: &[B]) -> B {
        set.iter().fold(B::ZERO, |m, c| m | masks[c as usize])
    }

    /// The orthogonal neighbours of any member of `set` (members included
    /// only if adjacent to another member).
    #[inline]
    pub fn neighbour_set(&self, set: B) -> B {
        Self::expand(set, &self.neighbours)
    }

    /// All `3 · (2·side − 1)` lines: the `2·side − 1` of direction 0, then
    /// direction 1, then 2; within a direction sorted by first cell. Lengths
    /// run `side … 2·side − 1 … side` in each direction.
    #[inline(always)]
    pub fn lines(&self) -> &[HexLine<B>] {
        &self.lines
    }

    /// The index (into [`HexGrid::lines`]) of the line through `cell` in
    /// direction `dir` (`0..3`).
    #[inline(always)]
    pub fn line_of(&self, dir: usize, cell: usize) -> usize {
        self.line_of[dir * self.len() + cell] as usize
    }

    /// Whether two distinct cells share a line, and in which direction.
    pub fn aligned(&self, a: usize, b: usize) -> Option<usize> {
        (a != b)
            .then(|| (0..3).find(|&d| self.line_of(d, a) == self.line_of(d, b)))
            .flatten()
    }

    /// Every `k` consecutive cells of every line (`k >= 1`) that contain no
    /// cell of `exclude` (Bagel's hole): direction by direction, line by
    /// line, start by start. Each window appears once (in step order).
    pub fn windows(&self, k: usize, exclude: B) -> Vec<HexWindow<B>> {
        let mut out = Vec::new();
        if k == 0 {
            return out;
        }
        for (li, line) in self.lines.iter().enumerate() {
            for start in 0..line.cells.len().saturating_sub(k - 1) {
                let cells = line.cells[start..start + k].to_vec();
                let mask = cells.iter().fold(B::ZERO, |m, &c| m | B::bit(c as u32));
                if (mask & exclude).is_zero() {
                    out.push(HexWindow {
                        dir: line.dir,
                        line: li,
                        start,
                        cells,
                        mask,
                    });
                }
            }
        }
        out
    }

    /// Per cell, the indices (into `windows`) of the windows that contain
    /// it, in increasing order.
    pub fn windows_by_cell(&self, windows: &[HexWindow<B>]) -> Vec<Vec<u16>> {
        let mut by = vec![Vec::new(); self.len()];
        for (w, win) in windows.iter().enumerate() {
            for &c in &win.cells {
                by[c as usize].push(w as u16);
            }
        }
        by
    }

    /// The name of `cell` in a game's notation.
    pub fn name(&self, cell: usize, notation: &impl HexNotation) -> String {
        notation.name(self.cells[cell])
    }

    /// The cell named `text` in a game's notation.
    ///
    /// # Errors
    /// `text` names no cell, or one off this board.
    pub fn parse_cell(&self, text: &str, notation: &impl HexNotation) -> Result<usize, GameError> {
        notation
            .parse(text)
            .and_then(|h| self.index(h))
            .ok_or_else(|| {
                GameError::new(format!(
                    "bad cell {text:?}: expected {}",
                    notation.expected()
                ))
            })
    }
}

/// Rays from every cell along each of a set of step vectors, for sliders:
/// `ray(cell, k)` holds every cell `vectors[k]`, `2·vectors[k]`, … away
/// from `cell` (excluded) up to the edge. Works for orthogonal and diagonal
/// steps alike (diagonal steps jump over the two cells they pass between).
#[derive(Clone, Debug)]
pub struct HexRays<B: Bits> {
    vectors: Vec<Hex>,
    /// `rays[cell * vectors.len() + k]`.
    rays: Vec<B>,
    /// Whether the ray of vector `k` runs to higher indices.
    ascending: Vec<bool>,
}

impl<B: Bits> HexRays<B> {
    /// The rays of `grid` along each of `vectors` (nonzero vectors).
    pub fn new(grid: &HexGrid<B>, vectors: &[Hex]) -> HexRays<B> {
        let mut rays = Vec::with_capacity(grid.len() * vectors.len());
        for cell in 0..grid.len() {
            for &v in vectors {
                let mut m = B::ZERO;
                let mut at = grid.step(cell, v);
                while let Some(c) = at {
                    m |= B::bit(c as u32);
                    at = grid.step(c, v);
                }
                rays.push(m);
            }
        }
        let ascending = vectors
            .iter()
            .map(|v| v.q > 0 || (v.q == 0 && v.r > 0))
            .collect();
        HexRays {
            vectors: vectors.to_vec(),
            rays,
            ascending,
        }
    }

    /// The vectors, in the order `k` indexes them.
    #[inline(always)]
    pub fn vectors(&self) -> &[Hex] {
        &self.vectors
    }

    /// Every cell from `cell` (excluded) to the edge along `vectors[k]`.
    #[inline(always)]
    pub fn ray(&self, cell: usize, k: usize) -> B {
        self.rays[cell * self.vectors.len() + k]
    }

    /// The nearest member of `occupied` on the ray, if any.
    #[inline(always)]
    pub fn first_blocker(&self, cell: usize, k: usize, occupied: B) -> Option<usize> {
        let hit = self.ray(cell, k) & occupied;
        if hit.is_zero() {
            None
        } else if self.ascending[k] {
            Some(hit.lowest() as usize)
        } else {
            Some(hit.highest() as usize)
        }
    }

    /// A slider's reach along `vectors[k]`: the ray up to and including the
    /// first member of `occupied` (the caller removes own pieces).
    #[inline(always)]
    pub fn slide(&self, cell: usize, k: usize, occupied: B) -> B {
        let ray = self.ray(cell, k);
        match self.first_blocker(cell, k, occupied) {
            None => ray,
            Some(b) => ray & !self.ray(b, k),
        }
    }

    /// The union of [`HexRays::slide`] over every vector.
    #[inline]
    pub fn slide_all(&self, cell: usize, occupied: B) -> B {
        (0..self.vectors.len()).fold(B::ZERO, |m, k| m | self.slide(cell, k, occupied))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition: cells `c` with `norm <= R`, counted by brute
    /// force over a square of coordinates.
    fn brute_cells(side: i32) -> Vec<Hex> {
        let r = side - 1;
        let mut v = Vec::new();
        for q in -r..=r {
            for rr in -r..=r {
                if q.abs() <= r && rr.abs() <= r && (q + rr).abs() <= r {
                    v.push(Hex::new(q, rr));
                }
            }
        }
        v
    }

    #[test]
    fn sizes_and_index_round_trip() {
        for side in 2..=7usize {
            let g = HexGrid::<u128>::new(side).unwrap();
            assert_eq!(g.len(), 3 * side * (side - 1) + 1);
            assert_eq!(g.hex(g.centre()), Hex::ZERO);
            assert_eq!(g.all().count() as usize, g.len());
            let brute = brute_cells(side as i32);
            assert_eq!(brute.len(), g.len());
            for (i, &h) in brute.iter().enumerate() {
                // brute force enumerates q-major, r ascending: the index order.
                assert_eq!(g.index(h), Some(i));
                assert_eq!(g.hex(i), h);
            }
            let r = side as i32 - 1;
            for q in -r - 2..=r + 2 {
                for rr in -r - 2..=r + 2 {
                    let h = Hex::new(q, rr);
                    assert_eq!(g.is_valid(h), brute.contains(&h));
                    assert_eq!(g.index(h).is_some(), brute.contains(&h));
                }
            }
        }
        assert_eq!(HexGrid::<u64>::new(4).unwrap().len(), 37);
        assert_eq!(HexGrid::<u64>::new(5).unwrap().len(), 61);
        assert_eq!(HexGrid::<u128>::new(7).unwrap().len(), 127);
        assert!(HexGrid::<u64>::new(6).is_err());
        assert!(HexGrid::<u128>::new(8).is_err());
        assert!(HexGrid::<u128>::new(1).is_err());
    }

    #[test]
    fn kings_colour_index_examples() {
        // KC-G3: D4 = (-3,0) = 27, G7 = (0,0) = 63, J7 = (3,0) = 99.
        let g = HexGrid::<u128>::new(7).unwrap();
        assert_eq!(g.index(Hex::new(-3, 0)), Some(27));
        assert_eq!(g.index(Hex::new(0, 0)), Some(63));
        assert_eq!(g.index(Hex::new(3, 0)), Some(99));
    }

    #[test]
    fn bagel_column_row_order_is_the_index_order() {
        // B-G2: (c, n) exists iff 1 <= n <= 7, 0 <= c <= 6, c-2 <= n <= c+4;
        // B-G6 lists them column by column, rows ascending. With
        // (q, r) = (c - 3, n - 1 - c) that is the index order.
        let g = HexGrid::<u64>::new(4).unwrap();
        let mut i = 0;
        for c in 0..=6 {
            for n in 1..=7 {
                if c - 2 <= n && n <= c + 4 {
                    assert_eq!(g.index(Hex::new(c - 3, n - 1 - c)), Some(i));
                    i += 1;
                }
            }
        }
        assert_eq!(i, 37);
        // d4 (c = 3, n = 4) is the centre.
        assert_eq!(g.index(Hex::new(0, 0)), Some(g.centre()));
    }

    #[test]
    fn neighbours_by_hand() {
        let g = HexGrid::<u64>::new(4).unwrap();
        let c = g.centre();
        assert_eq!(g.neighbours(c).count(), 6);
        // A corner has 3 neighbours, an edge cell 4.
        let corner = g.index(Hex::new(3, 0)).unwrap();
        assert_eq!(g.neighbours(corner).count(), 3);
        let edge = g.index(Hex::new(3, -1)).unwrap();
        assert_eq!(g.neighbours(edge).count(), 4);
        // Total orthogonal adjacencies of a side-n board: 3(3n^2 - 5n + 2)... check
        // by the edge count 9n^2 - 15n + 6 for n = 4: 144 - 60 + 6 = 90.
        let degree: u32 = (0..g.len()).map(|i| g.neighbours(i).count()).sum();
        assert_eq!(degree, 2 * 90);
        // Symmetric.
        for a in 0..g.len() {
            for b in g.neighbours(a).iter() {
                assert!(g.neighbours(b as usize).has(a as u32));
            }
        }
        // neighbour_set of the centre alone is its ring; of two cells the union.
        assert_eq!(g.neighbour_set(1 << c), g.neighbours(c));
        assert_eq!(
            g.neighbour_set((1 << c) | (1 << corner)),
            g.neighbours(c) | g.neighbours(corner)
        );
    }

    #[test]
    fn vector_sets_are_closed_under_rotation() {
        for set in [&ORTHO[..], &DIAG[..], &KNIGHT[..]] {
            for v in set {
                assert!(set.contains(&v.rotate60()));
                assert!(set.contains(&v.neg()));
                assert!(set.contains(&v.reflect()));
            }
        }
        for (i, v) in ORTHO.iter().enumerate() {
            assert_eq!(v.norm(), 1);
            assert_eq!(ORTHO[(i + 3) % 6], v.neg());
            assert_eq!(DIAG[i], ORTHO[i].add(ORTHO[(i + 1) % 6]));
            assert_eq!(DIAG[i].norm(), 2);
        }
        for (i, v) in KNIGHT.iter().enumerate() {
            assert_eq!(v.norm(), 3);
            assert_eq!(KNIGHT[(i + 6) % 12], v.neg());
        }
        let h = Hex::new(2, -3);
        let mut x = h;
        for _ in 0..6 {
            x = x.rotate60();
        }
        assert_eq!(x, h);
    }

    #[test]
    fn leapers_from_the_centre_of_the_big_board() {
        let g = HexGrid::<u128>::new(7).unwrap();
        let c = g.centre();
        assert_eq!(g.leaper_masks(&KNIGHT)[c].count(), 12);
        assert_eq!(g.leaper_masks(&DIAG)[c].count(), 6);
        // From a corner (6,0): knights (-1,-2)->(5,-2) ok, (-2,-1)->(4,-1),
        // (-3,1)->(3,1), (-3,2)->(3,2), (-2,3)->(4,3)? s = -7 off.
        let corner = g.index(Hex::new(6, 0)).unwrap();
        let k = g.leaper_masks(&KNIGHT)[corner];
        let want: Vec<Hex> = KNIGHT
            .iter()
            .map(|v| Hex::new(6, 0).add(*v))
            .filter(|h| h.norm() <= 6)
            .collect();
        assert_eq!(k.count() as usize, want.len());
        assert_eq!(want.len(), 4);
        let t = g.step_table(&KNIGHT);
        for (i, v) in KNIGHT.iter().enumerate() {
            let e = t[corner * 12 + i];
            assert_eq!(e == NO_CELL, !g.is_valid(Hex::new(6, 0).add(*v)), "{v}");
        }
    }

    #[test]
    fn lines_per_direction() {
        for side in 2..=7usize {
            let g = HexGrid::<u128>::new(side).unwrap();
            let n = 2 * side - 1;
            assert_eq!(g.lines().len(), 3 * n);
            for dir in 0..3 {
                let mut lens: Vec<usize> = g
                    .lines()
                    .iter()
                    .filter(|l| l.dir == dir)
                    .map(|l| l.cells.len())
                    .collect();
                let mut want: Vec<usize> = (0..n).map(|i| side + i.min(n - 1 - i)).collect();
                lens.sort();
                want.sort();
                assert_eq!(lens, want, "side {side} dir {dir}");
                // Each direction partitions the board.
                let union = g
                    .lines()
                    .iter()
                    .filter(|l| l.dir == dir)
                    .fold(0u128, |m, l| {
                        assert_eq!(m & l.mask, 0);
                        m | l.mask
                    });
                assert_eq!(union, g.all());
            }
            for (li, l) in g.lines().iter().enumerate() {
                for w in l.cells.windows(2) {
                    assert_eq!(g.step(w[0] as usize, LINE_DIRS[l.dir]), Some(w[1] as usize));
                }
                for &c in &l.cells {
                    assert_eq!(g.line_of(l.dir, c as usize), li);
                }
            }
        }
    }

    #[test]
    fn two_cells_share_at_most_one_line() {
        let g = HexGrid::<u64>::new(5).unwrap();
        for a in 0..g.len() {
            for b in 0..g.len() {
                let shared = (0..3)
                    .filter(|&d| a != b && g.line_of(d, a) == g.line_of(d, b))
                    .count();
                assert!(shared <= 1);
                assert_eq!(g.aligned(a, b).is_some(), shared == 1);
            }
        }
    }

    #[test]
    fn window_counts_match_the_bagel_dossier() {
        // B-G5 / B-V1: with the centre excluded, side 4 has 60 3-windows and
        // 36 4-windows; side 5 has 120 3-windows and 90 4-windows.
        for (side, k, want) in [
            (4usize, 3usize, 60usize),
            (4, 4, 36),
            (5, 3, 120),
            (5, 4, 90),
        ] {
            let g = HexGrid::<u64>::new(side).unwrap();
            let hole = 1u64 << g.centre();
            let w = g.windows(k, hole);
            assert_eq!(w.len(), want, "side {side} k {k}");
            for win in &w {
                assert_eq!(win.mask.count() as usize, k);
                assert_eq!(win.mask & hole, 0);
                assert!(win.mask & !g.lines()[win.line].mask == 0);
            }
            let by = g.windows_by_cell(&w);
            let total: usize = by.iter().map(Vec::len).sum();
            assert_eq!(total, k * want);
            assert!(by[g.centre()].is_empty());
        }
        // Without exclusions: a line of length L has L - k + 1 windows.
        let g = HexGrid::<u128>::new(7).unwrap();
        let want: usize = g.lines().iter().map(|l| l.cells.len() - 2).sum();
        assert_eq!(g.windows(3, 0).len(), want);
        assert!(g.windows(0, 0).is_empty());
        assert!(g.windows(14, 0).is_empty());
    }

    #[test]
    fn rays_and_slides_agree_with_walking() {
        let g = HexGrid::<u128>::new(7).unwrap();
        let vecs: Vec<Hex> = ORTHO.iter().chain(DIAG.iter()).copied().collect();
        let rays = HexRays::new(&g, &vecs);
        // Centre: orthogonal rays have 6 cells, diagonal ones 3.
        for k in 0..6 {
            assert_eq!(rays.ray(g.centre(), k).count(), 6);
            assert_eq!(rays.ray(g.centre(), k + 6).count(), 3);
        }
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let occ = ((next() as u128) << 64 | next() as u128)
                & ((next() as u128) << 64 | next() as u128)
                & g.all();
            for cell in 0..g.len() {
                for (k, &v) in vecs.iter().enumerate() {
                    let mut want = 0u128;
                    let mut blocker = None;
                    let mut at = g.step(cell, v);
                    while let Some(c) = at {
                        want |= 1 << c;
                        if occ >> c & 1 == 1 {
                            blocker = Some(c);
                            break;
                        }
                        at = g.step(c, v);
                    }
                    assert_eq!(rays.slide(cell, k, occ), want);
                    assert_eq!(rays.first_blocker(cell, k, occ), blocker);
                }
            }
        }
    }

    struct Plain;
    impl HexNotation for Plain {
        fn name(&self, h: Hex) -> String {
            format!("{},{}", h.q, h.r)
        }
        fn parse(&self, text: &str) -> Option<Hex> {
            let (a, b) = text.split_once(',')?;
            Some(Hex::new(a.parse().ok()?, b.parse().ok()?))
        }
        fn expected(&self) -> String {
            "q,r".into()
        }
    }

    #[test]
    fn notation_hook() {
        let g = HexGrid::<u64>::new(3).unwrap();
        for i in 0..g.len() {
            assert_eq!(g.parse_cell(&g.name(i, &Plain), &Plain).unwrap(), i);
        }
        let e = g.parse_cell("3,0", &Plain).unwrap_err();
        assert!(e.to_string().contains("expected q,r"), "{e}");
        assert!(g.parse_cell("x", &Plain).is_err());
    }
}
