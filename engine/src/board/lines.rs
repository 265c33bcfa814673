//! Point-and-line boards: a square grid of points joined by a chosen set of
//! *links*, straight segments between neighbouring points in one of the
//! eight directions (Alquerque-family boards, Andalusia's modified quadruple
//! Alquerque board, Xiangqi-like palaces).
//!
//! A piece that moves "along the lines" follows links; a multi-step move in
//! one direction follows a *line*, a maximal chain of links in that
//! direction. [`LineGraph`] precomputes, for every point and direction, the
//! ray along existing links only (empty where no link leaves the point that
//! way), the lines of the board, and the direction from one point to
//! another along a common line.

use super::bits::Bits;
use super::grid::SquareGrid;
use super::rays::Dir;

/// A `w × h` grid of points (point `(x, y)` is bit `y · w + x`, `a1` = bit
/// 0) with a set of links between neighbouring points, and the rays along
/// them.
///
/// Links are undirected: a link from `p` in direction `d` is the link from
/// `p + d` in the opposite direction.
#[derive(Clone, Debug)]
pub struct LineGraph<B: Bits> {
    grid: SquareGrid<B>,
    points: u32,
    /// Per direction: the points with a link leaving that way.
    src: [B; 8],
    /// `rays[d * points + sq]`: the points reached from `sq` by following
    /// links in direction `d` to the end of the line (`sq` excluded).
    rays: Vec<B>,
    /// `neighbours[sq]`: the points one link away.
    neighbours: Vec<B>,
    /// `dir_to[from * points + to]`: the direction index from `from` to
    /// `to` along a common line, or 8 if they share none.
    dir_to: Vec<u8>,
    /// The lines: maximal chains of at least two points joined by links in
    /// one direction (each listed once).
    lines: Vec<B>,
    /// `through[sq]`: every point on a line through `sq`, `sq` excluded.
    through: Vec<B>,
}

