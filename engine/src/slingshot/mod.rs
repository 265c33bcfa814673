//! # Slingshot (Phil Leduc)
//!
//! A traverse connection game with a pie set-up and remote custodial
//! flipping, on 9×9 (standard) or 7×7. Rules: `docs/rules/slingshot.md`;
//! rule numbers S1–S22 are cited next to the code that implements
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

use crate::api::{Game, State};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};
use movegen::Geometry;
use state::{Outcome, Stage};
use text::parse_position;

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

pub use state::SlingshotState;

/// The parameters of `slingshot(...)`, with the dossier's defaults first.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "size",
        default: "9",
        values: "5|7|9",
        help: "board size n (S22; 5 is a research variant, S23)",
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
pub enum Side {
    /// Moves first after the set-up; connects top and bottom.
    Black,
    /// Owns the set-up stones; connects left and right.
    Teal,
}

impl Side {
    /// The other colour.
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::Teal,
            Side::Teal => Side::Black,
        }
    }
    fn letter(self) -> char {
        match self {
            Side::Black => 'B',
            Side::Teal => 'T',
        }
    }
}

/// A Slingshot move. Squares are bit indices `rank * n + file`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SlingshotMove {
    /// The setter's two Teal stones, `a < b` (S5); text `e5,a1`.
    Setup(u8, u8),
    /// The chooser takes this colour (S5, S7); text `chooser=B` / `chooser=T`.
    Choose(Side),
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

/// No square (padding in `line_squares`).
const NONE: u8 = u8::MAX;

/// A distinct, fixed Zobrist seed per board size.
const fn zobrist_seed(n: u32) -> u64 {
    0x5119_6580_7A3D_0001 ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The rule parameters of one Slingshot variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Board size n: 7 or 9 (S22), or 5 (S23, a research variant).
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
pub struct SlingshotGame {
    rules: Rules,
}

impl SlingshotGame {
    /// The variant with these rules.
    ///
    /// # Errors
    /// A size other than 5, 7 or 9, or a supply below 3.
    pub fn new(rules: Rules) -> Result<SlingshotGame, GameError> {
        if ![5, 7, 9].contains(&rules.size) {
            crate::bail!(
                "game slingshot: size={} is not valid (expected one of 5|7|9)",
                rules.size
            );
        }
        if rules.supply < 3 {
            crate::bail!(
                "game slingshot: supply={} is too small (expected 3 or more)",
                rules.supply
            );
        }
        Ok(SlingshotGame { rules })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<SlingshotGame, GameError> {
        let p = Params::new("game slingshot", spec, PARAMS)?;
        let size = p.choice("size", &[("5", 5), ("7", 7), ("9", 9)])?;
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
        SlingshotGame::new(Rules {
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
            to_move: Side::Black,
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

impl Game for SlingshotGame {
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
