//! The solution of Line Up by retrograde analysis (game knowledge, like
//! perft: it lives with the game).
//!
//! ## What is solved
//! The **movement phase**: every position with all ten pieces on the board
//! (from turn 12 on, U-2), for each of the six turn phases `n mod 6` (which
//! fix the player and the piece type to move, U-1). A position is
//! `(board, phase)`; the ply cap and repetitions are ignored (infinite play
//! is a draw), so the table gives the game-theoretic value of the rules
//! U-1…U-5 with U-6's draw only for endless play.
//!
//! ## Index
//! Boards are reduced by the 8 symmetries of the grid (they keep lines and
//! both neighbourhoods). The occupied set (10 of 16 cells: 8,008 sets) falls
//! into 1,051 classes; each class has a canonical occupied set. A board is
//! mapped by a symmetry onto its class's canonical set, and where that set
//! has symmetries of its own, the smallest rank over them is taken, so a
//! position's index is a function of its symmetry class alone. The rank of
//! the pieces on the 10 occupied cells (slots in increasing cell order) is
//! `(which 5 slots are the first player's: C(10,5) = 252) × (his types on
//! them: 5!/(2!2!1!) = 30) × (the second player's: 30)` = 226,800. The table
//! has `1,051 × 6 × 226,800 = 1,430,200,800` one-byte entries (1.43 GB);
//! entries for non-canonical boards of symmetric classes stay unused.
//!
//! ## Algorithm
//! Retrograde analysis with counters, in waves of equal distance:
//! * each entry starts as the number of distinct child positions (1–8), or
//!   as a loss in 0 plies (the previous mover has four in a line, U-4; the
//!   player to move cannot move the required type, U-5), or as unused (the
//!   player to move has a line: unreachable);
//! * wave `k` visits the positions decided at distance `k`: for a loss,
//!   every distinct predecessor position (un-moves of the previous mover's
//!   piece of the previous phase's type) is a win at `k + 1`; for a win,
//!   every undecided predecessor loses one undecided child and, at zero, is
//!   a loss at `k + 1`;
//! * what is undecided at the end is a draw.
//!
//! Losses have even and wins odd distances (plies to the end, the winner
//! hurrying, the loser delaying). Entry encoding: `1..=8` undecided with
//! that many undecided children, `16 + d` decided at distance `d`
//! (`d ≤ 238`), 255 unused.
//!
//! ## The placement phase
//! [`solve_start`] searches the first 11 turns (placements, and turn 9's
//! cylinder move) from the empty board with alpha-beta over win/draw/loss
//! and a transposition table, reading the movement table at turn 12.
//!
//! Run it with `cargo run --release -p boardlab-engine --example
//! solve_line_up` (see `engine/examples/solve_line_up.rs`); the table is
//! written to a file; the game parameter `line_up(table=PATH)` loads it
//! ([`load_shared`]) for [`Search::solved`](crate::Search::solved) to read.

#![allow(clippy::needless_range_loop)] // tables indexed by byte and entry

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use super::state::LineUpState;
use super::{CELLS, KING, LINES, ORTH, SYMMETRIES};
use crate::api::State;
use crate::error::GameError;

/// Positions per (class, phase): 252 × 30 × 30.
pub const RANKS: usize = 252 * 30 * 30;

/// Turn phases (`n mod 6`, here `ply mod 6`).
pub const PHASES: usize = 6;

const UNUSED: u8 = 255;
const DECIDED: u8 = 16;

/// A board: `[player * 3 + type]` cell masks (type 0 square, 1 triangle,
/// 2 cylinder; player 0 first).
pub type Board = [u16; 6];

/// The symmetry tables and class index of the movement phase.
pub struct Index {
    /// For each 16-bit occupied mask with 10 cells: `class << 3 | symmetry`
    /// mapping it onto the class's canonical set; `u32::MAX` otherwise.
    canon: Vec<u32>,
    /// Each class's canonical occupied set.
    class_set: Vec<u16>,
    /// Each class's symmetries other than the identity that keep its set.
    stab: Vec<Vec<u8>>,
    /// `map[s][half][byte]`: the image under symmetry `s` of a byte of a
    /// mask (low or high half).
    map: Vec<[[u16; 256]; 2]>,
    /// 10-bit slot masks with 5 bits → 0..252, and back.
    five_rank: Vec<u16>,
    five_masks: Vec<u16>,
    /// Base-3 codes of 5 types with 2 squares, 2 triangles, 1 cylinder →
    /// 0..30, and back.
    type_rank: Vec<u8>,
    type_codes: Vec<[u8; 5]>,
}

