//! # King's Colour (Christian Freeling)
//!
//! Chess on the 127-cell hex-hex board of side 7, with castles and walls and
//! the "great switcheroo". Rules: `shared/rules/kings-colour.md` Part 2
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
//! To keep [`KcState`] a flat `Copy`-sized value, the positions since the
//! last capture or promotion are kept in a ring of [`REPETITION_WINDOW`]
//! keys: repetitions whose occurrences all lie within the last 32 plies are
//! seen (every cycle of up to 16 plies).

use crate::api::Research;
use std::fmt;
use std::sync::OnceLock;

use crate::api::{Game, Returns, State, ToMove};
use crate::board::hex::{DIAG, Hex, HexGrid, HexNotation, HexRays, KNIGHT, ORTHO};
use crate::board::{Bits, zobrist};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

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

/// Board tables shared by every state (built once).
pub struct Geometry {
    /// The board (side 7, 127 cells, q-major index order).
    pub grid: HexGrid<u128>,
    ortho: HexRays<u128>,
    diag: HexRays<u128>,
    ortho_all: Vec<u128>,
    diag_all: Vec<u128>,
    /// The castles (KC-S2), by side.
    pub castle: [u128; 2],
    /// The walls (KC-S2), by side.
    pub wall: [u128; 2],
    /// The three colour classes (KC-G4).
    pub colour_mask: [u128; 3],
    /// Colour per cell (KC-G4).
    pub colour: Vec<u8>,
    /// Per side and cell: the King's destinations (orth ∪ diag ∪ knight) ∩
    /// own castle (KC-3).
    king_steps: [Vec<u128>; 2],
    /// The Kings' start cells.
    pub home: [u8; 2],
    keys: Vec<u64>,
}

impl fmt::Debug for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Geometry(kings_colour)")
    }
}

/// The colour of axial cell `h`, `(q − r) mod 3` (KC-G4).
pub fn colour_of(h: Hex) -> u8 {
    (h.q - h.r).rem_euclid(3) as u8
}

impl Geometry {
    fn build() -> Geometry {
        let grid = HexGrid::<u128>::new(7).expect("side 7 fits u128");
        let n = grid.len();
        let ortho = HexRays::new(&grid, &ORTHO);
        let diag = HexRays::new(&grid, &DIAG);
        let ortho_all = (0..n)
            .map(|c| (0..6).fold(0, |m, k| m | ortho.ray(c, k)))
            .collect();
        let diag_all = (0..n)
            .map(|c| (0..6).fold(0, |m, k| m | diag.ray(c, k)))
            .collect();
        let homes = [Hex::new(-3, 0), Hex::new(3, 0)];
        let mut castle = [0u128; 2];
        let mut wall = [0u128; 2];
        for (s, &k) in homes.iter().enumerate() {
            for a in -1..=1 {
                for b in -1..=1 {
                    let h = k
                        .add(Hex::new(1, -1).scale(a))
                        .add(Hex::new(0, -1).scale(b));
                    castle[s] |= 1u128 << grid.index(h).expect("castle on board");
                }
            }
            wall[s] = grid.neighbour_set(castle[s]) & !castle[s];
        }
        let colour: Vec<u8> = (0..n).map(|c| colour_of(grid.hex(c))).collect();
        let mut colour_mask = [0u128; 3];
        for (c, &col) in colour.iter().enumerate() {
            colour_mask[col as usize] |= 1 << c;
        }
        let vecs: Vec<Hex> = ORTHO.iter().chain(&DIAG).chain(&KNIGHT).copied().collect();
        let leaps = grid.leaper_masks(&vecs);
        let king_steps = [
            leaps.iter().map(|&m| m & castle[0]).collect(),
            leaps.iter().map(|&m| m & castle[1]).collect(),
        ];
        let home = [
            grid.index(homes[0]).expect("on board") as u8,
            grid.index(homes[1]).expect("on board") as u8,
        ];
        Geometry {
            grid,
            ortho,
            diag,
            ortho_all,
            diag_all,
            castle,
            wall,
            colour_mask,
            colour,
            king_steps,
            home,
            keys: zobrist::keys(0x4B43_5F68_6578_3132, 6 * CELLS + 1),
        }
    }

