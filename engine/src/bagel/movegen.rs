//! Bagel move generation: the hex geometry and lines, the tile layout, singles and aligned same-colour pairs, 3-in-a-row (4 in Big Bagel) scoring.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use super::state::Stage;
use super::{
    BagelMove, BagelNotation, BagelState, MAX_CELLS, MAX_COLOURS, MAX_LINES, MAX_WIN_PER_CELL,
    Side, TILE_LETTERS,
};
use crate::api::State;
use crate::board::hex::HexGrid;
use crate::board::{Bits, zobrist};
use crate::error::GameError;

/// Geometry of one base: cells, lines, windows, Zobrist keys.
pub(crate) struct Geometry {
    pub(crate) base: u32,
    pub(crate) grid: HexGrid<u64>,
    pub(crate) notation: BagelNotation,
    pub(crate) hole: usize,
    /// Tile cells (all cells but the hole).
    pub(crate) tiles: u64,
    pub(crate) ntiles: usize,
    /// Scoring window length: 3 (base 4) or 4 (base 5) (B-8, B-V2).
    pub(crate) k: usize,
    /// Scoring windows (B-G5): masks.
    pub(crate) windows: Vec<u64>,
    /// Per cell: the scoring windows through it.
    pub(crate) win_by_cell: Vec<([u64; MAX_WIN_PER_CELL], u8)>,
    /// Lines: cells in order, and masks.
    pub(crate) lines: Vec<(Vec<u8>, u64)>,
    /// Per cell: its three line indices.
    pub(crate) cell_lines: Vec<[u8; 3]>,
    /// Zobrist keys: layout `cell * 6 + colour`, discs `cell * 2 + colour`.
    pub(crate) z_layout: Vec<u64>,
    pub(crate) z_disc: Vec<u64>,
    pub(crate) z_black: u64,
    pub(crate) z_stage: [u64; 3],
    pub(crate) z_swapped: u64,
}

impl Geometry {
    pub(crate) fn get(base: u32) -> &'static Geometry {
        static G4: OnceLock<Geometry> = OnceLock::new();
        static G5: OnceLock<Geometry> = OnceLock::new();
        if base == 5 {
            G5.get_or_init(|| Geometry::new(5))
        } else {
            G4.get_or_init(|| Geometry::new(4))
        }
    }

    pub(crate) fn new(base: u32) -> Geometry {
        let grid = HexGrid::<u64>::new(base as usize).expect("side 4 or 5 fits a u64");
        let hole = grid.centre();
        let hole_bit = 1u64 << hole;
        let tiles = grid.all() & !hole_bit;
        let k = base as usize - 1;
        let wins = grid.windows(k, hole_bit);
        let windows: Vec<u64> = wins.iter().map(|w| w.mask).collect();
        let mut win_by_cell = vec![([0u64; MAX_WIN_PER_CELL], 0u8); grid.len()];
        for &m in &windows {
            for c in m.iter() {
                let e = &mut win_by_cell[c as usize];
                e.0[e.1 as usize] = m;
                e.1 += 1;
            }
        }
        let lines: Vec<(Vec<u8>, u64)> = grid
            .lines()
            .iter()
            .map(|l| (l.cells.clone(), l.mask))
            .collect();
        let cell_lines = (0..grid.len())
            .map(|c| {
                [
                    grid.line_of(0, c) as u8,
                    grid.line_of(1, c) as u8,
                    grid.line_of(2, c) as u8,
                ]
            })
            .collect();
        let n = grid.len();
        let keys = zobrist::keys(0xBA6E_1000 + base as u64, n * 8 + 5);
        Geometry {
            base,
            notation: BagelNotation {
                radius: base as i32 - 1,
            },
            hole,
            tiles,
            ntiles: n - 1,
            k,
            windows,
            win_by_cell,
            lines,
            cell_lines,
            z_layout: keys[..n * 6].to_vec(),
            z_disc: keys[n * 6..n * 8].to_vec(),
            z_black: keys[n * 8],
            z_stage: [keys[n * 8 + 1], keys[n * 8 + 2], keys[n * 8 + 3]],
            z_swapped: keys[n * 8 + 4],
            grid,
        }
    }

    pub(crate) fn name(&self, cell: usize) -> String {
        self.grid.name(cell, &self.notation)
    }

    /// Tile cells in B-G6 order.
    pub(crate) fn tile_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.grid.len()).filter(move |&c| c != self.hole)
    }
}

