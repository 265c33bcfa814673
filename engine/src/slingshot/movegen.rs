//! Slingshot move generation: the board geometry and custodial tables, flips, stacks, passes and connection (docs/rules/slingshot.md), and uniform sampling.

use std::sync::OnceLock;

use rand::Rng;

use super::state::{Outcome, Stage};
use super::{NONE, Side, SlingshotMove, SlingshotState, zobrist_seed};
use crate::board::{Bits, SquareGrid, parse_square, square_name, zobrist};
use crate::error::GameError;

/// The four target-line directions of A.4.1 and their custodial offsets.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub(crate) n: u32,
    pub(crate) grid: SquareGrid<u128>,
    pub(crate) corners: u128,
    /// Per direction (row, column, diagonal, anti-diagonal): the lines.
    pub(crate) lines: [Vec<u128>; 4],
    /// Per direction: index offset from the midpoint M down to the lower
    /// custodial square A (B = M + offset).
    pub(crate) offset: [u32; 4],
    /// `line_squares[dir][sq * n + j]`: the `j`-th square of the line of
    /// direction `dir` through `sq` (`NONE` past its end); for sampling.
    pub(crate) line_squares: [Vec<u8>; 4],
    /// `x in 0..4n` to `(direction, position along the line)`, for sampling.
    pub(crate) dir_pos: Vec<(u8, u8)>,
    /// `line_mask[dir][sq]`: the line of direction `dir` through `sq` (0 for
    /// lines that hold no midpoint).
    pub(crate) line_mask: [Vec<u128>; 4],
    /// Zobrist keys: square * 3 + {0 Black, 1 Teal, 2 stack}.
    pub(crate) z_square: Vec<u64>,
    pub(crate) z_black_to_move: u64,
    pub(crate) z_stage_setup: u64,
    pub(crate) z_stage_choose: u64,
    pub(crate) z_phase_s: u64,
    pub(crate) z_passes: [u64; 3],
    pub(crate) z_black_seat_1: u64,
}

impl Geometry {
    pub(crate) fn build(n: u32) -> Geometry {
        let grid = SquareGrid::<u128>::new(n, n);
        let mut lines: [Vec<u128>; 4] = Default::default();
        let mut collect = |pred: &dyn Fn(u32, u32) -> Option<i32>, dir: usize| {
            let mut by_key = std::collections::BTreeMap::<i32, u128>::new();
            for r in 0..n {
                for c in 0..n {
                    if let Some(k) = pred(r, c) {
                        *by_key.entry(k).or_default() |= 1u128 << (r * n + c);
                    }
                }
            }
            lines[dir] = by_key.into_values().collect();
        };
        collect(&|r, _| Some(r as i32), 0); // rows: target line d = (0,1)
        collect(&|_, c| Some(c as i32), 1); // columns: d = (1,0)
        collect(&|r, c| Some(r as i32 - c as i32), 2); // diagonals d = (1,1)
        collect(&|r, c| Some((r + c) as i32), 3); // anti-diagonals d = (1,-1)
        let corners = [0, n - 1, n * (n - 1), n * n - 1]
            .iter()
            .fold(0u128, |acc, &i| acc | (1u128 << i));
        // Keep only lines that can hold a midpoint (A.4.1: rows and files
        // off the edges, diagonals of length 3 or more).
        let probe = Geometry::open_midpoints_of(&grid, n, grid.full);
        for dir in 0..4 {
            lines[dir].retain(|&l| l & probe[dir] != 0);
        }
        let mut line_squares: [Vec<u8>; 4] = Default::default();
        for dir in 0..4 {
            line_squares[dir] = vec![NONE; (n * n * n) as usize];
            for &line in &lines[dir] {
                for sq in line.iter() {
                    for (j, m) in line.iter().enumerate() {
                        line_squares[dir][(sq * n) as usize + j] = m as u8;
                    }
                }
            }
        }
        let mut line_mask: [Vec<u128>; 4] = Default::default();
        for dir in 0..4 {
            line_mask[dir] = vec![0; (n * n) as usize];
            for &line in &lines[dir] {
                for sq in line.iter() {
                    line_mask[dir][sq as usize] = line;
                }
            }
        }
        let keys = zobrist::keys(zobrist_seed(n), (n * n * 3) as usize + 9);
        let sq = (n * n * 3) as usize;
        Geometry {
            n,
            grid,
            corners,
            lines,
            // Row line: pair below/above (M ∓ n); column: left/right (M ∓ 1);
            // diagonal (1,1): pair (r-1,c+1)/(r+1,c-1) = M ∓ (n-1);
            // anti-diagonal (1,-1): pair (r-1,c-1)/(r+1,c+1) = M ∓ (n+1).
            offset: [n, 1, n - 1, n + 1],
            line_squares,
            line_mask,
            dir_pos: (0..4 * n).map(|x| ((x / n) as u8, (x % n) as u8)).collect(),
            z_square: keys[..sq].to_vec(),
            z_black_to_move: keys[sq],
            z_stage_setup: keys[sq + 1],
            z_stage_choose: keys[sq + 2],
            z_phase_s: keys[sq + 3],
            z_passes: [keys[sq + 4], keys[sq + 5], keys[sq + 6]],
            z_black_seat_1: keys[sq + 7],
        }
    }

