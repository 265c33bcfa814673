//! # Blockade (Sid Sackson, *Sly*)
//!
//! A two-player blocking game on the 12 × 12 Sly board: each player places
//! six guards, then slides them, so that his king finds an escape path off
//! the far edge and the enemy king does not. Rules: `docs/rules/blockade.md`
//! (§6; the board in `docs/rules/sly-board.md`); rule numbers B-SET-1, B-SET-2, B-1…B-7 and
//! rulings QB1…QB7 are cited next to the code that implements them.
//!
//! ## Rules in brief
//! * B-SET-1, B-SET-2: each player has a king (cylinder) and 6 guards
//!   (squares). Only the kings start on the board: North on `north` (2E,
//!   escapes off the bottom edge), South on `south` (11H, escapes off the
//!   top edge). Kings never move until they escape.
//! * B-1: turns alternate; the first player is South by default
//!   (`first`, the rule book's example).
//! * B-2: at the **start** of a player's turn, if his king has an escape
//!   path (B-5) he wins (end reason `escape`). Ruling QB2: no check at the
//!   start of the game's first turn (`first_turn=exempt`).
//! * B-3: while a player has guards off the board, his turn is to place one
//!   on an empty space outside both kings' fields; his first guard not on a
//!   centre.
//! * B-4: then a turn slides one own guard one or more spaces orthogonally
//!   through empty spaces (passing no piece) to a space outside both kings'
//!   fields (it may pass over their empty spaces).
//! * B-5: the escape path: the king runs straight in any first direction;
//!   a guard (either colour) ahead stops it and it turns 90° left or right
//!   and runs on; it escapes when it runs off the target edge. Rulings:
//!   QB3 `side_edge=dead` (running off another edge kills the branch; `turn`:
//!   the edge stops the king like a guard), QB4 `zero_turns=allowed` (a
//!   guard right after a turn makes it turn again; `forbidden`: every
//!   segment moves at least one space), QB5 `enemy_king=invalid` (a branch
//!   meeting the enemy king dies; `stop`: it stops the king like a guard),
//!   QB6 `clear=square` (only the enemy king's square is forbidden;
//!   `neighbours`: its 8 neighbours too).
//! * B-6 (ruling): a player with no placement or guard move passes (`pass`).
//! * B-7 (ruling QB7): no draw in the rules; the game is drawn at `ply_cap`
//!   plies (`ply cap`).
//!
//! ## Seats and text
//! Seat 0 moves first and plays `first` (South by default). A move is a
//! placement `4E`, a slide `4E-4H` (§2.1 names), or `pass`. The position
//! text is the 12 rows top first separated by `/`, digits for runs of empty
//! spaces, `K`/`G` for South's king and guards, `k`/`g` for North's; then
//! the side to move (`S` or `N`) and the plies played:
//! `12/4k7/12/12/12/12/12/12/12/12/7K4/12 S 0`.
//!
//! ## Bits
//! Guards are [`B192`] sets over the Sly board. The escape search
//! ([`escape`]) is a flood over (square, heading) states: one bit set of
//! segment starts per heading, each grown by the toolkit's occluded
//! [`sly::slide_fill`], turning points found by shifting the guard set
//! back one step.

mod escape;
mod eval;
mod learning;
mod movegen;
mod state;
mod text;

use std::sync::OnceLock;

use crate::board::sly::{self, Heading};
use crate::board::{B192, zobrist};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

pub use escape::{EscapeRules, Flood, escape_flood, has_escape};
pub use state::{BlockadeState, Outcome};

