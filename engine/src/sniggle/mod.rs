//! # Sniggle (Sid Sackson, *Sly*)
//!
//! A race game for 2, 3 or 4 players (or 4 in two teams) on the Sly board.
//! Rules: `docs/rules/sniggle.md` §4 (Sniggle); rule numbers
//! N-1…N-9 and N-SET-1…N-SET-4 are cited next to the code that implements
//! them. The board geometry is the shared [`crate::board::sly`].
//!
//! ## Set-up (N-SET-1…N-SET-4)
//! Each seat has 6 squares and 3 triangles filling columns A–C of its own
//! **band** (a row of four fields, three rows): its three rows are its
//! **tracks**, and columns J–L of the band are its **goal field**. Pieces of
//! different seats never share a track; they meet only through column
//! counts (N-3). Bands by default (N-SET-3): 2 players rows 4–6 and 7–9,
//! 3 players rows 1–9, 4 players all; parameter `bands`. Triangles start on
//! column B of each track by default (N-SET-4); parameter `triangle_at`.
//!
//! ## Play
//! * N-1, N-2: a **step** moves one own piece right along its track: into
//!   the next space if empty, else over the unbroken run of (own) pieces to
//!   the first empty space; a piece whose run reaches column L cannot move.
//! * N-3, N-6: if the step lands in a board column holding an **odd**
//!   number of opponents' pieces (all bands; with teams the partner's pieces
//!   do not count, ruling QN3), the same piece steps again, and so on until
//!   a step lands on an even count (0 included), or the piece cannot step
//!   (ruling QN4).
//! * N-4: a seat may never leave an empty field (of its band) between two
//!   fields holding its pieces. A **first** step that would is illegal; a
//!   **continuation** step that would is not made: the piece stops and the
//!   turn ends.
//! * N-5: the first seat with all 9 pieces in its goal field wins; with
//!   teams (N-7) a team wins when both partners have. N-8 (`triangles=true`):
//!   the triangles must also end on the columns they started from, shifted
//!   into the goal field (column B ↔ column K).
//! * N-9: a seat with no step passes (`pass`). That happens only to a seat
//!   with all 9 pieces in its goal field (the rightmost piece of some track
//!   in the leftmost occupied field can always step), so only with teams or
//!   under `triangles=true`. **[Ruling, ours]** When every seat has all its
//!   pieces in its goal field and nobody has won (possible only under N-8),
//!   no piece can ever move again: the game ends in a draw.
//!
//! ## Turns as moves: compulsory continuation
//! A turn is a **sequence of moves by the same seat**: the first step, then
//! each compulsory continuation step (N-3) as a move of its own, the only
//! legal move in that state. The state knows it is mid-turn: it records the
//! square of the piece that must step again ([`SniggleState::continuing`]),
//! shows it in the position text and hashes it. A continuation that N-2 or
//! N-4 forbids is never offered: the turn ends as soon as the step that
//! would precede it is applied. Move text: `4C-4D` (from-to, §2.1 names),
//! `pass`.
//!
//! ## Bits
//! Each seat's pieces and all triangles are [`B192`] sets over the Sly
//! board (bit `r * 12 + c`, row 1 = `r` 0 at the top). A seat's three tracks
//! are read as three 12-bit rows ([`sly::row_bits`]); a step's landing is the
//! lowest empty column right of the piece; column counts are popcounts of
//! the opponents' union with a column mask.

use crate::api::{Game, MAX_SEATS, State};
use crate::board::sly;
use crate::board::{B192, Bits};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};
use state::{Outcome, keys};
use text::parse_position;

mod eval;
mod learning;
mod movegen;
mod state;
mod text;

pub use state::SniggleState;

/// The parameters of `sniggle(...)`, with the dossier's defaults first.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "players",
        default: "2",
        values: "2|3|4",
        help: "number of players (§4, N-6)",
    },
    ParamInfo {
        name: "teams",
        default: "false",
        values: "false|true",
        help: "4 players in teams, seats 0+2 against 1+3 (N-7); needs players=4",
    },
    ParamInfo {
        name: "triangles",
        default: "false",
        values: "false|true",
        help: "variation for experienced players: triangles must finish where they started (N-8)",
    },
    ParamInfo {
        name: "triangle_at",
        default: "B",
        values: "A|B|C, or three letters, one per track from the top (e.g. ABC)",
        help: "start column of the triangle in each track; it finishes 9 columns right (N-SET-4, ruling QN2)",
    },
    ParamInfo {
        name: "partner_pieces",
        default: "ignored",
        values: "ignored|counted",
        help: "with teams: partner's pieces left out of the column count (ruling QN3) or counted",
    },
    ParamInfo {
        name: "bands",
        default: "auto",
        values: "auto, or one band 1-4 per seat (band k = rows 3k-2..3k), e.g. 23",
        help: "bands of the seats; auto = 23, 123 or 1234 (N-SET-3, does not change play)",
    },
    ParamInfo {
        name: "first_seat",
        default: "0",
        values: "0..players-1",
        help: "the seat that moves first (§2.3)",
    },
];