    pub(crate) fn get(n: u32) -> &'static Geometry {
        static G5: OnceLock<Geometry> = OnceLock::new();
        static G7: OnceLock<Geometry> = OnceLock::new();
        static G9: OnceLock<Geometry> = OnceLock::new();
        match n {
            5 => G5.get_or_init(|| Geometry::build(5)),
            7 => G7.get_or_init(|| Geometry::build(7)),
            9 => G9.get_or_init(|| Geometry::build(9)),
            _ => unreachable!("size checked by the parameter parser"),
        }
    }

    /// Per direction, the midpoints M whose custodial pair is on the board
    /// and empty (A.4.1: the pair squares' edge conditions come from the
    /// shifts' file masks).
    #[inline(always)]
    pub(crate) fn open_midpoints(&self, empty: u128) -> [u128; 4] {
        Geometry::open_midpoints_of(&self.grid, self.n, empty)
    }

    #[inline(always)]
    pub(crate) fn open_midpoints_of(g: &SquareGrid<u128>, n: u32, empty: u128) -> [u128; 4] {
        let not_a = !g.first_file;
        let not_last = !g.last_file;
        [
            (empty << n) & (empty >> n) & g.full,
            (empty << 1) & not_a & (empty >> 1) & not_last & g.full,
            (empty << (n - 1)) & not_last & (empty >> (n - 1)) & not_a & g.full,
            (empty << (n + 1)) & not_a & (empty >> (n + 1)) & not_last & g.full,
        ]
    }

    #[inline(always)]
    pub(crate) fn zsq(&self, sq: u32, kind: usize) -> u64 {
        self.z_square[sq as usize * 3 + kind]
    }
}

/// A uniform index in `0..m` from a uniform 32-bit `r` by Lemire's
/// multiply-shift ("Fast random integer generation in an interval", ACM
/// TOMACS 2019), exact: `None` (draw again) on the rare biased low part.
#[inline(always)]
pub(crate) fn lemire(r: u32, m: u32) -> Option<u32> {
    let p = r as u64 * m as u64;
    let low = p as u32;
    if low < m && low < (u32::MAX - m + 1) % m {
        return None;
    }
    Some((p >> 32) as u32)
}

/// Rejection draws before [`SlingshotState::sample_custodial`] falls back to
/// counting (a safety net: acceptance is rarely below 1/10).
pub(crate) const SAMPLE_TRIES: u32 = 64;

impl SlingshotState {
    /// Board size n.
    pub fn size(&self) -> u32 {
        self.geo.n
    }

