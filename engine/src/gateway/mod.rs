//! # Gateway (Sid Sackson, *Sly*)
//!
//! A placement race for 2, 3 or 4 players (or 4 in two teams) on the Sly
//! board. Rules: `docs/rules/gateway.md` §8 (Gateway)
//! and §9; rule numbers G-SET-1…G-SET-4 and G-1…G-6 are cited next to the
//! code that implements them. The board geometry is the shared
//! [`crate::board::sly`].
//!
//! ## Set-up (G-SET-1…G-SET-4)
//! Each colour starts with a cylinder (`C`), a triangle (`T`) and a square
//! (`S`) on the board, and 3 triangles and 5 squares in reserve. The four
//! set-up positions P1–P4 are \[LL\]'s (G-SET-2): P1 C 10C, S 12I, T 6B; P2 C
//! 10J, S 4L, T 11F; P3 C 3J, S 1D, T 7K; P4 C 3C, S 9A, T 2G. Which
//! positions play (G-SET-4, ruling): 2 players P1 and P3, 3 players P1–P3
//! (P4 left out), 4 players all; parameter `colours`. Seats take them in
//! turn order, so with 4 players the teams (seats 0+2 against 1+3) are
//! P1+P3 against P2+P4 (G-SET-3).
//!
//! ## Play
//! * G-1: a move takes one own piece in a straight orthogonal line to any
//!   **empty, non-centre** space of its row or column, passing over
//!   anything. No captures.
//! * G-2: at the start of his turn, a seat whose pieces stand on gateways
//!   (centres) whose field holds two or more **enemy** pieces (all enemy
//!   colours together, ruling QG3; `enemies=per_colour` counts each colour
//!   alone; a partner's pieces are not enemies) must move one of those
//!   pieces; if none of them can move, any move is allowed (ruling QG5;
//!   `stuck=pass`: he passes).
//! * G-3: the moved piece M, landing on d, earns an **entry** when some
//!   enemy colour (not the partner's) has a piece Q in d's row and a piece
//!   R in d's column such that M, Q, R are one cylinder, one triangle and
//!   one square. Pieces in between do not matter (ruling QG2, `line=open`;
//!   `line=blocked`: Q and R must be the first pieces seen from d).
//! * G-4: the entry puts a triangle or a square from the reserve (the
//!   player's choice while both are left) on the gateway of d's field, if
//!   that gateway is empty (M may just have left it). Mandatory when earned
//!   and possible (ruling QG4; `entry=optional` also lists the plain move).
//! * G-5: the first seat to enter its 8th piece wins at once; in teams a
//!   team wins when both partners have entered all theirs, and a partner
//!   who has finished keeps moving (subject to G-2).
//! * G-6: no legal move → `pass`; `ply_cap` (default 1000) ends the game in
//!   a draw.
//!
//! ## Moves and text
//! A move is the step and the entry it earns: `10C-10E`, or `4G-4D+T` /
//! `4G-4D+S` when it enters a triangle / square on the gateway. The reserve
//! is not stored: pieces never leave the board, so a seat's reserve is 3
//! triangles and 5 squares minus those entered.
//!
//! ## Representation
//! A mailbox of 144 bytes (shape and owner), row and column occupancy words
//! ([`crate::board::sly::Lines`]) for the destinations, each seat's pieces
//! as a [`crate::board::B192`]. The entry test of a whole row or column of
//! destinations is one 12-bit mask: per enemy colour and shape, the rows
//! and the columns it occupies.

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

use std::sync::OnceLock;

use crate::api::Game;
use crate::board::sly;
use crate::board::sly::seats::{self, PieceKeys};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

pub use state::{GatewayMove, GatewayState};

/// The parameters of `gateway(...)`, with the dossier's defaults first.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "players",
        default: "2",
        values: "2|3|4",
        help: "number of players (§8, G-SET-4)",
    },
    ParamInfo {
        name: "teams",
        default: "false",
        values: "false|true",
        help: "4 players in teams, seats 0+2 (P1+P3) against 1+3 (P2+P4) (G-SET-4, G-5); needs players=4",
    },
    ParamInfo {
        name: "colours",
        default: "auto",
        values: "auto, or one set-up position 1-4 per seat (P1-P4 of G-SET-2), e.g. 24",
        help: "set-up positions of the seats; auto = 13, 123 or 1234 (G-SET-4 ruling, QG1)",
    },
    ParamInfo {
        name: "line",
        default: "open",
        values: "open|blocked",
        help: "pieces between the moved piece and Q or R do not matter (ruling QG2), or block the alignment",
    },
    ParamInfo {
        name: "enemies",
        default: "pooled",
        values: "pooled|per_colour",
        help: "forced leave: two or more enemy pieces of all colours together (ruling QG3) or of one colour",
    },
    ParamInfo {
        name: "entry",
        default: "mandatory",
        values: "mandatory|optional",
        help: "an earned, possible entry must be made (ruling QG4) or may be declined",
    },
    ParamInfo {
        name: "stuck",
        default: "free",
        values: "free|pass",
        help: "forced leave when no forced piece can move: any move (ruling QG5) or a pass",
    },
    ParamInfo {
        name: "first_seat",
        default: "0",
        values: "0..players-1",
        help: "the seat that moves first (§2.3)",
    },
    ParamInfo {
        name: "ply_cap",
        default: "1000",
        values: "integer 1..=1000000",
        help: "harness cap in plies, scored as a draw (G-6)",
    },
];

/// The default ply cap (G-6).
pub const DEFAULT_PLY_CAP: u32 = 1000;

/// Shape letters in texts: cylinder, triangle, square.
pub const SHAPE_LETTERS: &str = "CTS";