    /// The shared tables.
    pub fn get() -> &'static Geometry {
        static G: OnceLock<Geometry> = OnceLock::new();
        G.get_or_init(Geometry::build)
    }

    /// The name of cell `c` (KC-G3).
    pub fn name(&self, c: usize) -> String {
        self.grid.name(c, &KcNotation)
    }

    /// The cell named `text` (KC-G3).
    ///
    /// # Errors
    /// Text that names no cell of the board.
    pub fn parse_cell(&self, text: &str) -> Result<usize, GameError> {
        self.grid.parse_cell(text, &KcNotation)
    }

    #[inline(always)]
    fn key(&self, side: usize, kind: usize, cell: usize) -> u64 {
        self.keys[(side * 3 + kind) * CELLS + cell]
    }

    #[inline(always)]
    fn side_key(&self) -> u64 {
        self.keys[6 * CELLS]
    }
}

/// The game `kings_colour(...)`.
#[derive(Clone, Debug)]
pub struct KingsColour {
    /// The rules.
    pub rules: Rules,
}

impl KingsColour {
    /// The game with `rules`.
    pub fn new(rules: Rules) -> KingsColour {
        KingsColour { rules }
    }

    /// The game from a spec `kings_colour(...)`.
    ///
    /// # Errors
    /// Unknown parameters or values.
    pub fn from_spec(spec: &Spec) -> Result<KingsColour, GameError> {
        Ok(KingsColour::new(Rules::from_spec(spec)?))
    }
}

impl Default for KingsColour {
    fn default() -> Self {
        KingsColour::new(Rules::default())
    }
}

/// A move: a piece's start and end cell (promotion is automatic, §2.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KcMove {
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

/// A King's Colour position (flat, no heap; ~350 bytes).
#[derive(Clone)]
pub struct KcState {
    geo: &'static Geometry,
    rules: Rules,
    /// Occupancy per side (Kings included).
    occ: [u128; 2],
    /// Promoted men of either side.
    queens: u128,
    kings: [u8; 2],
    side: u8,
    ply: u32,
    hash: u64,
    end: Option<End>,
    since_irreversible: u32,
    history: [u64; REPETITION_WINDOW],
}

#[inline(always)]
fn bit(c: usize) -> u128 {
    1u128 << c
}

impl KcState {
    fn empty(rules: Rules) -> KcState {
        let geo = Geometry::get();
        KcState {
            geo,
            rules,
            occ: [0; 2],
            queens: 0,
            kings: geo.home,
            side: 0,
            ply: 0,
            hash: 0,
            end: None,
            since_irreversible: 0,
            history: [0; REPETITION_WINDOW],
        }
    }

