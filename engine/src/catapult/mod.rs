//! # Catapult (Alek Erickson and Michael Amundsen, 2024)
//!
//! A two-player army game of total annihilation on 8×8 (standard) or 9×9,
//! with the Royal and Dagger variants. Rules: `docs/rules/catapult.md`;
//! rule numbers (C-B1, C-R-def, C-M2, …) are cited next to the code
//! that implements them.
//!
//! ## Rules in brief
//! * Board and set-up (C-B1–C-B3, C-S1–C-S4): Light's stones on the squares
//!   `x + y ≤ n − 3` with `x + y ≡ n − 3 (mod 2)` (12 on 8×8, 16 on 9×9),
//!   Dark's on their point reflection; homes a1 (Light) and h8/i9 (Dark).
//! * Light moves first (C-T1); a turn is one move, or a pass when no move
//!   exists (C-T2, C-P1).
//! * Forward directions (C-F1): Light N, E, NE; Dark S, W, SW.
//! * Range (C-R-def): `2^b`, `b` the number of forward directions whose
//!   adjacent square is off the board or holds a friendly piece.
//! * Moves (C-M1, C-M2): up to `range` squares along one of the 8 lines;
//!   non-capturing moves go forward over empty squares only; capturing moves
//!   go in any direction, never pass or land on a friend, pass at least one
//!   enemy, and remove every enemy passed or landed on.
//! * End (C-E1): the mover wins when the opponent has no piece left.
//! * Royal (C-K1–C-K5): a king per side on its home corner (added on 8×8,
//!   replacing the corner stone on 9×9), moving like a stone; capturing it
//!   wins at once.
//! * Dagger (C-D1–C-D7): Dark holds it at the start; the holder may make two
//!   moves in one turn (`m1;m2`) and then hands it over.
//!
//! ## Seats and actions
//! Seat 0 plays Light (moves first), seat 1 Dark. One action is one ply: a
//! single move, a dagger double turn `m1;m2`, a dagger move then forced pass
//! `m1;pass` (C-D5), or a forced `pass` (C-P1). Returns: win +1, loss −1,
//! draw 0 (only at the safety cap, C-R2).
//!
//! ## Rulings kept as parameters (dossier defaults first)
//! * `dagger_move_then_pass=true|false` (C-D5): when no second move exists
//!   after `m1`, the holder may play `m1;pass` and hand the dagger over
//!   (text B), or not (AbstractPlay's counts).
//! * `ply_cap=2000` (C-R2): a safety cap in plies, scored as a draw. The game
//!   provably ends long before (≤ 1,806 turns, §1.10), so the cap is a bug
//!   detector, never a rule: [`CatapultState::capped`] reports it.
//!
//! ## Rulings fixed in the code (no playable alternative)
//! * C-R1: homes on the a1–h8 (a1–i9) diagonal; the mirror set-up is the
//!   same game reflected.
//! * C-D4: a double turn whose first move already wins is not generated; the
//!   single move covers it.
//! * C-D6: a player with no move passes and cannot use the dagger.
//! * C-K2: on 9×9 the Royal king replaces the corner stone (AbstractPlay).
//!
//! ## Bitboards (§1.14)
//! [`CatapultState`] is generic over the bit-set width: `u64` for 8×8 and
//! `u128` for 9×9 ([`Catapult8`], [`Catapult9`]; `u128` also plays 8×8, which
//! the tests use to check the widths agree). Per size, a static
//! [`Geometry`] holds the board masks, the rays of [`Rays`] and the Zobrist
//! keys. Ranges of all pieces are found at once from three shifted masks;
//! moves are walked for all pieces of one range class and one direction at
//! once: a *pre* front (empty squares so far) and a *post* front (an enemy
//! passed), advanced one square per step. The pre front is the non-capturing
//! landing set, the post front the capturing one (C-M3).

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

use std::sync::OnceLock;

use crate::board::{Bits, Dir, Rays, SquareGrid, zobrist};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

pub use eval::EvalWeights;
pub use state::CatapultState;