impl<B: Bits> LineGraph<B> {
    /// The graph on a `w × h` grid whose links are given by `link(x, y, d)`:
    /// whether a link leaves point `(x, y)` in direction `d`. The predicate
    /// is asked only where the neighbour `(x, y) + d` is on the board.
    ///
    /// # Panics
    /// If the board does not fit `B`, or `link` is not symmetric (a link
    /// from `p` towards `q` without the link from `q` back to `p`): both are
    /// programming errors in the caller's fixed geometry.
    pub fn new(w: u32, h: u32, link: impl Fn(u32, u32, Dir) -> bool) -> LineGraph<B> {
        let grid = SquareGrid::<B>::new(w, h);
        let points = w * h;
        let on = |x: i32, y: i32| (0..w as i32).contains(&x) && (0..h as i32).contains(&y);
        let linked = |x: i32, y: i32, d: Dir| {
            let (dx, dy) = d.delta();
            on(x, y) && on(x + dx, y + dy) && link(x as u32, y as u32, d)
        };
        let mut src = [B::ZERO; 8];
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                for d in Dir::ALL {
                    if linked(x, y, d) {
                        let (dx, dy) = d.delta();
                        assert!(
                            linked(x + dx, y + dy, d.opposite()),
                            "link from ({x},{y}) towards {} has no way back",
                            d.name()
                        );
                        src[d.index()] |= B::bit(y as u32 * w + x as u32);
                    }
                }
            }
        }
        let n = points as usize;
        let mut rays = vec![B::ZERO; 8 * n];
        let mut neighbours = vec![B::ZERO; n];
        let mut dir_to = vec![8u8; n * n];
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            for sq in 0..points {
                let (mut x, mut y) = ((sq % w) as i32, (sq / w) as i32);
                let mut r = B::ZERO;
                while linked(x, y, d) {
                    x += dx;
                    y += dy;
                    let t = y as u32 * w + x as u32;
                    if r.is_zero() {
                        neighbours[sq as usize] |= B::bit(t);
                    }
                    r |= B::bit(t);
                    dir_to[sq as usize * n + t as usize] = d.index() as u8;
                }
                rays[d.index() * n + sq as usize] = r;
            }
        }
        // A line starts at a point with a link in d but none in -d; the
        // four directions N, NE, E, SE list each line once.
        let mut lines = Vec::new();
        for d in [Dir::N, Dir::NE, Dir::E, Dir::SE] {
            let starts = src[d.index()] & !src[d.opposite().index()];
            for sq in starts.iter() {
                lines.push(rays[d.index() * n + sq as usize] | B::bit(sq));
            }
        }
        let through = (0..points)
            .map(|sq| {
                let mut t = B::ZERO;
                for d in Dir::ALL {
                    t |= rays[d.index() * n + sq as usize];
                }
                t
            })
            .collect();
        LineGraph {
            grid,
            points,
            src,
            rays,
            neighbours,
            dir_to,
            lines,
            through,
        }
    }

    /// The underlying square grid (masks, unmasked shifts).
    pub fn grid(&self) -> &SquareGrid<B> {
        &self.grid
    }

    /// Number of points, `w · h`.
    pub fn points(&self) -> u32 {
        self.points
    }

    /// Whether a link leaves `sq` in direction `d`.
    #[inline(always)]
    pub fn has_link(&self, sq: u32, d: Dir) -> bool {
        self.src[d.index()].has(sq)
    }

    /// The points with a link leaving in direction `d`.
    #[inline(always)]
    pub fn link_sources(&self, d: Dir) -> B {
        self.src[d.index()]
    }

    /// Each member of `b` moved one link in direction `d`; members without
    /// a link that way drop out.
    #[inline(always)]
    pub fn step(&self, b: B, d: Dir) -> B {
        self.grid.step(b & self.src[d.index()], d)
    }

    /// The point one link from `sq` in direction `d`, if there is a link.
    #[inline(always)]
    pub fn neighbour(&self, sq: u32, d: Dir) -> Option<u32> {
        let r = self.ray(d, sq);
        if r.is_zero() {
            None
        } else {
            Some((sq as i32 + d.delta().1 * self.grid.w as i32 + d.delta().0) as u32)
        }
    }

    /// The points one link from `sq`.
    #[inline(always)]
    pub fn neighbours(&self, sq: u32) -> B {
        self.neighbours[sq as usize]
    }

    /// The points from `sq` (excluded) along links in direction `d` to the
    /// end of the line; empty if no link leaves `sq` that way.
    #[inline(always)]
    pub fn ray(&self, d: Dir, sq: u32) -> B {
        self.rays[d.index() * self.points as usize + sq as usize]
    }

    /// The nearest member of `set` on the ray from `sq` in direction `d`.
    #[inline(always)]
    pub fn nearest(&self, d: Dir, sq: u32, set: B) -> Option<u32> {
        let hits = self.ray(d, sq) & set;
        if hits.is_zero() {
            None
        } else if Self::positive(d) {
            Some(hits.lowest())
        } else {
            Some(hits.highest())
        }
    }

    /// Whether direction `d` goes to higher bit indices (N, NE, E, NW on a
    /// grid of width ≥ 2).
    #[inline(always)]
    pub const fn positive(d: Dir) -> bool {
        matches!(d, Dir::N | Dir::NE | Dir::E | Dir::NW)
    }

    /// A ray cast along links: the points from `sq` (excluded) in direction
    /// `d` up to and including the first member of `blockers`, or to the
    /// end of the line.
    #[inline(always)]
    pub fn cast(&self, d: Dir, sq: u32, blockers: B) -> B {
        let r = self.ray(d, sq);
        match self.nearest(d, sq, blockers) {
            Some(b) => r ^ self.ray(d, b),
            None => r,
        }
    }

    /// The direction from `from` to `to` along a common line, if they
    /// share one (and differ).
    #[inline(always)]
    pub fn dir_between(&self, from: u32, to: u32) -> Option<Dir> {
        let i = self.dir_to[from as usize * self.points as usize + to as usize];
        (i < 8).then(|| Dir::from_index(i as usize))
    }

    /// The points strictly between `a` and `b` on their common line; empty
    /// if they share none (or are neighbours).
    #[inline(always)]
    pub fn between(&self, a: u32, b: u32) -> B {
        match self.dir_between(a, b) {
            Some(d) => self.ray(d, a) ^ self.ray(d, b) ^ B::bit(b),
            None => B::ZERO,
        }
    }

    /// The lines of the board: maximal chains of two or more points joined
    /// by links in one direction, each listed once.
    pub fn lines(&self) -> &[B] {
        &self.lines
    }

    /// Every point on some line through `sq`, `sq` excluded.
    #[inline(always)]
    pub fn lines_through(&self, sq: u32) -> B {
        self.through[sq as usize]
    }

    /// The number of links leaving points in direction `d` (each undirected
    /// link counts once in `d` and once in its opposite).
    pub fn link_count(&self, d: Dir) -> u32 {
        self.src[d.index()].count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> u32 {
        let b = name.as_bytes();
        (name[1..].parse::<u32>().unwrap() - 1) * 5 + (b[0] - b'a') as u32
    }

    /// The 5×5 Alquerque board: all orthogonal links, diagonals through the
    /// points with `x + y` even.
    fn alquerque() -> LineGraph<u64> {
        LineGraph::new(5, 5, |x, y, d| {
            let (dx, dy) = d.delta();
            dx == 0 || dy == 0 || (x + y) % 2 == 0
        })
    }

    #[test]
    fn alquerque_links_rays_and_lines() {
        let g = alquerque();
        // 20 horizontal, 20 vertical, 16 diagonal links.
        assert_eq!(g.link_count(Dir::E), 20);
        assert_eq!(g.link_count(Dir::N), 20);
        assert_eq!(g.link_count(Dir::NE) + g.link_count(Dir::NW), 16);
        assert!(!g.has_link(sq("b1"), Dir::NE));
        assert_eq!(g.ray(Dir::NE, sq("b1")), 0);
        assert_eq!(g.ray(Dir::NE, sq("a1")).count(), 4);
        assert_eq!(g.neighbours(sq("b1")).count(), 3);
        assert_eq!(g.neighbours(sq("c3")).count(), 8);
        assert_eq!(g.neighbour(sq("c3"), Dir::SW), Some(sq("b2")));
        assert_eq!(g.neighbour(sq("b3"), Dir::SW), None);
        // 5 rows, 5 columns, and the diagonals of length >= 2: 3 each way.
        assert_eq!(g.lines().len(), 16);
        assert_eq!(g.dir_between(sq("a1"), sq("e5")), Some(Dir::NE));
        assert_eq!(g.dir_between(sq("b1"), sq("c2")), None);
        assert_eq!(
            g.between(sq("a1"), sq("d4")),
            (1 << sq("b2")) | (1 << sq("c3"))
        );
        assert_eq!(g.between(sq("a1"), sq("b2")), 0);
        assert_eq!(
            g.cast(Dir::N, sq("c1"), 1 << sq("c4")),
            (1 << sq("c2")) | (1 << sq("c3")) | (1 << sq("c4"))
        );
        assert_eq!(
            g.nearest(Dir::S, sq("c5"), (1 << sq("c1")) | (1 << sq("c3"))),
            Some(sq("c3"))
        );
        // step masks sources without the link.
        let b = (1u64 << sq("b1")) | (1u64 << sq("a1"));
        assert_eq!(g.step(b, Dir::NE), 1 << sq("b2"));
        assert_eq!(g.lines_through(sq("b1")).count(), 4 + 4);
    }

    #[test]
    #[should_panic(expected = "no way back")]
    fn asymmetric_links_are_refused() {
        let _ = LineGraph::<u64>::new(3, 3, |x, _, d| {
            (d == Dir::E && x == 0) || (d == Dir::W && x == 2)
        });
    }
}
