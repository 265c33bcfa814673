//! The eight king-move directions on a [`SquareGrid`], one-square steps in
//! each of them, and precomputed rays for ray casting (the "classical"
//! sliding-piece approach: a ray from every square in every direction).

use super::bits::Bits;
use super::grid::SquareGrid;

/// One of the eight king-move directions. `N` is towards the last rank, `E`
/// towards the last file (the dossiers' §0.1 convention, `a1` bottom-left).
///
/// The discriminants (`N = 0`, then clockwise) index per-direction tables;
/// `d.index() ^ 4` is the opposite direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// `(file +0, rank +1)`.
    N = 0,
    /// `(+1, +1)`.
    NE = 1,
    /// `(+1, +0)`.
    E = 2,
    /// `(+1, -1)`.
    SE = 3,
    /// `(+0, -1)`.
    S = 4,
    /// `(-1, -1)`.
    SW = 5,
    /// `(-1, +0)`.
    W = 6,
    /// `(-1, +1)`.
    NW = 7,
}

impl Dir {
    /// All eight, in index order (clockwise from `N`).
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// The index `0..8` (`N` = 0, clockwise).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction of index `i & 7`.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Dir {
        Dir::ALL[i & 7]
    }

    /// The opposite direction.
    #[inline(always)]
    pub const fn opposite(self) -> Dir {
        Dir::ALL[self as usize ^ 4]
    }

    /// The step as `(file delta, rank delta)`, each in `-1..=1`.
    #[inline(always)]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, 1),
            Dir::NE => (1, 1),
            Dir::E => (1, 0),
            Dir::SE => (1, -1),
            Dir::S => (0, -1),
            Dir::SW => (-1, -1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, 1),
        }
    }

    /// The direction of the step `(file delta, rank delta)` (each in
    /// `-1..=1`, not both 0), if it is one.
    pub const fn from_delta(dx: i32, dy: i32) -> Option<Dir> {
        Some(match (dx, dy) {
            (0, 1) => Dir::N,
            (1, 1) => Dir::NE,
            (1, 0) => Dir::E,
            (1, -1) => Dir::SE,
            (0, -1) => Dir::S,
            (-1, -1) => Dir::SW,
            (-1, 0) => Dir::W,
            (-1, 1) => Dir::NW,
            _ => return None,
        })
    }

    /// The name, `N` … `NW`.
    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::NE => "NE",
            Dir::E => "E",
            Dir::SE => "SE",
            Dir::S => "S",
            Dir::SW => "SW",
            Dir::W => "W",
            Dir::NW => "NW",
        }
    }
}

impl<B: Bits> SquareGrid<B> {
    /// Each member moved one square in direction `d`; squares that would
    /// leave the board fall off (no wrap-around between files). With a
    /// constant `d` the `match` folds away.
    #[inline(always)]
    pub fn step(&self, b: B, d: Dir) -> B {
        let w = self.w;
        match d {
            Dir::N => (b << w) & self.full,
            Dir::S => b >> w,
            Dir::E => ((b & !self.last_file) << 1) & self.full,
            Dir::W => (b & !self.first_file) >> 1,
            Dir::NE => ((b & !self.last_file) << (w + 1)) & self.full,
            Dir::NW => ((b & !self.first_file) << (w - 1)) & self.full,
            Dir::SE => (b & !self.last_file) >> (w - 1),
            Dir::SW => (b & !self.first_file) >> (w + 1),
        }
    }

    /// The squares whose neighbour in direction `d` is off the board (the
    /// board's edge facing `d`; two edges for a diagonal).
    pub fn edge(&self, d: Dir) -> B {
        self.full & !self.step(self.full, d.opposite())
    }
}

