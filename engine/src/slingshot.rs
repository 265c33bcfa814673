//! # Slingshot (Phil Leduc)
//!
//! A traverse connection game with a pie set-up and remote custodial
//! flipping, on 9×9 (standard) or 7×7. Rules: `shared/rules/slingshot.md`
//! Part A; rule numbers S1–S22 are cited next to the code that implements
//! them. The implementation is for research; the designer asks anyone who
//! programs the game to contact him (see the README).
//!
//! ## Turn structure and seats
//! * Seat 0 is the **setter** (Q4): its first move places the two Teal
//!   set-up stones (S5, one move `e5,a1`, unordered pair).
//! * Seat 1 is the **chooser**: its first move is `chooser=B` (the chooser
//!   plays Black and moves first) or `chooser=T` (S5, S7).
//! * Then Black and Teal alternate. Phase C: each turn is one custodial move
//!   `A+BxT` placing three stones (S8–S12). When the side to move has no
//!   custodial move, Phase S starts for both, for good (S13, S14): a turn is
//!   a stacking move `*T` (S15–S18) or, when none is possible, `pass` (S19).
//! * The game ends when the mover completes a path between its sides (S3,
//!   S12, S17), or with two passes in a row (a draw, S20).
//!
//! ## Rulings kept as parameters (dossier defaults first)
//! * `supply=45|unlimited`: pieces per colour in hand (S21, Q5).
//! * `corners=ordinary|neutral`: corners are ordinary squares (S4, Q3), or
//!   unplayable and usable by both players (the alternative in Q3).
//! * `stuck=pass|lose`: a player with no stacking move passes and two passes
//!   draw (S19, S20, Q6), or loses at once (the alternative in Q6).
//!
//! ## Bitboards
//! Each colour's singletons, the stacks and the neutral corners are `u128`
//! sets over the `n × n` squares (bit `rank * n + file`, `a1` = bit 0). A
//! custodial move is a *slot* (midpoint `M`, pair `M ± p`, both empty) and a
//! target on the slot's target line (A.4.1). For each of the four line
//! directions, one mask of shifts gives every midpoint whose pair is empty;
//! per line, `slots × targets` moves follow (A.6's generator sketch, done on
//! whole lines at once).

use crate::api::Research;
use std::fmt;
use std::sync::OnceLock;

use rand::Rng;

use crate::api::{BoardShape, Game, Returns, State, ToMove};
use crate::board::{Bits, SquareGrid, parse_square, square_name, zobrist};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

/// The parameters of `slingshot(...)`, with the dossier's defaults first.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "size",
        default: "9",
        values: "7|9",
        help: "board size n (S22)",
    },
    ParamInfo {
        name: "supply",
        default: "45",
        values: "integer 3..=200|unlimited",
        help: "pieces per colour (S21, ruling Q5)",
    },
    ParamInfo {
        name: "corners",
        default: "ordinary",
        values: "ordinary|neutral",
        help: "corners ordinary squares (S4) or unplayable and usable by both (Q3 alternative)",
    },
    ParamInfo {
        name: "stuck",
        default: "pass",
        values: "pass|lose",
        help: "no stacking move: pass, two passes draw (S19-S20) or lose (Q6 alternative)",
    },
];

/// A colour. Black connects ranks 1 and n; Teal connects files a and the last (S1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves first after the set-up; connects top and bottom.
    Black,
    /// Owns the set-up stones; connects left and right.
    Teal,
}

impl Colour {
    /// The other colour.
    #[inline(always)]
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::Teal,
            Colour::Teal => Colour::Black,
        }
    }
    fn letter(self) -> char {
        match self {
            Colour::Black => 'B',
            Colour::Teal => 'T',
        }
    }
}

/// A Slingshot move. Squares are bit indices `rank * n + file`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SlingshotMove {
    /// The setter's two Teal stones, `a < b` (S5); text `e5,a1`.
    Setup(u8, u8),
    /// The chooser takes this colour (S5, S7); text `chooser=B` / `chooser=T`.
    Choose(Colour),
    /// Custodial move: stones on `a < b`, flip the target `t` (S9, S10);
    /// text `e4+e6xe5`.
    Custodial {
        /// Lower custodial square.
        a: u8,
        /// Higher custodial square.
        b: u8,
        /// The flipped opponent singleton.
        t: u8,
    },
    /// Stack on an opponent singleton (S15); text `*e1`.
    Stack(u8),
    /// No stacking move (S19); text `pass`.
    Pass,
}

