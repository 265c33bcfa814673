//! # Bagel and Big Bagel (Phil Leduc)
//!
//! A placement game on a hex-hex board with a centre hole and a random tile
//! layout: players place one disc, or two discs on aligned tiles of one
//! colour, and score their filled 3-windows (4-windows in Big Bagel). Rules:
//! `shared/rules/bagel.md` Part 1; rule numbers (B-1…B-13, B-G…, B-S…,
//! B-V…, rulings B-R…) are cited next to the code that implements them.
//!
//! ## Board and notation (B-G2, B-G6, B-V1)
//! Base 4: 37 cells, columns `a`–`g`, rows `1`–`7` continuing across
//! columns, hole `d4`; base 5 (Big Bagel): 61 cells, `a`–`i`, `1`–`9`, hole
//! `e5`. Cell `(c, n)` (column index `c` from 0, row `n` from 1) is the
//! axial hex `(q, r) = (c − R, n − 1 − c)` of the shared
//! [`HexGrid`](crate::board::hex::HexGrid) (`R = base − 1`), whose index
//! order is then exactly B-G6's `a1 a2 … g7` (the hole included as a cell
//! that never holds a tile). The lines are the columns (step `(0, +1)` in
//! `(c, n)`), rows (`(+1, 0)`) and diagonals (`(+1, +1)`).
//!
//! ## Moves (B-1…B-5)
//! `c4` (one disc), `c3+d3` (two discs; an unordered pair, written lower
//! index first), `swap` (the pie rule, Black's first turn only). The swap
//! is kept in colour terms (B-5): Black is still to move, now played by the
//! seat that placed White's opening disc; the seat↔colour map flips.
//!
//! ## Seats and records
//! Seat 0 places the opening disc (White, B-S4) and is the
//! [`setter`](crate::State::setter_seat); seat 1 may swap. After Black's
//! first turn, [`seat_role`](crate::State::seat_role) is `first/white` and
//! `second/black`, or `first/black` and `second/white` when seat 1 swapped;
//! [`first_mover_seat`](crate::State::first_mover_seat) is the seat holding
//! White. [`scores`](crate::State::scores) gives each seat's score.
//!
//! ## Position text
//! `<layout> <discs> <w|b> <open|pie|play> <white reserve> <black reserve>
//! <white seat> <ply>`: the layout string (B-G6 order, letters `R O G B`,
//! then `Y P` with more colours), the discs in the same order (`.` empty,
//! `w`, `b`), the colour to move, the stage (`open` = White's one-disc
//! opening, `pie` = Black may swap, `play`), reserves in colour terms, the
//! seat holding White (`0`, or `1` after a swap), the ply. Example (the
//! start of BAGEL-L1):
//! `GGOROBGBROROGBBGBOGBRRRRGRBOOGOROBGB .................................... w open 20 20 0 0`.
//!
//! ## Rulings kept as parameters (dossier defaults first)
//! * `base=4|5`: Bagel or Big Bagel (B-G1, B-V1).
//! * `reserve=auto|N`: discs per player; `auto` is 20 for base 4 (B-S3)
//!   and 32 for base 5 (B-R7).
//! * `colours=4|2|3|5|6`: tile colours, each with tiles/colours tiles
//!   (B-S1; B-R6 for base 5: 4 × 15).
//! * `tiebreak_min=4`: the shortest run counted by the B-12 tie-break
//!   (B-R5b).
//! * `end=mover|either`: B-R4 (the game ends when the player to move cannot
//!   place) or ends as soon as either player's reserve is empty.
//! * `layout=random|<string>`: the layout string, or drawn uniformly from
//!   the game's seed (B-S2, B-R1).
//!
//! ## Bitboards
//! Disc sets are `u64` over the cell indices. The score is kept
//! incrementally (B-9): a placement adds the windows through the new disc
//! that are now full. The number of aligned same-colour empty pairs (B-4) is
//! kept per line, so counting and uniform sampling build no list.

use crate::api::Research;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::api::{BoardShape, Game, Returns, State, ToMove};
use crate::board::hex::{Hex, HexGrid, HexNotation};
use crate::board::{Bits, zobrist};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

