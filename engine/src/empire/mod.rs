//! # Empire (Sid Sackson, *Sly*)
//!
//! A war game for 2, 3 or 4 players (or 4 in two teams) on the Sly board.
//! Rules: `docs/rules/empire.md` (§7) and `docs/rules/sly-board.md` (§9);
//! rule numbers E-SET-1…E-SET-4, E-T1, E-T2, E-1…E-6 are cited next to the
//! code that implements them. The board geometry is the shared
//! [`crate::board::sly`].
//!
//! ## Set-up (E-SET-1…E-SET-4)
//! Each army is a **commander** (the cylinder, `C`), 4 **horsemen**
//! (triangles, `H`) and 6 **archers** (squares, `A`) in its corner: the
//! corner's 3 × 3 field plus the two edge spaces next to it (E-SET-3, ruling
//! QE1), drawn for the top-left corner and reflected into the others
//! ([`crate::board::sly::reflect_into`]). Parameter `template` (16 letters:
//! the top-left 4 × 4 block row by row, `.` empty) changes the arrangement.
//! Corners (E-SET-4, rulings QE2, QE6): 2 players TL against BR, 3 players
//! TL, TR, BR, 4 players all; seats go clockwise from TL, so the teams
//! (seats 0+2 against 1+3) are TL+BR against TR+BL. Parameter `corners`.
//!
//! ## Play
//! * E-1: a move takes one own piece in a straight orthogonal line to **any
//!   empty space** of its row or column, passing over anything.
//! * E-2: a capture lands on an **enemy** piece in the row or column at an
//!   **exact** distance: horseman 3, archer 4, commander 2 or 5 (passing
//!   over anything; QE4). Never on a friendly piece; in teams a partner's
//!   pieces are friendly (ruling QE5; `partner_capture=true` lets partners
//!   capture each other's horsemen and archers, never the commander).
//! * E-T1: the thrones are 5E, 5H, 8E, 8H; E-T2: a seat's coronation centre
//!   is the throne farthest from its corner (TL → 8H, TR → 8E, BR → 5E,
//!   BL → 5H).
//! * Wins, checked after the mover's move (E-3, E-4, E-5):
//!   - **thrones**: the mover's side holds all four thrones (2 players,
//!     teams), or any three (3–4 players each for himself);
//!   - **coronation**: the mover's commander has just moved onto its own
//!     coronation centre and no enemy piece could capture it next move (an
//!     enemy horseman 3, archer 4 or commander 2 or 5 spaces away in its row
//!     or column). Judged only on entry (ruling QE3; `coronation=standing`
//!     also crowns a commander that stands there unattacked after any move
//!     of its side);
//!   - **regicide**: capturing an enemy commander wins, except with 3–4
//!     players each for himself while more than two remain: then the
//!     captured seat is **eliminated**, its pieces join the capturer's army
//!     (E-4), and its turns are skipped (E-4 ruling).
//! * E-6: a seat with no move passes (`pass`); `ply_cap` (a harness rule,
//!   default 1000 plies) ends the game in a draw.
//!
//! ## Returns
//! A win is +1 for the winning seat (both partners in teams) and −1 for
//! every other seat (eliminated seats included); the ply cap gives 0 to all.
//!
//! ## Representation
//! A mailbox of 144 bytes (kind and owner per space), the row and column
//! occupancy words of [`crate::board::sly::Lines`] (a piece's quiet moves
//! are the empty bits of its row and column words), and each seat's pieces
//! as a [`B192`]. Captures are four look-ups per distance.

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

use std::sync::OnceLock;

use crate::api::Game;
use crate::board::sly::seats::{self, PieceKeys};
use crate::board::{B192, sly};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

pub use state::{EmpireMove, EmpireState};

/// The parameters of `empire(...)`, with the dossier's defaults first.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "players",
        default: "2",
        values: "2|3|4",
        help: "number of players (§7, E-3, E-4)",
    },
    ParamInfo {
        name: "teams",
        default: "false",
        values: "false|true",
        help: "4 players in teams, seats 0+2 (TL+BR) against 1+3 (TR+BL) (E-5); needs players=4",
    },
    ParamInfo {
        name: "corners",
        default: "auto",
        values: "auto, or one corner 1-4 per seat (1=TL 2=TR 3=BR 4=BL), e.g. 13",
        help: "corners of the seats; auto = 13, 123 or 1234 (E-SET-4, rulings QE2, QE6)",
    },
    ParamInfo {
        name: "template",
        default: "CAHAAHA.HAH.A...",
        values: "16 of C H A . (the top-left 4x4 block row by row): 1 C, 4 H, 6 A",
        help: "the army's arrangement in the top-left corner, reflected into the others (E-SET-3, ruling QE1)",
    },
    ParamInfo {
        name: "coronation",
        default: "entry",
        values: "entry|standing",
        help: "coronation judged only when the commander moves in (ruling QE3), or after any move of its side",
    },
    ParamInfo {
        name: "partner_capture",
        default: "false",
        values: "false|true",
        help: "teams: partners may capture each other's horsemen and archers (ruling QE5: no)",
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
        help: "harness cap in plies, scored as a draw (E-6)",
    },
];