    /// The shared board tables.
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move (also after the end: the side that would move).
    pub fn side_to_move(&self) -> Side {
        Side::from_index(self.side as usize)
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The King's cell of `side`.
    pub fn king(&self, side: Side) -> usize {
        self.kings[side.index()] as usize
    }

    /// The cells of `side`'s pieces (King included).
    pub fn pieces(&self, side: Side) -> u128 {
        self.occ[side.index()]
    }

    /// The piece on cell `c` and its side, with the type KC-12 derives.
    pub fn piece_at(&self, c: usize) -> Option<(Side, Piece)> {
        let s = if self.occ[0] >> c & 1 == 1 {
            0
        } else if self.occ[1] >> c & 1 == 1 {
            1
        } else {
            return None;
        };
        let p = if self.kings[s] as usize == c {
            Piece::King
        } else if self.queens >> c & 1 == 1 {
            Piece::Queen
        } else if self.geo.colour[c] == self.geo.colour[self.kings[s] as usize] {
            Piece::Rook
        } else {
            Piece::Bishop
        };
        Some((Side::from_index(s), p))
    }

    /// Whether `side`'s King is attacked (KC-11).
    pub fn in_check(&self, side: Side) -> bool {
        let s = side.index();
        let (eo, ed) = self.attackers(1 - s);
        self.attacked(self.kings[s] as usize, self.occ[0] | self.occ[1], eo, ed)
    }

    /// Whether `mv` captures (its end cell holds an enemy piece).
    pub fn is_capture(&self, mv: KcMove) -> bool {
        self.occ[1 - self.side as usize] >> mv.to & 1 == 1
    }

    /// Whether `mv` promotes (KC-10: a man ending in the enemy castle).
    pub fn is_promotion(&self, mv: KcMove) -> bool {
        let s = self.side as usize;
        mv.from != self.kings[s]
            && self.queens >> mv.from & 1 == 0
            && self.geo.castle[1 - s] >> mv.to & 1 == 1
    }

    /// The men (not Queens, not the King) of side `s`.
    #[inline(always)]
    fn men(&self, s: usize) -> u128 {
        self.occ[s] & !self.queens & !bit(self.kings[s] as usize)
    }

    /// Side `s`'s orthogonal and diagonal movers (KC-12): Rooks + Queens,
    /// Bishops + Queens.
    #[inline(always)]
    fn attackers(&self, s: usize) -> (u128, u128) {
        let men = self.men(s);
        let on = self.geo.colour_mask[self.geo.colour[self.kings[s] as usize] as usize];
        let q = self.occ[s] & self.queens;
        ((men & on) | q, (men & !on) | q)
    }

    /// Whether cell `x` is reached by a member of `eo` orthogonally or `ed`
    /// diagonally, with `occ` blocking (KC-7, KC-11).
    #[inline]
    fn attacked(&self, x: usize, occ: u128, eo: u128, ed: u128) -> bool {
        let g = self.geo;
        if g.ortho_all[x] & eo != 0 {
            for k in 0..6 {
                if g.ortho.ray(x, k) & eo != 0
                    && let Some(b) = g.ortho.first_blocker(x, k, occ)
                    && eo >> b & 1 == 1
                {
                    return true;
                }
            }
        }
        if g.diag_all[x] & ed != 0 {
            for k in 0..6 {
                if g.diag.ray(x, k) & ed != 0
                    && let Some(b) = g.diag.first_blocker(x, k, occ)
                    && ed >> b & 1 == 1
                {
                    return true;
                }
            }
        }
        false
    }

    /// KC-8 (ruling KC-R2): may a piece of side `s` on `from` capture an enemy
    /// on `to`?
    #[inline(always)]
    fn capture_ok(&self, s: usize, from: usize, to: usize) -> bool {
        let g = self.geo;
        let (f, t) = (bit(from), bit(to));
        match self.rules.capture {
            CaptureRule::Literal => {
                (g.wall[1 - s] & f != 0 && g.castle[1 - s] & t != 0)
                    || (g.castle[s] & f != 0 && g.wall[s] & t != 0)
            }
            CaptureRule::Wide => (0..2).any(|c| {
                (g.wall[c] & f != 0 && g.castle[c] & t != 0)
                    || (g.castle[c] & f != 0 && g.wall[c] & t != 0)
            }),
        }
    }

    #[inline(always)]
    fn slide(&self, rays: &HexRays<u128>, s: usize, from: usize, k: usize, occ: u128) -> u128 {
        let ray = rays.ray(from, k);
        match rays.first_blocker(from, k, occ) {
            None => ray,
            Some(b) => {
                let mut m = ray & !rays.ray(b, k) & !bit(b);
                let o = 1 - s;
                if self.occ[o] >> b & 1 == 1
                    && b != self.kings[o] as usize
                    && self.capture_ok(s, from, b)
                {
                    m |= bit(b);
                }
                m
            }
        }
    }

    /// The pseudo-legal destinations of the man or Queen of side `s` on
    /// `from` (KC-4–KC-8, KC-12).
    #[inline]
    fn man_targets(&self, s: usize, from: usize, occ: u128) -> u128 {
        let g = self.geo;
        let queen = self.queens >> from & 1 == 1;
        let rook = queen || g.colour[from] == g.colour[self.kings[s] as usize];
        let bishop = queen || !rook;
        let mut t = 0;
        if rook {
            for k in 0..6 {
                t |= self.slide(&g.ortho, s, from, k, occ);
            }
        }
        if bishop {
            for k in 0..6 {
                t |= self.slide(&g.diag, s, from, k, occ);
            }
        }
        t
    }

    /// The King's pseudo-legal destinations (KC-3, KC-9).
    #[inline]
    fn king_targets(&self, s: usize) -> u128 {
        let mut t = self.geo.king_steps[s][self.kings[s] as usize] & !self.occ[s];
        if !self.rules.king_captures {
            t &= !self.occ[1 - s];
        }
        t
    }

    /// Own pieces that are the only blocker between the King and an enemy
    /// slider of the matching line type.
    #[inline]
    fn pinned(&self, s: usize, occ: u128, eo: u128, ed: u128) -> u128 {
        let g = self.geo;
        let x = self.kings[s] as usize;
        let mut pinned = 0;
        for (rays, e) in [(&g.ortho, eo), (&g.diag, ed)] {
            for k in 0..6 {
                if rays.ray(x, k) & e == 0 {
                    continue;
                }
                if let Some(b1) = rays.first_blocker(x, k, occ)
                    && self.occ[s] >> b1 & 1 == 1
                    && let Some(b2) = rays.first_blocker(b1, k, occ)
                    && e >> b2 & 1 == 1
                {
                    pinned |= bit(b1);
                }
            }
        }
        pinned
    }

    #[inline(always)]
    fn man_move_legal(
        &self,
        s: usize,
        from: usize,
        to: usize,
        occ: u128,
        eo: u128,
        ed: u128,
    ) -> bool {
        let occ2 = (occ & !bit(from)) | bit(to);
        !self.attacked(self.kings[s] as usize, occ2, eo & !bit(to), ed & !bit(to))
    }

    #[inline(always)]
    fn king_move_legal(&self, s: usize, to: usize, occ: u128, eo: u128, ed: u128) -> bool {
        let occ2 = (occ & !bit(self.kings[s] as usize)) | bit(to);
        !self.attacked(to, occ2, eo & !bit(to), ed & !bit(to))
    }

    /// Calls `f` with each legal move in the fixed order (men and Queens by
    /// cell index, then the King); stops when `f` returns false. Returns
    /// false iff stopped.
    #[inline]
    fn for_each_legal(&self, mut f: impl FnMut(KcMove) -> bool) -> bool {
        let s = self.side as usize;
        let occ = self.occ[0] | self.occ[1];
        let (eo, ed) = self.attackers(1 - s);
        let king = self.kings[s] as usize;
        let check = self.attacked(king, occ, eo, ed);
        let pinned = if check {
            u128::MAX
        } else {
            self.pinned(s, occ, eo, ed)
        };
        for from in (self.occ[s] & !bit(king)).iter() {
            let from = from as usize;
            let t = self.man_targets(s, from, occ);
            let test = pinned >> from & 1 == 1;
            for to in t.iter() {
                let to = to as usize;
                if (!test || self.man_move_legal(s, from, to, occ, eo, ed))
                    && !f(KcMove {
                        from: from as u8,
                        to: to as u8,
                    })
                {
                    return false;
                }
            }
        }
        for to in self.king_targets(s).iter() {
            let to = to as usize;
            if self.king_move_legal(s, to, occ, eo, ed)
                && !f(KcMove {
                    from: king as u8,
                    to: to as u8,
                })
            {
                return false;
            }
        }
        true
    }

    /// The number of legal moves, built without a list (bulk count).
    #[inline]
    fn count(&self) -> usize {
        let s = self.side as usize;
        let occ = self.occ[0] | self.occ[1];
        let (eo, ed) = self.attackers(1 - s);
        let king = self.kings[s] as usize;
        let check = self.attacked(king, occ, eo, ed);
        let pinned = if check {
            u128::MAX
        } else {
            self.pinned(s, occ, eo, ed)
        };
        let mut n = 0;
        for from in (self.occ[s] & !bit(king)).iter() {
            let from = from as usize;
            let t = self.man_targets(s, from, occ);
            if pinned >> from & 1 == 1 {
                for to in t.iter() {
                    n += self.man_move_legal(s, from, to as usize, occ, eo, ed) as usize;
                }
            } else {
                n += t.count() as usize;
            }
        }
        for to in self.king_targets(s).iter() {
            n += self.king_move_legal(s, to as usize, occ, eo, ed) as usize;
        }
        n
    }

    fn has_legal_move(&self) -> bool {
        !self.for_each_legal(|_| false)
    }

    /// Plays `mv` on the board only (no end test, no history): moves the
    /// piece, removes a capture, promotes (KC-10), flips the side. Returns
    /// whether the move was irreversible (capture or promotion).
    #[inline]
    fn make(&mut self, mv: KcMove) -> bool {
        let g = self.geo;
        let s = self.side as usize;
        let o = 1 - s;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let mut irreversible = false;
        if self.occ[o] >> to & 1 == 1 {
            let kind = if self.queens >> to & 1 == 1 { 1 } else { 0 };
            self.hash ^= g.key(o, kind, to);
            self.occ[o] &= !bit(to);
            self.queens &= !bit(to);
            irreversible = true;
        }
        self.occ[s] = (self.occ[s] & !bit(from)) | bit(to);
        if from == self.kings[s] as usize {
            self.kings[s] = to as u8;
            self.hash ^= g.key(s, 2, from) ^ g.key(s, 2, to);
        } else if self.queens >> from & 1 == 1 {
            self.queens = (self.queens & !bit(from)) | bit(to);
            self.hash ^= g.key(s, 1, from) ^ g.key(s, 1, to);
        } else if g.castle[o] >> to & 1 == 1 {
            self.queens |= bit(to);
            self.hash ^= g.key(s, 0, from) ^ g.key(s, 1, to);
            irreversible = true;
        } else {
            self.hash ^= g.key(s, 0, from) ^ g.key(s, 0, to);
        }
        self.side = o as u8;
        self.hash ^= g.side_key();
        self.ply += 1;
        irreversible
    }

    /// Records the position in the history and decides whether the game is
    /// over (KC-11, KC-13, KC-14).
    fn settle(&mut self, irreversible: bool) {
        if irreversible {
            self.since_irreversible = 0;
        } else {
            self.since_irreversible += 1;
        }
        self.history[self.ply as usize % REPETITION_WINDOW] = self.hash;
        let mover = Side::from_index(1 - self.side as usize);
        self.end = if !self.has_legal_move() {
            if self.in_check(mover.opp()) {
                Some(End {
                    winner: Some(mover),
                    reason: EndReason::Checkmate,
                })
            } else {
                Some(End {
                    winner: self.rules.stalemate_loses.then_some(mover),
                    reason: EndReason::Stalemate,
                })
            }
        } else if self.rules.repetition > 0 && self.repetitions() >= self.rules.repetition {
            Some(End {
                winner: None,
                reason: EndReason::Repetition,
            })
        } else if self.ply >= self.rules.ply_cap {
            Some(End {
                winner: None,
                reason: EndReason::PlyCap,
            })
        } else {
            None
        };
    }

    /// How often the current (position, side to move) occurred since the
    /// last capture or promotion, within the window (this one included).
    pub fn repetitions(&self) -> u32 {
        let mut n = 1;
        let back = (self.since_irreversible as usize).min(REPETITION_WINDOW - 1);
        let mut d = 2;
        while d <= back {
            if self.history[(self.ply as usize - d) % REPETITION_WINDOW] == self.hash {
                n += 1;
            }
            d += 2;
        }
        n
    }

    /// perft with bulk counting on this module's own make (no clone of the
    /// history, no end test): equal to [`crate::perft`] while no repetition
    /// or ply cap ends a game inside the horizon (checkmate and stalemate
    /// count 0 either way). For the bench.
    pub fn perft_fast(&self, depth: u32) -> u64 {
        fn rec(s: &KcState, depth: u32, bufs: &mut [Vec<KcMove>]) -> u64 {
            if depth == 1 {
                return s.count() as u64;
            }
            let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
            buf.clear();
            s.for_each_legal(|m| {
                buf.push(m);
                true
            });
            let mut total = 0;
            for &m in buf.iter() {
                let mut c = s.clone_board();
                c.make(m);
                total += rec(&c, depth - 1, rest);
            }
            total
        }
        if depth == 0 {
            return 1;
        }
        if self.end.is_some() {
            return 0;
        }
        let mut bufs: Vec<Vec<KcMove>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        rec(self, depth, &mut bufs)
    }

    /// A copy without history (cheaper clone for the fast perft).
    #[inline(always)]
    fn clone_board(&self) -> KcState {
        KcState {
            history: [0; REPETITION_WINDOW],
            ..*self
        }
    }

    fn compute_hash(&self) -> u64 {
        let g = self.geo;
        let mut h = 0;
        for s in 0..2 {
            for c in self.occ[s].iter() {
                let c = c as usize;
                let kind = if c == self.kings[s] as usize {
                    2
                } else if self.queens >> c & 1 == 1 {
                    1
                } else {
                    0
                };
                h ^= g.key(s, kind, c);
            }
        }
        if self.side == 1 {
            h ^= g.side_key();
        }
        h
    }

    fn letter(&self, c: usize) -> Option<char> {
        let (side, p) = self.piece_at(c)?;
        let l = match p {
            Piece::King => 'K',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Queen => 'Q',
        };
        Some(if side == Side::White {
            l
        } else {
            l.to_ascii_lowercase()
        })
    }

    /// The cells of column `col` (0 = A) from row 1 upwards.
    fn column(&self, col: i32) -> impl Iterator<Item = usize> + '_ {
        let q = col - 6;
        let (lo, hi) = ((-6 - q).max(-6), (6 - q).min(6));
        (lo..=hi).map(move |r| self.geo.grid.index(Hex::new(q, r)).expect("on board"))
    }