impl Index {
    /// Builds the tables (a few milliseconds).
    pub fn new() -> Index {
        let mut map = vec![[[0u16; 256]; 2]; 8];
        for (s, m) in map.iter_mut().enumerate() {
            for half in 0..2 {
                for byte in 0..256usize {
                    let mut out = 0u16;
                    for b in 0..8 {
                        if byte >> b & 1 == 1 {
                            out |= 1 << SYMMETRIES[s][half * 8 + b];
                        }
                    }
                    m[half][byte] = out;
                }
            }
        }
        let mut idx = Index {
            canon: vec![u32::MAX; 1 << 16],
            class_set: Vec::new(),
            stab: Vec::new(),
            map,
            five_rank: vec![u16::MAX; 1 << 10],
            five_masks: Vec::new(),
            type_rank: vec![u8::MAX; 243],
            type_codes: Vec::new(),
        };
        let mut class_of: HashMap<u16, u32> = HashMap::new();
        for o in 0u32..1 << 16 {
            let o = o as u16;
            if o.count_ones() != 10 {
                continue;
            }
            let (best, sym) = (0..8)
                .map(|s| (idx.tmask(s, o), s))
                .min()
                .expect("8 symmetries");
            let next = class_of.len() as u32;
            let c = *class_of.entry(best).or_insert(next);
            if c == next {
                idx.class_set.push(best);
                idx.stab.push(
                    (1..8u8)
                        .filter(|&s| idx.tmask(s as usize, best) == best)
                        .collect(),
                );
            }
            idx.canon[o as usize] = c << 3 | sym as u32;
        }
        for m in 0u16..1 << 10 {
            if m.count_ones() == 5 {
                idx.five_rank[m as usize] = idx.five_masks.len() as u16;
                idx.five_masks.push(m);
            }
        }
        for code in 0..243usize {
            let mut t = [0u8; 5];
            let mut x = code;
            for d in t.iter_mut() {
                *d = (x % 3) as u8;
                x /= 3;
            }
            let n = |k: u8| t.iter().filter(|&&v| v == k).count();
            if n(0) == 2 && n(1) == 2 && n(2) == 1 {
                idx.type_rank[code] = idx.type_codes.len() as u8;
                idx.type_codes.push(t);
            }
        }
        debug_assert_eq!(idx.five_masks.len(), 252);
        debug_assert_eq!(idx.type_codes.len(), 30);
        idx
    }

    /// Symmetry classes of the occupied set (1,051).
    pub fn classes(&self) -> usize {
        self.class_set.len()
    }

    /// Entries in the table.
    pub fn entries(&self) -> usize {
        self.classes() * PHASES * RANKS
    }

    #[inline(always)]
    fn tmask(&self, s: usize, m: u16) -> u16 {
        let t = &self.map[s];
        t[0][(m & 0xFF) as usize] | t[1][(m >> 8) as usize]
    }

    #[inline(always)]
    fn tboard(&self, s: usize, b: &Board) -> Board {
        b.map(|m| self.tmask(s, m))
    }

    /// The rank of `b`, whose occupied set is `set`.
    #[inline(always)]
    fn rank_in(&self, set: u16, b: &Board) -> u32 {
        // Slot of each occupied cell: the cells of `set` below it.
        let slots = |m: u16| -> u16 {
            let mut out = 0u16;
            let mut x = m;
            while x != 0 {
                let c = x.trailing_zeros();
                out |= 1 << (set & ((1u16 << c) - 1)).count_ones();
                x &= x - 1;
            }
            out
        };
        let s = [0, 1, 2, 3, 4, 5].map(|k| slots(b[k]));
        let mut r = self.five_rank[(s[0] | s[1] | s[2]) as usize] as u32;
        for p in 0..2 {
            let mine = s[3 * p] | s[3 * p + 1] | s[3 * p + 2];
            let (mut code, mut w, mut x) = (0usize, 1usize, mine);
            while x != 0 {
                let slot = 1u16 << x.trailing_zeros();
                let t = if s[3 * p] & slot != 0 {
                    0
                } else if s[3 * p + 1] & slot != 0 {
                    1
                } else {
                    2
                };
                code += t * w;
                w *= 3;
                x &= x - 1;
            }
            r = r * 30 + self.type_rank[code] as u32;
        }
        r
    }