/// The dossier's army template (E-SET-3), the top-left 4 × 4 block row by
/// row: commander 1A; horsemen 1C 2B 3A 3C; archers 1B 1D 2A 2C 3B 4A.
pub const DEFAULT_TEMPLATE: &str = "CAHAAHA.HAH.A...";

/// The default ply cap (E-6).
pub const DEFAULT_PLY_CAP: u32 = 1000;

/// Piece kinds, in the order of the letters `C H A`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The cylinder; captures at exactly 2 or 5 (E-2).
    Commander = 0,
    /// A triangle; captures at exactly 3.
    Horseman = 1,
    /// A square; captures at exactly 4.
    Archer = 2,
}

/// Kind letters in position texts: commander, horseman, archer.
pub const KIND_LETTERS: &str = "CHA";

/// The four thrones (E-T1): 5E, 5H, 8E, 8H.
pub const THRONES: [u32; 4] = [
    sly::square(4, 4),
    sly::square(4, 7),
    sly::square(7, 4),
    sly::square(7, 7),
];

/// The coronation centre of each corner (E-T2), the throne farthest from
/// it: TL → 8H, TR → 8E, BR → 5E, BL → 5H.
pub const CORONATION: [u32; 4] = [
    sly::square(7, 7),
    sly::square(7, 4),
    sly::square(4, 4),
    sly::square(4, 7),
];

/// The rule parameters of one Empire variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// 2, 3 or 4.
    pub players: u8,
    /// Seats 0+2 against 1+3 (E-5); only with 4 players.
    pub teams: bool,
    /// The corner (0 TL, 1 TR, 2 BR, 3 BL) of each seat (E-SET-4).
    pub corners: [u8; 4],
    /// The top-left 4 × 4 block, row by row: 0 empty, 1 + [`Kind`].
    pub template: [u8; 16],
    /// Coronation only on entry (ruling QE3) if true.
    pub coronation_on_entry: bool,
    /// Teams: partners may capture each other's horsemen and archers.
    pub partner_capture: bool,
    /// The seat that moves first.
    pub first_seat: u8,
    /// Draw after this many plies (E-6).
    pub ply_cap: u32,
}

impl Rules {
    /// The default corners: 2 players TL, BR; 3 TL, TR, BR; 4 all.
    pub fn default_corners(players: u8) -> [u8; 4] {
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
            corners: Rules::default_corners(players),
            template: parse_template(DEFAULT_TEMPLATE).expect("the default template is valid"),
            coronation_on_entry: true,
            partner_capture: false,
            first_seat: 0,
            ply_cap: DEFAULT_PLY_CAP,
        }
    }
}

/// Reads a `template` value.
fn parse_template(t: &str) -> Result<[u8; 16], GameError> {
    let b = t.as_bytes();
    let mut out = [0u8; 16];
    let mut counts = [0u32; 3];
    if b.len() != 16 {
        crate::bail!(
            "game empire: template={t:?} is not valid (expected 16 of C H A ., the top-left 4x4 block row by row)"
        );
    }
    for (i, &ch) in b.iter().enumerate() {
        out[i] = match ch.to_ascii_uppercase() {
            b'.' => 0,
            b'C' => 1,
            b'H' => 2,
            b'A' => 3,
            _ => crate::bail!(
                "game empire: template={t:?} is not valid (letter {:?}: expected C H A or .)",
                ch as char
            ),
        };
        if out[i] > 0 {
            counts[out[i] as usize - 1] += 1;
        }
    }
    if counts != [1, 4, 6] {
        crate::bail!(
            "game empire: template={t:?} has {} commanders, {} horsemen, {} archers; expected 1, 4, 6 (E-SET-1)",
            counts[0],
            counts[1],
            counts[2]
        );
    }
    Ok(out)
}

/// Empire with its parameters fixed: `empire(players=3)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmpireGame {
    rules: Rules,
}