/// The four target-line directions of A.4.1 and their custodial offsets.
#[derive(Clone, Debug)]
struct Geometry {
    n: u32,
    grid: SquareGrid<u128>,
    corners: u128,
    /// Per direction (row, column, diagonal, anti-diagonal): the lines.
    lines: [Vec<u128>; 4],
    /// Per direction: index offset from the midpoint M down to the lower
    /// custodial square A (B = M + offset).
    offset: [u32; 4],
    /// `line_squares[dir][sq * n + j]`: the `j`-th square of the line of
    /// direction `dir` through `sq` (`NONE` past its end); for sampling.
    line_squares: [Vec<u8>; 4],
    /// `x in 0..4n` to `(direction, position along the line)`, for sampling.
    dir_pos: Vec<(u8, u8)>,
    /// `line_mask[dir][sq]`: the line of direction `dir` through `sq` (0 for
    /// lines that hold no midpoint).
    line_mask: [Vec<u128>; 4],
    /// Zobrist keys: square * 3 + {0 Black, 1 Teal, 2 stack}.
    z_square: Vec<u64>,
    z_black_to_move: u64,
    z_stage_setup: u64,
    z_stage_choose: u64,
    z_phase_s: u64,
    z_passes: [u64; 3],
    z_black_seat_1: u64,
}

impl Geometry {
    fn build(n: u32) -> Geometry {
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

    fn get(n: u32) -> &'static Geometry {
        static G7: OnceLock<Geometry> = OnceLock::new();
        static G9: OnceLock<Geometry> = OnceLock::new();
        match n {
            7 => G7.get_or_init(|| Geometry::build(7)),
            9 => G9.get_or_init(|| Geometry::build(9)),
            _ => unreachable!("size checked by the parameter parser"),
        }
    }

    /// Per direction, the midpoints M whose custodial pair is on the board
    /// and empty (A.4.1: the pair squares' edge conditions come from the
    /// shifts' file masks).
    #[inline(always)]
    fn open_midpoints(&self, empty: u128) -> [u128; 4] {
        Geometry::open_midpoints_of(&self.grid, self.n, empty)
    }

    #[inline(always)]
    fn open_midpoints_of(g: &SquareGrid<u128>, n: u32, empty: u128) -> [u128; 4] {
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
    fn zsq(&self, sq: u32, kind: usize) -> u64 {
        self.z_square[sq as usize * 3 + kind]
    }
}

/// A uniform index in `0..m` from a uniform 32-bit `r` by Lemire's
/// multiply-shift ("Fast random integer generation in an interval", ACM
/// TOMACS 2019), exact: `None` (draw again) on the rare biased low part.
#[inline(always)]
fn lemire(r: u32, m: u32) -> Option<u32> {
    let p = r as u64 * m as u64;
    let low = p as u32;
    if low < m && low < (u32::MAX - m + 1) % m {
        return None;
    }
    Some((p >> 32) as u32)
}

/// Rejection draws before [`SlingshotState::sample_custodial`] falls back to
/// counting (a safety net: acceptance is rarely below 1/10).
const SAMPLE_TRIES: u32 = 64;

/// No square (padding in `line_squares`).
const NONE: u8 = u8::MAX;

/// A distinct, fixed Zobrist seed per board size.
const fn zobrist_seed(n: u32) -> u64 {
    0x5119_6580_7A3D_0001 ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The rule parameters of one Slingshot variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Board size n: 7 or 9 (S22).
    pub size: u32,
    /// Pieces per colour; `u32::MAX` for unlimited (S21).
    pub supply: u32,
    /// Corners unplayable and usable by both (Q3 alternative) instead of
    /// ordinary squares (S4).
    pub neutral_corners: bool,
    /// A player with no stacking move loses (Q6 alternative) instead of
    /// passing (S19).
    pub stuck_loses: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            size: 9,
            supply: 45,
            neutral_corners: false,
            stuck_loses: false,
        }
    }
}

/// Slingshot with its parameters fixed: `slingshot(size=9)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slingshot {
    rules: Rules,
}

