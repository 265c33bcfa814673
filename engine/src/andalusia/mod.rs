//! # Andalusia (Chris Huntoon, 2009)
//!
//! Chess on a modified quadruple-Alquerque board: a 9×9 grid of points whose
//! lines are the ranks and files of odd number (1, 3, …, 9 and a, c, …, i)
//! and the Alquerque diagonals. Rules: `docs/rules/andalusia.md`;
//! rule numbers (A-B1, A-M3, A-K1, …) are cited next to the code that
//! implements them.
//!
//! ## Rules in brief
//! * Board (§2.2, A-B1–A-B3): all 81 points; E/W links on ranks 1, 3, 5, 7,
//!   9, N/S links on files a, c, e, g, i, diagonal links from the points
//!   with `x + y` even; 144 links on 24 lines. Built on
//!   [`LineGraph`](crate::board::LineGraph).
//! * Set-up (A-S1, A-S2): King e1/e9, Chariots b1–d1, f1–h1 (b9–d9,
//!   f9–h9), Soldiers on rank 2 (rank 8); corners empty. White moves first
//!   (ruling A-R1) and sits in seat 0.
//! * Moves (§2.4): King one link (A-M1); Chariot slides along a line
//!   (A-M2); Soldier one link forward, diagonally forward or sideways, moving
//!   and capturing alike (A-M3), a non-capturing double step in a forward
//!   direction from its start rank (A-M4), promotion to Chariot on its
//!   eighth rank (A-M5). No castling, en passant or drops (A-M6).
//! * King safety (§2.5, A-K1): a move is legal iff the mover's King is then
//!   not attacked by an enemy Soldier, Chariot or the enemy King (the flying
//!   King: kings may never face each other on an empty line, which pins).
//! * End (§2.6): checkmate loses (A-E1); a player without a legal move who
//!   is not in check loses too (ruling A-R2, option); draws (A-R3) by
//!   threefold repetition, 100 plies without capture or soldier move, and a
//!   600-ply cap.
//!
//! ## Rulings kept as parameters (dossier defaults first)
//! * `stalemate=loss|draw` (A-R2): the stalemated player loses, or a draw.
//! * `repetitions=3` (A-R3 i): the game is drawn when the same position
//!   (placement and side to move) occurs this many times; `0` turns it off.
//! * `quiet_plies=100` (A-R3 ii): drawn after this many consecutive plies
//!   with no capture and no soldier move (promotions are soldier moves); `0`
//!   turns it off.
//! * `ply_cap=600` (A-R3 iii): the harness cap, drawn.
//!
//! ## Rulings of ours fixed in the code
//! * \[OURS\] When several endings apply after one ply, the first of this
//!   list counts: no legal move (checkmate or stalemate), repetition, the
//!   quiet-plies rule, the ply cap (checkmate on the 100th quiet ply wins,
//!   as in chess).
//! * \[OURS\] The repetition window starts afresh after a capture or a soldier
//!   move that changes rank (no earlier position can recur); the position
//!   text does not carry the history, so a parsed position starts with none
//!   (as a chess FEN does).
//!
//! ## Bitboards (§2.8)
//! A `u128` over the 81 points (`a1` = bit 0, index `9y + x`): one set per
//! colour, one each for Chariots and Soldiers, the King points apart. Move
//! generation is legal, not pseudo-legal-then-filter: checkers and pinned
//! pieces are found by casting the eight rays from the King (the enemy King
//! pins like a Chariot, A-K2), non-King moves are masked by the pin line and
//! the check-evasion set, and King steps are tested one by one with the King
//! lifted off the board (A-K1 through the vacated point, E-A5).
//! [`State::count_legal_moves`](crate::State::count_legal_moves) counts
//! with popcounts and builds no list. Chariot slides use the obstruction
//! difference, one subtraction per line. [`AndalusiaState::perft`] is a
//! specialised perft (same counts as [`crate::perft`]) that skips the
//! no-move probe [`State::apply`](crate::State::apply) makes to settle the
//! ending.

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

use std::sync::OnceLock;

use crate::board::{Dir, LineGraph, zobrist};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

pub use eval::EvalWeights;
pub use state::{AndalusiaState, Outcome};