/// The set-up positions P1–P4 (G-SET-2): cylinder, square, triangle.
pub const SETUP: [[u32; 3]; 4] = [
    [sly::square(9, 2), sly::square(11, 8), sly::square(5, 1)],
    [sly::square(9, 9), sly::square(3, 11), sly::square(10, 5)],
    [sly::square(2, 9), sly::square(0, 3), sly::square(6, 10)],
    [sly::square(2, 2), sly::square(8, 0), sly::square(1, 6)],
];

/// Pieces of each shape a colour owns (G-SET-1): 1 cylinder, 4 triangles,
/// 6 squares.
pub const OWNED: [u32; 3] = [1, 4, 6];

/// The rule parameters of one Gateway variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// 2, 3 or 4.
    pub players: u8,
    /// Seats 0+2 against 1+3; only with 4 players.
    pub teams: bool,
    /// The set-up position (0..4 = P1..P4) of each seat.
    pub colours: [u8; 4],
    /// Pieces between block an alignment (not the QG2 ruling).
    pub blocked: bool,
    /// Forced leave counts one enemy colour at a time (not the QG3 ruling).
    pub per_colour: bool,
    /// Entries may be declined (not the QG4 ruling).
    pub entry_optional: bool,
    /// A stuck forced leave passes (not the QG5 ruling).
    pub stuck_pass: bool,
    /// The seat that moves first.
    pub first_seat: u8,
    /// Draw after this many plies (G-6).
    pub ply_cap: u32,
}

impl Rules {
    /// The default set-up positions: 2 players P1, P3; 3 P1–P3; 4 all.
    pub fn default_colours(players: u8) -> [u8; 4] {
        match players {
            2 => [0, 2, 0, 0],
            3 => [0, 1, 2, 0],
            _ => [0, 1, 2, 3],
        }
    }

    /// The dossier's defaults for `players` players, each for himself.
    pub fn for_players(players: u8) -> Rules {
        Rules {
            players,
            teams: false,
            colours: Rules::default_colours(players),
            blocked: false,
            per_colour: false,
            entry_optional: false,
            stuck_pass: false,
            first_seat: 0,
            ply_cap: DEFAULT_PLY_CAP,
        }
    }
}

/// Gateway with its parameters fixed: `gateway(players=4,teams=true)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatewayGame {
    rules: Rules,
}

impl GatewayGame {
    /// The variant with these rules.
    ///
    /// # Errors
    /// Players other than 2–4, teams without 4 players, set-up positions
    /// repeated or out of range, a bad first seat or ply cap.
    pub fn new(rules: Rules) -> Result<GatewayGame, GameError> {
        let n = rules.players;
        seats::check("gateway", n, rules.teams, rules.first_seat, rules.ply_cap)?;
        for (i, &k) in rules.colours[..n as usize].iter().enumerate() {
            if k > 3 || rules.colours[..i].contains(&k) {
                crate::bail!(
                    "game gateway: colours must give {n} different set-up positions 1-4, one per seat (G-SET-2)"
                );
            }
        }
        Ok(GatewayGame { rules })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), and
    /// the errors of [`GatewayGame::new`].
    pub fn from_spec(spec: &Spec) -> Result<GatewayGame, GameError> {
        let p = Params::new("game gateway", spec, PARAMS)?;
        let players: u8 = p.choice("players", &[("2", 2), ("3", 3), ("4", 4)])?;
        let teams = p.choice("teams", &[("false", false), ("true", true)])?;
        let colours = seats::parse_places(
            "gateway",
            "colours",
            p.text("colours"),
            players,
            Rules::default_colours(players),
            "set-up position (P1-P4)",
        )?;
        let blocked = p.choice("line", &[("open", false), ("blocked", true)])?;
        let per_colour = p.choice("enemies", &[("pooled", false), ("per_colour", true)])?;
        let entry_optional = p.choice("entry", &[("mandatory", false), ("optional", true)])?;
        let stuck_pass = p.choice("stuck", &[("free", false), ("pass", true)])?;
        let first_seat: u8 = p.parse("first_seat")?;
        let ply_cap: u32 = p.parse("ply_cap")?;
        GatewayGame::new(Rules {
            players,
            teams,
            colours,
            blocked,
            per_colour,
            entry_optional,
            stuck_pass,
            first_seat,
            ply_cap,
        })
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }
}

impl Game for GatewayGame {
    type State = GatewayState;

    fn game_string(&self) -> String {
        let r = &self.rules;
        let colours: String = r.colours[..r.players as usize]
            .iter()
            .map(|&b| (b'1' + b) as char)
            .collect();
        format!(
            "gateway(players={},teams={},colours={colours},line={},enemies={},entry={},stuck={},first_seat={},ply_cap={})",
            r.players,
            r.teams,
            if r.blocked { "blocked" } else { "open" },
            if r.per_colour { "per_colour" } else { "pooled" },
            if r.entry_optional {
                "optional"
            } else {
                "mandatory"
            },
            if r.stuck_pass { "pass" } else { "free" },
            r.first_seat,
            r.ply_cap
        )
    }

    fn num_seats(&self) -> usize {
        self.rules.players as usize
    }

    /// The set-up; the seed is unused (Gateway has no random set-up).
    fn initial_state(&self, _seed: u64) -> GatewayState {
        GatewayState::start(self.rules)
    }

    fn parse_position(&self, text: &str) -> Result<GatewayState, GameError> {
        text::parse_position(self, text)
    }
}

/// Zobrist keys: a piece of each seat and shape on each square, the seat
/// to move (the flag is unused).
pub(crate) fn keys() -> &'static PieceKeys {
    static KEYS: OnceLock<PieceKeys> = OnceLock::new();
    KEYS.get_or_init(|| PieceKeys::new(0x6A7E_3A00_0000_0015))
}
