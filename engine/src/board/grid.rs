//! Square grids in a bit set: square `(rank r, file c)` is bit `r * w + c`,
//! rank 0 at the bottom, file 0 on the left.

use super::bits::Bits;

/// A `w × h` square grid over the bit set `B` (`w * h <= B::WIDTH`).
/// Every shift masks the wrap-around, so results stay on the board.
#[derive(Clone, Copy, Debug)]
pub struct SquareGrid<B: Bits> {
    /// Files (columns).
    pub w: u32,
    /// Ranks (rows).
    pub h: u32,
    /// All squares of the board.
    pub full: B,
    /// File 0 (`a`).
    pub first_file: B,
    /// File `w - 1`.
    pub last_file: B,
    /// Rank 0 (rank `1`).
    pub first_rank: B,
    /// Rank `h - 1`.
    pub last_rank: B,
}

impl<B: Bits> SquareGrid<B> {
    /// The grid of `w` files and `h` ranks.
    ///
    /// # Panics
    /// If the board does not fit the bit set (a programming error).
    pub fn new(w: u32, h: u32) -> Self {
        assert!(
            w >= 1 && h >= 1 && w * h <= B::WIDTH,
            "{w}x{h} does not fit"
        );
        let mut full = B::ZERO;
        let mut first_file = B::ZERO;
        let mut last_file = B::ZERO;
        for r in 0..h {
            for c in 0..w {
                let b = B::bit(r * w + c);
                full |= b;
                if c == 0 {
                    first_file |= b;
                }
                if c == w - 1 {
                    last_file |= b;
                }
            }
        }
        let mut first_rank = B::ZERO;
        for c in 0..w {
            first_rank |= B::bit(c);
        }
        let last_rank = first_rank << ((h - 1) * w);
        SquareGrid {
            w,
            h,
            full,
            first_file,
            last_file,
            first_rank,
            last_rank,
        }
    }

    /// The bit index of `(rank, file)`.
    #[inline(always)]
    pub fn index(&self, rank: u32, file: u32) -> u32 {
        rank * self.w + file
    }

    /// The set of file `c`.
    pub fn file(&self, c: u32) -> B {
        self.first_file << c
    }

    /// The set of rank `r`.
    pub fn rank(&self, r: u32) -> B {
        self.first_rank << (r * self.w)
    }

    /// Each member moved one rank up (towards rank `h - 1`).
    #[inline(always)]
    pub fn north(&self, b: B) -> B {
        (b << self.w) & self.full
    }
    /// Each member moved one rank down.
    #[inline(always)]
    pub fn south(&self, b: B) -> B {
        b >> self.w
    }
    /// Each member moved one file right; the last file falls off.
    #[inline(always)]
    pub fn east(&self, b: B) -> B {
        ((b & !self.last_file) << 1) & self.full
    }
    /// Each member moved one file left; the first file falls off.
    #[inline(always)]
    pub fn west(&self, b: B) -> B {
        (b & !self.first_file) >> 1
    }

    /// Each member moved by `(dr, dc)` with `|dc| < w`; squares that would
    /// leave the board fall off.
    #[inline]
    pub fn shift(&self, b: B, dr: i32, dc: i32) -> B {
        // Drop the files that would wrap, then shift by the linear offset.
        let mut m = b;
        if dc > 0 {
            for k in 0..dc as u32 {
                m &= !(self.last_file >> k);
            }
        } else {
            for k in 0..(-dc) as u32 {
                m &= !(self.first_file << k);
            }
        }
        let off = dr * self.w as i32 + dc;
        let moved = if off >= 0 {
            m << off as u32
        } else {
            m >> (-off) as u32
        };
        moved & self.full
    }

    /// The orthogonal neighbours of the set (not including the set).
    #[inline(always)]
    pub fn neighbours4(&self, b: B) -> B {
        (self.north(b) | self.south(b) | self.east(b) | self.west(b)) & !b
    }

    /// Every square of `within` orthogonally connected to `seed ∩ within`.
    #[inline]
    pub fn flood4(&self, seed: B, within: B) -> B {
        let mut f = seed & within;
        loop {
            let g = (f | self.north(f) | self.south(f) | self.east(f) | self.west(f)) & within;
            if g == f {
                return f;
            }
            f = g;
        }
    }

    /// Whether every rank holds a member of `b` (a cheap necessary condition
    /// for a path from the first to the last rank).
    #[inline]
    pub fn spans_ranks(&self, b: B) -> bool {
        (0..self.h).all(|r| !((b >> (r * self.w)) & self.first_rank).is_zero())
    }

