//! # The spinner connection game (rule set SPINPATH-8)
//!
//! An unnamed children's connection game with a spinner: each turn a
//! player spins 1, 2, 3 or S, then places that many pieces or switches one
//! own piece with one of the opponent's. Rules: `docs/rules/spinner.md`;
//! the seed's rules are B.2, our default rule set SPINPATH-8 is
//! K1–K12 (B.3), its open questions K-Q1…K-Q10 (B.4). Rule numbers are cited
//! next to the code that implements them.
//!
//! ## Rules (defaults first; parameters in brackets)
//! * K1 `size=8`: an n × n board, files a…, ranks 1…n (`a1` bottom-left).
//! * K2 `stars`: squares nobody may place on, usable by both players for
//!   paths. Default (K-Q3): `c3,f3,c6,f6` on 8×8, `c3,e3,c5,e5` on 7×7,
//!   `c3,g3,c7,g7` on 9×9; in general files c and n−2, ranks 3 and n−2.
//! * K3 `goals=same`: both players connect rank 1 to rank n; `goals=crossed`
//!   (K-Q4's alternative): player 1 ranks, player 2 files a to the last.
//! * K4: player 1 (seat 0, letter `X`) spins first; player 2 is seat 1
//!   (letter `O`).
//! * K5: the spinner shows 1, 2, 3 or S with probability 1/4 each.
//! * K6: if S cannot be played (a player has no piece on the board) the
//!   player spins again: the outcome is then 1, 2 or 3 with 1/3 each.
//! * K7: on k, place `min(k, E)` pieces on distinct empty non-star squares
//!   (E of them).
//! * K8: on S, exchange one own piece with one of the opponent's
//!   (compulsory).
//! * K9: after the action, if the mover has a path the mover wins; else if
//!   the opponent has one (possible only after a switch) the opponent wins.
//!   A placement turn ends at the first placement that completes a path.
//! * K10: no winner and no empty non-star square at the end of a turn: a
//!   draw.
//! * K11: supply unlimited. K12: a path is an orthogonally connected chain
//!   of own pieces and stars touching both goal edges.
//!
//! ## Turns as moves (B.5)
//! * The spin is a **chance node** ([`ToMove::Chance`]) whose outcomes are
//!   moves `spin=1`, `spin=2`, `spin=3`, `spin=S` with the K5/K6
//!   probabilities.
//! * A k-placement turn is **k single placements by the same player**
//!   (`d4`), in increasing square index (bit `rank * n + file`): the
//!   canonical order that lists each set of squares once. A placement that
//!   would leave fewer empty squares above it than placements still due is
//!   not offered, so the placement sequences of a turn are exactly the
//!   `min(k, E)`-subsets of the empty squares (B.5: 60, 1,770 and 34,220 at
//!   the opening). The state records the placements left and the last
//!   square placed, shows them in the position text (`place2>c3`) and
//!   hashes them.
//! * A switch is one move `X<>Y` (own piece first): a·b options (K8).
//!
//! ## Bits
//! Each player's pieces and the stars are `u128` sets over the n × n
//! squares (n ≤ 11); paths are flood fills of the shared [`SquareGrid`].

use crate::api::{Game, State};
use crate::board::SquareGrid;
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};
use movegen::Geometry;
use state::{Outcome, Phase};
use text::{join_quoted_stars, parse_position, parse_stars, stars_text};

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

pub use state::SpinnerState;

/// The parameters of `spinner(...)`, with the dossier's defaults first.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "size",
        default: "8",
        values: "integer 5..=11",
        help: "board size n (K1, K-Q2)",
    },
    ParamInfo {
        name: "stars",
        default: "auto",
        values: "auto|none|[sq,sq,...] (or \"sq,sq,...\"), e.g. [c3,f3,c6,f6]",
        help: "wild-card squares usable by both; auto = files c and n-2, ranks 3 and n-2 (K2, K-Q3; needs size >= 7)",
    },
    ParamInfo {
        name: "goals",
        default: "same",
        values: "same|crossed",
        help: "both connect rank 1 to rank n (K3) or player 2 connects the files (K-Q4 alternative)",
    },
];

/// Piece letters of seats 0 and 1 in position texts and diagrams; `*` is a
/// star.
pub const SEAT_LETTERS: [char; 2] = ['X', 'O'];

/// No square.
const NONE: u8 = u8::MAX;

/// The rule parameters of one variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Board size n, 5..=11 (K1).
    pub size: u32,
    /// The star squares, bit `rank * n + file` (K2).
    pub stars: u128,
    /// Player 2 connects files instead of ranks (K-Q4 alternative to K3).
    pub crossed: bool,
}

