//! # King's Colour (Christian Freeling)
//!
//! Chess on the 127-cell hex-hex board of side 7, with castles and walls and
//! the "great switcheroo". Rules: `docs/rules/kings_colour.md`
//! (§2.2–§2.8; rule numbers KC-G1…, KC-S1…, KC-1…KC-14 and rulings KC-R1…
//! KC-R8 are cited next to the code). Built on the hex toolkit
//! [`crate::board::hex`] in a `u128`.
//!
//! ## Rules in brief
//! * Board (KC-G1–G4): axial `(q, r)`, `max(|q|,|r|,|s|) ≤ 6`; orthogonal
//!   and diagonal steps as [`ORTHO`] and [`DIAG`]; colour `(q − r) mod 3`.
//! * Castles (KC-S2): the 3×3 rhombus `K + a·(1,−1) + b·(0,−1)` around each
//!   King's start (White D4, Black J7); walls: its 14 edge-adjacent cells.
//! * Set-up (KC-S3): each castle full, King in the centre, 8 men around it.
//! * Pieces (KC-1, KC-12): a man is a Rook iff it stands on its own King's
//!   colour, else a Bishop; promoted men are permanent Queens. Types are
//!   derived, never stored.
//! * Movement (KC-3–KC-7): the King steps orthogonally, diagonally or by the
//!   knight vectors ([`KNIGHT`]) inside its own castle, jumping (KC-R8);
//!   Rooks slide orthogonally, Bishops diagonally (flanking cells ignored,
//!   KC-R4), Queens both; walls never block; any piece blocks.
//! * Capture (KC-8, ruling KC-R2, option `capture`): a man or Queen captures
//!   the first enemy non-King on its line only from the enemy wall into the
//!   enemy castle, or from its own castle onto its own wall. The King
//!   captures any enemy piece on a castle cell it can reach (KC-9, KC-R3,
//!   option `king_captures`).
//! * Promotion (KC-10): a man ending its move inside the enemy castle becomes
//!   a Queen.
//! * Check (KC-11): by any enemy slider reaching the King, regardless of
//!   KC-8; a move may not leave the mover's King in check. Checkmate wins;
//!   stalemate is a draw (KC-13, KC-R5, option `stalemate`); threefold
//!   repetition (KC-14, KC-R6, option `repetition`) and the ply cap
//!   (option `ply_cap`) are draws.
//!
//! ## Seats and actions
//! Seat 0 plays White (moves first, KC-2), seat 1 Black. A move is
//! `(from, to)`; promotion is automatic. Returns: win +1, loss −1, draw 0.
//!
//! ## Notation (§2.5, KC-G3)
//! Cells are boardspace labels: a column `A`–`M` (`q = −6…6`) then a row
//! number from 1 at the column's bottom. Moves: `D4-C3`, `D5xF6`,
//! `H8-I7=Q`, with `+` when the move gives check and `#` when it mates.
//! [`State::parse_move`] accepts either case and an optional suffix.
//!
//! ## Position text (ours; the dossier defines none)
//! `<13 columns A…M separated by '/'> <w|b> <ply>`; each column lists its
//! cells from row 1 upwards: `K`/`k` King, `R`/`r` Rook, `B`/`b` Bishop,
//! `Q`/`q` Queen (upper case White), a number for a run of empty cells. The
//! letter of a man must be the type KC-12 derives. The repetition history is
//! not part of the text (a parsed position starts a fresh history).
//!
//! ## Repetition window
//! To keep [`KingsColourState`] a flat `Copy`-sized value, the positions since the
//! last capture or promotion are kept in a ring of [`REPETITION_WINDOW`]
//! keys: repetitions whose occurrences all lie within the last 32 plies are
//! seen (every cycle of up to 16 plies).

use crate::api::Game;
use crate::board::hex::{Hex, HexNotation};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

pub use eval::EvalWeights;
pub use movegen::{Geometry, colour_of};
pub use state::KingsColourState;