/// The parameters of `catapult(...)`, with the dossier's defaults.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "size",
        default: "8",
        values: "8|9",
        help: "board size n (C-B1, C-B2)",
    },
    ParamInfo {
        name: "royal",
        default: "false",
        values: "true|false",
        help: "Royal Catapult: a king per side, capture it to win (C-K1-C-K5)",
    },
    ParamInfo {
        name: "dagger",
        default: "false",
        values: "true|false",
        help: "the Dagger: Dark starts holding it, the holder may move twice and hand it over (C-D1-C-D7)",
    },
    ParamInfo {
        name: "dagger_move_then_pass",
        default: "true",
        values: "true|false",
        help: "with no second move after m1, the holder may play m1;pass and hand the dagger over (ruling C-D5; false = AbstractPlay)",
    },
    ParamInfo {
        name: "ply_cap",
        default: "2000",
        values: "integer 1..=1000000",
        help: "safety cap in plies, scored as a draw; never reached by the rules (ruling C-R2)",
    },
];

/// The default safety cap in plies (ruling C-R2): 2,000 turns, more than the
/// 1,806-turn bound of §1.10.
pub const DEFAULT_PLY_CAP: u32 = 2000;

/// A side. Light moves first (C-T1) and sits in seat 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Home corner a1, forward N, E, NE; seat 0.
    Light = 0,
    /// Home corner h8 (i9), forward S, W, SW; seat 1.
    Dark = 1,
}

impl Side {
    /// The other side.
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::Light => Side::Dark,
            Side::Dark => Side::Light,
        }
    }

    /// 0 for Light, 1 for Dark (also the seat).
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The three forward directions (C-F1).
    pub fn forward(self) -> [Dir; 3] {
        match self {
            Side::Light => [Dir::N, Dir::NE, Dir::E],
            Side::Dark => [Dir::S, Dir::SW, Dir::W],
        }
    }

    fn letter(self) -> char {
        match self {
            Side::Light => 'L',
            Side::Dark => 'D',
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::Light => "Light",
            Side::Dark => "Dark",
        }
    }
}

/// The rule parameters of one Catapult variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Board size n: 8 or 9 (C-B1, C-B2).
    pub size: u32,
    /// Royal Catapult (§1.11).
    pub royal: bool,
    /// The Dagger (§1.12).
    pub dagger: bool,
    /// Ruling C-D5: `m1;pass` when no second move exists.
    pub dagger_move_then_pass: bool,
    /// Ruling C-R2: plies after which an unfinished game is a draw.
    pub ply_cap: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            size: 8,
            royal: false,
            dagger: false,
            dagger_move_then_pass: true,
            ply_cap: DEFAULT_PLY_CAP,
        }
    }
}

impl Rules {
    /// Reads the rules from a parsed game string `catapult(...)`.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<Rules, GameError> {
        let p = Params::new("game catapult", spec, PARAMS)?;
        let bool_choice = [("true", true), ("false", false)];
        let size = p.choice("size", &[("8", 8), ("9", 9)])?;
        let royal = p.choice("royal", &bool_choice)?;
        let dagger = p.choice("dagger", &bool_choice)?;
        let dagger_move_then_pass = p.choice("dagger_move_then_pass", &bool_choice)?;
        let ply_cap: u32 = p.parse("ply_cap")?;
        let rules = Rules {
            size,
            royal,
            dagger,
            dagger_move_then_pass,
            ply_cap,
        };
        rules.check()?;
        Ok(rules)
    }

    fn check(&self) -> Result<(), GameError> {
        if self.size != 8 && self.size != 9 {
            crate::bail!(
                "game catapult: size={} is not valid (expected one of 8|9)",
                self.size
            );
        }
        if !(1..=1_000_000).contains(&self.ply_cap) {
            crate::bail!(
                "game catapult: ply_cap={} is not valid (expected integer 1..=1000000)",
                self.ply_cap
            );
        }
        Ok(())
    }

    /// The canonical game string with every parameter spelled out.
    pub fn game_string(&self) -> String {
        format!(
            "catapult(size={},royal={},dagger={},dagger_move_then_pass={},ply_cap={})",
            self.size, self.royal, self.dagger, self.dagger_move_then_pass, self.ply_cap
        )
    }
}