/// The parameters of `andalusia(...)`, with the dossier's defaults.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "stalemate",
        default: "loss",
        values: "loss|draw",
        help: "a player with no legal move who is not in check loses, or draws (ruling A-R2)",
    },
    ParamInfo {
        name: "repetitions",
        default: "3",
        values: "0 (off) or integer 2..=10",
        help: "drawn when one position (placement and side to move) occurs this often (ruling A-R3 i)",
    },
    ParamInfo {
        name: "quiet_plies",
        default: "100",
        values: "0 (off) or integer 1..=100000",
        help: "drawn after this many plies with no capture and no soldier move (ruling A-R3 ii)",
    },
    ParamInfo {
        name: "ply_cap",
        default: "600",
        values: "integer 1..=100000",
        help: "harness cap in plies, drawn (ruling A-R3 iii)",
    },
];

/// What a stalemate scores (ruling A-R2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StalemateResult {
    /// The stalemated player loses (the default, after Dagaz and Xiangqi).
    Loss,
    /// A draw, as in chess.
    Draw,
}

/// The rulings of one Andalusia game (§2.6, §2.11).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Ruling A-R2.
    pub stalemate: StalemateResult,
    /// Ruling A-R3 (i): occurrences of one position that draw; 0 = off.
    pub repetitions: u32,
    /// Ruling A-R3 (ii): plies without capture or soldier move that draw;
    /// 0 = off.
    pub quiet_plies: u32,
    /// Ruling A-R3 (iii): plies after which the game is drawn.
    pub ply_cap: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            stalemate: StalemateResult::Loss,
            repetitions: 3,
            quiet_plies: 100,
            ply_cap: 600,
        }
    }
}

impl Rules {
    /// Reads the rules from a parsed game string `andalusia(...)`.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<Rules, GameError> {
        let p = Params::new("game andalusia", spec, PARAMS)?;
        let rules = Rules {
            stalemate: p.choice(
                "stalemate",
                &[
                    ("loss", StalemateResult::Loss),
                    ("draw", StalemateResult::Draw),
                ],
            )?,
            repetitions: p.parse("repetitions")?,
            quiet_plies: p.parse("quiet_plies")?,
            ply_cap: p.parse("ply_cap")?,
        };
        rules.check()?;
        Ok(rules)
    }

    /// Checks the values are in range.
    ///
    /// # Errors
    /// A value outside its range, named with the valid ones.
    pub fn check(&self) -> Result<(), GameError> {
        if self.repetitions == 1 || self.repetitions > 10 {
            crate::bail!(
                "game andalusia: repetitions={} is not valid (expected 0 (off) or integer 2..=10)",
                self.repetitions
            );
        }
        if self.quiet_plies > 100_000 {
            crate::bail!(
                "game andalusia: quiet_plies={} is not valid (expected 0 (off) or integer 1..=100000)",
                self.quiet_plies
            );
        }
        if !(1..=100_000).contains(&self.ply_cap) {
            crate::bail!(
                "game andalusia: ply_cap={} is not valid (expected integer 1..=100000)",
                self.ply_cap
            );
        }
        Ok(())
    }

    /// The canonical game string with every parameter spelled out.
    pub fn game_string(&self) -> String {
        format!(
            "andalusia(stalemate={},repetitions={},quiet_plies={},ply_cap={})",
            match self.stalemate {
                StalemateResult::Loss => "loss",
                StalemateResult::Draw => "draw",
            },
            self.repetitions,
            self.quiet_plies,
            self.ply_cap
        )
    }
}

/// A side. White moves first (ruling A-R1) and sits in seat 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Starts on ranks 1–2, moves up the board; seat 0.
    White = 0,
    /// Starts on ranks 8–9, moves down the board; seat 1.
    Black = 1,
}

impl Side {
    /// The other side.
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black (also the seat).
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side of index `i & 1`.
    #[inline(always)]
    pub fn from_index(i: usize) -> Side {
        if i & 1 == 0 { Side::White } else { Side::Black }
    }

    /// The five Soldier step directions (A-M3): White N, NE, NW, E, W;
    /// Black S, SE, SW, E, W. The first three are the forward ones, the
    /// double-step directions (A-M4).
    pub const fn soldier_dirs(self) -> [Dir; 5] {
        match self {
            Side::White => [Dir::N, Dir::NE, Dir::NW, Dir::E, Dir::W],
            Side::Black => [Dir::S, Dir::SE, Dir::SW, Dir::E, Dir::W],
        }
    }

