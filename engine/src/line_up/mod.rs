//! # Line Up (Sid Sackson, *Sly*)
//!
//! A two-player game of four in a line on the 16 field centres of the Sly
//! board. Rules: `docs/rules/line_up.md` §5 (Line Up); rule
//! numbers U-SET-1, U-SET-2 and U-1…U-6 are cited next to the code that
//! implements them.
//!
//! ## Rules in brief
//! * U-SET-1: only the 16 centres are used, a 4 × 4 grid: grid cell `(i, j)`
//!   is board space row `3i + 2`, column B/E/H/K for `j` = 0/1/2/3 (so
//!   `(0, 0)` = 2B, `(3, 3)` = 11K). Cell index `4i + j`.
//! * U-SET-2: each player has 2 squares, 2 triangles and 1 cylinder; the
//!   board starts empty.
//! * U-1: on global turn `n` (1, 2, 3, …; the first player on odd `n`) the
//!   player must use piece type `[square, triangle, cylinder][(n − 1) mod 3]`.
//! * U-2: if he still has an unplaced piece of that type he places it on any
//!   empty centre; otherwise he moves one of his pieces of that type.
//! * U-3: one step to an empty neighbouring centre: the cylinder to any of
//!   the 8 king neighbours, a square or triangle orthogonally only.
//! * U-4: four of the mover's pieces in a row, column or long diagonal (10
//!   lines) win at once, also during placement (ruling QU2).
//! * U-5: a player who must move a type none of whose pieces has an empty
//!   neighbour loses at once (end reason `immobile`).
//! * U-6 (ruling QU1): no draw in the rules; the game is drawn at `ply_cap`
//!   plies (`ply cap`) and, with `repetitions=k`, when a position (board and
//!   turn phase `n mod 6`) occurs for the k-th time since the last
//!   placement (`repetition`).
//!
//! ## Seats and moves
//! The first player (the rule book's "first player") sits in seat
//! `first_seat` (default 0); [`LineUpState::ply`] counts plies, so the global
//! turn is `n = ply + 1`. A move is a placement, written as the centre's
//! name (`5E`), or a step `5E-8H` (§2.1 names). The position text is the
//! four grid rows top first, `S T C` for the first player's square,
//! triangle, cylinder and `s t c` for the second's, `.` for empty, then the
//! plies played: `S.c./..../..../.... 3`.
//!
//! ## Bits
//! Each player's pieces of each type are a `u16` over the 16 cells; lines
//! and neighbourhoods are constant masks ([`LINES`], [`ORTH`], [`KING`]).
//!
//! ## The solution
//! [`solve`] holds the retrograde analysis of the movement phase (all ten
//! pieces on the board) and the backward induction over the placement
//! turns; [`LineUpState::solved`](crate::Search::solved) reads its table
//! when the game has one (`line_up(table=PATH)`, [`LineUpGame::with_table`]).

mod eval;
mod learning;
mod movegen;
pub mod solve;
mod state;
mod text;

use std::sync::OnceLock;

use crate::board::sly;
use crate::board::zobrist;
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

pub use state::{LineUpState, Outcome};

/// The parameters of `line_up(...)`, with the dossier's defaults.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "first_seat",
        default: "0",
        values: "0|1",
        help: "the seat of the first player (§2.3: chosen in any convenient manner)",
    },
    ParamInfo {
        name: "ply_cap",
        default: "200",
        values: "integer 12..=100000",
        help: "plies after which an unfinished game is drawn (ruling U-6/QU1)",
    },
    ParamInfo {
        name: "repetitions",
        default: "0",
        values: "0 (off) or integer 2..=10",
        help: "draw when a position occurs this often since the last placement (option of U-6)",
    },
    ParamInfo {
        name: "table",
        default: "",
        values: "a file path (none by default)",
        help: "the movement-phase solution table (examples/solve_line_up.rs) that `solved` and the solver read; loaded when the game is built",
    },
];

/// Cells of the grid.
pub const CELLS: usize = 16;

/// Pieces of each type per player (U-SET-2): squares, triangles, cylinder.
pub const STOCK: [u32; 3] = [2, 2, 1];

/// Piece types in the order of U-1 (height order).
pub const TYPE_NAMES: [&str; 3] = ["square", "triangle", "cylinder"];

/// Orthogonal neighbours of each cell (U-3: squares and triangles).
pub const ORTH: [u16; CELLS] = neighbours(false);