/// A bit-set width that can hold a Catapult board: `u64` (8×8) or `u128`
/// (8×8 and 9×9). Sealed; it gives each width its static per-size tables.
pub trait CatapultBits: Bits + sealed::Sealed {
    /// The tables for board size `n`, or `None` if `n × n` does not fit.
    fn geometry(n: u32) -> Option<&'static Geometry<Self>>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

impl CatapultBits for u64 {
    fn geometry(n: u32) -> Option<&'static Geometry<u64>> {
        static G8: OnceLock<Geometry<u64>> = OnceLock::new();
        (n == 8).then(|| G8.get_or_init(|| Geometry::build(8)))
    }
}

impl CatapultBits for u128 {
    fn geometry(n: u32) -> Option<&'static Geometry<u128>> {
        static G8: OnceLock<Geometry<u128>> = OnceLock::new();
        static G9: OnceLock<Geometry<u128>> = OnceLock::new();
        match n {
            8 => Some(G8.get_or_init(|| Geometry::build(8))),
            9 => Some(G9.get_or_init(|| Geometry::build(9))),
            _ => None,
        }
    }
}

/// The static tables of one board size: masks, rays and Zobrist keys,
/// shared by every state of that size.
#[derive(Debug)]
pub struct Geometry<B: Bits> {
    n: u32,
    grid: SquareGrid<B>,
    rays: Rays<B>,
    /// Per direction: the squares whose neighbour that way is off the board.
    edge: [B; 8],
    /// Light's stones at the start (C-S1, C-S2).
    light_start: B,
    /// Zobrist keys, `square * 4 + kind`, kind 0/1 Light/Dark stone, 2/3
    /// Light/Dark king.
    z_piece: Vec<u64>,
    z_dark_to_move: u64,
    z_light_holds_dagger: u64,
}

impl<B: Bits> Geometry<B> {
    fn build(n: u32) -> Geometry<B> {
        let grid = SquareGrid::<B>::new(n, n);
        let rays = Rays::new(&grid);
        let edge = Dir::ALL.map(|d| grid.edge(d));
        // C-S3: the triangle x + y <= n - 3 at a1, every other anti-diagonal
        // (parity of n - 3): 8×8 {1, 3, 5}, 9×9 {0, 2, 4, 6}.
        let mut light_start = B::ZERO;
        for y in 0..n {
            for x in 0..n {
                let s = x + y;
                if s <= n - 3 && s % 2 == (n - 3) % 2 {
                    light_start |= B::bit(y * n + x);
                }
            }
        }
        let squares = (n * n) as usize;
        let keys = zobrist::keys(0xCA7A_9017_0000_0000 ^ n as u64, squares * 4 + 2);
        Geometry {
            n,
            grid,
            rays,
            edge,
            light_start,
            z_piece: keys[..squares * 4].to_vec(),
            z_dark_to_move: keys[squares * 4],
            z_light_holds_dagger: keys[squares * 4 + 1],
        }
    }

    /// The point reflection `(x, y) → (n−1−x, n−1−y)`, i.e. square `i → n²−1−i`
    /// (C-S1: Dark's set-up is Light's reflected).
    fn reflect(&self, b: B) -> B {
        let last = self.n * self.n - 1;
        b.iter().fold(B::ZERO, |acc, i| acc | B::bit(last - i))
    }

    #[inline(always)]
    fn z(&self, sq: u32, kind: usize) -> u64 {
        self.z_piece[sq as usize * 4 + kind]
    }

    /// Board size n.
    pub fn size(&self) -> u32 {
        self.n
    }
}