    /// The singletons of colour `c` (bit `rank * n + file`).
    #[inline(always)]
    pub fn singletons(&self, c: Side) -> u128 {
        match c {
            Side::Black => self.black,
            Side::Teal => self.teal,
        }
    }

    /// The stacks (one Black and one Teal piece each, S15).
    pub fn stacks(&self) -> u128 {
        self.stacks
    }

    /// Whether Phase S (stacking) has started (S13).
    pub fn in_phase_s(&self) -> bool {
        self.phase_s
    }

    /// The colour to move, once the set-up and the choice are made.
    pub fn colour_to_move(&self) -> Option<Side> {
        (self.stage == Stage::Play && self.outcome == Outcome::Ongoing).then_some(self.to_move)
    }

    /// The seat playing `c`, once the chooser has chosen.
    pub fn seat_of(&self, c: Side) -> Option<usize> {
        (self.stage == Stage::Play).then(|| match c {
            Side::Black => self.black_seat as usize,
            Side::Teal => 1 - self.black_seat as usize,
        })
    }

    /// Pieces of colour `c` in hand: supply minus own singletons and stacks (S21, D8).
    #[inline(always)]
    pub fn hand(&self, c: Side) -> u32 {
        if self.rules.supply == u32::MAX {
            return u32::MAX;
        }
        self.rules.supply - self.singletons(c).count() - self.stacks.count()
    }

    #[inline(always)]
    pub(crate) fn occupied(&self) -> u128 {
        self.black | self.teal | self.stacks | self.neutral
    }

    /// Squares usable for `c`'s path: own singletons, stacks, neutral corners (S2).
    #[inline(always)]
    pub(crate) fn usable(&self, c: Side) -> u128 {
        self.singletons(c) | self.stacks | self.neutral
    }

    /// Whether `c` has a winning path (S3): orthogonally connected usable
    /// squares touching both of `c`'s sides (S1).
    #[inline]
    pub fn has_path(&self, c: Side) -> bool {
        let g = &self.geo.grid;
        let u = self.usable(c);
        match c {
            Side::Black => g.spans_ranks(u) && g.connects4(u, g.first_rank, g.last_rank),
            Side::Teal => g.spans_files(u) && g.connects4(u, g.first_file, g.last_file),
        }
    }

    /// For each direction and line: open midpoints on the line and targets on
    /// it, for mover `c`. Calls `f(dir, mids, targets)` for lines with both.
    #[inline(always)]
    pub(crate) fn for_each_custodial_line(
        &self,
        c: Side,
        mut f: impl FnMut(usize, u128, u128) -> bool,
    ) {
        if self.hand(c) < 3 {
            return; // S21: a custodial move places three pieces.
        }
        let targets = self.singletons(c.other());
        let open = self.open;
        for (dir, (&open, lines)) in open.iter().zip(&self.geo.lines).enumerate() {
            if open == 0 {
                continue;
            }
            for &line in lines {
                let mids = open & line;
                if mids == 0 {
                    continue;
                }
                let tg = targets & line;
                if tg != 0 && !f(dir, mids, tg) {
                    return;
                }
            }
        }
    }

    /// The number of custodial moves for `c` (S9, S11).
    #[inline]
    pub fn custodial_count(&self, c: Side) -> usize {
        let mut total = 0;
        self.for_each_custodial_line(c, |_, m, t| {
            total += (m.count() * t.count()) as usize;
            true
        });
        total
    }

    #[inline]
    pub(crate) fn has_custodial(&self, c: Side) -> bool {
        if self.hand(c) < 3 {
            return false; // S21
        }
        let targets = self.singletons(c.other());
        let open = self.open;
        let lm = &self.geo.line_mask;
        let open_count: u32 = open.iter().map(|o| o.count()).sum();
        // A move is an open midpoint and a target on one line: walk the
        // shorter of the two lists.
        if 4 * targets.count() <= open_count {
            targets
                .iter()
                .any(|t| (0..4).any(|d| open[d] & lm[d][t as usize] != 0))
        } else {
            (0..4).any(|d| open[d].iter().any(|m| targets & lm[d][m as usize] != 0))
        }
    }