impl Slingshot {
    /// The variant with these rules.
    ///
    /// # Errors
    /// A size other than 7 or 9, or a supply below 3.
    pub fn new(rules: Rules) -> Result<Slingshot, GameError> {
        if rules.size != 7 && rules.size != 9 {
            crate::bail!(
                "game slingshot: size={} is not valid (expected one of 7|9)",
                rules.size
            );
        }
        if rules.supply < 3 {
            crate::bail!(
                "game slingshot: supply={} is too small (expected 3 or more)",
                rules.supply
            );
        }
        Ok(Slingshot { rules })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<Slingshot, GameError> {
        let p = Params::new("game slingshot", spec, PARAMS)?;
        let size = p.choice("size", &[("7", 7), ("9", 9)])?;
        let supply = if p.text("supply").eq_ignore_ascii_case("unlimited") {
            u32::MAX
        } else {
            let s: u32 = p.parse("supply")?;
            if !(3..=200).contains(&s) {
                crate::bail!(
                    "game slingshot: supply={s} is not valid (expected 3..=200 or unlimited)"
                );
            }
            s
        };
        let neutral_corners = p.choice("corners", &[("ordinary", false), ("neutral", true)])?;
        let stuck_loses = p.choice("stuck", &[("pass", false), ("lose", true)])?;
        Slingshot::new(Rules {
            size,
            supply,
            neutral_corners,
            stuck_loses,
        })
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    fn empty_state(&self) -> SlingshotState {
        let geo = Geometry::get(self.rules.size);
        let mut s = SlingshotState {
            geo,
            rules: self.rules,
            black: 0,
            teal: 0,
            stacks: 0,
            neutral: if self.rules.neutral_corners {
                geo.corners
            } else {
                0
            },
            stage: Stage::Setup,
            phase_s: false,
            to_move: Colour::Black,
            black_seat: 0,
            passes: 0,
            outcome: Outcome::Ongoing,
            ply: 0,
            hash: 0,
            open: [0; 4],
        };
        s.open = geo.open_midpoints(!s.occupied() & geo.grid.full);
        s.hash = s.zobrist_from_scratch();
        s
    }
}

impl Game for Slingshot {
    type State = SlingshotState;

    fn game_string(&self) -> String {
        let r = &self.rules;
        let supply = if r.supply == u32::MAX {
            "unlimited".to_string()
        } else {
            r.supply.to_string()
        };
        format!(
            "slingshot(size={},supply={supply},corners={},stuck={})",
            r.size,
            if r.neutral_corners {
                "neutral"
            } else {
                "ordinary"
            },
            if r.stuck_loses { "lose" } else { "pass" }
        )
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The empty board, setter (seat 0) to place the set-up stones. The
    /// seed is unused: Slingshot has no random set-up.
    fn initial_state(&self, _seed: u64) -> SlingshotState {
        self.empty_state()
    }

    fn parse_position(&self, text: &str) -> Result<SlingshotState, GameError> {
        parse_position(self, text)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Stage {
    Setup,
    Choose,
    Play,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Outcome {
    Ongoing,
    Win(Colour),
    Draw,
}

/// A Slingshot position. `Copy`-cheap: four `u128` sets and a few counters.
#[derive(Clone, Copy)]
pub struct SlingshotState {
    geo: &'static Geometry,
    rules: Rules,
    black: u128,
    teal: u128,
    stacks: u128,
    neutral: u128,
    stage: Stage,
    phase_s: bool,
    to_move: Colour,
    /// Seat playing Black (valid in `Stage::Play`): 1 if the chooser took Black.
    black_seat: u8,
    passes: u8,
    outcome: Outcome,
    ply: u32,
    hash: u64,
    /// Per direction, the midpoints whose custodial pair is empty (A.4.1):
    /// a function of the empty squares, kept by `settle` (empties never
    /// change in Phase S, so it stays valid there).
    open: [u128; 4],
}

impl PartialEq for SlingshotState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.black == o.black
            && self.teal == o.teal
            && self.stacks == o.stacks
            && self.neutral == o.neutral
            && self.stage == o.stage
            && self.phase_s == o.phase_s
            && (self.stage != Stage::Play
                || (self.to_move == o.to_move && self.black_seat == o.black_seat))
            && self.passes == o.passes
            && self.outcome == o.outcome
            && self.ply == o.ply
            && self.hash == o.hash
    }
}

impl fmt::Debug for SlingshotState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SlingshotState({})", self.to_text())
    }
}

impl SlingshotState {
    /// Board size n.
    pub fn size(&self) -> u32 {
        self.geo.n
    }

    /// The singletons of colour `c` (bit `rank * n + file`).
    #[inline(always)]
    pub fn singletons(&self, c: Colour) -> u128 {
        match c {
            Colour::Black => self.black,
            Colour::Teal => self.teal,
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
    pub fn colour_to_move(&self) -> Option<Colour> {
        (self.stage == Stage::Play && self.outcome == Outcome::Ongoing).then_some(self.to_move)
    }

    /// The seat playing `c`, once the chooser has chosen.
    pub fn seat_of(&self, c: Colour) -> Option<usize> {
        (self.stage == Stage::Play).then(|| match c {
            Colour::Black => self.black_seat as usize,
            Colour::Teal => 1 - self.black_seat as usize,
        })
    }

    /// Pieces of colour `c` in hand: supply minus own singletons and stacks (S21, D8).
    #[inline(always)]
    pub fn hand(&self, c: Colour) -> u32 {
        if self.rules.supply == u32::MAX {
            return u32::MAX;
        }
        self.rules.supply - self.singletons(c).count() - self.stacks.count()
    }

    #[inline(always)]
    fn occupied(&self) -> u128 {
        self.black | self.teal | self.stacks | self.neutral
    }

    /// Squares usable for `c`'s path: own singletons, stacks, neutral corners (S2).
    #[inline(always)]
    fn usable(&self, c: Colour) -> u128 {
        self.singletons(c) | self.stacks | self.neutral
    }

    /// Whether `c` has a winning path (S3): orthogonally connected usable
    /// squares touching both of `c`'s sides (S1).
    #[inline]
    pub fn has_path(&self, c: Colour) -> bool {
        let g = &self.geo.grid;
        let u = self.usable(c);
        match c {
            Colour::Black => g.spans_ranks(u) && g.connects4(u, g.first_rank, g.last_rank),
            Colour::Teal => g.spans_files(u) && g.connects4(u, g.first_file, g.last_file),
        }
    }

    /// For each direction and line: open midpoints on the line and targets on
    /// it, for mover `c`. Calls `f(dir, mids, targets)` for lines with both.
    #[inline(always)]
    fn for_each_custodial_line(&self, c: Colour, mut f: impl FnMut(usize, u128, u128) -> bool) {
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
    pub fn custodial_count(&self, c: Colour) -> usize {
        let mut total = 0;
        self.for_each_custodial_line(c, |_, m, t| {
            total += (m.count() * t.count()) as usize;
            true
        });
        total
    }

    #[inline]
    fn has_custodial(&self, c: Colour) -> bool {
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
    fn custodial_move(&self, dir: usize, mid: u32, t: u32) -> SlingshotMove {
        let off = self.geo.offset[dir];
        SlingshotMove::Custodial {
            a: (mid - off) as u8,
            b: (mid + off) as u8,
            t: t as u8,
        }
    }

    /// The `k`-th custodial move in [`State::legal_moves`] order.
    #[inline]
    fn nth_custodial(&self, c: Colour, mut k: usize) -> Option<SlingshotMove> {
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
    fn sample_custodial<R: Rng + ?Sized>(&self, c: Colour, rng: &mut R) -> Option<SlingshotMove> {
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
    fn stack_targets(&self, c: Colour) -> u128 {
        if self.hand(c) == 0 {
            0
        } else {
            self.singletons(c.other())
        }
    }

    #[inline(always)]
    fn toggle(&mut self, sq: u32, kind: usize) {
        let bit = 1u128 << sq;
        match kind {
            0 => self.black ^= bit,
            1 => self.teal ^= bit,
            _ => self.stacks ^= bit,
        }
        self.hash ^= self.geo.zsq(sq, kind);
    }

    #[inline(always)]
    fn kind(c: Colour) -> usize {
        match c {
            Colour::Black => 0,
            Colour::Teal => 1,
        }
    }

    #[inline(always)]
    fn set_passes(&mut self, p: u8) {
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
    fn end_turn(&mut self) {
        self.to_move = self.to_move.other();
        self.hash ^= self.geo.z_black_to_move;
        self.settle();
    }

    fn settle(&mut self) {
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

    fn square_text(&self, sq: u8) -> String {
        square_name(sq as usize, self.geo.n as usize)
    }

    fn parse_sq(&self, text: &str) -> Result<u8, GameError> {
        let n = self.geo.n as usize;
        Ok(parse_square(text.trim(), n, n)? as u8)
    }

    fn connection_distance(&self, c: Colour) -> Option<u32> {
        let g = &self.geo.grid;
        let zero = self.usable(c);
        let one = if self.phase_s {
            self.singletons(c.other())
        } else {
            (!self.occupied() & g.full) | self.singletons(c.other())
        };
        let (from, to) = match c {
            Colour::Black => (g.first_rank, g.last_rank),
            Colour::Teal => (g.first_file, g.last_file),
        };
        let d = g.zero_one_distance(zero, one, from, to)?;
        (!self.phase_s || d <= self.hand(c)).then_some(d)
    }

    /// The evaluation for Black with Black to move, or `colour`'s view.
    fn evaluate_for(&self, me: Colour) -> i32 {
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

impl State for SlingshotState {
    type Move = SlingshotMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.outcome != Outcome::Ongoing {
            return ToMove::Terminal;
        }
        match self.stage {
            Stage::Setup => ToMove::Seat(0),
            Stage::Choose => ToMove::Seat(1),
            Stage::Play => ToMove::Seat(match self.to_move {
                Colour::Black => self.black_seat as usize,
                Colour::Teal => 1 - self.black_seat as usize,
            }),
        }
    }

    fn legal_moves(&self, out: &mut Vec<SlingshotMove>) {
        out.clear();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        match self.stage {
            Stage::Setup => {
                let empty = !self.occupied() & self.geo.grid.full;
                for a in empty.iter() {
                    for b in (empty >> (a + 1) << (a + 1)).iter() {
                        out.push(SlingshotMove::Setup(a as u8, b as u8));
                    }
                }
            }
            Stage::Choose => {
                out.push(SlingshotMove::Choose(Colour::Black));
                out.push(SlingshotMove::Choose(Colour::Teal));
            }
            Stage::Play if !self.phase_s => {
                self.for_each_custodial_line(self.to_move, |dir, mids, tg| {
                    for m in mids.iter() {
                        for t in tg.iter() {
                            out.push(self.custodial_move(dir, m, t));
                        }
                    }
                    true
                });
            }
            Stage::Play => {
                let t = self.stack_targets(self.to_move);
                if t == 0 {
                    out.push(SlingshotMove::Pass);
                } else {
                    out.extend(t.iter().map(|s| SlingshotMove::Stack(s as u8)));
                }
            }
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        match self.stage {
            Stage::Setup => {
                let k = (!self.occupied() & self.geo.grid.full).count() as usize;
                k * (k - 1) / 2
            }
            Stage::Choose => 2,
            Stage::Play if !self.phase_s => self.custodial_count(self.to_move),
            Stage::Play => (self.stack_targets(self.to_move).count() as usize).max(1),
        }
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<SlingshotMove>,
    ) -> Option<SlingshotMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        match self.stage {
            Stage::Play if !self.phase_s => self.sample_custodial(self.to_move, rng),
            Stage::Play => {
                let t = self.stack_targets(self.to_move);
                if t == 0 {
                    Some(SlingshotMove::Pass)
                } else {
                    Some(SlingshotMove::Stack(
                        t.nth(rng.random_range(0..t.count())) as u8
                    ))
                }
            }
            Stage::Setup => {
                // A uniform ordered pair of distinct empty squares, sorted, is
                // a uniform unordered pair.
                let _ = buf;
                let empty = !self.occupied() & self.geo.grid.full;
                let k = empty.count();
                let i = rng.random_range(0..k);
                let mut j = rng.random_range(0..k - 1);
                if j >= i {
                    j += 1;
                }
                let (a, b) = (empty.nth(i.min(j)), empty.nth(i.max(j)));
                Some(SlingshotMove::Setup(a as u8, b as u8))
            }
            Stage::Choose => Some(SlingshotMove::Choose(if rng.random::<bool>() {
                Colour::Black
            } else {
                Colour::Teal
            })),
        }
    }

    fn apply(&mut self, mv: SlingshotMove) {
        debug_assert!(
            {
                let mut v = Vec::new();
                self.legal_moves(&mut v);
                v.contains(&mv)
            },
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        self.ply += 1;
        match mv {
            SlingshotMove::Setup(a, b) => {
                self.toggle(a as u32, 1);
                self.toggle(b as u32, 1);
                self.stage = Stage::Choose;
                self.hash ^= self.geo.z_stage_setup ^ self.geo.z_stage_choose;
            }
            SlingshotMove::Choose(c) => {
                // S7: Black moves first, whoever plays it.
                self.black_seat = if c == Colour::Black { 1 } else { 0 };
                if self.black_seat == 1 {
                    self.hash ^= self.geo.z_black_seat_1;
                }
                self.stage = Stage::Play;
                self.hash ^= self.geo.z_stage_choose;
                self.to_move = Colour::Black;
                self.hash ^= self.geo.z_black_to_move;
                self.settle();
            }
            SlingshotMove::Custodial { a, b, t } => {
                // S10: two stones on the pair, the target returns to its
                // owner's hand and the mover's third stone takes its place.
                let me = Self::kind(self.to_move);
                self.toggle(a as u32, me);
                self.toggle(b as u32, me);
                self.toggle(t as u32, 1 - me);
                self.toggle(t as u32, me);
                self.end_turn();
            }
            SlingshotMove::Stack(t) => {
                // S15: the opponent singleton becomes a neutral stack.
                let opp = 1 - Self::kind(self.to_move);
                self.toggle(t as u32, opp);
                self.toggle(t as u32, 2);
                self.set_passes(0);
                self.end_turn();
            }
            SlingshotMove::Pass => {
                self.set_passes(self.passes + 1);
                self.end_turn();
            }
        }
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; crate::api::MAX_SEATS];
        if let Outcome::Win(c) = self.outcome {
            let w = self.seat_of(c).expect("a win happens in play");
            r[w] = 1.0;
            r[1 - w] = -1.0;
        }
        r
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let g = self.geo;
        let mut h = 0;
        for (kind, set) in [self.black, self.teal, self.stacks].into_iter().enumerate() {
            for sq in set.iter() {
                h ^= g.zsq(sq, kind);
            }
        }
        match self.stage {
            Stage::Setup => h ^= g.z_stage_setup,
            Stage::Choose => h ^= g.z_stage_choose,
            Stage::Play => {
                if self.to_move == Colour::Black {
                    h ^= g.z_black_to_move;
                }
                if self.black_seat == 1 {
                    h ^= g.z_black_seat_1;
                }
            }
        }
        if self.phase_s {
            h ^= g.z_phase_s;
        }
        if self.passes > 0 {
            h ^= g.z_passes[self.passes as usize];
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        let n = self.geo.n;
        let mut rows = Vec::new();
        for r in (0..n).rev() {
            let mut row = String::new();
            let mut run = 0;
            for c in 0..n {
                let bit = 1u128 << (r * n + c);
                let ch = if self.black & bit != 0 {
                    'B'
                } else if self.teal & bit != 0 {
                    'T'
                } else if self.stacks & bit != 0 {
                    'X'
                } else if self.neutral & bit != 0 {
                    '#'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    row.push_str(&run.to_string());
                    run = 0;
                }
                row.push(ch);
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            rows.push(row);
        }
        let stage = match self.stage {
            Stage::Setup => "setup".to_string(),
            Stage::Choose => "choose".to_string(),
            Stage::Play => self.to_move.letter().to_string(),
        };
        let seat = if self.stage == Stage::Play {
            self.black_seat.to_string()
        } else {
            "-".into()
        };
        format!(
            "{} {stage} {} {} {seat} {}",
            rows.join("/"),
            if self.phase_s { 'S' } else { 'C' },
            self.passes,
            self.ply
        )
    }

    fn move_to_text(&self, mv: SlingshotMove) -> String {
        match mv {
            SlingshotMove::Setup(a, b) => {
                format!("{},{}", self.square_text(a), self.square_text(b))
            }
            SlingshotMove::Choose(c) => format!("chooser={}", c.letter()),
            SlingshotMove::Custodial { a, b, t } => format!(
                "{}+{}x{}",
                self.square_text(a),
                self.square_text(b),
                self.square_text(t)
            ),
            SlingshotMove::Stack(t) => format!("*{}", self.square_text(t)),
            SlingshotMove::Pass => "pass".to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<SlingshotMove, GameError> {
        let t = text.trim();
        let expected = "expected a set-up `e5,a1`, `chooser=B|T`, a custodial move `e4+e6xe5`, a stack `*e1` or `pass`";
        let wrap = |e: GameError| GameError::new(format!("bad move {text:?}: {e}"));
        if t == "pass" {
            return Ok(SlingshotMove::Pass);
        }
        if let Some(c) = t.strip_prefix("chooser=") {
            return match c {
                "B" | "b" => Ok(SlingshotMove::Choose(Colour::Black)),
                "T" | "t" => Ok(SlingshotMove::Choose(Colour::Teal)),
                _ => crate::bail!("bad move {text:?}: {expected}"),
            };
        }
        if let Some(sq) = t.strip_prefix('*') {
            return Ok(SlingshotMove::Stack(self.parse_sq(sq).map_err(wrap)?));
        }
        if let Some((a, b)) = t.split_once(',') {
            let (a, b) = (
                self.parse_sq(a).map_err(wrap)?,
                self.parse_sq(b).map_err(wrap)?,
            );
            if a == b {
                crate::bail!("bad move {text:?}: the two set-up stones need two different squares");
            }
            return Ok(SlingshotMove::Setup(a.min(b), a.max(b)));
        }
        let (pair, target) = t
            .split_once('x')
            .or_else(|| t.split_once('×'))
            .ok_or_else(|| GameError::new(format!("bad move {text:?}: {expected}")))?;
        let (a, b) = pair
            .split_once('+')
            .ok_or_else(|| GameError::new(format!("bad move {text:?}: {expected}")))?;
        let (a, b, tg) = (
            self.parse_sq(a).map_err(wrap)?,
            self.parse_sq(b).map_err(wrap)?,
            self.parse_sq(target).map_err(wrap)?,
        );
        if a == b || tg == a || tg == b {
            crate::bail!("bad move {text:?}: the custodial squares and the target must differ");
        }
        Ok(SlingshotMove::Custodial {
            a: a.min(b),
            b: a.max(b),
            t: tg,
        })
    }

    /// Connection distance (A.6 engine notes, D4): the fewest cost-1
    /// squares on a path between a player's sides. In Phase C empty squares
    /// and opponent singletons cost 1; the value is 10 per square of the
    /// opponent's distance minus the mover's. In Phase S the race is exact
    /// (D4): about ±1000 for the side that wins it.
    fn evaluate(&self) -> i32 {
        match self.stage {
            Stage::Setup => 0,
            Stage::Choose => {
                let mut as_black = *self;
                as_black.stage = Stage::Play;
                as_black.to_move = Colour::Black;
                as_black.evaluate_for(Colour::Black).abs()
            }
            Stage::Play => self.evaluate_for(self.to_move),
        }
    }

    /// 30: three squares of connection distance (10 each) make one logistic
    /// unit (a 73 % win probability).
    fn eval_scale(&self) -> f64 {
        30.0
    }
}

impl Research for SlingshotState {
    fn seat_role(&self, seat: usize) -> String {
        let role = if seat == 0 { "setter" } else { "chooser" };
        match self.stage {
            Stage::Play => {
                let black = seat == self.black_seat as usize;
                format!("{role}/{}", if black { "black" } else { "teal" })
            }
            _ => role.to_string(),
        }
    }
    fn first_mover_seat(&self) -> Option<usize> {
        self.seat_of(Colour::Black)
    }
    fn setter_seat(&self) -> Option<usize> {
        Some(0)
    }
    /// `chooser=B` is the swap: the chooser takes the first move against the
    /// set-up (S5, S7); `chooser=T` leaves it with the setter.
    fn is_swap(&self, mv: SlingshotMove) -> bool {
        mv == SlingshotMove::Choose(Colour::Black)
    }
    /// On the empty board, the four symmetries that keep both goals (S1:
    /// Black joins ranks 1 and n, Teal files a and the last): the identity,
    /// the mirror across the middle file, the mirror across the middle rank
    /// and the half turn. The diagonal mirrors swap the goals and are left
    /// out. Elsewhere only the identity.
    fn symmetry_count(&self) -> usize {
        if self.stage == Stage::Setup && self.occupied() == 0 {
            4
        } else {
            1
        }
    }
    fn transform_move(&self, mv: SlingshotMove, sym: usize) -> SlingshotMove {
        let n = self.geo.n;
        let map = |sq: u8| -> u8 {
            let (r, c) = (sq as u32 / n, sq as u32 % n);
            let (r, c) = match sym {
                0 => (r, c),
                1 => (r, n - 1 - c),
                2 => (n - 1 - r, c),
                _ => (n - 1 - r, n - 1 - c),
            };
            (r * n + c) as u8
        };
        match mv {
            SlingshotMove::Setup(a, b) => {
                let (a, b) = (map(a), map(b));
                SlingshotMove::Setup(a.min(b), a.max(b))
            }
            SlingshotMove::Custodial { a, b, t } => {
                let (a, b) = (map(a), map(b));
                SlingshotMove::Custodial {
                    a: a.min(b),
                    b: a.max(b),
                    t: map(t),
                }
            }
            SlingshotMove::Stack(t) => SlingshotMove::Stack(map(t)),
            other => other,
        }
    }
    fn board_shape(&self) -> Option<BoardShape> {
        Some(BoardShape::Square {
            width: self.geo.n,
            height: self.geo.n,
        })
    }
    fn move_cells(&self, mv: SlingshotMove) -> Vec<(i32, i32)> {
        let n = self.geo.n;
        let cell = |sq: u8| ((sq as u32 % n) as i32, (sq as u32 / n) as i32);
        match mv {
            SlingshotMove::Setup(a, b) => vec![cell(a), cell(b)],
            SlingshotMove::Custodial { a, b, t } => vec![cell(a), cell(b), cell(t)],
            SlingshotMove::Stack(t) => vec![cell(t)],
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for SlingshotState {
    /// The board for people, rank n at the top, as in the dossier's diagrams:
    /// `B` Black, `T` Teal, `X` stack, `#` neutral corner, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.geo.n;
        for r in (0..n).rev() {
            write!(f, "{:>2} ", r + 1)?;
            for c in 0..n {
                let bit = 1u128 << (r * n + c);
                let ch = if self.black & bit != 0 {
                    'B'
                } else if self.teal & bit != 0 {
                    'T'
                } else if self.stacks & bit != 0 {
                    'X'
                } else if self.neutral & bit != 0 {
                    '#'
                } else {
                    '.'
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for c in 0..n {
            write!(f, " {}", (b'a' + c as u8) as char)?;
        }
        writeln!(f)?;
        let status = match (self.outcome, self.stage) {
            (Outcome::Win(c), _) => format!("{c:?} wins"),
            (Outcome::Draw, _) => "draw".to_string(),
            (_, Stage::Setup) => "setter (seat 0) places two Teal stones".to_string(),
            (_, Stage::Choose) => "chooser (seat 1) picks a colour".to_string(),
            (_, Stage::Play) => format!(
                "{:?} (seat {}) to move, phase {}, hands B {} T {}",
                self.to_move,
                self.seat_of(self.to_move).unwrap_or(0),
                if self.phase_s { "S" } else { "C" },
                fmt_hand(self.hand(Colour::Black)),
                fmt_hand(self.hand(Colour::Teal)),
            ),
        };
        write!(f, "{status}")
    }
}

fn fmt_hand(h: u32) -> String {
    if h == u32::MAX {
        "∞".into()
    } else {
        h.to_string()
    }
}

/// Parses the position text `<rows> <stage> <phase> <passes> <black-seat> [<ply>]`:
/// rows from rank n down to rank 1 separated by `/`, digits for runs of
/// empty squares, `B` Black, `T` Teal, `X` stack, `#` neutral corner; stage
/// `setup`, `choose`, `B` or `T` (colour to move); phase `C` or `S`; passes
/// 0–2; the seat playing Black (`0`, `1`, or `-` before the choice).
///
/// A Phase C position whose side to move has no custodial move is moved to
/// Phase S, as after a move (S13).
fn parse_position(game: &Slingshot, text: &str) -> Result<SlingshotState, GameError> {
    let n = game.rules.size;
    let fields: Vec<&str> = text.split_whitespace().collect();
    let bad = |what: String| GameError::new(format!("bad slingshot position {text:?}: {what}"));
    if fields.len() < 5 || fields.len() > 6 {
        return Err(bad(
            "expected 5 or 6 fields: <rows> <setup|choose|B|T> <C|S> <passes> <black-seat 0|1|-> [<ply>]"
                .into(),
        ));
    }
    let mut s = game.empty_state();
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != n as usize {
        return Err(bad(format!(
            "{} rows, expected {n} for size {n}",
            rows.len()
        )));
    }
    let (mut black, mut teal, mut stacks, mut neutral) = (0u128, 0u128, 0u128, 0u128);
    for (i, row) in rows.iter().enumerate() {
        let r = n - 1 - i as u32;
        let mut c = 0u32;
        let mut digits = String::new();
        let flush = |digits: &mut String, c: &mut u32| -> Result<(), GameError> {
            if !digits.is_empty() {
                let k: u32 = digits
                    .parse()
                    .map_err(|_| bad(format!("bad run {digits:?}")))?;
                // Saturating: a huge run is then caught as an over-long row.
                *c = c.saturating_add(k);
                digits.clear();
            }
            Ok(())
        };
        for ch in row.chars() {
            if ch.is_ascii_digit() {
                digits.push(ch);
                continue;
            }
            flush(&mut digits, &mut c)?;
            if c >= n {
                return Err(bad(format!(
                    "row {} (rank {}) is longer than {n}",
                    i + 1,
                    r + 1
                )));
            }
            let bit = 1u128 << (r * n + c);
            match ch {
                'B' => black |= bit,
                'T' => teal |= bit,
                'X' => stacks |= bit,
                '#' => neutral |= bit,
                '.' => {}
                _ => {
                    return Err(bad(format!(
                        "unknown square letter {ch:?} (expected B, T, X, #, . or a digit)"
                    )));
                }
            }
            c += 1;
        }
        flush(&mut digits, &mut c)?;
        if c != n {
            return Err(bad(format!("rank {} has {c} squares, expected {n}", r + 1)));
        }
    }
    if neutral != s.neutral {
        return Err(bad(if game.rules.neutral_corners {
            "corners=neutral needs `#` on exactly the four corners".into()
        } else {
            "`#` (neutral corner) needs the game option corners=neutral".into()
        }));
    }
    s.black = black;
    s.teal = teal;
    s.stacks = stacks;
    let phase = match fields[2] {
        "C" => false,
        "S" => true,
        f => return Err(bad(format!("phase {f:?}, expected C or S"))),
    };
    let passes: u8 = match fields[3] {
        "0" => 0,
        "1" => 1,
        "2" => 2,
        f => return Err(bad(format!("passes {f:?}, expected 0, 1 or 2"))),
    };
    let seat = fields[4];
    s.ply = match fields.get(5) {
        Some(p) => p
            .parse()
            .map_err(|_| bad(format!("ply {p:?}, expected a whole number")))?,
        None => 0,
    };
    if stacks != 0 && !phase {
        return Err(bad("stacks (X) exist only in phase S".into()));
    }
    if passes > 0 && !phase {
        return Err(bad("passes happen only in phase S".into()));
    }
    for c in [Colour::Black, Colour::Teal] {
        let used = s.singletons(c).count() + stacks.count();
        if game.rules.supply != u32::MAX && used > game.rules.supply {
            return Err(bad(format!(
                "{c:?} uses {used} pieces, more than the supply {}",
                game.rules.supply
            )));
        }
    }
    match fields[1] {
        "setup" | "choose" => {
            let setup = fields[1] == "setup";
            let want_teal = if setup { 0 } else { 2 };
            if black != 0 || stacks != 0 || teal.count() != want_teal || phase || seat != "-" {
                return Err(bad(if setup {
                    "stage setup needs an empty board, phase C, 0 passes and black-seat -".into()
                } else {
                    "stage choose needs exactly two Teal stones, phase C, 0 passes and black-seat -"
                        .into()
                }));
            }
            s.stage = if setup { Stage::Setup } else { Stage::Choose };
        }
        "B" | "T" => {
            s.stage = Stage::Play;
            s.to_move = if fields[1] == "B" {
                Colour::Black
            } else {
                Colour::Teal
            };
            s.black_seat = match seat {
                "0" => 0,
                "1" => 1,
                _ => {
                    return Err(bad(format!(
                        "black-seat {seat:?}, expected 0 or 1 once play has begun"
                    )));
                }
            };
            s.phase_s = phase;
            s.passes = passes;
            if s.has_path(s.to_move) {
                return Err(bad(format!(
                    "{:?} is to move but already has a winning path",
                    s.to_move
                )));
            }
        }
        f => return Err(bad(format!("stage {f:?}, expected setup, choose, B or T"))),
    }
    s.hash = s.zobrist_from_scratch();
    s.open = s.geo.open_midpoints(!s.occupied() & s.geo.grid.full);
    if s.stage == Stage::Play {
        s.settle();
    }
    Ok(s)
}
