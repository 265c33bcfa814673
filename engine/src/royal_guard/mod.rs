//! # Royal Guard (Chris Huntoon and Christian Freeling)
//!
//! Chess on a board of four sub-grids. Rules: `docs/rules/royal_guard.md`;
//! rule numbers (RG-G1, RG-1 … RG-8, rulings RG-R1 … RG-R4) are
//! cited next to the code that implements them.
//!
//! ## Rules in brief
//! * RG-G1 (§3.2): a square's sub-grid is (file parity, rank parity); four
//!   classes of 16 squares ([`attacks::SUBGRID`]).
//! * RG-1: everything is FIDE chess except RG-2 … RG-6.
//! * RG-2: a Rook, Bishop, Knight or Pawn is *royal* while it stands on its
//!   own King's sub-grid (a pure function of the squares; Queens and Kings
//!   have no royal status).
//! * RG-3: a royal R/B/N may also move and capture one King step (never
//!   castling); duplicates are one move.
//! * RG-4: a royal pawn may also capture the enemy piece straight ahead (one
//!   square, never two); onto the last rank it promotes (ruling RG-R1).
//! * RG-5: attacks = FIDE attacks + the 8 squares around each royal N/B/R +
//!   the square in front of each royal pawn, empty or not (ruling RG-R2).
//!   A move is legal iff the mover's King is not attacked after it.
//! * RG-6: FIDE castling and en passant; "not attacked" uses RG-5 (ruling
//!   RG-R3); en passant is the diagonal capture only.
//! * RG-7: FIDE promotion; a promoted R/B/N on its King's sub-grid is royal
//!   at once.
//! * RG-8: checkmate wins; stalemate, threefold repetition and the
//!   fifty-move rule are draws; dead position only K v K (ruling RG-R4).
//!
//! `royal_powers=false` switches RG-2 … RG-5 off: FIDE chess exactly (§3.4),
//! which the published perft suites check.
//!
//! ## Seats, moves and text
//! Seat 0 plays White (moves first), seat 1 Black. Returns: mate +1/−1,
//! every draw 0. Moves are UCI long algebraic (`e2e4`, `e7e8q`, castling
//! `e1g1`; a forward capture is written like a push, `e3e4`); SAN is given by
//! [`RoyalGuardState::san`]. The position text is FEN (six fields; four are
//! accepted on input, clocks then default to `0 1`).
//!
//! ## Rulings kept as parameters (dossier defaults first)
//! * `royal_powers=true|false`: RG-2 … RG-5 on, or FIDE chess.
//! * `repetition=3|2..9|off` (RG-8, FIDE 9.2): the game is drawn when a
//!   position (pieces, side to move, castling rights, en-passant
//!   possibility) occurs the given number of times. FIDE makes threefold a
//!   *claim*; we apply it automatically, as engines and tournaments do.
//! * `fifty_move=true|false` (RG-8, FIDE 9.3): drawn when 100 plies pass
//!   without a capture or pawn move (automatic, as above; a mate on the
//!   100th ply still wins).
//! * `dead=kk|fide|off` (ruling RG-R4): the automatic dead-position draw:
//!   only King v King (default), FIDE's insufficient-material list (K v K,
//!   K+minor v K, K+B v K+B with bishops on one colour; sound only with
//!   powers off), or none.
//!
//! ## Repetition history
//! [`RoyalGuardState`] keeps the keys of every position since the last
//! capture or pawn move in a [`KeyHistory`](crate::board::KeyHistory): the
//! newest 16 inline, older ones in shared immutable chunks, so a clone is a
//! copy of about 350 bytes and at most one reference-count bump, and the
//! detection is exact however long the window grows (also with
//! `fifty_move=false`). Positions before an irreversible move can never
//! recur. Perft and the bench also use [`perft`] on the 80-byte [`Board`],
//! which carries no history.
//!
//! ## Bitboards (§3.4)
//! `u64`, a1 = bit 0. Magic slider tables built once at start-up; legal
//! moves with pins and check evasions computed ([`movegen`]); royal sets are
//! `SUBGRID[subgrid(king)] & (N|B|R|P)`.