    #[inline(always)]
    pub(crate) fn custodial_move(&self, dir: usize, mid: u32, t: u32) -> SlingshotMove {
        let off = self.geo.offset[dir];
        SlingshotMove::Custodial {
            a: (mid - off) as u8,
            b: (mid + off) as u8,
            t: t as u8,
        }
    }

    /// The `k`-th custodial move in [`State::legal_moves`] order.
    #[inline]
    pub(crate) fn nth_custodial(&self, c: Side, mut k: usize) -> Option<SlingshotMove> {
        let mut found = None;
        self.for_each_custodial_line(c, |dir, m, t| {
            let tc = t.count() as usize;
            let cnt = m.count() as usize * tc;
            if k < cnt {
                found =
                    Some(self.custodial_move(dir, m.nth((k / tc) as u32), t.nth((k % tc) as u32)));
                return false;
            }
            k -= cnt;
            true
        });
        found
    }

    /// A custodial move for `c` drawn uniformly at random, by rejection:
    /// draw a target, a direction and a position along the target's line;
    /// each legal move `(A, B, T)` is exactly one such triple (its midpoint
    /// fixes the direction), so accepted draws are uniform. After a few
    /// rejections (few moves left) it counts and picks by index instead.
    #[inline]
    pub(crate) fn sample_custodial<R: Rng + ?Sized>(
        &self,
        c: Side,
        rng: &mut R,
    ) -> Option<SlingshotMove> {
        if self.hand(c) < 3 {
            return None;
        }
        let targets = self.singletons(c.other());
        let m = targets.count();
        if m == 0 {
            return None;
        }
        let open = self.open;
        let n = self.geo.n;
        let counts = open.map(|o| o.count());
        let open_count: u32 = counts.iter().sum();
        if open_count == 0 {
            return None;
        }
        // Each move (A, B, T) is exactly one (target, direction, position on
        // the line) and exactly one (open midpoint, position on its line):
        // draw from the smaller space, so acceptance is moves / (4·m·n) or
        // moves / (open·n), whichever is larger.
        let by_target = 4 * m <= open_count;
        for _ in 0..SAMPLE_TRIES {
            // One 64-bit draw per try, split in two 32-bit halves for
            // Lemire's exact multiply-shift method (a rare rejection redraws).
            let r = rng.next_u64();
            if by_target {
                let (Some(ti), Some(x)) = (lemire(r as u32, m), lemire((r >> 32) as u32, 4 * n))
                else {
                    continue;
                };
                let t = targets.nth(ti);
                let (dir, j) = self.geo.dir_pos[x as usize];
                let dir = dir as usize;
                let mid = self.geo.line_squares[dir][(t * n + j as u32) as usize];
                if mid != NONE && open[dir] & (1u128 << mid) != 0 {
                    return Some(self.custodial_move(dir, mid as u32, t));
                }
            } else {
                let (Some(mut mi), Some(j)) =
                    (lemire(r as u32, open_count), lemire((r >> 32) as u32, n))
                else {
                    continue;
                };
                let mut dir = 0;
                while mi >= counts[dir] {
                    mi -= counts[dir];
                    dir += 1;
                }
                let mid = open[dir].nth(mi);
                let t = self.geo.line_squares[dir][(mid * n + j) as usize];
                if t != NONE && targets & (1u128 << t) != 0 {
                    return Some(self.custodial_move(dir, mid, t as u32));
                }
            }
        }
        let k = self.custodial_count(c);
        if k == 0 {
            None
        } else {
            self.nth_custodial(c, rng.random_range(0..k))
        }
    }