    /// The table index of a full board with the phase to move.
    #[inline]
    pub fn index(&self, b: &Board, phase: usize) -> usize {
        let o = b.iter().fold(0, |a, &m| a | m);
        let e = self.canon[o as usize];
        debug_assert!(e != u32::MAX, "a full board has 10 pieces");
        let (c, s) = ((e >> 3) as usize, (e & 7) as usize);
        let set = self.class_set[c];
        let b1 = self.tboard(s, b);
        let mut r = self.rank_in(set, &b1);
        for &t in &self.stab[c] {
            r = r.min(self.rank_in(set, &self.tboard(t as usize, &b1)));
        }
        (c * PHASES + phase) * RANKS + r as usize
    }

    /// The board and phase of table index `i` (the canonical board when
    /// `i` is a used entry).
    pub fn board(&self, i: usize) -> (Board, usize) {
        let r = i % RANKS;
        let phase = (i / RANKS) % PHASES;
        let c = i / RANKS / PHASES;
        let set = self.class_set[c];
        let mut cells = [0u8; 10];
        let mut x = set;
        for slot in cells.iter_mut() {
            *slot = x.trailing_zeros() as u8;
            x &= x - 1;
        }
        let (p1, rest) = (r / 900, r % 900);
        let (t1, t2) = (rest / 30, rest % 30);
        let m1 = self.five_masks[p1];
        let mut b = [0u16; 6];
        let (mut k1, mut k2) = (0, 0);
        for (slot, &cell) in cells.iter().enumerate() {
            if m1 >> slot & 1 == 1 {
                let t = self.type_codes[t1][k1] as usize;
                b[t] |= 1 << cell;
                k1 += 1;
            } else {
                let t = self.type_codes[t2][k2] as usize;
                b[3 + t] |= 1 << cell;
                k2 += 1;
            }
        }
        (b, phase)
    }
}

impl Default for Index {
    fn default() -> Self {
        Index::new()
    }
}

#[inline(always)]
fn has_line(b: &Board, p: usize) -> bool {
    let a = b[3 * p] | b[3 * p + 1] | b[3 * p + 2];
    LINES.iter().any(|&l| l & !a == 0)
}

#[inline(always)]
fn steps(t: usize) -> &'static [u16; CELLS] {
    if t == 2 { &KING } else { &ORTH }
}

/// Calls `f` with each board after a move of the phase's player and type.
#[inline(always)]
fn for_each_child(b: &Board, phase: usize, mut f: impl FnMut(&Board)) {
    let (p, t) = (phase & 1, phase % 3);
    let k = 3 * p + t;
    let empty = !(b[0] | b[1] | b[2] | b[3] | b[4] | b[5]);
    let nb = steps(t);
    let mut x = b[k];
    while x != 0 {
        let from = x.trailing_zeros() as usize;
        let mut d = nb[from] & empty;
        while d != 0 {
            let to = d.trailing_zeros();
            let mut c = *b;
            c[k] ^= (1 << from) | (1 << to);
            f(&c);
            d &= d - 1;
        }
        x &= x - 1;
    }
}

/// Calls `f` with each board before a move (of the previous phase's player
/// and type) that led to `b`.
#[inline(always)]
fn for_each_parent(b: &Board, phase: usize, f: impl FnMut(&Board)) {
    // Un-moves are moves of the same piece type backwards; the
    // neighbourhoods are symmetric, so they are the same steps.
    for_each_child(b, (phase + 5) % 6, f);
}

/// The distinct predecessor entries of table entry `i`: the first `m` of
/// the array. A parent whose player to move has a line is unused
/// (unreachable) and left out.
fn parents(idx: &Index, i: usize) -> ([usize; 8], usize) {
    let (b, phase) = idx.board(i);
    let prev = (phase + 5) % 6;
    let mut out = [0usize; 8];
    let mut m = 0;
    for_each_parent(&b, phase, |q| {
        if !has_line(q, prev & 1) {
            out[m] = idx.index(q, prev);
            m += 1;
        }
    });
    let m = dedup(&mut out, m);
    (out, m)
}

