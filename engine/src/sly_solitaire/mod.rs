//! # Solitaire Sly (Sid Sackson, *Sly*)
//!
//! A one-player jumping game on the 12 × 12 Sly board. Rules:
//! `docs/rules/sly_solitaire.md` §3 (Solitaire Sly); rule
//! numbers S-1…S-7 and S-SET-1…S-SET-5 are cited next to the code that
//! implements them. The board geometry is the shared [`crate::board::sly`].
//!
//! ## Set-up (S-SET-1…S-SET-5)
//! 36 pieces (6 squares and 3 triangles of each of the four colours) fill
//! every space of the four middle fields, rows 4–9 × columns D–I (S-SET-2).
//! `layout=canonical` is the dossier's colour layout (S-SET-4, ruling QS1);
//! `layout=random` draws the 36 pieces into those spaces from the game seed
//! (S-SET-5, the rule book's Variation). Squares and triangles play alike
//! (S-4), so the engine keeps only colours: B (black), L (lined), D
//! (dotted), O (open).
//!
//! ## Play
//! * S-1, S-2: a move picks a piece and one of the four orthogonal
//!   directions; the next space that way must hold a piece; the piece jumps
//!   the whole unbroken run of pieces and lands on the first empty space
//!   after it. A run that reaches the edge of the playing area gives no move.
//! * S-3: no piece of the run may have the jumper's colour.
//! * S-4: every piece of the run is removed.
//! * S-5 (ruling QS2): the playing area is the whole board
//!   (`area=board`); `area=window` keeps play inside the rule book's 8 × 8
//!   window, rows 3–10 × columns C–J (perft 301,564 at depth 3 instead of
//!   301,716, §3.2).
//! * S-6: the game ends when no move exists. The rule book also lets the
//!   player stop; stopping is never better than playing on (every move
//!   removes at least one piece), so the engine offers no stop move and the
//!   dossier's perft counts have none. The single seat's **return is its
//!   score, minus the pieces left**; [`Grade`] names the rule book's result
//!   (1 piece win, 2 good, 3 fair, 4 or more bad), also given by
//!   [`crate::Research::end_reason`] (`no move (win)`, …).
//! * S-7: the published solution wins in 23 moves (tested).
//!
//! ## Notation (§2.1, §3.3)
//! A space is row then column, `5F`; a move is `from-to` in global
//! notation, `7F-3F`. The position text is the twelve rows from row 1,
//! `/`-separated, each a run of colour letters and empty counts, then the
//! ply: `12/12/12/3BLDLBO3/…/12/12/12 0`.
//!
//! ## Solver
//! [`solve`] is the game's exact solver (the fewest pieces reachable, a line
//! leaving them, optionally the fewest moves), which the `solver` agent
//! runs through [`crate::Search::solve_alone`].
//!
//! ## Bits
//! Each colour is kept twice as twelve 12-bit lines: by row (bit c = column
//! c) and by column (bit r = row r), so a jump along a row or a column is a
//! count of trailing (or leading) ones in one line. The union of the four
//! colours is kept the same way. Move generation reads the board as
//! sixteen 16-bit row lanes, one vector register, and finds the jumps of
//! all pieces at once: per colour and direction, an occluded fill back from
//! the empty landing spaces through the runs of other colours (`movegen.rs`).
//! The pieces that have a jump, by direction, are kept in the state after
//! each move (the end test needs them), so a random move is drawn from them
//! without a list. [`SlySolitaireState`] is 360 bytes, no heap.

pub mod bound;
mod eval;
mod learning;
mod movegen;
pub mod solve;
mod state;
mod text;

use std::sync::OnceLock;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::api::Game;
use crate::board::sly;
use crate::board::zobrist;
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

pub use state::{Grade, SlySolitaireMove, SlySolitaireState};

/// The parameters of `sly_solitaire(...)`, with the dossier's defaults.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "layout",
        default: "canonical",
        values: "canonical|random",
        help: "colour layout of the 36 pieces: the dossier's (S-SET-4, ruling QS1) or drawn from the game seed (S-SET-5)",
    },
    ParamInfo {
        name: "area",
        default: "board",
        values: "board|window",
        help: "playing area: the whole 12x12 board (S-5, ruling QS2) or the rule book's 8x8 window, rows 3-10 x C-J",
    },
];

/// The four colours' letters, index = colour number (§3.1 S-SET-4): black,
/// vertically lined, dotted, open.
pub const COLOUR_LETTERS: [char; 4] = ['B', 'L', 'D', 'O'];

/// The canonical layout (S-SET-4), global rows 4–9, columns D–I, as colour
/// letters row by row.
pub const CANONICAL: [&str; 6] = ["BLDLBO", "LOLBOD", "ODBLDB", "DBODBL", "BLDOLO", "LDOBOD"];

/// Where pieces may land (S-5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    /// The whole 12 × 12 board (ruling QS2, the default).
    Board,
    /// The rule book's 8 × 8 window, rows 3–10 × columns C–J.
    Window,
}