/// Piece letters of seats 0–3 in position texts and diagrams (uppercase
/// square, lowercase triangle). X and Y are the dossier's (§4.1).
pub const SEAT_LETTERS: [char; 4] = ['X', 'Y', 'Z', 'W'];

/// No square (no piece is continuing).
const NO_SQ: u8 = u8::MAX;

/// The 12 columns of a row.
const ROW_MASK: u32 = 0xFFF;

/// The rule parameters of one Sniggle variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// 2, 3 or 4 (§4).
    pub players: u8,
    /// Seats 0+2 against 1+3 (N-7); only with 4 players.
    pub teams: bool,
    /// N-8: triangles must finish in their starting positions.
    pub triangles: bool,
    /// Start column (0 = A, 1 = B, 2 = C) of the triangle in each track,
    /// top track first (N-SET-4); it must finish at that column + 9.
    pub triangle_at: [u8; 3],
    /// With teams, count the partner's pieces in N-3 (the alternative to
    /// ruling QN3).
    pub partners_count: bool,
    /// The band (0..4, band k = rows `3k+1..=3k+3`) of each seat; entries
    /// past `players` are unused (N-SET-3).
    pub bands: [u8; 4],
    /// The seat that moves first (§2.3).
    pub first_seat: u8,
}

impl Rules {
    /// The dossier's default bands (N-SET-3): 2 players bands 1–2 (rows
    /// 4–9), 3 players bands 0–2, 4 players all (0-based band numbers).
    pub fn default_bands(players: u8) -> [u8; 4] {
        match players {
            2 => [1, 2, 0, 0],
            3 => [0, 1, 2, 0],
            _ => [0, 1, 2, 3],
        }
    }

    /// The dossier's defaults for `players` players, each for himself.
    pub fn for_players(players: u8) -> Rules {
        Rules {
            players,
            teams: false,
            triangles: false,
            triangle_at: [1, 1, 1],
            partners_count: false,
            bands: Rules::default_bands(players),
            first_seat: 0,
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::for_players(2)
    }
}

/// Sniggle with its parameters fixed: `sniggle(players=3)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SniggleGame {
    rules: Rules,
}