pub mod attacks;
mod eval;
mod learning;
pub mod movegen;
mod position;
mod state;
mod text;

use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

pub use position::{BK, BQ, Board, NO_EP, WK, WQ};
pub use state::{Outcome, RoyalGuardState};

/// The FEN of the standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The parameters of `royal_guard(...)`, with the dossier's defaults.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "royal_powers",
        default: "true",
        values: "true|false",
        help: "royal R/B/N/P powers on their King's sub-grid (RG-2..RG-5); false = FIDE chess",
    },
    ParamInfo {
        name: "repetition",
        default: "3",
        values: "integer 2..=9|off",
        help: "draw when a position occurs this many times (RG-8, FIDE 9.2; automatic)",
    },
    ParamInfo {
        name: "fifty_move",
        default: "true",
        values: "true|false",
        help: "draw after 100 plies without capture or pawn move (RG-8, FIDE 9.3; automatic)",
    },
    ParamInfo {
        name: "dead",
        default: "kk",
        values: "kk|fide|off",
        help: "automatic dead-position draw: K v K only (ruling RG-R4), FIDE's insufficient material, or none",
    },
];

/// Which material draws at once (ruling RG-R4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DeadRule {
    /// Only King v King (RG-R4, the default).
    KingVKing,
    /// FIDE's insufficient material: K v K, K+N or K+B v K, K+B(s) v K+B(s)
    /// with all bishops on one square colour.
    Fide,
    /// No dead-position draw.
    Off,
}

/// The rule parameters of one Royal Guard variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// RG-2..RG-5 on (false: FIDE chess).
    pub royal_powers: bool,
    /// The occurrence count that draws (FIDE 9.2), `None` = off.
    pub repetition: Option<u8>,
    /// The fifty-move draw (FIDE 9.3).
    pub fifty_move: bool,
    /// The dead-position draw (ruling RG-R4).
    pub dead: DeadRule,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            royal_powers: true,
            repetition: Some(3),
            fifty_move: true,
            dead: DeadRule::KingVKing,
        }
    }
}

impl Rules {
    /// Reads the rules from a parsed game string `royal_guard(...)`.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<Rules, GameError> {
        let p = Params::new("game royal_guard", spec, PARAMS)?;
        let bools = [("true", true), ("false", false)];
        let royal_powers = p.choice("royal_powers", &bools)?;
        let fifty_move = p.choice("fifty_move", &bools)?;
        let dead = p.choice(
            "dead",
            &[
                ("kk", DeadRule::KingVKing),
                ("fide", DeadRule::Fide),
                ("off", DeadRule::Off),
            ],
        )?;
        let repetition = match p.text("repetition") {
            t if t.eq_ignore_ascii_case("off") => None,
            t => match t.parse::<u8>() {
                Ok(n) if (2..=9).contains(&n) => Some(n),
                _ => crate::bail!(
                    "game royal_guard: repetition={t:?} is not valid (expected integer 2..=9|off)"
                ),
            },
        };
        Ok(Rules {
            royal_powers,
            repetition,
            fifty_move,
            dead,
        })
    }

    /// The canonical game string with every parameter spelled out.
    pub fn game_string(&self) -> String {
        format!(
            "royal_guard(royal_powers={},repetition={},fifty_move={},dead={})",
            self.royal_powers,
            self.repetition.map_or("off".to_string(), |n| n.to_string()),
            self.fifty_move,
            match self.dead {
                DeadRule::KingVKing => "kk",
                DeadRule::Fide => "fide",
                DeadRule::Off => "off",
            }
        )
    }
}

/// A colour. White moves first and sits in seat 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Moves first; seat 0.
    White = 0,
    /// Seat 1.
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
}

/// A piece kind (the index into [`Board`]'s piece bitboards).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Piece {
    /// All kinds, pawn first.
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];

    /// The FEN letter (upper case).
    pub fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'Q', 'K'][self as usize]
    }
}