/// The colour layout at the start (S-SET-4, S-SET-5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// The dossier's canonical layout ([`CANONICAL`]).
    Canonical,
    /// 9 pieces of each colour shuffled into the 36 spaces by the game seed.
    Random,
}

/// Masks of an area and the Zobrist keys, shared by every state of a game.
pub(crate) struct Geometry {
    pub(crate) area: Area,
    /// `row_area[r]`: the columns of row `r` inside the area (bit c).
    pub(crate) row_area: [u16; 12],
    /// `col_area[c]`: the rows of column `c` inside the area (bit r).
    pub(crate) col_area: [u16; 12],
    /// `keys[k][sq]`: a piece of colour `k` on `sq`.
    pub(crate) keys: [[u64; 144]; 4],
}

fn build_geometry(area: Area) -> Geometry {
    let (lo, hi) = match area {
        Area::Board => (0, 11),
        Area::Window => (2, 9),
    };
    let span: u16 = ((1u32 << (hi + 1)) - (1u32 << lo)) as u16;
    let mut g = Geometry {
        area,
        row_area: [0; 12],
        col_area: [0; 12],
        keys: [[0; 144]; 4],
    };
    for i in lo..=hi {
        g.row_area[i] = span;
        g.col_area[i] = span;
    }
    let k = zobrist::keys(0x5A50_11A1_0000_0001, 4 * 144);
    for (i, &x) in k.iter().enumerate() {
        g.keys[i / 144][i % 144] = x;
    }
    g
}

/// The shared geometry of an area.
pub(crate) fn geometry(area: Area) -> &'static Geometry {
    static BOARD: OnceLock<Geometry> = OnceLock::new();
    static WINDOW: OnceLock<Geometry> = OnceLock::new();
    match area {
        Area::Board => BOARD.get_or_init(|| build_geometry(Area::Board)),
        Area::Window => WINDOW.get_or_init(|| build_geometry(Area::Window)),
    }
}

/// Solitaire Sly with its parameters fixed: `sly_solitaire(layout=random)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlySolitaireGame {
    layout: Layout,
    area: Area,
}

impl SlySolitaireGame {
    /// The variant with this layout and area.
    pub fn new(layout: Layout, area: Area) -> SlySolitaireGame {
        SlySolitaireGame { layout, area }
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values; the message lists the valid ones.
    pub fn from_spec(spec: &Spec) -> Result<SlySolitaireGame, GameError> {
        let p = Params::new("game sly_solitaire", spec, PARAMS)?;
        let layout = p.choice(
            "layout",
            &[("canonical", Layout::Canonical), ("random", Layout::Random)],
        )?;
        let area = p.choice("area", &[("board", Area::Board), ("window", Area::Window)])?;
        Ok(SlySolitaireGame::new(layout, area))
    }

    /// The colour layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The playing area.
    pub fn area(&self) -> Area {
        self.area
    }

    /// The 36 colours of the start, row by row over rows 4–9 × D–I
    /// (S-SET-2): the canonical layout, or 9 of each colour shuffled by
    /// `seed` (S-SET-5).
    pub fn start_colours(&self, seed: u64) -> [u8; 36] {
        let mut out = [0u8; 36];
        match self.layout {
            Layout::Canonical => {
                for (r, row) in CANONICAL.iter().enumerate() {
                    for (c, ch) in row.chars().enumerate() {
                        out[6 * r + c] = COLOUR_LETTERS
                            .iter()
                            .position(|&x| x == ch)
                            .expect("canonical letters")
                            as u8;
                    }
                }
            }
            Layout::Random => {
                for (i, x) in out.iter_mut().enumerate() {
                    *x = (i / 9) as u8;
                }
                out.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
            }
        }
        out
    }
}

impl Game for SlySolitaireGame {
    type State = SlySolitaireState;

    fn game_string(&self) -> String {
        format!(
            "sly_solitaire(layout={},area={})",
            match self.layout {
                Layout::Canonical => "canonical",
                Layout::Random => "random",
            },
            match self.area {
                Area::Board => "board",
                Area::Window => "window",
            }
        )
    }

    fn num_seats(&self) -> usize {
        1
    }

    /// The set-up (S-SET-2): the layout's colours on rows 4–9 × D–I; `seed`
    /// draws the random layout and is unused by the canonical one.
    fn initial_state(&self, seed: u64) -> SlySolitaireState {
        let colours = self.start_colours(seed);
        let mut s = SlySolitaireState::empty(geometry(self.area));
        for (i, &k) in colours.iter().enumerate() {
            s.put(k as usize, sly::square(3 + i as u32 / 6, 3 + i as u32 % 6));
        }
        s.finish_setup(0);
        s
    }

    fn parse_position(&self, text: &str) -> Result<SlySolitaireState, GameError> {
        text::parse_position(geometry(self.area), text)
    }
}