impl SniggleGame {
    /// The variant with these rules.
    ///
    /// # Errors
    /// Players other than 2–4, teams without 4 players, counted partner
    /// pieces without teams, bands repeated or out of range, a triangle
    /// column past C, a first seat past the last seat.
    pub fn new(rules: Rules) -> Result<SniggleGame, GameError> {
        let n = rules.players;
        if !(2..=4).contains(&n) {
            crate::bail!("game sniggle: players={n} is not valid (expected one of 2|3|4)");
        }
        if rules.teams && n != 4 {
            crate::bail!(
                "game sniggle: teams=true needs players=4 (partners are seats 0+2 against 1+3, N-7), not players={n}"
            );
        }
        if rules.partners_count && !rules.teams {
            crate::bail!("game sniggle: partner_pieces=counted needs teams=true");
        }
        for (i, &b) in rules.bands[..n as usize].iter().enumerate() {
            if b > 3 || rules.bands[..i].contains(&b) {
                crate::bail!(
                    "game sniggle: bands must give {n} different bands 1-4, one per seat (N-SET-3)"
                );
            }
        }
        if rules.triangle_at.iter().any(|&c| c > 2) {
            crate::bail!("game sniggle: triangle_at must name start columns A, B or C (N-SET-4)");
        }
        if rules.first_seat >= n {
            crate::bail!(
                "game sniggle: first_seat={} is not valid (expected 0..={})",
                rules.first_seat,
                n - 1
            );
        }
        Ok(SniggleGame { rules })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), and
    /// the errors of [`SniggleGame::new`].
    pub fn from_spec(spec: &Spec) -> Result<SniggleGame, GameError> {
        let p = Params::new("game sniggle", spec, PARAMS)?;
        let players: u8 = p.choice("players", &[("2", 2), ("3", 3), ("4", 4)])?;
        let teams = p.choice("teams", &[("false", false), ("true", true)])?;
        let triangles = p.choice("triangles", &[("false", false), ("true", true)])?;
        let partners_count =
            p.choice("partner_pieces", &[("ignored", false), ("counted", true)])?;
        let tri = p.text("triangle_at").to_ascii_uppercase();
        let cols: Vec<u8> = tri.bytes().map(|b| b.wrapping_sub(b'A')).collect();
        let triangle_at = match cols.as_slice() {
            [c] if *c <= 2 => [*c; 3],
            [a, b, c] if *a <= 2 && *b <= 2 && *c <= 2 => [*a, *b, *c],
            _ => crate::bail!(
                "game sniggle: triangle_at={:?} is not valid (expected A|B|C, or three of them, one per track)",
                p.text("triangle_at")
            ),
        };
        let bands = match p.text("bands") {
            b if b.eq_ignore_ascii_case("auto") => Rules::default_bands(players),
            b => {
                let digits: Vec<u8> = b.bytes().map(|d| d.wrapping_sub(b'1')).collect();
                if digits.len() != players as usize || digits.iter().any(|&d| d > 3) {
                    crate::bail!(
                        "game sniggle: bands={b:?} is not valid (expected auto or {players} digits 1-4, one band per seat)"
                    );
                }
                let mut out = [0u8; 4];
                out[..digits.len()].copy_from_slice(&digits);
                out
            }
        };
        let first_seat: u8 = p.parse("first_seat")?;
        SniggleGame::new(Rules {
            players,
            teams,
            triangles,
            triangle_at,
            partners_count,
            bands,
            first_seat,
        })
    }

    /// The rules of this variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The set-up (N-SET-1…N-SET-4): each seat's 9 pieces on columns A–C of
    /// its band, one triangle per track; `first_seat` to move.
    fn start(&self) -> SniggleState {
        let r = self.rules;
        let mut s = SniggleState {
            keys: keys(),
            rules: r,
            pieces: [B192::ZERO; MAX_SEATS],
            triangles: B192::ZERO,
            to_move: r.first_seat,
            chain: NO_SQ,
            outcome: Outcome::Ongoing,
            ply: 0,
            hash: 0,
        };
        for seat in 0..r.players as usize {
            let r0 = 3 * r.bands[seat] as u32;
            for t in 0..3 {
                s.pieces[seat] |= sly::row_set(r0 + t, 0b111);
                s.triangles |= B192::bit(sly::square(r0 + t, r.triangle_at[t as usize] as u32));
            }
        }
        s.hash = s.zobrist_from_scratch();
        s
    }
}

impl Game for SniggleGame {
    type State = SniggleState;

    fn game_string(&self) -> String {
        let r = &self.rules;
        let tri: String = if r.triangle_at.iter().all(|&c| c == r.triangle_at[0]) {
            ((b'A' + r.triangle_at[0]) as char).to_string()
        } else {
            r.triangle_at.iter().map(|&c| (b'A' + c) as char).collect()
        };
        let bands: String = r.bands[..r.players as usize]
            .iter()
            .map(|&b| (b'1' + b) as char)
            .collect();
        format!(
            "sniggle(players={},teams={},triangles={},triangle_at={tri},partner_pieces={},bands={bands},first_seat={})",
            r.players,
            r.teams,
            r.triangles,
            if r.partners_count {
                "counted"
            } else {
                "ignored"
            },
            r.first_seat
        )
    }

    fn num_seats(&self) -> usize {
        self.rules.players as usize
    }

    /// The set-up; the seed is unused (Sniggle has no random set-up).
    fn initial_state(&self, _seed: u64) -> SniggleState {
        self.start()
    }

    fn parse_position(&self, text: &str) -> Result<SniggleState, GameError> {
        parse_position(self, text)
    }
}

/// A Sniggle move: one step of one piece (a first step or a compulsory
/// continuation, N-2, N-3), or a pass (N-9).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SniggleMove {
    /// The piece on `from` steps right along its row to `to` (square
    /// indices `r * 12 + c`, [`sly::square`]); text `4C-4D`.
    Step {
        /// The square the piece leaves.
        from: u8,
        /// The square it lands on.
        to: u8,
    },
    /// No step is possible (N-9); text `pass`.
    Pass,
}