/// King neighbours of each cell (U-3: the cylinder).
pub const KING: [u16; CELLS] = neighbours(true);

/// The 10 lines of four (U-4): 4 rows, 4 columns, 2 long diagonals.
pub const LINES: [u16; 10] = [
    0x000F, 0x00F0, 0x0F00, 0xF000, // rows
    0x1111, 0x2222, 0x4444, 0x8888, // columns
    0x8421, // main diagonal (0,0)..(3,3)
    0x1248, // anti-diagonal (0,3)..(3,0)
];

const fn neighbours(diagonal: bool) -> [u16; CELLS] {
    let mut t = [0u16; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (i, j) = ((c / 4) as i32, (c % 4) as i32);
        let mut di = -1;
        while di <= 1 {
            let mut dj = -1;
            while dj <= 1 {
                let diag = di != 0 && dj != 0;
                let (a, b) = (i + di, j + dj);
                if (di != 0 || dj != 0) && (diagonal || !diag) && a >= 0 && a < 4 && b >= 0 && b < 4
                {
                    t[c] |= 1 << (a * 4 + b);
                }
                dj += 1;
            }
            di += 1;
        }
        c += 1;
    }
    t
}

/// The Sly board space of grid cell `c` (U-SET-1): row `3i + 2`, column
/// `3j + 1` (B, E, H, K), as a [`sly::square`] index.
#[inline]
pub const fn cell_square(c: usize) -> u32 {
    sly::square(3 * (c as u32 / 4) + 1, 3 * (c as u32 % 4) + 1)
}

/// The grid cell of a Sly board space, if it is a centre (U-SET-1).
#[inline]
pub fn square_cell(sq: u32) -> Option<usize> {
    sly::is_centre(sq).then(|| (4 * (sly::row_of(sq) / 3) + sly::col_of(sq) / 3) as usize)
}

/// The eight symmetries of the grid (the dihedral group of the square),
/// each a map `cell -> cell`; index 0 is the identity. They keep the lines
/// and both neighbourhoods, so they keep the game.
pub const SYMMETRIES: [[u8; CELLS]; 8] = symmetries();

const fn symmetries() -> [[u8; CELLS]; 8] {
    let mut t = [[0u8; CELLS]; 8];
    let mut s = 0;
    while s < 8 {
        let mut c = 0;
        while c < CELLS {
            let (i, j) = (c / 4, c % 4);
            let (a, b) = match s {
                0 => (i, j),
                1 => (j, 3 - i),
                2 => (3 - i, 3 - j),
                3 => (3 - j, i),
                4 => (i, 3 - j),
                5 => (3 - i, j),
                6 => (j, i),
                _ => (3 - j, 3 - i),
            };
            t[s][c] = (a * 4 + b) as u8;
            c += 1;
        }
        s += 1;
    }
    t
}

/// The rule parameters of one Line Up variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The seat of the first player (0 or 1).
    pub first_seat: u8,
    /// Ruling U-6: plies after which an unfinished game is drawn.
    pub ply_cap: u32,
    /// Option of U-6: draw at the k-th occurrence of a position since the
    /// last placement; 0 = off.
    pub repetitions: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            first_seat: 0,
            ply_cap: 200,
            repetitions: 0,
        }
    }
}

impl Rules {
    /// Reads the rules from a parsed game string `line_up(...)`.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones).
    pub fn from_spec(spec: &Spec) -> Result<Rules, GameError> {
        let p = Params::new("game line_up", spec, PARAMS)?;
        let rules = Rules {
            first_seat: p.choice("first_seat", &[("0", 0), ("1", 1)])?,
            ply_cap: p.parse("ply_cap")?,
            repetitions: p.parse("repetitions")?,
        };
        rules.check()?;
        Ok(rules)
    }

    fn check(&self) -> Result<(), GameError> {
        if self.first_seat > 1 {
            crate::bail!(
                "game line_up: first_seat={} is not valid (expected one of 0|1)",
                self.first_seat
            );
        }
        if !(12..=100_000).contains(&self.ply_cap) {
            crate::bail!(
                "game line_up: ply_cap={} is not valid (expected integer 12..=100000: the placement phase takes 11 plies)",
                self.ply_cap
            );
        }
        if self.repetitions == 1 || self.repetitions > 10 {
            crate::bail!(
                "game line_up: repetitions={} is not valid (expected 0 (off) or integer 2..=10)",
                self.repetitions
            );
        }
        Ok(())
    }