/// The parameters of `blockade(...)`, with the dossier's defaults.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "north",
        default: "2E",
        values: "a space 1A-12L",
        help: "the North king's square; it escapes off the bottom edge (B-SET-2, ruling QB1)",
    },
    ParamInfo {
        name: "south",
        default: "11H",
        values: "a space 1A-12L, in another field than north",
        help: "the South king's square; it escapes off the top edge (B-SET-2, ruling QB1)",
    },
    ParamInfo {
        name: "first",
        default: "south",
        values: "south|north",
        help: "the side of seat 0, which moves first (B-1; the rule book's example starts with South)",
    },
    ParamInfo {
        name: "first_turn",
        default: "exempt",
        values: "exempt|checked",
        help: "escape check at the start of the game's very first turn (B-2, ruling QB2)",
    },
    ParamInfo {
        name: "side_edge",
        default: "dead",
        values: "dead|turn",
        help: "a path running off a side or its own edge dies, or turns there like at a guard (B-5, ruling QB3)",
    },
    ParamInfo {
        name: "zero_turns",
        default: "allowed",
        values: "allowed|forbidden",
        help: "a guard right after a turn makes the king turn again (B-5, ruling QB4)",
    },
    ParamInfo {
        name: "enemy_king",
        default: "invalid",
        values: "invalid|stop",
        help: "a path meeting the enemy king dies, or is stopped as by a guard (B-5, ruling QB5)",
    },
    ParamInfo {
        name: "clear",
        default: "square",
        values: "square|neighbours",
        help: "what the path must stay clear of: the enemy king's square, or also its 8 neighbours (B-5, ruling QB6)",
    },
    ParamInfo {
        name: "ply_cap",
        default: "300",
        values: "integer 13..=100000",
        help: "plies after which an unfinished game is drawn (B-7, ruling QB7)",
    },
];

/// Guards per player (B-SET-1).
pub const GUARDS: u32 = 6;

/// A side: North starts at the top and escapes off the bottom edge, South
/// the reverse (B-SET-2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The king on `north`, escaping downwards (past row 12).
    North = 0,
    /// The king on `south`, escaping upwards (past row 1).
    South = 1,
}

impl Side {
    /// The other side.
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::North => Side::South,
            Side::South => Side::North,
        }
    }

    /// 0 for North, 1 for South.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The heading that runs off this side's target edge (B-SET-2).
    #[inline(always)]
    pub fn target(self) -> Heading {
        match self {
            Side::North => Heading::Down,
            Side::South => Heading::Up,
        }
    }

    /// `north` or `south`.
    pub fn name(self) -> &'static str {
        match self {
            Side::North => "north",
            Side::South => "south",
        }
    }
}

/// The rule parameters of one Blockade variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The kings' squares, `[North, South]` ([`sly::square`] indices).
    pub kings: [u32; 2],
    /// The side of seat 0, which moves first (B-1).
    pub first: Side,
    /// Ruling QB2: check for an escape at the start of the first turn too.
    pub first_turn_checked: bool,
    /// The escape path rulings QB3–QB6.
    pub escape: EscapeRules,
    /// Ruling QB7: plies after which an unfinished game is drawn.
    pub ply_cap: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            kings: [sly::square(1, 4), sly::square(10, 7)],
            first: Side::South,
            first_turn_checked: false,
            escape: EscapeRules::default(),
            ply_cap: 300,
        }
    }
}

impl Rules {
    /// Reads the rules from a parsed game string `blockade(...)`.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), bad
    /// king squares.
    pub fn from_spec(spec: &Spec) -> Result<Rules, GameError> {
        let p = Params::new("game blockade", spec, PARAMS)?;
        let king = |name: &str| {
            sly::parse_square(p.text(name))
                .map_err(|e| GameError::new(format!("game blockade: {name}: {e}")))
        };
        let rules = Rules {
            kings: [king("north")?, king("south")?],
            first: p.choice("first", &[("south", Side::South), ("north", Side::North)])?,
            first_turn_checked: p.choice("first_turn", &[("exempt", false), ("checked", true)])?,
            escape: EscapeRules {
                side_edge_turns: p.choice("side_edge", &[("dead", false), ("turn", true)])?,
                zero_turns: p.choice("zero_turns", &[("allowed", true), ("forbidden", false)])?,
                enemy_king_stops: p.choice("enemy_king", &[("invalid", false), ("stop", true)])?,
                clear_neighbours: p.choice("clear", &[("square", false), ("neighbours", true)])?,
            },
            ply_cap: p.parse("ply_cap")?,
        };
        rules.check()?;
        Ok(rules)
    }