/// Distinct values in a small array, in place; returns the count.
#[inline(always)]
fn dedup(v: &mut [usize; 8], n: usize) -> usize {
    let mut k = 0;
    for i in 0..n {
        if !v[..k].contains(&v[i]) {
            v[k] = v[i];
            k += 1;
        }
    }
    k
}

/// Counts per wave, for the report.
#[derive(Clone, Debug, Default)]
pub struct SolveStats {
    /// Symmetry classes of the occupied set.
    pub classes: usize,
    /// Table entries (bytes).
    pub entries: usize,
    /// Used entries (canonical boards whose player to move has no line).
    pub positions: u64,
    /// Positions decided at each distance (index = plies).
    pub by_distance: Vec<u64>,
    /// Undecided at the end: draws.
    pub draws: u64,
    /// Seconds for the initial pass and for the waves.
    pub seconds: (f64, f64),
}

/// The movement-phase table.
pub struct Table {
    idx: Index,
    data: Vec<u8>,
}

impl Table {
    /// The value of a full board with the phase to move, for the player to
    /// move: `(1 win | 0 draw | −1 loss, plies)`; `None` for an unused
    /// entry. Draws report 0 plies.
    pub fn value(&self, b: &Board, phase: usize) -> Option<(i8, u32)> {
        decode(self.data[self.idx.index(b, phase)])
    }