/// The parameters of `bagel(...)`, with the dossier's defaults first.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "base",
        default: "4",
        values: "4|5",
        help: "board side: 4 = Bagel, 37 cells (B-G1); 5 = Big Bagel, 61 cells, 4-in-a-rows score (B-V1, B-V2)",
    },
    ParamInfo {
        name: "reserve",
        default: "auto",
        values: "auto|integer 1..=60",
        help: "discs per player: auto = 20 for base 4 (B-S3), 32 for base 5 (ruling B-R7)",
    },
    ParamInfo {
        name: "colours",
        default: "4",
        values: "2|3|4|5|6 (dividing the tile count)",
        help: "tile colours, equal counts: 4 x 9 (B-S1), 4 x 15 in Big Bagel (ruling B-R6)",
    },
    ParamInfo {
        name: "tiebreak_min",
        default: "4",
        values: "integer 3..=9",
        help: "shortest run compared by the tie-break (B-12, ruling B-R5b)",
    },
    ParamInfo {
        name: "end",
        default: "mover",
        values: "mover|either",
        help: "game end: the player to move cannot place (ruling B-R4), or either reserve is empty",
    },
    ParamInfo {
        name: "layout",
        default: "random",
        values: "random|layout string (36 or 60 letters in B-G6 order)",
        help: "tile layout; random = uniform from the game seed (B-S2, ruling B-R1)",
    },
];

/// Colour letters of the tiles: red, orange, green, blue (B-S1), then
/// yellow and purple for `colours=5|6`.
pub const TILE_LETTERS: [u8; 6] = *b"ROGBYP";

/// The sample layout BAGEL-L1 of the dossier (§1.9), B-G6 order.
pub const BAGEL_L1: &str = "GGOROBGBROROGBBGBOGBRRRRGRBOOGOROBGB";

const MAX_CELLS: usize = 61;
const MAX_LINES: usize = 27;
const MAX_COLOURS: usize = 6;
/// Most scoring windows through one cell: 4 per direction for 4-windows.
const MAX_WIN_PER_CELL: usize = 12;

/// A disc colour: White (0) places first (B-S4), Black (1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Places the opening disc.
    White = 0,
    /// May swap on its first turn (B-5); wins a full tie (B-13).
    Black = 1,
}

impl Colour {
    /// The other colour.
    #[inline(always)]
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
    #[inline(always)]
    fn idx(self) -> usize {
        self as usize
    }
    fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

/// A Bagel move. Cells are [`HexGrid`] indices (B-G6 order with the hole).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BagelMove {
    /// One disc (B-1, B-3); text `c4`.
    Single(u8),
    /// Two discs on aligned tiles of one colour, lower index first (B-4);
    /// text `c3+d3`.
    Pair(u8, u8),
    /// The pie rule on Black's first turn (B-5); text `swap`.
    Swap,
}

/// The game's rules (the parameters, resolved).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Board side, 4 (Bagel) or 5 (Big Bagel).
    pub base: u32,
    /// Discs per player (B-S3, B-R7).
    pub reserve: u32,
    /// Tile colours (B-S1, B-R6).
    pub colours: u32,
    /// Shortest run the tie-break compares (B-R5b).
    pub tiebreak_min: u32,
    /// `true`: the game ends when either reserve is empty; `false`: when the
    /// player to move cannot place (B-R4).
    pub end_either: bool,
}

impl Rules {
    /// The dossier's rules for `base` (4 or 5).
    pub fn for_base(base: u32) -> Rules {
        Rules {
            base,
            reserve: if base == 5 { 32 } else { 20 },
            colours: 4,
            tiebreak_min: 4,
            end_either: false,
        }
    }
}

/// The Bagel notation of B-G2 / B-V1 (the [`HexNotation`] hook): column
/// letter `a`… then row number `1`…; `(c, n) ↔ (q, r) = (c − R, n − 1 − c)`.
#[derive(Copy, Clone, Debug)]
pub struct BagelNotation {
    /// `base − 1`.
    pub radius: i32,
}

impl HexNotation for BagelNotation {
    fn name(&self, h: Hex) -> String {
        let c = h.q + self.radius;
        let n = h.r + 1 + c;
        format!("{}{n}", (b'a' + c as u8) as char)
    }
    fn parse(&self, text: &str) -> Option<Hex> {
        let b = text.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_lowercase() || b[1] == b'0' {
            return None;
        }
        if !b[1..].iter().all(u8::is_ascii_digit) || b.len() > 3 {
            return None;
        }
        let c = (b[0] - b'a') as i32;
        let n: i32 = text[1..].parse().ok()?;
        Some(Hex::new(c - self.radius, n - 1 - c))
    }
    fn expected(&self) -> String {
        let span = 2 * self.radius + 1;
        format!(
            "a column a-{} then a row 1-{span}, on the board",
            (b'a' + span as u8 - 1) as char
        )
    }
}

