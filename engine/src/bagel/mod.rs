//! # Bagel and Big Bagel (Phil Leduc)
//!
//! A placement game on a hex-hex board with a centre hole and a random tile
//! layout: players place one disc, or two discs on aligned tiles of one
//! colour, and score their filled 3-windows (4-windows in Big Bagel). Rules:
//! `docs/rules/bagel.md`; rule numbers (B-1…B-13, B-G…, B-S…,
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
//! [`setter`](crate::Research::setter_seat); seat 1 may swap. After Black's
//! first turn, [`seat_role`](crate::Research::seat_role) is `first/white` and
//! `second/black`, or `first/black` and `second/white` when seat 1 swapped;
//! [`first_mover_seat`](crate::Research::first_mover_seat) is the seat holding
//! White. [`scores`](crate::Research::scores) gives each seat's score.
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

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::api::Game;
use crate::board::hex::{Hex, HexNotation};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};
use movegen::{Geometry, Layout};
use state::Stage;
use text::parse_position;

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

pub use state::BagelState;
pub use text::tile_names;

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
pub enum Side {
    /// Places the opening disc.
    White = 0,
    /// May swap on its first turn (B-5); wins a full tie (B-13).
    Black = 1,
}

impl Side {
    /// The other colour.
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    #[inline(always)]
    fn idx(self) -> usize {
        self as usize
    }
    fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
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
            to_move: Side::White,
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