    /// Continues the waves past the byte's exact range: the positions at
    /// distance [`LAST_SCANNED`] + 1 (value 254, left by [`Table::build`]
    /// when the waves ran that long) are the first frontier; from there
    /// each wave's newly decided positions are kept in a list, and their
    /// values saturate at [`SATURATED`] (252 for losses, 253 for wins:
    /// "at least 236 plies"). Returns the positions decided per distance
    /// from `LAST_SCANNED + 1` on; the draws left are in `draws`.
    pub fn extend_waves(&mut self, mut progress: impl FnMut(&str)) -> (Vec<u64>, u64) {
        let idx = &self.idx;
        let data = &mut self.data;
        let mut frontier: Vec<usize> = (0..data.len()).filter(|&i| data[i] == 254).collect();
        let mut counts = Vec::new();
        let mut d = LAST_SCANNED + 1;
        while !frontier.is_empty() {
            counts.push(frontier.len() as u64);
            progress(&format!(
                "distance {d}: {} positions ({}), frontier list",
                frontier.len(),
                if d.is_multiple_of(2) {
                    "losses"
                } else {
                    "wins"
                }
            ));
            let mut next = Vec::new();
            let (win, loss) = (DECIDED + SATURATED as u8 + 1, DECIDED + SATURATED as u8);
            for &i in &frontier {
                if data[i] == 254 {
                    data[i] = loss; // saturate the exact value of distance 238
                }
                let (parents, m) = parents(idx, i);
                for &e in &parents[..m] {
                    let v = data[e];
                    if v >= DECIDED {
                        continue;
                    }
                    if d.is_multiple_of(2) {
                        data[e] = win;
                        next.push(e);
                    } else if v == 1 {
                        data[e] = loss;
                        next.push(e);
                    } else {
                        data[e] = v - 1;
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        let draws = data.iter().filter(|&&v| v != UNUSED && v < DECIDED).count() as u64;
        (counts, draws)
    }
}

/// The last distance whose positions [`Table::build`] finds by scanning
/// the table for their exact value (`16 + d ≤ 253`).
pub const LAST_SCANNED: usize = 237;

/// Distances from here on are stored saturated: "at least this many plies"
/// (236 for losses, 237 for wins).
pub const SATURATED: u32 = 236;

/// The value of a table byte: `(1 win | 0 draw | −1 loss, plies)`, `None`
/// for an unused entry; a distance of [`SATURATED`] or more means at least
/// that many.
fn decode(v: u8) -> Option<(i8, u32)> {
    {
        match v {
            UNUSED => None,
            v if v >= DECIDED => {
                let d = (v - DECIDED) as u32;
                Some((if d.is_multiple_of(2) { -1 } else { 1 }, d))
            }
            _ => Some((0, 0)),
        }
    }
}

impl Table {
    /// The index.
    pub fn index(&self) -> &Index {
        &self.idx
    }

    /// Builds the table with `threads` threads; `progress` receives one
    /// line per stage.
    pub fn build(threads: usize, mut progress: impl FnMut(&str)) -> (Table, SolveStats) {
        let idx = Index::new();
        let n = idx.entries();
        let mut stats = SolveStats {
            classes: idx.classes(),
            entries: n,
            ..Default::default()
        };
        progress(&format!(
            "{} classes x {PHASES} phases x {RANKS} ranks = {n} entries",
            idx.classes()
        ));
        let data: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        let threads = threads.max(1);
        let chunk = n.div_ceil(threads);
        let t0 = std::time::Instant::now();
        let used = AtomicU64::new(0);
        // Initial pass: unused entries, losses in 0, child counts.
        std::thread::scope(|sc| {
            for k in 0..threads {
                let (idx, data, used) = (&idx, &data, &used);
                sc.spawn(move || {
                    let mut local = 0u64;
                    for i in k * chunk..((k + 1) * chunk).min(n) {
                        let (b, phase) = idx.board(i);
                        let p = phase & 1;
                        let v = if idx.index(&b, phase) != i || has_line(&b, p) {
                            UNUSED
                        } else if has_line(&b, 1 - p) {
                            DECIDED
                        } else {
                            let mut kids = [0usize; 8];
                            let mut m = 0;
                            for_each_child(&b, phase, |c| {
                                kids[m] = idx.index(c, (phase + 1) % 6);
                                m += 1;
                            });
                            if m == 0 {
                                DECIDED // U-5: immobile
                            } else {
                                dedup(&mut kids, m) as u8
                            }
                        };
                        if v != UNUSED {
                            local += 1;
                        }
                        data[i].store(v, Ordering::Relaxed);
                    }
                    used.fetch_add(local, Ordering::Relaxed);
                });
            }
        });
        stats.positions = used.load(Ordering::Relaxed);
        stats.seconds.0 = t0.elapsed().as_secs_f64();
        progress(&format!(
            "initial pass: {} positions in {:.0} s",
            stats.positions, stats.seconds.0
        ));
        let t1 = std::time::Instant::now();
        for d in 0..=LAST_SCANNED {
            let want = DECIDED + d as u8;
            let found = AtomicU64::new(0);
            std::thread::scope(|sc| {
                for k in 0..threads {
                    let (idx, data, found) = (&idx, &data, &found);
                    sc.spawn(move || {
                        let mut local = 0u64;
                        for i in k * chunk..((k + 1) * chunk).min(n) {
                            if data[i].load(Ordering::Relaxed) != want {
                                continue;
                            }
                            local += 1;
                            let (parents, m) = parents(idx, i);
                            for &e in &parents[..m] {
                                let cell = &data[e];
                                if d.is_multiple_of(2) {
                                    // A child lost: the parent wins.
                                    let _ = cell.fetch_update(
                                        Ordering::Relaxed,
                                        Ordering::Relaxed,
                                        |v| (v < DECIDED).then_some(want + 1),
                                    );
                                } else {
                                    let _ = cell.fetch_update(
                                        Ordering::Relaxed,
                                        Ordering::Relaxed,
                                        |v| match v {
                                            1 => Some(want + 1),
                                            v if v < DECIDED => Some(v - 1),
                                            _ => None,
                                        },
                                    );
                                }
                            }
                        }
                        found.fetch_add(local, Ordering::Relaxed);
                    });
                }
            });
            let f = found.load(Ordering::Relaxed);
            progress(&format!(
                "distance {d}: {f} positions ({}), {:.0} s",
                if d.is_multiple_of(2) {
                    "losses"
                } else {
                    "wins"
                },
                t1.elapsed().as_secs_f64()
            ));
            if f == 0 {
                break;
            }
            stats.by_distance.push(f);
        }
        stats.seconds.1 = t1.elapsed().as_secs_f64();
        let data: Vec<u8> = data.into_iter().map(AtomicU8::into_inner).collect();
        stats.draws = data.iter().filter(|&&v| v != UNUSED && v < DECIDED).count() as u64;
        (Table { idx, data }, stats)
    }

    /// Writes the table: the magic line `boardlab line_up table v1\n` then
    /// the entries.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        f.write_all(MAGIC)?;
        f.write_all(&self.data)?;
        f.flush()
    }

    /// Reads a table written by [`Table::save`].
    ///
    /// # Errors
    /// The file cannot be read, or is not a table of the right size.
    pub fn load(path: &Path) -> std::io::Result<Table> {
        let idx = Index::new();
        let mut f = std::fs::File::open(path)?;
        let mut magic = vec![0u8; MAGIC.len()];
        match f.read_exact(&mut magic) {
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                return Err(std::io::Error::other(
                    "not a boardlab line_up table (shorter than its header)",
                ));
            }
            r => r?,
        }
        if magic != MAGIC {
            return Err(std::io::Error::other("not a boardlab line_up table"));
        }
        let mut data = Vec::with_capacity(idx.entries());
        f.read_to_end(&mut data)?;
        if data.len() != idx.entries() {
            return Err(std::io::Error::other(format!(
                "table has {} entries, expected {}",
                data.len(),
                idx.entries()
            )));
        }
        Ok(Table { idx, data })
    }
}

const MAGIC: &[u8] = b"boardlab line_up table v1\n";

/// The tables loaded so far, by path: each file is read once per process
/// and kept for its life (1.43 GB; states hold a plain reference to it).
static LOADED: Mutex<Vec<(PathBuf, &'static Table)>> = Mutex::new(Vec::new());

/// The table at `path` (the game parameter `line_up(table=PATH)`), read
/// on the first call for that path and shared by every later one.
///
/// # Errors
/// The file cannot be read, or is not a whole table (wrong header or
/// size); the one-line message names the path.
pub fn load_shared(path: &Path) -> Result<&'static Table, GameError> {
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, t)) = loaded.iter().find(|(p, _)| p == path) {
        return Ok(t);
    }
    let table = Table::load(path).map_err(|e| {
        GameError::new(format!(
            "game line_up: table={}: cannot load a solution table: {e}",
            path.display()
        ))
    })?;
    let table: &'static Table = Box::leak(Box::new(table));
    loaded.push((path.to_path_buf(), table));
    Ok(table)
}