    /// `"White"` or `"Black"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

/// A kind of piece (A-S1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// One step along a link (A-M1); never captured.
    King = 0,
    /// Slides along a line (A-M2).
    Chariot = 1,
    /// Steps forward, diagonally forward or sideways (A-M3, A-M4, A-M5).
    Soldier = 2,
}

impl Piece {
    /// The letter in position text and diagrams: `K`, `C`, `S` for White,
    /// lower case for Black.
    pub fn letter(self, side: Side) -> char {
        let c = match self {
            Piece::King => 'K',
            Piece::Chariot => 'C',
            Piece::Soldier => 'S',
        };
        if side == Side::White {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }
}

/// The number of points, 9 × 9.
pub const POINTS: u32 = 81;

/// Board width and height.
pub const SIZE: u32 = 9;

/// The link rule A-B1: E/W links where `y` is even (ranks 1, 3, 5, 7, 9),
/// N/S where `x` is even (files a, c, e, g, i), diagonal links where `x + y`
/// is even. `(x, y)` 0-based.
pub fn has_link(x: u32, y: u32, d: Dir) -> bool {
    match d {
        Dir::E | Dir::W => y.is_multiple_of(2),
        Dir::N | Dir::S => x.is_multiple_of(2),
        _ => (x + y).is_multiple_of(2),
    }
}

/// The static tables of the board: the line graph, Soldier steps and
/// attacks, rank masks and Zobrist keys, shared by every state.
#[derive(Debug)]
pub struct Geometry {
    /// The 81 points and 144 links (§2.2).
    pub graph: LineGraph<u128>,
    /// `rays[d][sq]`: a copy of the graph's rays in a fixed array (the hot
    /// path indexes it directly).
    rays: [[u128; 81]; 8],
    /// `link_src[d]`: the points with a link leaving in direction `d`.
    link_src: [u128; 8],
    /// `line_masks[sq][l]`: for the line orientations `l` (N–S, E–W,
    /// NE–SW, NW–SE), the ray from `sq` towards lower indices and the whole
    /// line through `sq` without `sq` (for the obstruction difference).
    line_masks: [[(u128, u128); 4]; 81],
    /// `king_steps[sq]`: the points one link away (A-M1).
    king_steps: [u128; 81],
    /// `lines_through[sq]`: every point on a line through `sq`.
    lines_through: [u128; 81],
    /// `soldier_attackers[side][sq]`: the points from which a Soldier of
    /// `side` steps onto `sq` (A-K1 a).
    soldier_attackers: [[u128; 81]; 2],
    /// Each side's Soldier start rank: rank 2 (White), rank 8 (Black).
    start_rank: [u128; 2],
    /// Each side's promotion rank: rank 8 (White), rank 2 (Black) (A-M5).
    promo_rank: [u128; 2],
    /// `z_piece[side * 3 + piece][sq]`.
    z_piece: [[u64; 81]; 6],
    z_black_to_move: u64,
}

/// The rank `r` (0-based) as a set.
const fn rank_mask(r: u32) -> u128 {
    0x1FFu128 << (9 * r)
}

impl Geometry {
    fn build() -> Geometry {
        let graph = LineGraph::<u128>::new(SIZE, SIZE, has_link);
        let mut rays = [[0u128; 81]; 8];
        for d in Dir::ALL {
            for sq in 0..POINTS {
                rays[d.index()][sq as usize] = graph.ray(d, sq);
            }
        }
        let link_src = Dir::ALL.map(|d| graph.link_sources(d));
        let mut line_masks = [[(0u128, 0u128); 4]; 81];
        for (sq, masks) in line_masks.iter_mut().enumerate() {
            // (lower direction, upper direction) per orientation.
            for (l, (lo, up)) in [
                (Dir::S, Dir::N),
                (Dir::W, Dir::E),
                (Dir::SW, Dir::NE),
                (Dir::SE, Dir::NW),
            ]
            .into_iter()
            .enumerate()
            {
                let lower = rays[lo.index()][sq];
                masks[l] = (lower, lower | rays[up.index()][sq]);
            }
        }
        let mut king_steps = [0u128; 81];
        let mut lines_through = [0u128; 81];
        let mut soldier_attackers = [[0u128; 81]; 2];
        for sq in 0..POINTS {
            king_steps[sq as usize] = graph.neighbours(sq);
            lines_through[sq as usize] = graph.lines_through(sq);
            for side in [Side::White, Side::Black] {
                for d in side.soldier_dirs() {
                    if let Some(t) = graph.neighbour(sq, d) {
                        soldier_attackers[side.index()][t as usize] |= 1u128 << sq;
                    }
                }
            }
        }
        let keys = zobrist::keys(0xA7DA_1051_A000_0009, 6 * 81 + 1);
        let mut z_piece = [[0u64; 81]; 6];
        for (k, row) in z_piece.iter_mut().enumerate() {
            row.copy_from_slice(&keys[k * 81..(k + 1) * 81]);
        }
        Geometry {
            graph,
            rays,
            link_src,
            line_masks,
            king_steps,
            lines_through,
            soldier_attackers,
            start_rank: [rank_mask(1), rank_mask(7)],
            promo_rank: [rank_mask(7), rank_mask(1)],
            z_piece,
            z_black_to_move: keys[6 * 81],
        }
    }