    #[allow(clippy::needless_range_loop)]
    fn parse_text(rules: Rules, text: &str) -> Result<KcState, GameError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 2 || fields.len() > 3 {
            crate::bail!(
                "bad position {text:?}: expected '<13 columns A-M separated by /> <w|b> [ply]'"
            );
        }
        let mut st = KcState::empty(rules);
        let g = st.geo;
        let cols: Vec<&str> = fields[0].split('/').collect();
        if cols.len() != 13 {
            crate::bail!(
                "bad position: {} columns, expected 13 (A-M) separated by '/'",
                cols.len()
            );
        }
        let mut kings: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        let mut declared: Vec<(usize, usize, char)> = Vec::new();
        for (ci, col) in cols.iter().enumerate() {
            let cells: Vec<usize> = st.column(ci as i32).collect();
            let letter = (b'A' + ci as u8) as char;
            let mut at = 0usize;
            let b = col.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i].is_ascii_digit() {
                    let j = b[i..]
                        .iter()
                        .position(|x| !x.is_ascii_digit())
                        .map_or(b.len(), |p| i + p);
                    let run: usize = col[i..j].parse().unwrap_or(usize::MAX);
                    if run == 0 || run > cells.len() {
                        crate::bail!(
                            "bad position: column {letter} has a bad run {:?}",
                            &col[i..j]
                        );
                    }
                    at = at.saturating_add(run);
                    i = j;
                } else {
                    let ch = b[i] as char;
                    if at >= cells.len() {
                        crate::bail!(
                            "bad position: column {letter} has more than {} cells",
                            cells.len()
                        );
                    }
                    let c = cells[at];
                    let s = if ch.is_ascii_uppercase() { 0 } else { 1 };
                    match ch.to_ascii_uppercase() {
                        'K' => kings[s].push(c),
                        'R' | 'B' => {}
                        'Q' => st.queens |= bit(c),
                        _ => crate::bail!(
                            "bad position: unknown piece {ch:?} in column {letter} (expected K R B Q, upper case White, lower case Black, or a digit)"
                        ),
                    }
                    st.occ[s] |= bit(c);
                    declared.push((c, s, ch.to_ascii_uppercase()));
                    at += 1;
                    i += 1;
                }
            }
            if at != cells.len() {
                crate::bail!(
                    "bad position: column {letter} describes {at} cells, expected {}",
                    cells.len()
                );
            }
        }
        for s in 0..2 {
            let side = Side::from_index(s);
            if kings[s].len() != 1 {
                crate::bail!(
                    "bad position: {} {} Kings, expected exactly 1",
                    kings[s].len(),
                    side.name()
                );
            }
            let k = kings[s][0];
            if g.castle[s] >> k & 1 == 0 {
                crate::bail!(
                    "bad position: the {} King on {} is outside its castle (KC-3)",
                    side.name(),
                    g.name(k)
                );
            }
            st.kings[s] = k as u8;
            let others = st.occ[s].count() - 1;
            if others > 8 {
                crate::bail!(
                    "bad position: {} has {others} pieces besides its King, at most 8 (KC-1)",
                    side.name()
                );
            }
            let stray = st.men(s) & g.castle[1 - s];
            if stray != 0 {
                crate::bail!(
                    "bad position: the {} man on {} is in the enemy castle but not a Queen (KC-10)",
                    side.name(),
                    g.name(stray.lowest() as usize)
                );
            }
        }
        for &(c, _, ch) in &declared {
            let (side, p) = st.piece_at(c).expect("placed");
            let want = match p {
                Piece::King => 'K',
                Piece::Rook => 'R',
                Piece::Bishop => 'B',
                Piece::Queen => 'Q',
            };
            if want != ch {
                crate::bail!(
                    "bad position: the {} man on {} is a {:?} by KC-12 (its King is on {}), not {ch}",
                    side.name(),
                    g.name(c),
                    p,
                    g.name(st.kings[side.index()] as usize)
                );
            }
        }
        st.side = match fields[1] {
            "w" | "W" => 0,
            "b" | "B" => 1,
            other => crate::bail!("bad position: side to move {other:?}, expected w or b"),
        };
        if let Some(p) = fields.get(2) {
            st.ply = p.parse().map_err(|_| {
                GameError::new(format!("bad position: ply {p:?}, expected a number"))
            })?;
        }
        let waiting = Side::from_index(1 - st.side as usize);
        if st.in_check(waiting) {
            crate::bail!(
                "bad position: the {} King is in check but it is not {} to move",
                waiting.name(),
                waiting.name()
            );
        }
        st.hash = st.compute_hash();
        st.history[st.ply as usize % REPETITION_WINDOW] = st.hash;
        // The end test of `settle`, without a move; a fresh history.
        st.settle(true);
        Ok(st)
    }

    /// A heuristic for the side to move (see [`State::evaluate`]): material
    /// (man 100, Queen 450), +30 per man on the enemy wall (it may capture
    /// into the castle, KC-8), +20 per own man in its castle (a defender), a
    /// −40 penalty when in check.
    pub fn heuristic(&self) -> i32 {
        let g = self.geo;
        let s = self.side as usize;
        let side_value = |s: usize| -> i32 {
            let men = self.men(s);
            let q = self.occ[s] & self.queens;
            100 * men.count() as i32
                + 450 * q.count() as i32
                + 30 * ((men | q) & g.wall[1 - s]).count() as i32
                + 20 * (men & g.castle[s]).count() as i32
        };
        let mut v = side_value(s) - side_value(1 - s);
        if self.in_check(Side::from_index(s)) {
            v -= 40;
        }
        v
    }
}