impl Rules {
    /// The K-Q3 star layout for size `n` (7 or more): files c and n−2,
    /// ranks 3 and n−2 (0-based 2 and n−3).
    ///
    /// # Errors
    /// A size below 7, where these four squares would touch or coincide.
    pub fn auto_stars(n: u32) -> Result<u128, GameError> {
        if !(7..=11).contains(&n) {
            crate::bail!(
                "game spinner: stars=auto needs size 7..=11 (files c and n-2, ranks 3 and n-2, K-Q3); give the stars for size={n}"
            );
        }
        let (lo, hi) = (2, n - 3);
        Ok([(lo, lo), (lo, hi), (hi, lo), (hi, hi)]
            .iter()
            .fold(0u128, |acc, &(r, c)| acc | 1u128 << (r * n + c)))
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            size: 8,
            stars: Rules::auto_stars(8).expect("size 8 has auto stars"),
            crossed: false,
        }
    }
}

/// The spinner game with its parameters fixed: `spinner(size=8)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpinnerGame {
    rules: Rules,
}

impl SpinnerGame {
    /// The variant with these rules.
    ///
    /// # Errors
    /// A size outside 5..=11, stars off the board, or no square left to
    /// place on.
    pub fn new(rules: Rules) -> Result<SpinnerGame, GameError> {
        let n = rules.size;
        if !(5..=11).contains(&n) {
            crate::bail!("game spinner: size={n} is not valid (expected 5..=11)");
        }
        let full = SquareGrid::<u128>::new(n, n).full;
        if rules.stars & !full != 0 {
            crate::bail!("game spinner: a star lies off the {n}x{n} board");
        }
        if rules.stars == full {
            crate::bail!(
                "game spinner: stars cover the whole board, leaving no square to place on"
            );
        }
        Ok(SpinnerGame { rules })
    }

    /// Builds the game from a parsed game string. The star list is written
    /// `stars=[c3,f3,c6,f6]`; the quoted form `stars="c3,f3,c6,f6"` is
    /// accepted too (the spec parser splits it at its commas; they are
    /// joined back here).
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), a
    /// star that is not a square of the board or is given twice, and the
    /// errors of [`SpinnerGame::new`].
    pub fn from_spec(spec: &Spec) -> Result<SpinnerGame, GameError> {
        let spec = join_quoted_stars(spec)?;
        let p = Params::new("game spinner", &spec, PARAMS)?;
        let size: u32 = p.parse("size")?;
        if !(5..=11).contains(&size) {
            crate::bail!("game spinner: size={size} is not valid (expected 5..=11)");
        }
        let crossed = p.choice("goals", &[("same", false), ("crossed", true)])?;
        let text = p.text("stars");
        let stars = if text.eq_ignore_ascii_case("auto") {
            Rules::auto_stars(size)?
        } else {
            parse_stars(text, size)?
        };
        SpinnerGame::new(Rules {
            size,
            stars,
            crossed,
        })
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    fn start(&self) -> SpinnerState {
        let mut s = SpinnerState {
            geo: Geometry::get(self.rules.size),
            rules: self.rules,
            pieces: [0; 2],
            to_move: 0,
            phase: Phase::Spin,
            outcome: Outcome::Ongoing,
            ply: 0,
            hash: 0,
        };
        s.hash = s.zobrist_from_scratch();
        s
    }
}

impl Game for SpinnerGame {
    type State = SpinnerState;

    fn game_string(&self) -> String {
        let r = &self.rules;
        format!(
            "spinner(size={},stars={},goals={})",
            r.size,
            stars_text(r.stars, r.size),
            if r.crossed { "crossed" } else { "same" }
        )
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The empty board, player 1's spin (a chance node). The seed is unused.
    fn initial_state(&self, _seed: u64) -> SpinnerState {
        self.start()
    }

    fn parse_position(&self, text: &str) -> Result<SpinnerState, GameError> {
        parse_position(self, text)
    }
}

/// A move or chance outcome. Squares are bit indices `rank * n + file`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpinnerMove {
    /// Chance outcome: the spinner shows 1, 2 or 3 (K5, K6); text `spin=2`.
    Spin(u8),
    /// Chance outcome: the spinner shows S (K5, K8); text `spin=S`.
    SpinS,
    /// Place one piece (K7); text `d4`.
    Place(u8),
    /// Exchange the mover's piece on `own` with the opponent's on `other`
    /// (K8); text `e5<>h8`.
    Switch {
        /// The mover's piece.
        own: u8,
        /// The opponent's piece.
        other: u8,
    },
}