    /// The canonical game string with every parameter spelled out.
    pub fn game_string(&self) -> String {
        format!(
            "line_up(first_seat={},ply_cap={},repetitions={})",
            self.first_seat, self.ply_cap, self.repetitions
        )
    }
}

/// A Line Up move (U-2, U-3): a placement on cell `to`, or a step of the
/// required type's piece from `from` to the neighbouring cell `to`. Cells
/// are grid indices `4i + j`. Text `5E` (placement) or `5E-8H` (step).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LineUpMove {
    /// The cell left, or [`LineUpMove::PLACE`] for a placement.
    pub from: u8,
    /// The cell reached.
    pub to: u8,
}

impl LineUpMove {
    /// The `from` of a placement.
    pub const PLACE: u8 = u8::MAX;

    /// A placement on `to`.
    #[inline(always)]
    pub fn place(to: usize) -> LineUpMove {
        LineUpMove {
            from: Self::PLACE,
            to: to as u8,
        }
    }

    /// A step from `from` to `to`.
    #[inline(always)]
    pub fn step(from: usize, to: usize) -> LineUpMove {
        LineUpMove {
            from: from as u8,
            to: to as u8,
        }
    }

    /// Whether this is a placement.
    #[inline(always)]
    pub fn is_place(self) -> bool {
        self.from == Self::PLACE
    }
}

/// Zobrist keys: a piece of each player and type on each cell, and the turn
/// phase `ply mod 6` (which fixes the player and type to move, U-1).
pub(crate) struct Keys {
    pub piece: [[[u64; CELLS]; 3]; 2],
    pub phase: [u64; 6],
}

pub(crate) fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let k = zobrist::keys(0x11E0_0B00_5A1E_0005, 2 * 3 * CELLS + 6);
        let mut it = k.into_iter();
        let mut keys = Keys {
            piece: [[[0; CELLS]; 3]; 2],
            phase: [0; 6],
        };
        for p in keys.piece.iter_mut() {
            for t in p.iter_mut() {
                t.iter_mut()
                    .for_each(|x| *x = it.next().expect("enough keys"));
            }
        }
        keys.phase
            .iter_mut()
            .for_each(|x| *x = it.next().expect("enough keys"));
        keys
    })
}

/// Line Up with its parameters fixed: `line_up(first_seat=0,ply_cap=200,repetitions=0)`,
/// and optionally the solution table its states read (`table=PATH`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineUpGame {
    rules: Rules,
    table: Option<TableParam>,
}

/// The `table` parameter: the path as given (for the game string) and the
/// table loaded from it.
#[derive(Clone)]
struct TableParam {
    path: String,
    table: &'static solve::Table,
}

impl std::fmt::Debug for TableParam {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TableParam({:?})", self.path)
    }
}

/// Two games are equal when their tables come from the same path.
impl PartialEq for TableParam {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}

impl Eq for TableParam {}

impl LineUpGame {
    /// The variant with these rules.
    ///
    /// # Errors
    /// A first seat other than 0 or 1, a ply cap outside `12..=100000`, or a
    /// repetition count other than 0 or 2–10.
    pub fn new(rules: Rules) -> Result<LineUpGame, GameError> {
        rules.check()?;
        Ok(LineUpGame { rules, table: None })
    }

    /// The same game with the movement-phase solution table at `path`
    /// (written by `examples/solve_line_up.rs`), which
    /// [`Search::solved`](crate::Search::solved) then reads. The file is
    /// read once per process and path.
    ///
    /// # Errors
    /// A file that cannot be read or is not a whole table; the one-line
    /// message names the path.
    pub fn with_table(self, path: &str) -> Result<LineUpGame, GameError> {
        let table = solve::load_shared(std::path::Path::new(path))?;
        Ok(LineUpGame {
            table: Some(TableParam {
                path: path.to_string(),
                table,
            }),
            ..self
        })
    }

    /// Builds the game from a parsed game string; `table=PATH` loads the
    /// solution table.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), or
    /// a table that cannot be loaded.
    pub fn from_spec(spec: &Spec) -> Result<LineUpGame, GameError> {
        let game = LineUpGame::new(Rules::from_spec(spec)?)?;
        let p = Params::new("game line_up", spec, PARAMS)?;
        match p.text("table") {
            "" => Ok(game),
            path => game.with_table(path),
        }
    }