    fn check(&self) -> Result<(), GameError> {
        let [n, s] = self.kings;
        if n >= sly::SQUARES || s >= sly::SQUARES {
            crate::bail!("game blockade: a king square is off the board");
        }
        if sly::field_of(n) == sly::field_of(s) {
            crate::bail!(
                "game blockade: north={} and south={} are in the same field; each king has a field of its own (B-3)",
                sly::square_name(n),
                sly::square_name(s)
            );
        }
        if !(13..=100_000).contains(&self.ply_cap) {
            crate::bail!(
                "game blockade: ply_cap={} is not valid (expected integer 13..=100000: placement takes 12 plies)",
                self.ply_cap
            );
        }
        Ok(())
    }

    /// The canonical game string with every parameter spelled out.
    pub fn game_string(&self) -> String {
        let e = self.escape;
        format!(
            "blockade(north={},south={},first={},first_turn={},side_edge={},zero_turns={},enemy_king={},clear={},ply_cap={})",
            sly::square_name(self.kings[0]),
            sly::square_name(self.kings[1]),
            self.first.name(),
            if self.first_turn_checked {
                "checked"
            } else {
                "exempt"
            },
            if e.side_edge_turns { "turn" } else { "dead" },
            if e.zero_turns { "allowed" } else { "forbidden" },
            if e.enemy_king_stops {
                "stop"
            } else {
                "invalid"
            },
            if e.clear_neighbours {
                "neighbours"
            } else {
                "square"
            },
            self.ply_cap
        )
    }

    /// The side of seat `seat`.
    #[inline(always)]
    pub fn side_of_seat(&self, seat: usize) -> Side {
        if seat == 0 {
            self.first
        } else {
            self.first.other()
        }
    }

    /// The seat of side `side`.
    #[inline(always)]
    pub fn seat_of(&self, side: Side) -> usize {
        (side != self.first) as usize
    }

    /// The spaces of both kings' fields, where no guard may stand (B-3, B-4).
    pub fn king_fields(&self) -> B192 {
        sly::FIELDS[sly::field_of(self.kings[0]) as usize]
            | sly::FIELDS[sly::field_of(self.kings[1]) as usize]
    }
}

/// A Blockade move: a placement (B-3), a guard slide (B-4) or a pass (B-6).
/// Squares are [`sly::square`] indices. Text `4E`, `4E-4H`, `pass`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BlockadeMove {
    /// A guard placed on the square.
    Place(u8),
    /// A guard slid from `from` to `to` along a row or column.
    Slide {
        /// The square left.
        from: u8,
        /// The square reached.
        to: u8,
    },
    /// No placement or guard move exists (B-6).
    Pass,
}

/// Zobrist keys: a guard of each side on each square, and South to move.
pub(crate) struct Keys {
    pub guard: [[u64; 144]; 2],
    pub south_to_move: u64,
}

pub(crate) fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let k = zobrist::keys(0xB10C_ADE0_5A1E_0006, 2 * 144 + 1);
        let mut keys = Keys {
            guard: [[0; 144]; 2],
            south_to_move: k[288],
        };
        keys.guard[0].copy_from_slice(&k[..144]);
        keys.guard[1].copy_from_slice(&k[144..288]);
        keys
    })
}

/// Blockade with its parameters fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockadeGame {
    rules: Rules,
}

impl BlockadeGame {
    /// The variant with these rules.
    ///
    /// # Errors
    /// Kings in the same field or off the board, a ply cap outside
    /// `13..=100000`.
    pub fn new(rules: Rules) -> Result<BlockadeGame, GameError> {
        rules.check()?;
        Ok(BlockadeGame { rules })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), and
    /// the errors of [`BlockadeGame::new`].
    pub fn from_spec(spec: &Spec) -> Result<BlockadeGame, GameError> {
        BlockadeGame::new(Rules::from_spec(spec)?)
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }
}

impl crate::api::Game for BlockadeGame {
    type State = BlockadeState;

    fn game_string(&self) -> String {
        self.rules.game_string()
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// The two kings alone (B-SET-1), seat 0 to move; the seed is unused.
    fn initial_state(&self, _seed: u64) -> BlockadeState {
        BlockadeState::new(self.rules)
    }

    fn parse_position(&self, text: &str) -> Result<BlockadeState, GameError> {
        text::parse_position(self.rules, text)
    }
}