/// Rays from every square in every direction of a `w × h` [`SquareGrid`]:
/// `ray(d, sq)` is every square from `sq` (excluded) to the board's edge in
/// direction `d`. About `8 · w · h` bit sets (10 KiB for 9×9 in `u128`).
#[derive(Clone, Debug)]
pub struct Rays<B: Bits> {
    w: u32,
    squares: u32,
    /// `rays[d * squares + sq]`.
    rays: Vec<B>,
    /// Index offset of one step in each direction.
    offset: [i32; 8],
}

impl<B: Bits> Rays<B> {
    /// The rays of `grid`.
    pub fn new(grid: &SquareGrid<B>) -> Rays<B> {
        let (w, h) = (grid.w as i32, grid.h as i32);
        let squares = grid.w * grid.h;
        let mut rays = vec![B::ZERO; 8 * squares as usize];
        let mut offset = [0; 8];
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            offset[d.index()] = dy * w + dx;
            for sq in 0..squares as i32 {
                let (mut x, mut y) = (sq % w + dx, sq / w + dy);
                let mut r = B::ZERO;
                while (0..w).contains(&x) && (0..h).contains(&y) {
                    r |= B::bit((y * w + x) as u32);
                    x += dx;
                    y += dy;
                }
                rays[d.index() * squares as usize + sq as usize] = r;
            }
        }
        Rays {
            w: grid.w,
            squares,
            rays,
            offset,
        }
    }

    /// Every square from `sq` (excluded) to the edge in direction `d`.
    #[inline(always)]
    pub fn ray(&self, d: Dir, sq: u32) -> B {
        self.rays[d.index() * self.squares as usize + sq as usize]
    }

    /// The index offset of one step in direction `d` (`w` for `N`, `-1` for
    /// `W`, …).
    #[inline(always)]
    pub fn offset(&self, d: Dir) -> i32 {
        self.offset[d.index()]
    }

    /// The number of squares from `sq` to the edge in direction `d`.
    #[inline(always)]
    pub fn len(&self, d: Dir, sq: u32) -> u32 {
        self.ray(d, sq).count()
    }

    /// The square `k >= 1` steps from `sq` in direction `d`, if on the board.
    #[inline(always)]
    pub fn target(&self, d: Dir, sq: u32, k: u32) -> Option<u32> {
        (k >= 1 && k <= self.len(d, sq)).then(|| (sq as i32 + k as i32 * self.offset(d)) as u32)
    }

    /// The `k >= 1` squares `sq + d, …, sq + k·d` (the path of a `k`-step
    /// move), or `None` if they are not all on the board.
    #[inline(always)]
    pub fn segment(&self, d: Dir, sq: u32, k: u32) -> Option<B> {
        let t = self.target(d, sq, k)?;
        Some(self.ray(d, sq) ^ self.ray(d, t))
    }

    /// The squares strictly between `from` and `to` plus `to` itself, if
    /// the two are on one rank, file or diagonal (and differ), with the
    /// direction from `from` to `to`.
    pub fn path(&self, from: u32, to: u32) -> Option<(Dir, B)> {
        let w = self.w as i32;
        let (fx, fy) = (from as i32 % w, from as i32 / w);
        let (tx, ty) = (to as i32 % w, to as i32 / w);
        let (dx, dy) = (tx - fx, ty - fy);
        if (dx, dy) == (0, 0) || (dx != 0 && dy != 0 && dx.abs() != dy.abs()) {
            return None;
        }
        let d = Dir::from_delta(dx.signum(), dy.signum())?;
        Some((d, self.ray(d, from) ^ self.ray(d, to)))
    }

    /// The nearest member of `set` on the ray from `sq` in direction `d`
    /// (the first square a ray cast from `sq` hits), if any.
    #[inline(always)]
    pub fn nearest(&self, d: Dir, sq: u32, set: B) -> Option<u32> {
        let hits = self.ray(d, sq) & set;
        if hits.is_zero() {
            None
        } else if self.offset(d) > 0 {
            Some(hits.lowest())
        } else {
            Some(hits.highest())
        }
    }

    /// A ray cast: the squares from `sq` (excluded) in direction `d` up to
    /// and including the first member of `blockers`, or to the edge.
    #[inline(always)]
    pub fn cast(&self, d: Dir, sq: u32, blockers: B) -> B {
        let r = self.ray(d, sq);
        match self.nearest(d, sq, blockers) {
            Some(b) => r ^ self.ray(d, b),
            None => r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit index of a square name on a `w`-wide board.
    fn sq(name: &str, w: u32) -> u32 {
        let b = name.as_bytes();
        (name[1..].parse::<u32>().unwrap() - 1) * w + (b[0] - b'a') as u32
    }

    fn set(names: &[&str], w: u32) -> u128 {
        names.iter().fold(0, |a, n| a | (1u128 << sq(n, w)))
    }

    #[test]
    fn steps_agree_with_shift_and_do_not_wrap() {
        let g: SquareGrid<u128> = SquareGrid::new(9, 9);
        let all = g.full;
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            assert_eq!(g.step(all, d), g.shift(all, dy, dx), "{}", d.name());
            assert_eq!(d.opposite().opposite(), d);
            assert_eq!(Dir::from_delta(dx, dy), Some(d));
            assert_eq!(Dir::from_index(d.index()), d);
        }
        assert_eq!(g.step(set(&["i5"], 9), Dir::NE), 0);
        assert_eq!(g.step(set(&["a5"], 9), Dir::SW), 0);
        assert_eq!(g.step(set(&["a5"], 9), Dir::NW), 0);
        assert_eq!(g.step(set(&["e5"], 9), Dir::SE), set(&["f4"], 9));
        assert_eq!(g.edge(Dir::N), g.last_rank);
        assert_eq!(g.edge(Dir::SW), g.first_rank | g.first_file);
        let g8: SquareGrid<u64> = SquareGrid::new(8, 8);
        assert_eq!(g8.step(1 << 63, Dir::NE), 0);
        assert_eq!(g8.step(1 << 7, Dir::E), 0);
        assert_eq!(g8.edge(Dir::NE), g8.last_rank | g8.last_file);
    }

    #[test]
    fn rays_segments_and_casts() {
        let g: SquareGrid<u128> = SquareGrid::new(9, 9);
        let r = Rays::new(&g);
        assert_eq!(r.ray(Dir::NE, sq("a1", 9)).count(), 8);
        assert_eq!(r.ray(Dir::SW, sq("a1", 9)), 0);
        assert_eq!(r.ray(Dir::W, sq("d4", 9)), set(&["a4", "b4", "c4"], 9));
        assert_eq!(r.len(Dir::S, sq("d4", 9)), 3);
        assert_eq!(r.target(Dir::S, sq("d4", 9), 3), Some(sq("d1", 9)));
        assert_eq!(r.target(Dir::S, sq("d4", 9), 4), None);
        assert_eq!(
            r.segment(Dir::NW, sq("e5", 9), 2),
            Some(set(&["d6", "c7"], 9))
        );
        assert_eq!(r.segment(Dir::NW, sq("e5", 9), 5), None);
        assert_eq!(
            r.path(sq("c3", 9), sq("f6", 9)),
            Some((Dir::NE, set(&["d4", "e5", "f6"], 9)))
        );
        assert_eq!(r.path(sq("c3", 9), sq("e4", 9)), None);
        assert_eq!(r.path(sq("c3", 9), sq("c3", 9)), None);
        let blockers = set(&["b2", "g7"], 9);
        assert_eq!(r.nearest(Dir::SW, sq("e5", 9), blockers), Some(sq("b2", 9)));
        assert_eq!(r.nearest(Dir::NE, sq("e5", 9), blockers), Some(sq("g7", 9)));
        assert_eq!(
            r.cast(Dir::SW, sq("e5", 9), blockers),
            set(&["d4", "c3", "b2"], 9)
        );
        assert_eq!(
            r.cast(Dir::N, sq("e5", 9), blockers),
            set(&["e6", "e7", "e8", "e9"], 9)
        );
    }
}