/// One move of one piece: from a square to a square along one of the eight
/// lines, capturing or not (C-M1, C-M2). Squares are bit indices
/// `rank · n + file`. Text `c3-d4` (non-capturing) or `c3xf6` (capturing).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    from: u8,
    to: u8,
    /// Direction index (bits 0–2) and capture flag (bit 3).
    flags: u8,
}

impl Step {
    #[inline(always)]
    fn new(from: u32, to: u32, dir: usize, capture: bool) -> Step {
        Step {
            from: from as u8,
            to: to as u8,
            flags: dir as u8 | ((capture as u8) << 3),
        }
    }

    /// The square the piece leaves.
    #[inline(always)]
    pub fn from(self) -> u32 {
        self.from as u32
    }

    /// The landing square.
    #[inline(always)]
    pub fn to(self) -> u32 {
        self.to as u32
    }

    /// The direction of the move.
    #[inline(always)]
    pub fn dir(self) -> Dir {
        Dir::from_index((self.flags & 7) as usize)
    }

    /// Whether it captures (C-M2): written `x` rather than `-`.
    #[inline(always)]
    pub fn is_capture(self) -> bool {
        self.flags & 8 != 0
    }
}

/// A Catapult action: one ply (§1.13 notation in brackets).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CatapultMove {
    /// One move (`c3-d4`, `c3xf6`).
    Move(Step),
    /// A dagger double turn: two moves by the holder, then the dagger passes
    /// to the opponent (C-D2; `c3-b2;b2xa1`).
    Double(Step, Step),
    /// A dagger move with no second move available, completed by a pass;
    /// the dagger passes to the opponent (C-D5; `b1-a1;pass`).
    MoveThenPass(Step),
    /// The forced pass of a player with no move (C-P1; `pass`).
    Pass,
}

/// Catapult with its parameters fixed, over the bit set `B`
/// ([`Catapult8`] = `u64` for 8×8, [`Catapult9`] = `u128` for 9×9).
#[derive(Clone, Debug)]
pub struct CatapultGame<B: CatapultBits> {
    rules: Rules,
    geo: &'static Geometry<B>,
}

/// Catapult 8×8 on `u64` bitboards.
pub type Catapult8 = CatapultGame<u64>;
/// Catapult 9×9 on `u128` bitboards.
pub type Catapult9 = CatapultGame<u128>;

impl<B: CatapultBits> CatapultGame<B> {
    /// The variant with these rules.
    ///
    /// # Errors
    /// A size other than 8 or 9, a size that does not fit `B` (9×9 needs
    /// `u128`), or a ply cap outside `1..=1000000`.
    pub fn new(rules: Rules) -> Result<CatapultGame<B>, GameError> {
        rules.check()?;
        let Some(geo) = B::geometry(rules.size) else {
            crate::bail!(
                "game catapult: size={} does not fit a {}-bit board (use Catapult<u128>)",
                rules.size,
                B::WIDTH
            );
        };
        Ok(CatapultGame { rules, geo })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), or a
    /// size that does not fit `B`.
    pub fn from_spec(spec: &Spec) -> Result<CatapultGame<B>, GameError> {
        CatapultGame::new(Rules::from_spec(spec)?)
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }
}

impl<B: CatapultBits> crate::api::Game for CatapultGame<B> {
    /// The safety ply cap off.
    fn perft_game(&self) -> Self {
        CatapultGame {
            rules: Rules {
                ply_cap: u32::MAX,
                ..self.rules
            },
            geo: self.geo,
        }
    }

    type State = CatapultState<B>;

    fn game_string(&self) -> String {
        self.rules.game_string()
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The set-up of C-S1/C-S2 (with the kings of C-K1/C-K2 in Royal), Light
    /// to move, Dark holding the dagger in the Dagger variant (C-D1). The
    /// seed is unused: Catapult has no random set-up.
    fn initial_state(&self, _seed: u64) -> CatapultState<B> {
        CatapultState::initial(self.rules, self.geo)
    }

    fn parse_position(&self, text: &str) -> Result<CatapultState<B>, GameError> {
        text::parse_position(self.rules, self.geo, text)
    }
}