    /// The shared tables (built once).
    pub fn get() -> &'static Geometry {
        static GEO: OnceLock<Geometry> = OnceLock::new();
        GEO.get_or_init(Geometry::build)
    }

    #[inline(always)]
    fn z(&self, side: Side, piece: Piece, sq: u32) -> u64 {
        self.z_piece[side.index() * 3 + piece as usize][sq as usize]
    }
}

/// One Andalusia move: from a point to a point, with the capture and
/// promotion flags its notation shows (§2.7): `e2-e4`, `b1xa1`, `g7-f8=C`.
/// Points are bit indices `9 · rank + file`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AndalusiaMove {
    from: u8,
    to: u8,
    /// Bit 0: capture; bit 1: promotion.
    flags: u8,
}

impl AndalusiaMove {
    /// A move from `from` to `to` (`0..81`).
    #[inline(always)]
    pub fn new(from: u32, to: u32, capture: bool, promotion: bool) -> AndalusiaMove {
        AndalusiaMove {
            from: from as u8,
            to: to as u8,
            flags: capture as u8 | ((promotion as u8) << 1),
        }
    }

    /// The point the piece leaves.
    #[inline(always)]
    pub fn from(self) -> u32 {
        self.from as u32
    }

    /// The point it lands on.
    #[inline(always)]
    pub fn to(self) -> u32 {
        self.to as u32
    }

    /// Whether it captures (written `x`).
    #[inline(always)]
    pub fn is_capture(self) -> bool {
        self.flags & 1 != 0
    }

    /// Whether a Soldier promotes to a Chariot (A-M5; written `=C`).
    #[inline(always)]
    pub fn is_promotion(self) -> bool {
        self.flags & 2 != 0
    }
}

/// Andalusia with its rulings fixed.
#[derive(Clone, Debug)]
pub struct AndalusiaGame {
    rules: Rules,
    geo: &'static Geometry,
}

impl AndalusiaGame {
    /// The game with these rulings.
    ///
    /// # Errors
    /// A ruling value out of range.
    pub fn new(rules: Rules) -> Result<AndalusiaGame, GameError> {
        rules.check()?;
        Ok(AndalusiaGame {
            rules,
            geo: Geometry::get(),
        })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<AndalusiaGame, GameError> {
        AndalusiaGame::new(Rules::from_spec(spec)?)
    }

    /// The rulings of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }
}

impl Default for AndalusiaGame {
    fn default() -> Self {
        AndalusiaGame {
            rules: Rules::default(),
            geo: Geometry::get(),
        }
    }
}

impl crate::api::Game for AndalusiaGame {
    /// Repetition, the quiet-plies rule and the ply cap off.
    fn perft_game(&self) -> Self {
        AndalusiaGame {
            rules: Rules {
                repetitions: 0,
                quiet_plies: 0,
                ply_cap: u32::MAX,
                ..self.rules
            },
            geo: self.geo,
        }
    }

    type State = AndalusiaState;

    fn game_string(&self) -> String {
        self.rules.game_string()
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The set-up of A-S2, White to move (A-R1). The seed is unused.
    fn initial_state(&self, _seed: u64) -> AndalusiaState {
        AndalusiaState::initial(self.rules, self.geo)
    }

    fn parse_position(&self, text: &str) -> Result<AndalusiaState, GameError> {
        text::parse_position(self.rules, self.geo, text)
    }
}