    /// The path of the solution table, if the game has one.
    pub fn table_path(&self) -> Option<&str> {
        self.table.as_ref().map(|t| t.path.as_str())
    }

    fn table(&self) -> Option<&'static solve::Table> {
        self.table.as_ref().map(|t| t.table)
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }
}

impl crate::api::Game for LineUpGame {
    type State = LineUpState;

    /// The rules' game string, with `table=PATH` only when a table was
    /// given (so the game strings without one are as they always were).
    fn game_string(&self) -> String {
        let s = self.rules.game_string();
        match &self.table {
            None => s,
            Some(t) => format!("{},table={})", &s[..s.len() - 1], t.path),
        }
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The empty board, the first player to place his first square (U-SET-2,
    /// U-1); the seed is unused.
    fn initial_state(&self, _seed: u64) -> LineUpState {
        let mut s = LineUpState::new(self.rules);
        s.table = self.table();
        s
    }

    fn parse_position(&self, text: &str) -> Result<LineUpState, GameError> {
        let mut s = text::parse_position(self.rules, text)?;
        s.table = self.table();
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Game, Search};

    /// The `table` parameter: a missing file and a truncated one are
    /// one-line errors naming the path when the game is built; without the
    /// parameter the game string is unchanged and `solved` knows nothing.
    #[test]
    fn table_parameter() {
        let build = |text: &str| LineUpGame::from_spec(&Spec::parse(text).unwrap());
        let dir = std::env::temp_dir().join(format!("boardlab-line-up-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.bin");
        let err = build(&format!("line_up(table={})", missing.display())).unwrap_err();
        let msg = err.to_string();
        assert!(!msg.contains('\n'), "{msg}");
        assert!(msg.contains(&missing.display().to_string()), "{msg}");
        let truncated = dir.join("truncated.bin");
        let mut bytes = b"boardlab line_up table v1\n".to_vec();
        bytes.extend_from_slice(&[0u8; 100]);
        std::fs::write(&truncated, &bytes).unwrap();
        let msg = build(&format!("line_up(table={})", truncated.display()))
            .unwrap_err()
            .to_string();
        assert!(
            !msg.contains('\n') && msg.contains("table has 100 entries"),
            "{msg}"
        );
        let header = dir.join("header.bin");
        std::fs::write(&header, b"boardlab").unwrap();
        let msg = build(&format!("line_up(table={})", header.display()))
            .unwrap_err()
            .to_string();
        assert!(
            !msg.contains('\n') && msg.contains("not a boardlab line_up table"),
            "{msg}"
        );
        std::fs::remove_dir_all(&dir).unwrap();

        let game = build("line_up").unwrap();
        assert_eq!(
            game.game_string(),
            "line_up(first_seat=0,ply_cap=200,repetitions=0)"
        );
        assert_eq!(game.table_path(), None);
        let s = game.parse_position("S..c/s.C./Ts.t/St.T 14").unwrap();
        assert_eq!(s.solved(), None);
    }

    #[test]
    fn tables() {
        // Corner (0,0): orthogonal 1 and 4; king also 5.
        assert_eq!(ORTH[0], 0b10010);
        assert_eq!(KING[0], 0b110010);
        // Inner cell (1,1) = 5: 8 king neighbours, 4 orthogonal.
        assert_eq!(KING[5].count_ones(), 8);
        assert_eq!(ORTH[5].count_ones(), 4);
        for l in LINES {
            assert_eq!(l.count_ones(), 4);
        }
        assert_eq!(sly::square_name(cell_square(0)), "2B");
        assert_eq!(sly::square_name(cell_square(15)), "11K");
        assert_eq!(sly::square_name(cell_square(6)), "5H");
        for c in 0..CELLS {
            assert_eq!(square_cell(cell_square(c)), Some(c));
        }
        // Every symmetry maps lines to lines and neighbours to neighbours.
        for s in SYMMETRIES {
            let map = |m: u16| {
                (0..16)
                    .filter(|&c| m >> c & 1 == 1)
                    .fold(0u16, |a, c| a | 1 << s[c])
            };
            for l in LINES {
                assert!(LINES.contains(&map(l)));
            }
            for c in 0..CELLS {
                assert_eq!(map(ORTH[c]), ORTH[s[c] as usize]);
                assert_eq!(map(KING[c]), KING[s[c] as usize]);
            }
        }
    }
}