impl Game for KingsColour {
    type State = KcState;

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
    fn initial_state(&self, _seed: u64) -> KcState {
        let mut st = KcState::empty(self.rules);
        st.occ = st.geo.castle;
        st.hash = st.compute_hash();
        st.history[0] = st.hash;
        st
    }

    fn parse_position(&self, text: &str) -> Result<KcState, GameError> {
        KcState::parse_text(self.rules, text)
    }
}

impl State for KcState {
    type Move = KcMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.end.is_some() {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.side as usize)
        }
    }

    fn legal_moves(&self, out: &mut Vec<KcMove>) {
        out.clear();
        if self.end.is_some() {
            return;
        }
        self.for_each_legal(|m| {
            out.push(m);
            true
        });
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.end.is_some() { 0 } else { self.count() }
    }

    fn apply(&mut self, mv: KcMove) {
        debug_assert!(self.end.is_none(), "apply at a terminal state");
        let irreversible = self.make(mv);
        self.settle(irreversible);
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; crate::api::MAX_SEATS];
        if let Some(End {
            winner: Some(w), ..
        }) = self.end
        {
            r[w.index()] = 1.0;
            r[w.opp().index()] = -1.0;
        }
        r
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        let mut cols = Vec::with_capacity(13);
        for col in 0..13 {
            let mut t = String::new();
            let mut run = 0;
            for c in self.column(col) {
                match self.letter(c) {
                    Some(l) => {
                        if run > 0 {
                            t += &run.to_string();
                            run = 0;
                        }
                        t.push(l);
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                t += &run.to_string();
            }
            cols.push(t);
        }
        format!(
            "{} {} {}",
            cols.join("/"),
            if self.side == 0 { 'w' } else { 'b' },
            self.ply
        )
    }

    fn move_to_text(&self, mv: KcMove) -> String {
        let g = self.geo;
        let sep = if self.is_capture(mv) { 'x' } else { '-' };
        let promo = if self.is_promotion(mv) { "=Q" } else { "" };
        let mut c = self.clone_board();
        c.make(mv);
        let suffix = if c.in_check(c.side_to_move()) {
            if c.has_legal_move() { "+" } else { "#" }
        } else {
            ""
        };
        format!(
            "{}{sep}{}{promo}{suffix}",
            g.name(mv.from as usize),
            g.name(mv.to as usize)
        )
    }

    fn parse_move(&self, text: &str) -> Result<KcMove, GameError> {
        let g = self.geo;
        let t = text.trim();
        let bad = || {
            GameError::new(format!(
                "bad move {text:?}: expected <cell>-<cell> or <cell>x<cell>, optionally =Q and +/#, e.g. D4-C3, D5xF6, H8-I7=Q+"
            ))
        };
        let t = t.trim_end_matches(['+', '#']);
        let (t, promo) = match t.strip_suffix("=Q").or_else(|| t.strip_suffix("=q")) {
            Some(x) => (x, true),
            None => (t, false),
        };
        let i = t.find(['-', 'x', 'X']).ok_or_else(bad)?;
        let sep = t.as_bytes()[i];
        let from = g
            .parse_cell(&t[..i])
            .map_err(|e| GameError::new(format!("bad move {text:?}: {e}")))?;
        let to = g
            .parse_cell(&t[i + 1..])
            .map_err(|e| GameError::new(format!("bad move {text:?}: {e}")))?;
        let mv = KcMove {
            from: from as u8,
            to: to as u8,
        };
        if from == to {
            crate::bail!("bad move {text:?}: start and end cell are the same");
        }
        let capture = self.is_capture(mv);
        if sep == b'-' && capture {
            crate::bail!(
                "bad move {text:?}: {} holds an enemy piece, write x",
                g.name(to)
            );
        }
        if sep != b'-' && !capture {
            crate::bail!(
                "bad move {text:?}: 'x' but {} holds no enemy piece",
                g.name(to)
            );
        }
        if promo && !self.is_promotion(mv) {
            crate::bail!("bad move {text:?}: '=Q' but the move does not promote");
        }
        Ok(mv)
    }

    fn evaluate(&self) -> i32 {
        self.heuristic()
    }

    /// Captures and promotions, for quiescence searches.
    fn is_capture(&self, mv: KcMove) -> bool {
        KcState::is_capture(self, mv) || self.is_promotion(mv)
    }
}