/// Geometry of one base: cells, lines, windows, Zobrist keys.
struct Geometry {
    base: u32,
    grid: HexGrid<u64>,
    notation: BagelNotation,
    hole: usize,
    /// Tile cells (all cells but the hole).
    tiles: u64,
    ntiles: usize,
    /// Scoring window length: 3 (base 4) or 4 (base 5) (B-8, B-V2).
    k: usize,
    /// Scoring windows (B-G5): masks.
    windows: Vec<u64>,
    /// Per cell: the scoring windows through it.
    win_by_cell: Vec<([u64; MAX_WIN_PER_CELL], u8)>,
    /// Lines: cells in order, and masks.
    lines: Vec<(Vec<u8>, u64)>,
    /// Per cell: its three line indices.
    cell_lines: Vec<[u8; 3]>,
    /// Zobrist keys: layout `cell * 6 + colour`, discs `cell * 2 + colour`.
    z_layout: Vec<u64>,
    z_disc: Vec<u64>,
    z_black: u64,
    z_stage: [u64; 3],
    z_swapped: u64,
}

impl Geometry {
    fn get(base: u32) -> &'static Geometry {
        static G4: OnceLock<Geometry> = OnceLock::new();
        static G5: OnceLock<Geometry> = OnceLock::new();
        if base == 5 {
            G5.get_or_init(|| Geometry::new(5))
        } else {
            G4.get_or_init(|| Geometry::new(4))
        }
    }

    fn new(base: u32) -> Geometry {
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

    fn name(&self, cell: usize) -> String {
        self.grid.name(cell, &self.notation)
    }

    /// Tile cells in B-G6 order.
    fn tile_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.grid.len()).filter(move |&c| c != self.hole)
    }
}

/// A tile layout with its per-layout tables (interned: one per distinct
/// layout, shared by every state of every game on it).
struct Layout {
    geo: &'static Geometry,
    text: String,
    colours: usize,
    /// Tile colour per cell (`u8::MAX` for the hole).
    colour: [u8; MAX_CELLS],
    /// `group[line * 6 + colour]` = the tiles of `colour` on `line`.
    group: [u64; MAX_LINES * MAX_COLOURS],
    zobrist: u64,
}

impl Layout {
    /// Checks and interns a layout string for `geo` with `colours` colours.
    fn intern(
        geo: &'static Geometry,
        colours: usize,
        text: &str,
    ) -> Result<&'static Layout, GameError> {
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
        static CACHE: OnceLock<Mutex<HashMap<(u32, String), &'static Layout>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = map.get(&(geo.base, text.clone())) {
            return Ok(l);
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
        let layout: &'static Layout = Box::leak(Box::new(Layout {
            geo,
            text: text.clone(),
            colours,
            colour,
            group,
            zobrist: zob,
        }));
        map.insert((geo.base, text), layout);
        Ok(layout)
    }
}

/// Draws a layout uniformly (B-S2, B-R1): a Fisher–Yates shuffle of the
/// multiset of tile colours, from a ChaCha8 generator seeded with `seed`.
pub fn random_layout(base: u32, colours: u32, seed: u64) -> String {
    let ntiles = if base == 5 { 60 } else { 36 };
    let per = ntiles / colours as usize;
    let mut v: Vec<u8> = (0..colours as usize)
        .flat_map(|c| std::iter::repeat_n(TILE_LETTERS[c], per))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xBA6E_15EE_D000_0000);
    v.shuffle(&mut rng);
    String::from_utf8(v).expect("ASCII")
}

/// Bagel with its parameters: [`Game`] for `bagel(...)`.
#[derive(Clone, Debug)]
pub struct BagelGame {
    rules: Rules,
    /// A fixed layout (`layout=`), or `None` to draw one from each seed.
    layout: Option<String>,
}

