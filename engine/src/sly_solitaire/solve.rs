//! The exact solver of Solitaire Sly: the fewest pieces that can
//! be left from a position, a line that leaves them, and optionally the
//! fewest moves among such lines.
//!
//! The `solver` agent's generic branch and bound (in `boardlab-agents`)
//! works through the [`crate::State`] API: every node clones, applies and
//! evaluates each child and keeps 40-byte table slots. This search works on
//! the bits: moves are read off the row and column lines into an array on
//! the stack, ordered by a score taken from the parent's bits, children are
//! plain copies with [`SlySolitaireState::jump`], and the transposition
//! table keeps a 64-bit Zobrist key and two bytes a position, four to a
//! bucket.
//!
//! ## Pass one: the fewest pieces (branch and bound)
//! A depth-first search keeps the *incumbent*, the fewest pieces of any end
//! seen, and its line. Every searched position returns a **lower bound** on
//! the pieces any end below it keeps: exact at an end (no jump, S-6), else
//! the least of its children's bounds. A position is cut when its bound
//! (from the table, or the static bound: one piece, since a jump never
//! removes the jumper) cannot beat the incumbent. The search stops at once
//! when the incumbent reaches one piece. Finished with no node budget
//! exhausted, the incumbent is proven: every end that could beat it lies
//! below a cut whose bound says it cannot.
//!
//! Pass one gives up after 200,000 positions and **restarts** with the
//! move order perturbed (pseudo-random, fixed by the restart number), with
//! twice the allowance each time, keeping the table: its bounds hold
//! whatever the order, so a restart loses no proof, and a win that one
//! order reaches late another often reaches early (on the first 63 random
//! layouts of seed 2026 this found every win; without restarts six were
//! still open after 10^8 positions).
//!
//! ## Pass two: the fewest moves (`fewest = true`)
//! With the best count `v` proven, iterative deepening on the length
//! (IDA*): for `d` from an admissible lower bound on the moves of the
//! start, a depth-first search for a line of at most `d` plies ending with
//! `v` pieces. Every child is scored by [`bound::moves_lower_bound`] (the
//! largest of three admissible bounds: the rows and columns that must hold
//! every piece, by König's theorem a maximum matching; the pieces a jump
//! can remove; the landings isolated pieces need; each proven in
//! [`bound`]); a child whose bound exceeds the plies left is cut, the rest
//! are searched smallest bound first. A position is also cut when the
//! transposition table says it was searched in vain with at least as many
//! plies left (such entries stay valid from one depth to the next). Each
//! depth that fails is proven, so an unfinished pass two still bounds the
//! shortest length from below ([`Solved::shortest_from`]).
//!
//! ## Move ordering
//! Jumps that remove more pieces first, then those whose landing space
//! touches other pieces (the rule book's "keep the pieces together"); in
//! pass two this order only breaks ties of the bound.

use super::bound;
use super::state::{SlySolitaireMove, SlySolitaireState};
use crate::board::sly;
use crate::board::zobrist::SplitMix64;

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The fewest pieces left by any line found (proven least when
    /// `proven`).
    pub pieces: u32,
    /// A line from the position to the end of the game leaving `pieces`.
    pub line: Vec<SlySolitaireMove>,
    /// No node budget ran out: `pieces` is the least reachable and, when
    /// the fewest moves were asked for, `line` is a shortest such line.
    pub proven: bool,
    /// Positions searched, both passes.
    pub nodes: u64,
    /// Every line leaving `pieces` has at least this many plies: the line's
    /// length when proven with `fewest`; with the budget spent in pass two,
    /// the shortest length not yet ruled out.
    pub shortest_from: u32,
}

/// At most 36 pieces, four directions each.
const MAX_MOVES: usize = 144;

/// Positions of pass one's first try before a restart (each restart
/// doubles it).
const RESTART_NODES: u64 = 200_000;

/// A restart's scores are perturbed by up to this (3 removed pieces' worth).
const PERTURB: u64 = 24;

/// A transposition table: full 64-bit keys and a two-byte datum each (the
/// value and, for replacement, the pieces of the position), in buckets of
/// four; a new entry replaces the one with the fewest pieces (the smallest
/// subtree).
struct Table {
    keys: Vec<u64>,
    data: Vec<[u8; 2]>,
    mask: usize,
}