/// The board of a state in the table's layout.
pub fn board_of(s: &LineUpState) -> Board {
    let (a, b) = (s.pieces(0), s.pieces(1));
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}

/// The table's value of `s` for the player to move, if a table is
/// installed, the position is in the movement phase and the rules are the
/// table's: repetitions off, and the result reached within the ply cap (a
/// draw is reported with the plies left to the cap).
pub(super) fn lookup(s: &LineUpState) -> Option<(i8, u32)> {
    let r = s.rules();
    if r.repetitions != 0 || s.ply() < 11 || s.is_terminal() {
        return None;
    }
    let t = s.table?;
    let (v, d) = t.value(&board_of(s), (s.ply() % 6) as usize)?;
    match v {
        0 => Some((0, r.ply_cap - s.ply())),
        _ if d < SATURATED && s.ply() + d <= r.ply_cap => Some((v, d)),
        _ => None,
    }
}

/// The result of the placement-phase search.
#[derive(Clone, Debug)]
pub struct StartValue {
    /// The value of the empty board for the first player: 1 win, 0 draw,
    /// −1 loss.
    pub value: i8,
    /// Each first placement (cell index) with its value for the first
    /// player.
    pub first_moves: Vec<(usize, i8)>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Solves the placement phase from the empty board with the movement table
/// at turn 12: negamax over win/draw/loss with alpha-beta and a
/// transposition table keyed by the position's Zobrist key. `max_nodes`
/// bounds the work: `None` if it ran out.
pub fn solve_start(table: &Table, max_nodes: u64) -> Option<StartValue> {
    let game = crate::line_up::LineUpGame::new(crate::line_up::Rules {
        ply_cap: 100_000,
        ..Default::default()
    })
    .expect("valid rules");
    let start = crate::api::Game::initial_state(&game, 0);
    let mut search = Placement {
        table,
        tt: HashMap::new(),
        nodes: 0,
        max_nodes,
    };
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let mut first_moves = Vec::new();
    let mut best = -1;
    for &m in &moves {
        let mut c = start.clone();
        c.apply(m);
        let v = -search.negamax(&c, -1, 1)?;
        first_moves.push((m.to as usize, v));
        best = best.max(v);
    }
    Some(StartValue {
        value: best,
        first_moves,
        nodes: search.nodes,
    })
}

/// The second player's replies to the first placement on cell `first`,
/// each with its value for the second player (1 win, 0 draw, −1 loss), by
/// the same search as [`solve_start`]; `None` if `max_nodes` ran out.
pub fn replies(table: &Table, first: usize, max_nodes: u64) -> Option<Vec<(usize, i8)>> {
    let game = crate::line_up::LineUpGame::new(crate::line_up::Rules {
        ply_cap: 100_000,
        ..Default::default()
    })
    .expect("valid rules");
    let mut s = crate::api::Game::initial_state(&game, 0);
    s.apply(crate::line_up::LineUpMove::place(first));
    let mut search = Placement {
        table,
        tt: HashMap::new(),
        nodes: 0,
        max_nodes,
    };
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut out = Vec::new();
    for &m in &moves {
        let mut c = s.clone();
        c.apply(m);
        out.push((m.to as usize, -search.negamax(&c, -1, 1)?));
    }
    Some(out)
}

struct Placement<'a> {
    table: &'a Table,
    /// Key → (lower bound, upper bound) on the value for the player to move.
    tt: HashMap<u64, (i8, i8)>,
    nodes: u64,
    max_nodes: u64,
}