impl BagelGame {
    /// The game with `rules` and an optional fixed layout string.
    ///
    /// # Errors
    /// Rules out of range, or a bad layout string (wrong length or colour
    /// counts).
    pub fn new(rules: Rules, layout: Option<&str>) -> Result<BagelGame, GameError> {
        if rules.base != 4 && rules.base != 5 {
            crate::bail!(
                "game bagel: base={} is not valid (expected 4|5)",
                rules.base
            );
        }
        let ntiles = if rules.base == 5 { 60 } else { 36 };
        if !(2..=6).contains(&rules.colours) || ntiles % rules.colours != 0 {
            crate::bail!(
                "game bagel: colours={} is not valid for {ntiles} tiles (expected a divisor of {ntiles} in 2..=6)",
                rules.colours
            );
        }
        if !(1..=60).contains(&rules.reserve) {
            crate::bail!(
                "game bagel: reserve={} is not valid (expected auto or 1..=60)",
                rules.reserve
            );
        }
        if !(3..=9).contains(&rules.tiebreak_min) {
            crate::bail!(
                "game bagel: tiebreak_min={} is not valid (expected 3..=9)",
                rules.tiebreak_min
            );
        }
        let layout = match layout {
            None => None,
            Some(t) => {
                let l = Layout::intern(Geometry::get(rules.base), rules.colours as usize, t)?;
                Some(l.text.clone())
            }
        };
        Ok(BagelGame { rules, layout })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), a
    /// bad layout string.
    pub fn from_spec(spec: &Spec) -> Result<BagelGame, GameError> {
        let p = Params::new("game bagel", spec, PARAMS)?;
        let base = p.choice("base", &[("4", 4u32), ("5", 5)])?;
        let mut rules = Rules::for_base(base);
        if !p.text("reserve").eq_ignore_ascii_case("auto") {
            rules.reserve = p.parse("reserve")?;
        }
        rules.colours = p.parse("colours")?;
        rules.tiebreak_min = p.parse("tiebreak_min")?;
        rules.end_either = p.choice("end", &[("mover", false), ("either", true)])?;
        let layout = p.text("layout");
        let layout = (!layout.eq_ignore_ascii_case("random")).then_some(layout);
        BagelGame::new(rules, layout)
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The fixed layout string, if `layout=` was given.
    pub fn layout(&self) -> Option<&str> {
        self.layout.as_deref()
    }

    /// The layout a game with `seed` is played on: the fixed one, or one
    /// drawn from the seed (B-R1).
    pub fn layout_for_seed(&self, seed: u64) -> String {
        match &self.layout {
            Some(l) => l.clone(),
            None => random_layout(self.rules.base, self.rules.colours, seed),
        }
    }

    /// The initial state on a given layout string.
    ///
    /// # Errors
    /// A bad layout string.
    pub fn initial_state_on(&self, layout: &str) -> Result<BagelState, GameError> {
        let geo = Geometry::get(self.rules.base);
        let layout = Layout::intern(geo, self.rules.colours as usize, layout)?;
        let mut s = BagelState {
            layout,
            rules: self.rules,
            discs: [0; 2],
            reserve: [self.rules.reserve as u8; 2],
            score: [0; 2],
            to_move: Colour::White,
            stage: Stage::Open,
            white_seat: 0,
            over: false,
            pairs: 0,
            line_pairs: [0; MAX_LINES],
            ply: 0,
            hash: 0,
        };
        s.recompute();
        Ok(s)
    }
}

impl Game for BagelGame {
    type State = BagelState;

    fn game_string(&self) -> String {
        let r = &self.rules;
        format!(
            "bagel(base={},reserve={},colours={},tiebreak_min={},end={},layout={})",
            r.base,
            r.reserve,
            r.colours,
            r.tiebreak_min,
            if r.end_either { "either" } else { "mover" },
            self.layout.as_deref().unwrap_or("random")
        )
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The empty board, White (seat 0) to place the opening disc; the
    /// layout is the fixed one or drawn from `seed` (B-S2, B-R1).
    fn initial_state(&self, seed: u64) -> BagelState {
        self.initial_state_on(&self.layout_for_seed(seed))
            .expect("layouts made here are valid")
    }

    fn parse_position(&self, text: &str) -> Result<BagelState, GameError> {
        parse_position(self, text)
    }
}

/// Where in the game's opening a state is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Stage {
    /// White's one-disc opening (B-1).
    Open = 0,
    /// Black's first turn: swap or play (B-2).
    Pie = 1,
    /// Everything after (B-6).
    Play = 2,
}

/// A Bagel position: two `u64` disc sets, reserves, scores, the per-line
/// counts of aligned same-colour empty pairs, and a pointer to the layout's
/// tables. `Copy`-cheap (no heap).
#[derive(Clone, Copy)]
pub struct BagelState {
    layout: &'static Layout,
    rules: Rules,
    discs: [u64; 2],
    reserve: [u8; 2],
    score: [u16; 2],
    to_move: Colour,
    stage: Stage,
    white_seat: u8,
    over: bool,
    /// Aligned same-colour pairs of empty tiles (B-4), in all.
    pairs: u16,
    /// The same per line.
    line_pairs: [u8; MAX_LINES],
    ply: u32,
    hash: u64,
}

#[inline(always)]
fn choose2(k: u32) -> u32 {
    k * k.saturating_sub(1) / 2
}

impl BagelState {
    #[inline(always)]
    fn geo(&self) -> &'static Geometry {
        self.layout.geo
    }