    /// Whether every file holds a member of `b` (a cheap necessary condition
    /// for a path from the first to the last file).
    #[inline]
    pub fn spans_files(&self, b: B) -> bool {
        let mut acc = B::ZERO;
        for r in 0..self.h {
            acc |= (b >> (r * self.w)) & self.first_rank;
        }
        acc == self.first_rank
    }

    /// Whether an orthogonal path inside `usable` joins a square of `from`
    /// to a square of `to`.
    #[inline]
    pub fn connects4(&self, usable: B, from: B, to: B) -> bool {
        let target = to & usable;
        if target.is_zero() {
            return false;
        }
        let mut f = from & usable;
        while !f.is_zero() {
            if !(f & target).is_zero() {
                return true;
            }
            let g = (f | self.north(f) | self.south(f) | self.east(f) | self.west(f)) & usable;
            if g == f {
                return false;
            }
            f = g;
        }
        false
    }

    /// The fewest `one` squares on an orthogonal path from a square of
    /// `from` to a square of `to` that uses only `zero` squares (cost 0) and
    /// `one` squares (cost 1); `None` if there is no such path. `zero` and
    /// `one` must be disjoint. This is a 0-1 BFS done a cost level at a time
    /// on whole bit sets.
    pub fn zero_one_distance(&self, zero: B, one: B, from: B, to: B) -> Option<u32> {
        // reached = squares reachable with cost <= k.
        let mut reached = self.flood4(from & zero, zero);
        let mut k = 0;
        loop {
            if !(reached & to).is_zero() {
                return Some(k);
            }
            // Step into cost-1 squares next to the region, or on the start edge.
            let step = (self.neighbours4(reached) | from) & one & !reached;
            if step.is_zero() {
                return None;
            }
            k += 1;
            let grown = reached | step;
            reached = self.flood4(grown | (self.neighbours4(grown) & zero), zero | grown);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> u32 {
        let b = name.as_bytes();
        (b[1] - b'1') as u32 * 9 + (b[0] - b'a') as u32
    }

    #[test]
    fn shifts_do_not_wrap() {
        let g: SquareGrid<u128> = SquareGrid::new(9, 9);
        let i9 = 1u128 << sq("i9");
        assert_eq!(g.east(i9), 0);
        assert_eq!(g.north(i9), 0);
        assert_eq!(g.west(i9), 1u128 << sq("h9"));
        assert_eq!(g.south(1u128 << sq("a1")), 0);
        assert_eq!(g.west(1u128 << sq("a5")), 0);
        assert_eq!(g.shift(1u128 << sq("e5"), 1, -1), 1u128 << sq("d6"));
        assert_eq!(g.shift(1u128 << sq("a5"), 1, -1), 0);
        assert_eq!(g.shift(1u128 << sq("h5"), 0, 2), 0);
        assert_eq!(g.full.count_ones(), 81);
        assert_eq!(g.rank(8), g.last_rank);
        assert_eq!(g.file(8), g.last_file);
    }

    #[test]
    fn connection_and_distance() {
        let g: SquareGrid<u64> = SquareGrid::new(5, 5);
        // A column of usable squares on file c joins rank 1 to rank 5.
        let col = g.file(2);
        assert!(g.connects4(col, g.first_rank, g.last_rank));
        assert!(g.spans_ranks(col) && !g.spans_files(col));
        assert!(g.spans_files(g.rank(3)) && !g.spans_ranks(g.rank(3)));
        assert!(!g.spans_ranks(col & !(1 << g.index(4, 2))));
        assert!(!g.connects4(col & !(1 << g.index(2, 2)), g.first_rank, g.last_rank));
        // Diagonal contact does not connect.
        let diag: u64 = (0..5).map(|i| 1u64 << g.index(i, i)).fold(0, |a, b| a | b);
        assert!(!g.connects4(diag, g.first_rank, g.last_rank));
        // Distance: nothing own, everything empty costs 1 each: 5 squares.
        assert_eq!(
            g.zero_one_distance(0, g.full, g.first_rank, g.last_rank),
            Some(5)
        );
        // Own stones on ranks 1-3 of file c: 2 more needed.
        let own = (0..3).map(|r| 1u64 << g.index(r, 2)).fold(0, |a, b| a | b);
        assert_eq!(
            g.zero_one_distance(own, g.full & !own, g.first_rank, g.last_rank),
            Some(2)
        );
        // A wall of impassable squares across rank 3: no path.
        let wall = g.rank(2);
        assert_eq!(
            g.zero_one_distance(0, g.full & !wall, g.first_rank, g.last_rank),
            None
        );
        // A detour through own stones is free: own on a snake, costs 0.
        let snake = g.file(0) | g.rank(4);
        assert_eq!(
            g.zero_one_distance(snake, g.full & !snake, g.first_rank, g.last_rank),
            Some(0)
        );
    }
}