/// The number of cells (KC-G1).
pub const CELLS: usize = 127;

/// The number of plies of history kept for the repetition test (a ring).
pub const REPETITION_WINDOW: usize = 32;

/// The default ply cap (KC-14, ruling KC-R6: "e.g. 400 plies").
pub const DEFAULT_PLY_CAP: u32 = 400;

/// The parameters of `kings_colour(...)`, with the dossier's defaults.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "capture",
        default: "literal",
        values: "literal|wide",
        help: "KC-8 scope (ruling KC-R2): literal = attacker on the enemy wall vs defender in its own castle only; wide = boardspace's any wall cell vs castle cell of the same castle",
    },
    ParamInfo {
        name: "king_captures",
        default: "true",
        values: "true|false",
        help: "the King captures an enemy piece on a castle cell it can reach (KC-9, ruling KC-R3)",
    },
    ParamInfo {
        name: "stalemate",
        default: "draw",
        values: "draw|loss",
        help: "no legal move and not in check: a draw, or a loss for the stalemated side (KC-13, ruling KC-R5)",
    },
    ParamInfo {
        name: "repetition",
        default: "3",
        values: "off|2|3|4|5",
        help: "n-fold repetition of (position, side to move) is a draw (KC-14, ruling KC-R6)",
    },
    ParamInfo {
        name: "ply_cap",
        default: "400",
        values: "integer 1..=100000",
        help: "plies after which the game is a draw (KC-14, ruling KC-R6)",
    },
];

/// A side. White moves first (KC-2) and sits in seat 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// King D4; seat 0; moves first.
    White,
    /// King J7; seat 1.
    Black,
}

impl Side {
    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub fn opp(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    fn from_index(i: usize) -> Side {
        if i == 0 { Side::White } else { Side::Black }
    }

    fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

/// A piece's type at this instant (KC-1, KC-12: derived for men).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// The King.
    King,
    /// A man on its own King's colour.
    Rook,
    /// A man off its own King's colour.
    Bishop,
    /// A promoted man.
    Queen,
}

/// Ruling KC-R2: the scope of mutual capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CaptureRule {
    /// The dossier (KC-8): attacker on the enemy wall vs a piece in the enemy
    /// castle, or a piece in its own castle vs an enemy on its own wall.
    Literal,
    /// boardspace (§2.7): between any wall cell and a castle cell of the same
    /// castle, whoever owns the pieces.
    Wide,
}

/// The game's rules (the parameters of `kings_colour(...)`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// KC-R2.
    pub capture: CaptureRule,
    /// KC-R3.
    pub king_captures: bool,
    /// KC-R5: true = stalemate loses for the side to move; false = draw.
    pub stalemate_loses: bool,
    /// KC-R6: n-fold repetition is a draw; 0 = off.
    pub repetition: u32,
    /// KC-R6: the ply cap (a draw).
    pub ply_cap: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            capture: CaptureRule::Literal,
            king_captures: true,
            stalemate_loses: false,
            repetition: 3,
            ply_cap: DEFAULT_PLY_CAP,
        }
    }
}

impl Rules {
    /// Reads the rules from a spec `kings_colour(...)`.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<Rules, GameError> {
        let p = Params::new("game kings_colour", spec, PARAMS)?;
        let capture = p.choice(
            "capture",
            &[
                ("literal", CaptureRule::Literal),
                ("wide", CaptureRule::Wide),
            ],
        )?;
        let king_captures = p.choice("king_captures", &[("true", true), ("false", false)])?;
        let stalemate_loses = p.choice("stalemate", &[("draw", false), ("loss", true)])?;
        let repetition = p.choice(
            "repetition",
            &[("off", 0), ("2", 2), ("3", 3), ("4", 4), ("5", 5)],
        )?;
        let ply_cap: u32 = p.parse("ply_cap")?;
        if !(1..=100_000).contains(&ply_cap) {
            crate::bail!(
                "game kings_colour: ply_cap={ply_cap} is not valid (expected integer 1..=100000)"
            );
        }
        Ok(Rules {
            capture,
            king_captures,
            stalemate_loses,
            repetition,
            ply_cap,
        })
    }
}