impl Research for KcState {
    fn seat_role(&self, seat: usize) -> String {
        if seat == 0 { "white" } else { "black" }.to_string()
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

impl fmt::Display for KcState {
    /// The board in boardspace's internal orientation (§2.3's map): each
    /// cell's label then its piece, `#` for an empty wall cell, `.` for
    /// another empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = vec![vec![b' '; 13 * 5 + 1]; 25];
        for c in 0..CELLS {
            let h = self.geo.grid.hex(c);
            let y = (2 * (6 - h.r) - h.q) as usize;
            let x = ((h.q + 6) * 5) as usize;
            let name = self.geo.name(c);
            let wall = (self.geo.wall[0] | self.geo.wall[1]) >> c & 1 == 1;
            let empty = if wall { '#' } else { '.' };
            let cell = format!("{name}{}", self.letter(c).unwrap_or(empty));
            for (i, b) in cell.bytes().enumerate() {
                if x + i < lines[y].len() {
                    lines[y][x + i] = b;
                }
            }
        }
        let text: Vec<String> = lines
            .iter()
            .map(|l| String::from_utf8_lossy(l).trim_end().to_string())
            .collect();
        write!(f, "{}", text.join("\n"))
    }
}

impl fmt::Debug for KcState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KcState({})", self.to_text())
    }
}