    /// The empty tiles.
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        self.geo().tiles & !(self.discs[0] | self.discs[1])
    }

    /// The discs of `c`, as a set of cell indices.
    #[inline(always)]
    pub fn discs(&self, c: Colour) -> u64 {
        self.discs[c.idx()]
    }

    /// `c`'s score: its filled scoring windows (B-8, B-9, B-V2).
    #[inline(always)]
    pub fn score(&self, c: Colour) -> u32 {
        self.score[c.idx()] as u32
    }

    /// `c`'s reserve of discs.
    #[inline(always)]
    pub fn reserve(&self, c: Colour) -> u32 {
        self.reserve[c.idx()] as u32
    }

    /// The colour to move (also at a terminal state: the one that could not
    /// place).
    #[inline(always)]
    pub fn colour_to_move(&self) -> Colour {
        self.to_move
    }

    /// The seat playing `c`.
    #[inline(always)]
    pub fn seat_of(&self, c: Colour) -> usize {
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
    pub fn winner(&self) -> Option<Colour> {
        self.over.then(|| self.decide())
    }

    /// B-11, then B-12 (runs of at least `tiebreak_min`, lexicographic on
    /// the descending lists; a strict prefix loses), then B-13 (Black).
    fn decide(&self) -> Colour {
        let (w, b) = (self.score[0], self.score[1]);
        if w != b {
            return if w > b { Colour::White } else { Colour::Black };
        }
        let (mut rw, nw) = self.runs(Colour::White);
        let (mut rb, nb) = self.runs(Colour::Black);
        rw[..nw].sort_unstable_by(|a, b| b.cmp(a));
        rb[..nb].sort_unstable_by(|a, b| b.cmp(a));
        match rw[..nw].cmp(&rb[..nb]) {
            std::cmp::Ordering::Greater => Colour::White,
            _ => Colour::Black,
        }
    }

    /// The lengths of `c`'s maximal runs of at least `tiebreak_min` discs
    /// on every line (B-7), unsorted, and their number.
    pub fn runs(&self, c: Colour) -> ([u8; 64], usize) {
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
    fn recompute(&mut self) {
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
    fn update_over(&mut self) {
        self.over = self.empty() == 0
            || self.reserve[self.to_move.idx()] == 0
            || (self.rules.end_either && (self.reserve[0] == 0 || self.reserve[1] == 0));
    }

    /// Whether two-disc moves are open to the mover: not the opening (B-1,
    /// B-R2) and at least two discs in reserve (B-R3).
    #[inline(always)]
    fn pairs_allowed(&self) -> bool {
        self.stage != Stage::Open && self.reserve[self.to_move.idx()] >= 2
    }

    /// Places one disc of `c` on empty tile `x`: pair counts, score (B-9:
    /// the windows through `x` that are now full), reserve, key.
    #[inline(always)]
    fn place(&mut self, x: usize, c: usize) {
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
    fn nth_pair(&self, mut j: u32) -> BagelMove {
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

    /// Why `mv` is not legal here, or `None` if it is.
    pub fn illegal_reason(&self, mv: BagelMove) -> Option<String> {
        let geo = self.geo();
        if self.over {
            return Some("the game is over".into());
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

impl State for BagelState {
    type Move = BagelMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.over {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.seat_of(self.to_move))
        }
    }

    /// Singles in cell order, then pairs (line by line, colour by colour,
    /// lexicographic), then `swap`.
    fn legal_moves(&self, out: &mut Vec<BagelMove>) {
        out.clear();
        if self.over {
            return;
        }
        let empty = self.empty();
        for x in empty.iter() {
            out.push(BagelMove::Single(x as u8));
        }
        if self.pairs_allowed() {
            for l in 0..self.geo().lines.len() {
                if self.line_pairs[l] == 0 {
                    continue;
                }
                for c in 0..self.layout.colours {
                    let e = self.layout.group[l * MAX_COLOURS + c] & empty;
                    let mut rest = e;
                    while !rest.is_zero() {
                        let a = rest.lowest();
                        rest = rest.clear_lowest();
                        for b in rest.iter() {
                            out.push(BagelMove::Pair(a as u8, b as u8));
                        }
                    }
                }
            }
        }
        if self.stage == Stage::Pie {
            out.push(BagelMove::Swap);
        }
    }

    /// Move-count formula of §1.4: singles + Σ C(k, 2) + swap.
    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.over {
            return 0;
        }
        let mut n = self.empty().count() as usize;
        if self.pairs_allowed() {
            n += self.pairs as usize;
        }
        n + (self.stage == Stage::Pie) as usize
    }

    /// Uniform over [`State::legal_moves`] without building it: an index
    /// into singles, pairs (unranked from the per-line counts), swap.
    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<BagelMove>,
    ) -> Option<BagelMove> {
        if self.over {
            return None;
        }
        let empty = self.empty();
        let singles = empty.count();
        let pairs = if self.pairs_allowed() {
            self.pairs as u32
        } else {
            0
        };
        let total = singles + pairs + (self.stage == Stage::Pie) as u32;
        let i = rng.random_range(0..total);
        Some(if i < singles {
            BagelMove::Single(empty.nth(i) as u8)
        } else if i < singles + pairs {
            self.nth_pair(i - singles)
        } else {
            BagelMove::Swap
        })
    }

    fn apply(&mut self, mv: BagelMove) {
        debug_assert!(
            self.illegal_reason(mv).is_none(),
            "illegal move {mv:?}: {:?}",
            self.illegal_reason(mv)
        );
        let geo = self.geo();
        let c = self.to_move.idx();
        self.hash ^= geo.z_stage[self.stage as usize];
        match mv {
            BagelMove::Swap => {
                // B-5: colours change hands, Black (now the first player)
                // is still to move.
                self.white_seat ^= 1;
                self.hash ^= geo.z_swapped;
                self.stage = Stage::Play;
            }
            BagelMove::Single(x) => {
                self.place(x as usize, c);
            }
            BagelMove::Pair(a, b) => {
                self.place(a as usize, c);
                self.place(b as usize, c);
            }
        }
        if mv != BagelMove::Swap {
            self.stage = match self.stage {
                Stage::Open => Stage::Pie,
                _ => Stage::Play,
            };
            self.to_move = self.to_move.other();
            self.hash ^= geo.z_black;
        }
        self.hash ^= geo.z_stage[self.stage as usize];
        self.ply += 1;
        self.update_over();
    }

    /// Win 1, loss −1 by B-11…B-13 (Bagel has no draws).
    fn returns(&self) -> Returns {
        let mut r = [0.0; crate::api::MAX_SEATS];
        if let Some(w) = self.winner() {
            r[self.seat_of(w)] = 1.0;
            r[self.seat_of(w.other())] = -1.0;
        }
        r
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let geo = self.geo();
        let mut h = self.layout.zobrist ^ geo.z_stage[self.stage as usize];
        for c in 0..2 {
            for x in self.discs[c].iter() {
                h ^= geo.z_disc[x as usize * 2 + c];
            }
        }
        if self.to_move == Colour::Black {
            h ^= geo.z_black;
        }
        if self.white_seat == 1 {
            h ^= geo.z_swapped;
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        let geo = self.geo();
        let discs: String = geo
            .tile_cells()
            .map(|x| {
                if self.discs[0] >> x & 1 == 1 {
                    'w'
                } else if self.discs[1] >> x & 1 == 1 {
                    'b'
                } else {
                    '.'
                }
            })
            .collect();
        format!(
            "{} {discs} {} {} {} {} {} {}",
            self.layout.text,
            if self.to_move == Colour::White {
                'w'
            } else {
                'b'
            },
            match self.stage {
                Stage::Open => "open",
                Stage::Pie => "pie",
                Stage::Play => "play",
            },
            self.reserve[0],
            self.reserve[1],
            self.white_seat,
            self.ply
        )
    }

    fn move_to_text(&self, mv: BagelMove) -> String {
        let geo = self.geo();
        match mv {
            BagelMove::Swap => "swap".into(),
            BagelMove::Single(x) => geo.name(x as usize),
            BagelMove::Pair(a, b) => format!("{}+{}", geo.name(a as usize), geo.name(b as usize)),
        }
    }

    /// Reads `swap`, `c4` or `c3+d3` (either order). Besides the syntax it
    /// rejects, with the rule named, what can never be legal here: the
    /// hole, an occupied tile, a pair of different colours or not aligned
    /// (B-4), a pair in the opening (B-1) or with one disc left (B-R3), a
    /// swap off Black's first turn (B-5). At a terminal state only the
    /// syntax is checked.
    fn parse_move(&self, text: &str) -> Result<BagelMove, GameError> {
        let geo = self.geo();
        let t = text.trim();
        let cell = |s: &str| -> Result<u8, GameError> {
            geo.grid
                .parse_cell(s.trim(), &geo.notation)
                .map(|c| c as u8)
                .map_err(|e| GameError::new(format!("bad move {text:?}: {e}")))
        };
        let mv = if t.eq_ignore_ascii_case("swap") {
            BagelMove::Swap
        } else if let Some((a, b)) = t.split_once('+') {
            let (a, b) = (cell(a)?, cell(b)?);
            BagelMove::Pair(a.min(b), a.max(b))
        } else if t.is_empty() {
            crate::bail!("bad move {text:?}: expected a cell like c4, a pair like c3+d3, or swap");
        } else {
            BagelMove::Single(cell(t)?)
        };
        if !self.over
            && let Some(why) = self.illegal_reason(mv)
        {
            crate::bail!("illegal move {text:?}: {why}");
        }
        Ok(mv)
    }

    /// Score difference (100 per window) plus open windows (windows holding
    /// only the player's discs and empty tiles, weighted by how full they
    /// are), from the mover's view.
    fn evaluate(&self) -> i32 {
        let geo = self.geo();
        let me = self.to_move.idx();
        let (mine, theirs) = (self.discs[me], self.discs[1 - me]);
        let mut v = 100 * (self.score[me] as i32 - self.score[1 - me] as i32);
        const W: [i32; 5] = [0, 1, 4, 16, 0];
        for &w in &geo.windows {
            let (m, o) = ((w & mine).count(), (w & theirs).count());
            if o == 0 && (m as usize) < geo.k {
                v += W[m as usize];
            } else if m == 0 && (o as usize) < geo.k {
                v -= W[o as usize];
            }
        }
        v
    }
}

impl Research for BagelState {
    fn seat_role(&self, seat: usize) -> String {
        let role = if seat == 0 { "first" } else { "second" };
        match self.stage {
            Stage::Play => {
                let c = if self.seat_of(Colour::White) == seat {
                    Colour::White
                } else {
                    Colour::Black
                };
                format!("{role}/{}", c.name())
            }
            _ => role.to_string(),
        }
    }
    /// The seat holding White after any swap (decided after Black's first
    /// turn).
    fn first_mover_seat(&self) -> Option<usize> {
        (self.stage == Stage::Play).then(|| self.seat_of(Colour::White))
    }
    /// Seat 0 places the opening disc.
    fn setter_seat(&self) -> Option<usize> {
        Some(0)
    }
    fn scores(&self) -> Option<Returns> {
        let mut r = [0.0; crate::api::MAX_SEATS];
        r[self.seat_of(Colour::White)] = self.score[0] as f64;
        r[self.seat_of(Colour::Black)] = self.score[1] as f64;
        Some(r)
    }
    /// The swap of B-5.
    fn is_swap(&self, mv: BagelMove) -> bool {
        mv == BagelMove::Swap
    }
    fn board_shape(&self) -> Option<BoardShape> {
        Some(BoardShape::Hex {
            side: self.geo().grid.side() as u32,
        })
    }
    /// Plot cells: axial `(q, s)` of the toolkit's `(q, r)`, so that rows
    /// run left to right and row 7 is at the top, as in B-G3's picture.
    fn move_cells(&self, mv: BagelMove) -> Vec<(i32, i32)> {
        let grid = &self.geo().grid;
        let cell = |i: u8| {
            let h = grid.hex(i as usize);
            (h.q, h.s())
        };
        match mv {
            BagelMove::Single(a) => vec![cell(a)],
            BagelMove::Pair(a, b) => vec![cell(a), cell(b)],
            BagelMove::Swap => Vec::new(),
        }
    }
}

impl fmt::Display for BagelState {
    /// The board as in B-G3 (top row first): each cell is its tile letter
    /// and `.`, `w` or `b`; the hole is `--`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let geo = self.geo();
        let rr = geo.grid.radius();
        // Row n = const s; print rows from the top (largest n).
        for n in (1..=2 * rr + 1).rev() {
            let mut line = String::new();
            line += &" ".repeat(((n - 1 - rr).abs() * 2) as usize);
            for c in 0..=2 * rr {
                let h = Hex::new(c - rr, n - 1 - c);
                let Some(x) = geo.grid.index(h) else {
                    continue;
                };
                if x == geo.hole {
                    line += "--  ";
                    continue;
                }
                let t = TILE_LETTERS[self.layout.colour[x] as usize] as char;
                let d = if self.discs[0] >> x & 1 == 1 {
                    'w'
                } else if self.discs[1] >> x & 1 == 1 {
                    'b'
                } else {
                    '.'
                };
                line.push(t);
                line.push(d);
                line += "  ";
            }
            writeln!(f, "{:>2} {}", n, line.trim_end())?;
        }
        write!(
            f,
            "{} to move; score W {} B {}; reserve W {} B {}",
            self.to_move.name(),
            self.score[0],
            self.score[1],
            self.reserve[0],
            self.reserve[1]
        )
    }
}

impl fmt::Debug for BagelState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BagelState({})", self.to_text())
    }
}

fn parse_position(game: &BagelGame, text: &str) -> Result<BagelState, GameError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    let form = "expected <layout> <discs> <w|b> <open|pie|play> <white reserve> <black reserve> <white seat 0|1> <ply>";
    if f.len() != 8 {
        crate::bail!("bad position {text:?}: {} fields, {form}", f.len());
    }
    let bad = |what: String| GameError::new(format!("bad position {text:?}: {what}"));
    let mut s = game
        .initial_state_on(f[0])
        .map_err(|e| bad(e.to_string()))?;
    if let Some(l) = &game.layout
        && !f[0].eq_ignore_ascii_case(l)
    {
        return Err(bad(format!(
            "layout {} differs from the game's layout={l}",
            f[0]
        )));
    }
    let geo = s.geo();
    if f[1].len() != geo.ntiles {
        return Err(bad(format!(
            "discs field has {} characters, expected {} (one per tile: . w b)",
            f[1].len(),
            geo.ntiles
        )));
    }
    for (x, ch) in geo.tile_cells().zip(f[1].bytes()) {
        match ch {
            b'.' => {}
            b'w' | b'W' => s.discs[0] |= 1 << x,
            b'b' | b'B' => s.discs[1] |= 1 << x,
            _ => {
                return Err(bad(format!(
                    "disc {:?} at {} (expected . w b)",
                    ch as char,
                    geo.name(x)
                )));
            }
        }
    }
    s.to_move = match f[2] {
        "w" | "W" => Colour::White,
        "b" | "B" => Colour::Black,
        o => return Err(bad(format!("colour to move {o:?} (expected w or b)"))),
    };
    s.stage = match f[3] {
        "open" => Stage::Open,
        "pie" => Stage::Pie,
        "play" => Stage::Play,
        o => return Err(bad(format!("stage {o:?} (expected open, pie or play)"))),
    };
    let r = game.rules.reserve;
    for (i, c) in [Colour::White, Colour::Black].into_iter().enumerate() {
        let v: u32 = f[4 + i].parse().map_err(|_| {
            bad(format!(
                "{} reserve {:?} (expected 0..={r})",
                c.name(),
                f[4 + i]
            ))
        })?;
        let on = s.discs[i].count();
        if v + on != r {
            return Err(bad(format!(
                "{} has {on} discs on the board and {v} in reserve; expected {r} in all",
                c.name()
            )));
        }
        s.reserve[i] = v as u8;
    }
    s.white_seat = match f[6] {
        "0" => 0,
        "1" => 1,
        o => return Err(bad(format!("white seat {o:?} (expected 0 or 1)"))),
    };
    s.ply = f[7]
        .parse()
        .map_err(|_| bad(format!("ply {:?} (expected a number)", f[7])))?;
    let (nw, nb) = (s.discs[0].count(), s.discs[1].count());
    match s.stage {
        Stage::Open if nw + nb != 0 || s.to_move != Colour::White || s.white_seat != 0 => {
            return Err(bad(
                "stage open needs an empty board, White to move, white seat 0 (B-1)".into(),
            ));
        }
        Stage::Pie if nw != 1 || nb != 0 || s.to_move != Colour::Black || s.white_seat != 0 => {
            return Err(bad(
                "stage pie needs exactly one White disc, no Black disc, Black to move, white seat 0 (B-2)".into(),
            ));
        }
        Stage::Play if nw == 0 => {
            return Err(bad(
                "stage play needs White's opening disc on the board".into()
            ));
        }
        _ => {}
    }
    s.recompute();
    Ok(s)
}

/// The B-G6 index of every tile, for tests: cell names in layout order.
pub fn tile_names(base: u32) -> Vec<String> {
    let geo = Geometry::get(if base == 5 { 5 } else { 4 });
    geo.tile_cells().map(|x| geo.name(x)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_matches_b_g6() {
        let names = tile_names(4);
        let want = "a1 a2 a3 a4 b1 b2 b3 b4 b5 c1 c2 c3 c4 c5 c6 d1 d2 d3 d5 d6 d7 e2 e3 e4 e5 e6 e7 f3 f4 f5 f6 f7 g4 g5 g6 g7";
        assert_eq!(names.join(" "), want);
        let big = tile_names(5);
        assert_eq!(big.len(), 60);
        assert_eq!(big[0], "a1");
        assert_eq!(big[59], "i9");
        assert!(!big.contains(&"e5".to_string()));
    }
}