/// The boardspace cell labels of KC-G3: column `A`–`M` for `q = −6…6`, row
/// `r + 7` (`q ≥ 0`) or `r + q + 7` (`q < 0`).
#[derive(Copy, Clone, Debug, Default)]
pub struct KcNotation;

impl HexNotation for KcNotation {
    fn name(&self, h: Hex) -> String {
        let col = (b'A' + (h.q + 6) as u8) as char;
        format!("{col}{}", h.r + 7 + h.q.min(0))
    }

    fn parse(&self, text: &str) -> Option<Hex> {
        let b = text.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_alphabetic() {
            return None;
        }
        let c = b[0].to_ascii_uppercase();
        if !(b'A'..=b'M').contains(&c) || !b[1..].iter().all(u8::is_ascii_digit) || b[1] == b'0' {
            return None;
        }
        let row: i32 = text[1..].parse().ok()?;
        let q = (c - b'A') as i32 - 6;
        Some(Hex::new(q, row - 7 - q.min(0)))
    }

    fn expected(&self) -> String {
        "a column A-M then a row from 1 (A1-A7 … G1-G13 … M1-M7)".into()
    }
}

/// The game `kings_colour(...)`.
#[derive(Clone, Debug)]
pub struct KingsColourGame {
    /// The rules.
    pub rules: Rules,
}

impl KingsColourGame {
    /// The game with `rules`.
    pub fn new(rules: Rules) -> KingsColourGame {
        KingsColourGame { rules }
    }

    /// The game from a spec `kings_colour(...)`.
    ///
    /// # Errors
    /// Unknown parameters or values.
    pub fn from_spec(spec: &Spec) -> Result<KingsColourGame, GameError> {
        Ok(KingsColourGame::new(Rules::from_spec(spec)?))
    }
}

impl Default for KingsColourGame {
    fn default() -> Self {
        KingsColourGame::new(Rules::default())
    }
}

/// A move: a piece's start and end cell (promotion is automatic, §2.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KingsColourMove {
    /// The start cell index.
    pub from: u8,
    /// The end cell index.
    pub to: u8,
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Checkmate (KC-11).
    Checkmate,
    /// Stalemate (KC-13).
    Stalemate,
    /// n-fold repetition (KC-14).
    Repetition,
    /// The ply cap (KC-14).
    PlyCap,
}

/// The end of a game: the winner (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct End {
    /// The winning side, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Game for KingsColourGame {
    /// Repetition and the ply cap off.
    fn perft_game(&self) -> Self {
        KingsColourGame {
            rules: Rules {
                repetition: 0,
                ply_cap: u32::MAX,
                ..self.rules
            },
        }
    }

    type State = KingsColourState;

    fn game_string(&self) -> String {
        let r = &self.rules;
        format!(
            "kings_colour(capture={},king_captures={},stalemate={},repetition={},ply_cap={})",
            match r.capture {
                CaptureRule::Literal => "literal",
                CaptureRule::Wide => "wide",
            },
            r.king_captures,
            if r.stalemate_loses { "loss" } else { "draw" },
            if r.repetition == 0 {
                "off".to_string()
            } else {
                r.repetition.to_string()
            },
            r.ply_cap
        )
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// KC-S3: each castle full, Kings on D4 and J7.
    fn initial_state(&self, _seed: u64) -> KingsColourState {
        let mut st = KingsColourState::empty(self.rules);
        st.occ = st.geo.castle;
        st.hash = st.compute_hash();
        st.history[0] = st.hash;
        st
    }

    fn parse_position(&self, text: &str) -> Result<KingsColourState, GameError> {
        KingsColourState::parse_text(self.rules, text)
    }
}