impl EmpireGame {
    /// The variant with these rules.
    ///
    /// # Errors
    /// Players other than 2–4, teams without 4 players, partner capture
    /// without teams, corners repeated or out of range, armies that overlap
    /// (a template reaching the middle of the board), a bad first seat or
    /// ply cap.
    pub fn new(rules: Rules) -> Result<EmpireGame, GameError> {
        let n = rules.players;
        seats::check("empire", n, rules.teams, rules.first_seat, rules.ply_cap)?;
        if rules.partner_capture && !rules.teams {
            crate::bail!("game empire: partner_capture=true needs teams=true");
        }
        for (i, &k) in rules.corners[..n as usize].iter().enumerate() {
            if k > 3 || rules.corners[..i].contains(&k) {
                crate::bail!(
                    "game empire: corners must give {n} different corners 1-4, one per seat (E-SET-4)"
                );
            }
        }
        Ok(EmpireGame { rules })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), and
    /// the errors of [`EmpireGame::new`].
    pub fn from_spec(spec: &Spec) -> Result<EmpireGame, GameError> {
        let p = Params::new("game empire", spec, PARAMS)?;
        let players: u8 = p.choice("players", &[("2", 2), ("3", 3), ("4", 4)])?;
        let teams = p.choice("teams", &[("false", false), ("true", true)])?;
        let corners = seats::parse_places(
            "empire",
            "corners",
            p.text("corners"),
            players,
            Rules::default_corners(players),
            "corner (1=TL 2=TR 3=BR 4=BL)",
        )?;
        let template = parse_template(p.text("template"))?;
        let coronation_on_entry =
            p.choice("coronation", &[("entry", true), ("standing", false)])?;
        let partner_capture = p.choice("partner_capture", &[("false", false), ("true", true)])?;
        let first_seat: u8 = p.parse("first_seat")?;
        let ply_cap: u32 = p.parse("ply_cap")?;
        let g = EmpireGame::new(Rules {
            players,
            teams,
            corners,
            template,
            coronation_on_entry,
            partner_capture,
            first_seat,
            ply_cap,
        })?;
        // Armies must not overlap (a template is drawn in a 4 x 4 block, so
        // two corners' armies can only meet if it reaches past the edge
        // spaces; the check is on the squares themselves).
        let mut used = B192::ZERO;
        for seat in 0..players as usize {
            for (sq, _) in g.army(seat) {
                if !(used & B192::bit(sq)).is_zero() {
                    crate::bail!(
                        "game empire: the armies overlap on {}",
                        sly::square_name(sq)
                    );
                }
                used |= B192::bit(sq);
            }
        }
        Ok(g)
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// `seat`'s army at the start: (square, kind) for its 11 pieces
    /// (E-SET-3, reflected into the seat's corner).
    pub fn army(&self, seat: usize) -> Vec<(u32, Kind)> {
        let corner = self.rules.corners[seat] as u32;
        let mut out = Vec::new();
        for (i, &t) in self.rules.template.iter().enumerate() {
            let kind = match t {
                1 => Kind::Commander,
                2 => Kind::Horseman,
                3 => Kind::Archer,
                _ => continue,
            };
            out.push((sly::reflect_into(corner, i as u32 / 4, i as u32 % 4), kind));
        }
        out
    }
}

use crate::board::Bits;

impl Game for EmpireGame {
    type State = EmpireState;

    fn game_string(&self) -> String {
        let r = &self.rules;
        let corners: String = r.corners[..r.players as usize]
            .iter()
            .map(|&b| (b'1' + b) as char)
            .collect();
        let template: String = r
            .template
            .iter()
            .map(|&t| ['.', 'C', 'H', 'A'][t as usize])
            .collect();
        format!(
            "empire(players={},teams={},corners={corners},template={template},coronation={},partner_capture={},first_seat={},ply_cap={})",
            r.players,
            r.teams,
            if r.coronation_on_entry {
                "entry"
            } else {
                "standing"
            },
            r.partner_capture,
            r.first_seat,
            r.ply_cap
        )
    }

    fn num_seats(&self) -> usize {
        self.rules.players as usize
    }

    /// The set-up; the seed is unused (Empire has no random set-up).
    fn initial_state(&self, _seed: u64) -> EmpireState {
        EmpireState::start(self)
    }

    fn parse_position(&self, text: &str) -> Result<EmpireState, GameError> {
        text::parse_position(self, text)
    }
}

/// Zobrist keys: a piece of each seat and kind on each square, the seat to
/// move, the game over (the flag).
pub(crate) fn keys() -> &'static PieceKeys {
    static KEYS: OnceLock<PieceKeys> = OnceLock::new();
    KEYS.get_or_init(|| PieceKeys::new(0xE391_2E00_0000_0015))
}