/// A tile layout with its per-layout tables, shared (behind an [`Arc`]) by
/// every state of every game on it, and freed with the last of them: a run
/// drawing a new random layout per game does not grow.
pub(crate) struct Layout {
    pub(crate) geo: &'static Geometry,
    pub(crate) text: String,
    pub(crate) colours: usize,
    /// Tile colour per cell (`u8::MAX` for the hole).
    pub(crate) colour: [u8; MAX_CELLS],
    /// `group[line * 6 + colour]` = the tiles of `colour` on `line`.
    pub(crate) group: [u64; MAX_LINES * MAX_COLOURS],
    pub(crate) zobrist: u64,
}

impl Layout {
    /// Checks a layout string for `geo` with `colours` colours and returns
    /// its tables: the live copy if a state on it still exists (a cache of
    /// weak references, pruned of dead ones as it grows), else a new one.
    pub(crate) fn intern(
        geo: &'static Geometry,
        colours: usize,
        text: &str,
    ) -> Result<Arc<Layout>, GameError> {
        let text = text.trim().to_ascii_uppercase();
        if text.len() != geo.ntiles {
            crate::bail!(
                "bad layout {text:?}: expected {} letters (one per tile in B-G6 order), got {}",
                geo.ntiles,
                text.len()
            );
        }
        let letters = &TILE_LETTERS[..colours];
        let per = geo.ntiles / colours;
        let mut counts = [0usize; MAX_COLOURS];
        for ch in text.bytes() {
            match letters.iter().position(|&l| l == ch) {
                Some(i) => counts[i] += 1,
                None => crate::bail!(
                    "bad layout {text:?}: letter {:?} is not a tile colour (expected {})",
                    ch as char,
                    String::from_utf8_lossy(letters)
                ),
            }
        }
        if counts[..colours].iter().any(|&c| c != per) {
            let got: Vec<String> = (0..colours)
                .map(|i| format!("{}={}", letters[i] as char, counts[i]))
                .collect();
            crate::bail!(
                "bad layout {text:?}: expected {per} tiles of each colour, got {}",
                got.join(" ")
            );
        }
        type Cache = Mutex<(HashMap<(u32, usize, String), Weak<Layout>>, usize)>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new((HashMap::new(), 64)));
        let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
        let (map, prune_at) = &mut *guard;
        let key = (geo.base, colours, text.clone());
        if let Some(l) = map.get(&key).and_then(Weak::upgrade) {
            return Ok(l);
        }
        // Amortised pruning of dead entries: the map stays within twice the
        // live layouts plus a constant, at O(1) per call.
        if map.len() >= *prune_at {
            map.retain(|_, w| w.strong_count() > 0);
            *prune_at = 2 * map.len() + 64;
            map.shrink_to(*prune_at);
        }
        let mut colour = [u8::MAX; MAX_CELLS];
        let mut colour_mask = [0u64; MAX_COLOURS];
        let mut zob = 0;
        for (cell, ch) in geo.tile_cells().zip(text.bytes()) {
            let c = letters.iter().position(|&l| l == ch).expect("checked");
            colour[cell] = c as u8;
            colour_mask[c] |= 1 << cell;
            zob ^= geo.z_layout[cell * 6 + c];
        }
        let mut group = [0u64; MAX_LINES * MAX_COLOURS];
        for (l, (_, mask)) in geo.lines.iter().enumerate() {
            for c in 0..colours {
                group[l * MAX_COLOURS + c] = mask & colour_mask[c];
            }
        }
        let layout = Arc::new(Layout {
            geo,
            text,
            colours,
            colour,
            group,
            zobrist: zob,
        });
        map.insert(key, Arc::downgrade(&layout));
        Ok(layout)
    }
}

#[inline(always)]
pub(crate) fn choose2(k: u32) -> u32 {
    k * k.saturating_sub(1) / 2
}