impl Table {
    fn new(mb: usize) -> Table {
        let per = std::mem::size_of::<u64>() + 2;
        let entries = ((mb << 20) / per).max(4);
        let buckets = (entries / 4).next_power_of_two();
        let buckets = if buckets * 4 > entries && buckets > 1 {
            buckets / 2
        } else {
            buckets
        };
        Table {
            keys: vec![0; buckets * 4],
            data: vec![[0; 2]; buckets * 4],
            mask: buckets - 1,
        }
    }

    fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = 0);
        self.data.iter_mut().for_each(|d| *d = [0; 2]);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key ^ (key >> 29)) as usize & self.mask) * 4
    }

    /// The value stored for `key` (key 0, the empty slot, is never kept).
    #[inline]
    fn probe(&self, key: u64) -> Option<u8> {
        if key == 0 {
            return None;
        }
        let b = self.bucket(key);
        (b..b + 4)
            .find(|&i| self.keys[i] == key)
            .map(|i| self.data[i][0])
    }

    #[inline]
    fn store(&mut self, key: u64, value: u8, pieces: u8) {
        if key == 0 {
            return;
        }
        let b = self.bucket(key);
        // The key's own slot, else the first empty one (empties are the
        // bucket's tail), else the entry with the fewest pieces.
        let at = (b..b + 4)
            .find(|&i| self.keys[i] == key || self.keys[i] == 0)
            .unwrap_or_else(|| (b..b + 4).min_by_key(|&i| self.data[i][1]).unwrap_or(b));
        self.keys[at] = key;
        self.data[at] = [value, pieces];
    }
}

/// A jump and its ordering score.
#[derive(Copy, Clone, Default)]
struct Jump {
    score: i32,
    from: u8,
    to: u8,
}

/// A restart's perturbation of a jump's score: 0 with `salt` 0 (the first
/// pass), else a pseudo-random 0..[`PERTURB`] from the salt, the position and
/// the jump, so a restart explores in another order, the same in every run.
#[inline]
fn perturb(salt: u64, key: u64, from: u32, to: u32) -> i32 {
    if salt == 0 {
        return 0;
    }
    let x = SplitMix64(salt ^ key ^ ((from as u64) << 8 | to as u64)).next();
    (x % PERTURB) as i32
}

/// The legal jumps of `s` into `out`, best score first (perturbed by a
/// restart's `salt`); returns how many.
#[inline]
fn ordered_jumps(s: &SlySolitaireState, out: &mut [Jump; MAX_MOVES], salt: u64) -> usize {
    let mut n = 0;
    s.for_each_jump(|from, to| {
        let (r0, c0) = (sly::row_of(from), sly::col_of(from));
        let (r1, c1) = (sly::row_of(to), sly::col_of(to));
        let removed = r0.abs_diff(r1).max(c0.abs_diff(c1)) - 1;
        // Neighbours of the landing space that stay: all but the end of
        // the run, which is one of them.
        let row = s.occ_rows[r1 as usize] as u32;
        let col = s.occ_cols[c1 as usize] as u32;
        let near = (row >> (c1 + 1) & 1)
            + (if c1 > 0 { row >> (c1 - 1) & 1 } else { 0 })
            + (col >> (r1 + 1) & 1)
            + (if r1 > 0 { col >> (r1 - 1) & 1 } else { 0 })
            - 1;
        out[n] = Jump {
            score: (removed * 8 + (near > 0) as u32 * 4 + near) as i32
                + perturb(salt, s.hash, from, to),
            from: from as u8,
            to: to as u8,
        };
        n += 1;
        false
    });
    // Insertion sort, best first: short lists, stable.
    for i in 1..n {
        let x = out[i];
        let mut j = i;
        while j > 0 && out[j - 1].score < x.score {
            out[j] = out[j - 1];
            j -= 1;
        }
        out[j] = x;
    }
    n
}