    /// Opponent singletons `c` may stack on (S15, S18), none without a piece in hand.
    #[inline(always)]
    pub(crate) fn stack_targets(&self, c: Side) -> u128 {
        if self.hand(c) == 0 {
            0
        } else {
            self.singletons(c.other())
        }
    }

    #[inline(always)]
    pub(crate) fn toggle(&mut self, sq: u32, kind: usize) {
        let bit = 1u128 << sq;
        match kind {
            0 => self.black ^= bit,
            1 => self.teal ^= bit,
            _ => self.stacks ^= bit,
        }
        self.hash ^= self.geo.zsq(sq, kind);
    }

    #[inline(always)]
    pub(crate) fn kind(c: Side) -> usize {
        match c {
            Side::Black => 0,
            Side::Teal => 1,
        }
    }

    #[inline(always)]
    pub(crate) fn set_passes(&mut self, p: u8) {
        if self.passes > 0 {
            self.hash ^= self.geo.z_passes[self.passes as usize];
        }
        self.passes = p;
        if p > 0 {
            self.hash ^= self.geo.z_passes[p as usize];
        }
    }

    /// After a turn in play: hand the move over and settle what follows:
    /// the previous mover's win (S12, S17), the draw (S20), the start of
    /// Phase S (S13), a stuck player's loss under `stuck=lose`.
    #[inline]
    pub(crate) fn end_turn(&mut self) {
        self.to_move = self.to_move.other();
        self.hash ^= self.geo.z_black_to_move;
        self.settle();
    }

    pub(crate) fn settle(&mut self) {
        let me = self.to_move;
        if self.has_path(me.other()) {
            self.outcome = Outcome::Win(me.other());
        } else if self.passes >= 2 {
            self.outcome = Outcome::Draw;
        } else {
            if !self.phase_s {
                self.open = self
                    .geo
                    .open_midpoints(!self.occupied() & self.geo.grid.full);
            }
            if !self.phase_s && !self.has_custodial(me) {
                self.phase_s = true;
                self.hash ^= self.geo.z_phase_s;
            }
            if self.phase_s && self.rules.stuck_loses && self.stack_targets(me) == 0 {
                self.outcome = Outcome::Win(me.other());
            }
        }
    }

    pub(crate) fn square_text(&self, sq: u8) -> String {
        square_name(sq as usize, self.geo.n as usize)
    }

    pub(crate) fn parse_sq(&self, text: &str) -> Result<u8, GameError> {
        let n = self.geo.n as usize;
        Ok(parse_square(text.trim(), n, n)? as u8)
    }

    pub(crate) fn connection_distance(&self, c: Side) -> Option<u32> {
        let g = &self.geo.grid;
        let zero = self.usable(c);
        let one = if self.phase_s {
            self.singletons(c.other())
        } else {
            (!self.occupied() & g.full) | self.singletons(c.other())
        };
        let (from, to) = match c {
            Side::Black => (g.first_rank, g.last_rank),
            Side::Teal => (g.first_file, g.last_file),
        };
        let d = g.zero_one_distance(zero, one, from, to)?;
        (!self.phase_s || d <= self.hand(c)).then_some(d)
    }

    /// The evaluation for Black with Black to move, or `colour`'s view.
    pub(crate) fn evaluate_for(&self, me: Side) -> i32 {
        let big = 4 * (self.geo.n * self.geo.n) as i32;
        let dm = self.connection_distance(me);
        let dop = self.connection_distance(me.other());
        if self.phase_s {
            // D4: the race is exact. The player to move wins iff its
            // distance is finite and no larger than the opponent's.
            return match (dm, dop) {
                (Some(a), Some(b)) if a <= b => 1000 - a as i32,
                (Some(a), None) => 1000 - a as i32,
                (_, Some(b)) => -(1000 - b as i32),
                _ => 0,
            };
        }
        let a = dm.map_or(big, |d| d as i32);
        let b = dop.map_or(big, |d| d as i32);
        10 * (b - a)
    }
}