impl Placement<'_> {
    fn negamax(&mut self, s: &LineUpState, mut alpha: i8, mut beta: i8) -> Option<i8> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return None;
        }
        if let Some((_, w)) = s.ending() {
            return Some(match w {
                Some(w) if w as usize == s.player() => 1,
                Some(_) => -1,
                None => 0,
            });
        }
        if s.ply() >= 11 {
            let (v, _) = self
                .table
                .value(&board_of(s), (s.ply() % 6) as usize)
                .expect("a reachable position is in the table");
            return Some(v);
        }
        let key = s.zobrist();
        let (lo, hi) = self.tt.get(&key).copied().unwrap_or((-1, 1));
        if lo >= beta || lo == hi {
            return Some(lo);
        }
        if hi <= alpha {
            return Some(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let (a0, b0) = (alpha, beta);
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        // Moves that win at once first.
        moves.sort_by_key(|&m| {
            let mut c = s.clone();
            c.apply(m);
            !matches!(c.ending(), Some((_, Some(_))))
        });
        let mut best = -1i8;
        for m in moves {
            let mut c = s.clone();
            c.apply(m);
            let v = -self.negamax(&c, -beta, -alpha)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        // Fail-soft: below the window an upper bound, above it a lower one.
        let entry = if best <= a0 {
            (lo, best.min(hi))
        } else if best >= b0 {
            (best.max(lo), hi)
        } else {
            (best, best)
        };
        self.tt.insert(key, entry);
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_bytes() {
        // Losses at even distances, wins at odd (the loser moves at 0).
        assert_eq!(decode(UNUSED), None);
        assert_eq!(decode(DECIDED), Some((-1, 0)));
        assert_eq!(decode(DECIDED + 1), Some((1, 1)));
        assert_eq!(decode(5), Some((0, 0)), "undecided at the end: a draw");
        assert_eq!(decode(DECIDED + SATURATED as u8), Some((-1, SATURATED)));
        assert_eq!(
            decode(DECIDED + SATURATED as u8 + 1),
            Some((1, SATURATED + 1))
        );
    }

    #[test]
    fn index_round_trips_and_is_a_class_function() {
        let idx = Index::new();
        assert_eq!(
            idx.classes(),
            1051,
            "Burnside: (8008 + 56 + 2*56 + 2*116) / 8"
        );
        assert_eq!(idx.entries(), 1_430_200_800);
        // Sample entries: unrank, rank back; every symmetric image of a
        // board has the same index.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x % idx.entries() as u64) as usize;
            let (b, phase) = idx.board(i);
            assert_eq!(
                b.iter().map(|m| m.count_ones()).collect::<Vec<_>>(),
                [2, 2, 1, 2, 2, 1]
            );
            let j = idx.index(&b, phase);
            if j != i {
                // A non-canonical rank of a symmetric class.
                assert!(!idx.stab[i / RANKS / PHASES].is_empty());
                continue;
            }
            checked += 1;
            for s in 0..8 {
                assert_eq!(idx.index(&idx.tboard(s, &b), phase), i);
            }
        }
        assert!(checked > 19_000);
    }
}