/// What kind of move a [`RoyalGuardMove`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A move or capture (a royal forward capture included).
    Normal = 0,
    /// A pawn's two-square first move.
    DoublePush = 1,
    /// Castling (the king's move; the rook follows).
    Castle = 2,
    /// En-passant capture.
    EnPassant = 3,
    /// Promotion to a knight.
    PromoKnight = 4,
    /// Promotion to a bishop.
    PromoBishop = 5,
    /// Promotion to a rook.
    PromoRook = 6,
    /// Promotion to a queen.
    PromoQueen = 7,
}

impl MoveKind {
    const ALL: [MoveKind; 8] = [
        MoveKind::Normal,
        MoveKind::DoublePush,
        MoveKind::Castle,
        MoveKind::EnPassant,
        MoveKind::PromoKnight,
        MoveKind::PromoBishop,
        MoveKind::PromoRook,
        MoveKind::PromoQueen,
    ];

    /// The piece a promotion makes.
    #[inline(always)]
    pub fn promotion(self) -> Option<Piece> {
        match self {
            MoveKind::PromoKnight => Some(Piece::Knight),
            MoveKind::PromoBishop => Some(Piece::Bishop),
            MoveKind::PromoRook => Some(Piece::Rook),
            MoveKind::PromoQueen => Some(Piece::Queen),
            _ => None,
        }
    }
}

/// A move: from-square (bits 0–5), to-square (6–11), [`MoveKind`] (12–14).
/// Squares are `rank * 8 + file`, a1 = 0.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct RoyalGuardMove(u16);

impl RoyalGuardMove {
    /// A placeholder (a1a1), never legal.
    pub const NULL: RoyalGuardMove = RoyalGuardMove(0);

    /// A move from `from` to `to` of the given kind.
    #[inline(always)]
    pub fn new(from: usize, to: usize, kind: MoveKind) -> RoyalGuardMove {
        RoyalGuardMove(from as u16 | (to as u16) << 6 | (kind as u16) << 12)
    }
    /// The square left.
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    /// The square reached.
    #[inline(always)]
    pub fn to(self) -> usize {
        ((self.0 >> 6) & 63) as usize
    }
    /// The kind.
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        MoveKind::ALL[(self.0 >> 12) as usize & 7]
    }
    /// UCI text: `e2e4`, `e7e8q`.
    pub fn uci(self) -> String {
        let mut s = square_name(self.from());
        s += &square_name(self.to());
        if let Some(p) = self.kind().promotion() {
            s.push(p.letter().to_ascii_lowercase());
        }
        s
    }
}

impl std::fmt::Debug for RoyalGuardMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.uci())
    }
}

/// The name of square `sq` (`a1` = 0).
pub fn square_name(sq: usize) -> String {
    crate::board::square_name(sq, 8)
}

/// Royal Guard with its parameters fixed.
#[derive(Clone, Debug)]
pub struct RoyalGuardGame {
    rules: Rules,
}

impl RoyalGuardGame {
    /// The game with these rules.
    pub fn new(rules: Rules) -> RoyalGuardGame {
        RoyalGuardGame { rules }
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<RoyalGuardGame, GameError> {
        Ok(RoyalGuardGame::new(Rules::from_spec(spec)?))
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }
}

impl crate::api::Game for RoyalGuardGame {
    /// Repetition, the fifty-move rule and the dead-position draw off.
    fn perft_game(&self) -> Self {
        RoyalGuardGame {
            rules: Rules {
                repetition: None,
                fifty_move: false,
                dead: DeadRule::Off,
                ..self.rules
            },
        }
    }

    type State = RoyalGuardState;

    fn game_string(&self) -> String {
        self.rules.game_string()
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The FIDE start position (RG-1); the seed is unused.
    fn initial_state(&self, _seed: u64) -> RoyalGuardState {
        RoyalGuardState::from_fen(self.rules, START_FEN).expect("the start FEN is valid")
    }

    fn parse_position(&self, text: &str) -> Result<RoyalGuardState, GameError> {
        RoyalGuardState::from_fen(self.rules, text)
    }
}

/// Perft from `board` with bulk counting (see [`movegen::perft`]).
pub fn perft(board: &Board, depth: u32) -> u64 {
    movegen::perft(board, depth)
}