/// At most how many pieces `within` jumps can remove from `s`: jump `j`
/// (0-based) removes at most `m − 1 + j`, `m` the most pieces in any row or
/// column now (a landing adds at most one piece to a line).
pub(crate) fn removable_within(s: &SlySolitaireState, within: u32) -> u32 {
    let m = s
        .occ_rows
        .iter()
        .chain(s.occ_cols.iter())
        .map(|x| x.count_ones())
        .max()
        .unwrap_or(0);
    let n = s.count as u32;
    let mut removed = 0u32;
    let mut j = 0u32;
    while j < within && removed < n {
        removed += (m + j).saturating_sub(1);
        j += 1;
    }
    removed
}

/// The search's working state.
struct Search {
    table: Table,
    budget: u64,
    /// The node count at which this restart gives up (0: never).
    limit: u64,
    /// Perturbs the move order of a restart (0: the plain order).
    salt: u64,
    nodes: u64,
    aborted: bool,
    path: Vec<SlySolitaireMove>,
    best: u32,
    best_line: Vec<SlySolitaireMove>,
    /// Pass two: the pieces a line must leave.
    target: u32,
    /// Pass two: children scored by the bound.
    bounded: u64,
}

impl Search {
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if (self.budget > 0 && self.nodes > self.budget)
            || (self.limit > 0 && self.nodes > self.limit)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Pass one: a lower bound on the pieces any end below `s` keeps (exact
    /// at an end); see the module docs.
    fn bound(&mut self, s: &SlySolitaireState) -> u32 {
        if self.tick() {
            return 0;
        }
        // Only positions with a jump are stored, so a hit is not an end.
        let key = s.hash;
        if let Some(v) = self.table.probe(key)
            && v as u32 >= self.best
        {
            return v as u32;
        }
        let mut jumps = [Jump::default(); MAX_MOVES];
        let n = ordered_jumps(s, &mut jumps, self.salt);
        let count = s.count as u32;
        if n == 0 {
            if count < self.best {
                self.best = count;
                self.best_line.clone_from(&self.path);
            }
            return count;
        }
        // A jump never removes the jumper.
        if self.best <= 1 {
            return 1;
        }
        let mut low = u32::MAX;
        for j in &jumps[..n] {
            let mut c = *s;
            c.jump(j.from as u32, j.to as u32);
            // The child's bound from the table, before a call.
            let v = match self.table.probe(c.hash) {
                Some(v) if v as u32 >= self.best => v as u32,
                _ => {
                    self.path.push(SlySolitaireMove {
                        from: j.from,
                        to: j.to,
                    });
                    let v = self.bound(&c);
                    self.path.pop();
                    if self.aborted {
                        return 0;
                    }
                    v
                }
            };
            low = low.min(v);
            if self.best <= 1 {
                return 1;
            }
        }
        self.table.store(key, low as u8, count as u8);
        low
    }

    /// Pass two: whether a line of at most `left` more plies from `s`
    /// leaves `target` pieces (the line is then in `best_line`). The caller
    /// has checked `s` against the bound ([`bound::moves_lower_bound`]).
    fn within(&mut self, s: &SlySolitaireState, left: u32) -> bool {
        if self.tick() {
            return false;
        }
        let count = s.count as u32;
        if count <= self.target {
            // `target` is the least reachable: no jump is left.
            self.best_line.clone_from(&self.path);
            return true;
        }
        if left == 0 {
            return false;
        }
        let key = s.hash;
        if let Some(v) = self.table.probe(key)
            && v as u32 >= left
        {
            return false;
        }
        let mut jumps = [Jump::default(); MAX_MOVES];
        let n = ordered_jumps(s, &mut jumps, 0);
        // The children the bound allows, smallest bound first (ties in the
        // jumps' order): (bound, index into `jumps`).
        let mut kids = [(0u8, 0u8); MAX_MOVES];
        let mut k = 0;
        for (i, j) in jumps[..n].iter().enumerate() {
            let mut c = *s;
            c.jump(j.from as u32, j.to as u32);
            let h = bound::moves_lower_bound(&c, self.target);
            self.bounded += 1;
            if h < left {
                // Insertion in order, after equal bounds.
                let mut at = k;
                while at > 0 && kids[at - 1].0 > h as u8 {
                    kids[at] = kids[at - 1];
                    at -= 1;
                }
                kids[at] = (h as u8, i as u8);
                k += 1;
            }
        }
        for &(_, i) in &kids[..k] {
            let j = jumps[i as usize];
            let mut c = *s;
            c.jump(j.from as u32, j.to as u32);
            if let Some(v) = self.table.probe(c.hash)
                && v as u32 >= left - 1
            {
                continue;
            }
            self.path.push(SlySolitaireMove {
                from: j.from,
                to: j.to,
            });
            let found = self.within(&c, left - 1);
            self.path.pop();
            if found {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        // Searched in vain with `left` plies: so with any fewer too.
        self.table.store(key, left.min(255) as u8, count as u8);
        false
    }
}

/// Solves `s`: the fewest pieces reachable and a line leaving them, and with
/// `fewest` the shortest such line. `mb` bounds the table (MiB); `nodes`
/// (0 = none) bounds the positions searched, past which the best found is
/// returned unproven.
pub fn solve(s: &SlySolitaireState, mb: usize, nodes: u64, fewest: bool) -> Solved {
    solve_reporting(s, mb, nodes, fewest, |_| {})
}

/// [`solve`], telling `progress` each finished step: the first pass's
/// result, then each length of pass two that no line has.
pub fn solve_reporting(
    s: &SlySolitaireState,
    mb: usize,
    nodes: u64,
    fewest: bool,
    mut progress: impl FnMut(&Progress),
) -> Solved {
    let mut search = Search {
        table: Table::new(mb),
        budget: nodes,
        limit: 0,
        salt: 0,
        nodes: 0,
        aborted: false,
        path: Vec::with_capacity(40),
        best: u32::MAX,
        best_line: Vec::new(),
        target: 0,
        bounded: 0,
    };
    // Restarts: pass one gives up after RESTART_NODES positions, then
    // twice as many, … with a new order each time; the table's bounds stay
    // valid from one to the next. The last one runs to the end (or the
    // budget).
    let mut r = 0u32;
    loop {
        search.limit = if r < 30 {
            search.nodes + (RESTART_NODES << r)
        } else {
            0
        };
        if search.budget > 0 && search.limit >= search.budget {
            search.limit = 0;
        }
        search.salt = if r == 0 {
            0
        } else {
            SplitMix64(r as u64).next() | 1
        };
        search.path.clear();
        search.aborted = false;
        search.bound(s);
        if !search.aborted || search.limit == 0 || search.nodes <= search.limit {
            break;
        }
        r += 1;
    }
    search.limit = 0;
    let mut shortest_from = 0;
    if !search.aborted {
        progress(&Progress {
            pieces: search.best,
            no_line_within: None,
            nodes: search.nodes,
            bounded: 0,
        });
    }
    if fewest && !search.aborted {
        // Pass two: iterative deepening on the length, from the least
        // that can remove enough pieces; a depth that fails is proven.
        search.table.clear();
        search.target = search.best;
        let line = search.best_line.clone();
        let mut d = bound::moves_lower_bound(s, search.best).min(line.len() as u32);
        shortest_from = d;
        while d < line.len() as u32 {
            search.path.clear();
            if search.within(s, d) {
                break;
            }
            if search.aborted {
                search.best_line = line.clone();
                break;
            }
            progress(&Progress {
                pieces: search.best,
                no_line_within: Some(d),
                nodes: search.nodes,
                bounded: search.bounded,
            });
            d += 1;
            shortest_from = d;
        }
        if d == line.len() as u32 {
            search.best_line = line;
        }
    }
    Solved {
        pieces: search.best,
        shortest_from: if fewest && !search.aborted {
            search.best_line.len() as u32
        } else {
            shortest_from
        },
        line: search.best_line,
        proven: !search.aborted,
        nodes: search.nodes,
    }
}

/// A finished step of [`solve_reporting`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The fewest pieces reachable (proven).
    pub pieces: u32,
    /// `None` after pass one; then each length `d` such that no line of at
    /// most `d` plies leaves `pieces` (proven).
    pub no_line_within: Option<u32>,
    /// Positions searched so far, both passes (in pass two, the positions
    /// the search entered: children cut by the bound are not counted).
    pub nodes: u64,
    /// Pass two so far: the children whose bound was computed (entered or
    /// cut).
    pub bounded: u64,
}