impl BagelState {
    #[inline(always)]
    pub(crate) fn geo(&self) -> &'static Geometry {
        self.layout.geo
    }

    /// The empty tiles.
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        self.geo().tiles & !(self.discs[0] | self.discs[1])
    }

    /// The discs of `c`, as a set of cell indices.
    #[inline(always)]
    pub fn discs(&self, c: Side) -> u64 {
        self.discs[c.idx()]
    }

    /// `c`'s score: its filled scoring windows (B-8, B-9, B-V2).
    #[inline(always)]
    pub fn score(&self, c: Side) -> u32 {
        self.score[c.idx()] as u32
    }

    /// `c`'s reserve of discs.
    #[inline(always)]
    pub fn reserve(&self, c: Side) -> u32 {
        self.reserve[c.idx()] as u32
    }

    /// The colour to move (also at a terminal state: the one that could not
    /// place).
    #[inline(always)]
    pub fn colour_to_move(&self) -> Side {
        self.to_move
    }

    /// The seat playing `c`.
    #[inline(always)]
    pub fn seat_of(&self, c: Side) -> usize {
        (self.white_seat as usize) ^ c.idx()
    }

    /// Whether seat 1 swapped (B-5).
    pub fn swapped(&self) -> bool {
        self.white_seat == 1
    }

    /// The tile colour letter of `cell` (`R O G B Y P`), `None` for the hole.
    pub fn tile_letter(&self, cell: usize) -> Option<char> {
        let c = *self.layout.colour.get(cell)?;
        (c != u8::MAX).then(|| TILE_LETTERS[c as usize] as char)
    }

    /// The layout string (B-G6 order).
    pub fn layout_text(&self) -> &str {
        &self.layout.text
    }

    /// The name of a cell (`c4`).
    pub fn cell_name(&self, cell: usize) -> String {
        self.geo().name(cell)
    }

    /// The winner of a finished game (B-11…B-13), `None` before the end.
    pub fn winner(&self) -> Option<Side> {
        self.over.then(|| self.decide())
    }

    /// B-11, then B-12 (runs of at least `tiebreak_min`, lexicographic on
    /// the descending lists; a strict prefix loses), then B-13 (Black).
    pub(crate) fn decide(&self) -> Side {
        let (w, b) = (self.score[0], self.score[1]);
        if w != b {
            return if w > b { Side::White } else { Side::Black };
        }
        let (mut rw, nw) = self.runs(Side::White);
        let (mut rb, nb) = self.runs(Side::Black);
        rw[..nw].sort_unstable_by(|a, b| b.cmp(a));
        rb[..nb].sort_unstable_by(|a, b| b.cmp(a));
        match rw[..nw].cmp(&rb[..nb]) {
            std::cmp::Ordering::Greater => Side::White,
            _ => Side::Black,
        }
    }

    /// The lengths of `c`'s maximal runs of at least `tiebreak_min` discs
    /// on every line (B-7), unsorted, and their number.
    pub fn runs(&self, c: Side) -> ([u8; 64], usize) {
        let mine = self.discs[c.idx()];
        let min = self.rules.tiebreak_min as u8;
        let mut out = [0u8; 64];
        let mut n = 0;
        for (cells, mask) in &self.geo().lines {
            if (mask & mine).count() < min as u32 {
                continue;
            }
            let mut run = 0u8;
            for &cell in cells.iter().chain(std::iter::once(&u8::MAX)) {
                if cell != u8::MAX && mine >> cell & 1 == 1 {
                    run += 1;
                } else {
                    if run >= min {
                        out[n] = run;
                        n += 1;
                    }
                    run = 0;
                }
            }
        }
        (out, n)
    }

    /// Recomputes score, pair counts, the end flag and the key from the
    /// discs (for new and parsed states).
    pub(crate) fn recompute(&mut self) {
        let geo = self.geo();
        for c in 0..2 {
            self.score[c] = geo
                .windows
                .iter()
                .filter(|&&w| w & !self.discs[c] == 0)
                .count() as u16;
        }
        let empty = self.empty();
        self.pairs = 0;
        for l in 0..geo.lines.len() {
            let mut p = 0;
            for c in 0..self.layout.colours {
                p += choose2((self.layout.group[l * MAX_COLOURS + c] & empty).count());
            }
            self.line_pairs[l] = p as u8;
            self.pairs += p as u16;
        }
        self.update_over();
        self.hash = self.zobrist_from_scratch();
    }

    /// B-10, B-R4: the game ends when the player to move cannot place (no
    /// empty tile or no disc in reserve); with `end=either`, as soon as
    /// either reserve is empty.
    #[inline(always)]
    pub(crate) fn update_over(&mut self) {
        self.over = self.empty() == 0
            || self.reserve[self.to_move.idx()] == 0
            || (self.rules.end_either && (self.reserve[0] == 0 || self.reserve[1] == 0));
    }

    /// Whether two-disc moves are open to the mover: not the opening (B-1,
    /// B-R2) and at least two discs in reserve (B-R3).
    #[inline(always)]
    pub(crate) fn pairs_allowed(&self) -> bool {
        self.stage != Stage::Open && self.reserve[self.to_move.idx()] >= 2
    }

    /// Places one disc of `c` on empty tile `x`: pair counts, score (B-9:
    /// the windows through `x` that are now full), reserve, key.
    #[inline(always)]
    pub(crate) fn place(&mut self, x: usize, c: usize) {
        let geo = self.geo();
        let empty = self.empty();
        let col = self.layout.colour[x] as usize;
        for &l in &geo.cell_lines[x] {
            let k = (self.layout.group[l as usize * MAX_COLOURS + col] & empty).count();
            // x leaves a group of k empty tiles: k - 1 pairs go.
            self.line_pairs[l as usize] -= (k - 1) as u8;
            self.pairs -= (k - 1) as u16;
        }
        let mine = self.discs[c] | 1 << x;
        self.discs[c] = mine;
        self.reserve[c] -= 1;
        let (wins, n) = &geo.win_by_cell[x];
        let mut add = 0;
        for &w in &wins[..*n as usize] {
            add += (w & !mine == 0) as u16;
        }
        self.score[c] += add;
        self.hash ^= geo.z_disc[x * 2 + c];
    }

    /// The `j`-th aligned same-colour empty pair (`j < pairs`), in line
    /// order, then colour, then lexicographic by index.
    #[inline]
    pub(crate) fn nth_pair(&self, mut j: u32) -> BagelMove {
        let empty = self.empty();
        for l in 0..self.geo().lines.len() {
            let lp = self.line_pairs[l] as u32;
            if j >= lp {
                j -= lp;
                continue;
            }
            for c in 0..self.layout.colours {
                let e = self.layout.group[l * MAX_COLOURS + c] & empty;
                let k = e.count();
                let p = choose2(k);
                if j >= p {
                    j -= p;
                    continue;
                }
                // Unrank: first member a has k - 1 - a partners after it.
                let mut a = 0;
                while j >= k - 1 - a {
                    j -= k - 1 - a;
                    a += 1;
                }
                let b = a + 1 + j;
                return BagelMove::Pair(e.nth(a) as u8, e.nth(b) as u8);
            }
        }
        unreachable!("pair index within the kept count")
    }

    /// Why `mv` is not legal here, or `None` if it is (the reason of
    /// [`crate::api::Research::illegal_reason`], and `apply`'s debug check).
    pub fn why_illegal(&self, mv: BagelMove) -> Option<String> {
        let geo = self.geo();
        if self.over {
            return Some("the game is already over".into());
        }
        let empty = self.empty();
        let check_tile = |x: u8| -> Option<String> {
            let x = x as usize;
            if x == geo.hole {
                Some(format!("{} is the centre hole (B-3)", geo.name(x)))
            } else if empty >> x & 1 == 0 {
                Some(format!("{} is occupied (B-3)", geo.name(x)))
            } else {
                None
            }
        };
        match mv {
            BagelMove::Swap => (self.stage != Stage::Pie)
                .then(|| "swap is allowed only on Black's first turn (B-5)".into()),
            BagelMove::Single(x) => check_tile(x),
            BagelMove::Pair(a, b) => {
                let (an, bn) = (geo.name(a as usize), geo.name(b as usize));
                if a == b {
                    return Some(format!("{an}+{bn}: two different tiles needed (B-4)"));
                }
                if let Some(e) = check_tile(a).or_else(|| check_tile(b)) {
                    return Some(e);
                }
                let (ca, cb) = (
                    self.layout.colour[a as usize],
                    self.layout.colour[b as usize],
                );
                if ca != cb {
                    return Some(format!(
                        "{an}+{bn}: the tiles are {} and {}; two discs need two tiles of one colour (B-4)",
                        TILE_LETTERS[ca as usize] as char, TILE_LETTERS[cb as usize] as char
                    ));
                }
                if geo.grid.aligned(a as usize, b as usize).is_none() {
                    return Some(format!(
                        "{an}+{bn}: the tiles are not on one column, row or diagonal (B-4)"
                    ));
                }
                if self.stage == Stage::Open {
                    return Some("the opening turn places exactly one disc (B-1, B-R2)".into());
                }
                if self.reserve[self.to_move.idx()] < 2 {
                    return Some("one disc left in reserve: single placements only (B-R3)".into());
                }
                None
            }
        }
    }
}
