//! # Sniggle (Sid Sackson, *Sly*)
//!
//! A race game for 2, 3 or 4 players (or 4 in two teams) on the Sly board.
//! Rules: `shared/rules/sly.md` §2 (board) and §4 (Sniggle); rule numbers
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

use crate::api::Research;
use std::fmt;
use std::sync::OnceLock;

use rand::Rng;

use crate::api::{Game, MAX_SEATS, Returns, State, ToMove};
use crate::board::sly::{self, COLS, FIELD_COLUMNS};
use crate::board::{B192, Bits, zobrist};
use crate::error::GameError;
use crate::spec::{ParamInfo, Params, Spec};

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
pub struct Sniggle {
    rules: Rules,
}

impl Sniggle {
    /// The variant with these rules.
    ///
    /// # Errors
    /// Players other than 2–4, teams without 4 players, counted partner
    /// pieces without teams, bands repeated or out of range, a triangle
    /// column past C, a first seat past the last seat.
    pub fn new(rules: Rules) -> Result<Sniggle, GameError> {
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
        Ok(Sniggle { rules })
    }

    /// Builds the game from a parsed game string.
    ///
    /// # Errors
    /// Unknown parameters or values (the message lists the valid ones), and
    /// the errors of [`Sniggle::new`].
    pub fn from_spec(spec: &Spec) -> Result<Sniggle, GameError> {
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
        Sniggle::new(Rules {
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

impl Game for Sniggle {
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

/// Zobrist keys: a piece of each seat on each square, a triangle on each
/// square, the seat to move, the square of a continuing piece.
struct Keys {
    piece: [[u64; 144]; MAX_SEATS],
    triangle: [u64; 144],
    seat: [u64; MAX_SEATS],
    chain: [u64; 144],
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let k = zobrist::keys(0x5A16_61E0_0000_0001, 4 * 144 + 144 + 4 + 144);
        let mut it = k.into_iter();
        let mut take = || it.next().expect("enough keys");
        let mut keys = Keys {
            piece: [[0; 144]; MAX_SEATS],
            triangle: [0; 144],
            seat: [0; MAX_SEATS],
            chain: [0; 144],
        };
        for seat in keys.piece.iter_mut() {
            seat.iter_mut().for_each(|x| *x = take());
        }
        keys.triangle.iter_mut().for_each(|x| *x = take());
        keys.seat.iter_mut().for_each(|x| *x = take());
        keys.chain.iter_mut().for_each(|x| *x = take());
        keys
    })
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

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Outcome {
    Ongoing,
    /// The winning seats, as a bit mask (one seat, or a team).
    Win(u8),
    Draw,
}

/// The landing column of a step from column `c` in a track with
/// occupancy `row` (N-2): the lowest empty column right of `c`; `None` if
/// the run of pieces reaches column L.
#[inline(always)]
fn landing(row: u16, c: u32) -> Option<u32> {
    let free = !(row as u32) & ROW_MASK & (ROW_MASK << (c + 1));
    (free != 0).then(|| free.trailing_zeros())
}

/// Whether a seat whose pieces occupy the columns `cols` (bit c = column c)
/// leaves no empty field between two occupied ones (N-4).
#[inline(always)]
fn gap_free(cols: u16) -> bool {
    let c = cols as u32;
    let f = ((c & 7 != 0) as u32)
        | (((c >> 3) & 7 != 0) as u32) << 1
        | (((c >> 6) & 7 != 0) as u32) << 2
        | (((c >> 9) & 7 != 0) as u32) << 3;
    if f == 0 {
        return true;
    }
    let x = f >> f.trailing_zeros();
    x & (x + 1) == 0
}

/// A Sniggle position. `Copy`-cheap: five 192-bit sets and a few counters.
#[derive(Clone, Copy)]
pub struct SniggleState {
    keys: &'static Keys,
    rules: Rules,
    pieces: [B192; MAX_SEATS],
    triangles: B192,
    to_move: u8,
    /// The square of the piece that must step again (N-3), or `NO_SQ`.
    chain: u8,
    outcome: Outcome,
    ply: u32,
    hash: u64,
}

impl PartialEq for SniggleState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.pieces == o.pieces
            && self.triangles == o.triangles
            && self.to_move == o.to_move
            && self.chain == o.chain
            && self.outcome == o.outcome
            && self.ply == o.ply
            && self.hash == o.hash
    }
}

impl fmt::Debug for SniggleState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SniggleState({})", self.to_text())
    }
}

impl SniggleState {
    /// The rules of this position's variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The pieces of `seat` (bit `r * 12 + c`, [`sly::square`]).
    #[inline(always)]
    pub fn pieces(&self, seat: usize) -> B192 {
        self.pieces[seat]
    }

    /// The triangles of all seats (the rest of the pieces are squares).
    pub fn triangles(&self) -> B192 {
        self.triangles
    }

    /// Mid-turn (N-3): the square of the piece that must step again.
    pub fn continuing(&self) -> Option<u32> {
        (self.chain != NO_SQ).then_some(self.chain as u32)
    }

    /// The winning seats once the game is won (one seat, or both partners).
    pub fn winners(&self) -> Option<Vec<usize>> {
        match self.outcome {
            Outcome::Win(m) => Some((0..MAX_SEATS).filter(|&s| m >> s & 1 == 1).collect()),
            _ => None,
        }
    }

    /// The seats on the same side as `seat`: itself, and with teams its
    /// partner (N-7), as a bit mask.
    #[inline(always)]
    fn side_mask(&self, seat: usize) -> u8 {
        if self.rules.teams {
            0b0101 << (seat & 1)
        } else {
            1 << seat
        }
    }

    /// The seats whose pieces count in `seat`'s column rule (N-3, N-6, N-7
    /// and ruling QN3), as a bit mask.
    #[inline(always)]
    fn counted_mask(&self, seat: usize) -> u8 {
        let all = (1u8 << self.rules.players) - 1;
        if self.rules.partners_count {
            all & !(1 << seat)
        } else {
            all & !self.side_mask(seat)
        }
    }

    /// The number of `seat`'s opponents' pieces in board column `c` (N-3).
    #[inline(always)]
    fn opponents_in_column(&self, seat: usize, c: u32) -> u32 {
        let m = self.counted_mask(seat);
        let mut u = B192::ZERO;
        for (k, p) in self.pieces.iter().enumerate() {
            if m >> k & 1 == 1 {
                u |= *p;
            }
        }
        (u & COLS[c as usize]).count()
    }

    /// The first row (0-based) of `seat`'s band.
    #[inline(always)]
    fn first_row(&self, seat: usize) -> u32 {
        3 * self.rules.bands[seat] as u32
    }

    /// `seat`'s three tracks as 12-bit rows, top first.
    #[inline(always)]
    fn tracks(&self, seat: usize) -> [u16; 3] {
        let r0 = self.first_row(seat);
        let p = self.pieces[seat];
        [
            sly::row_bits(p, r0),
            sly::row_bits(p, r0 + 1),
            sly::row_bits(p, r0 + 2),
        ]
    }

    /// Calls `f(from, to)` for each legal first step of `seat` (N-2, N-4),
    /// track by track from the top, columns from the left.
    #[inline(always)]
    fn for_each_step(&self, seat: usize, mut f: impl FnMut(u8, u8)) {
        let r0 = self.first_row(seat);
        let t = self.tracks(seat);
        for i in 0..3 {
            let row = t[i];
            let others = t[(i + 1) % 3] | t[(i + 2) % 3];
            let mut bits = row as u32;
            while bits != 0 {
                let c = bits.trailing_zeros();
                bits &= bits - 1;
                if let Some(l) = landing(row, c) {
                    let moved = row ^ (1 << c) ^ (1 << l);
                    if gap_free(moved | others) {
                        let r = r0 + i as u32;
                        f(sly::square(r, c) as u8, sly::square(r, l) as u8);
                    }
                }
            }
        }
    }

    /// The square a continuation step from `sq` lands on, if N-2 and N-4
    /// allow it (ruling QN4 and N-4's stop).
    #[inline(always)]
    fn continuation(&self, seat: usize, sq: u32) -> Option<u32> {
        let i = (sly::row_of(sq) - self.first_row(seat)) as usize;
        let t = self.tracks(seat);
        let row = t[i];
        let c = sly::col_of(sq);
        let l = landing(row, c)?;
        let moved = row ^ (1 << c) ^ (1 << l);
        gap_free(moved | t[(i + 1) % 3] | t[(i + 2) % 3]).then(|| sly::square(sly::row_of(sq), l))
    }

    /// Whether all 9 of `seat`'s pieces are in its goal field (N-5); such a
    /// seat can never step again.
    #[inline(always)]
    pub fn in_goal(&self, seat: usize) -> bool {
        (self.pieces[seat] & !FIELD_COLUMNS[3]).is_zero()
    }

    /// The squares `seat`'s triangles must finish on under N-8.
    fn triangle_goal(&self, seat: usize) -> B192 {
        let r0 = self.first_row(seat);
        let mut g = B192::ZERO;
        for t in 0..3 {
            g |= B192::bit(sly::square(
                r0 + t,
                9 + self.rules.triangle_at[t as usize] as u32,
            ));
        }
        g
    }

    /// Whether `seat` has finished: all pieces in the goal field (N-5) and,
    /// under N-8, the triangles on their finishing squares.
    pub fn finished(&self, seat: usize) -> bool {
        self.in_goal(seat)
            && (!self.rules.triangles
                || self.pieces[seat] & self.triangles == self.triangle_goal(seat))
    }

    #[inline(always)]
    fn toggle_piece(&mut self, seat: usize, sq: u32) {
        self.pieces[seat] ^= B192::bit(sq);
        self.hash ^= self.keys.piece[seat][sq as usize];
    }

    #[inline(always)]
    fn set_chain(&mut self, sq: u8) {
        if self.chain != NO_SQ {
            self.hash ^= self.keys.chain[self.chain as usize];
        }
        self.chain = sq;
        if sq != NO_SQ {
            self.hash ^= self.keys.chain[sq as usize];
        }
    }

    /// The end of a turn: the mover's win (N-5, N-7), else the next seat to
    /// the left (N-6), and the draw when no seat can ever move (our ruling
    /// under N-9).
    fn end_turn(&mut self) {
        let s = self.to_move as usize;
        if self.finished(s) && (!self.rules.teams || self.finished(s ^ 2)) {
            self.outcome = Outcome::Win(self.side_mask(s));
            return;
        }
        let next = (s + 1) % self.rules.players as usize;
        self.hash ^= self.keys.seat[s] ^ self.keys.seat[next];
        self.to_move = next as u8;
        if (0..self.rules.players as usize).all(|k| self.in_goal(k)) {
            self.outcome = Outcome::Draw;
        }
    }

    /// Progress of `seat`: the sum of its pieces' column indices (9 at the
    /// start, 90 with all in the goal field).
    fn progress(&self, seat: usize) -> i32 {
        self.tracks(seat)
            .iter()
            .map(|&row| {
                let mut b = row as u32;
                let mut s = 0;
                while b != 0 {
                    s += b.trailing_zeros() as i32;
                    b &= b - 1;
                }
                s
            })
            .sum()
    }

    fn letter(&self, sq: u32) -> Option<char> {
        let b = B192::bit(sq);
        let seat = (0..self.rules.players as usize).find(|&k| !(self.pieces[k] & b).is_zero())?;
        let ch = SEAT_LETTERS[seat];
        Some(if (self.triangles & b).is_zero() {
            ch
        } else {
            ch.to_ascii_lowercase()
        })
    }
}

impl State for SniggleState {
    type Move = SniggleMove;

    fn num_seats(&self) -> usize {
        self.rules.players as usize
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.outcome == Outcome::Ongoing {
            ToMove::Seat(self.to_move as usize)
        } else {
            ToMove::Terminal
        }
    }

    fn legal_moves(&self, out: &mut Vec<SniggleMove>) {
        out.clear();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        let s = self.to_move as usize;
        if self.chain != NO_SQ {
            let to = self
                .continuation(s, self.chain as u32)
                .expect("a continuing piece can step");
            out.push(SniggleMove::Step {
                from: self.chain,
                to: to as u8,
            });
            return;
        }
        self.for_each_step(s, |from, to| out.push(SniggleMove::Step { from, to }));
        if out.is_empty() {
            out.push(SniggleMove::Pass);
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        if self.chain != NO_SQ {
            return 1;
        }
        let mut n = 0;
        self.for_each_step(self.to_move as usize, |_, _| n += 1);
        n.max(1)
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<SniggleMove>,
    ) -> Option<SniggleMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        let s = self.to_move as usize;
        if self.chain != NO_SQ {
            let to = self.continuation(s, self.chain as u32)?;
            return Some(SniggleMove::Step {
                from: self.chain,
                to: to as u8,
            });
        }
        // At most 9 steps: one per piece.
        let mut moves = [(0u8, 0u8); 9];
        let mut n = 0;
        self.for_each_step(s, |from, to| {
            moves[n] = (from, to);
            n += 1;
        });
        if n == 0 {
            return Some(SniggleMove::Pass);
        }
        let (from, to) = moves[rng.random_range(0..n)];
        Some(SniggleMove::Step { from, to })
    }

    fn apply(&mut self, mv: SniggleMove) {
        debug_assert!(
            {
                let mut v = Vec::new();
                self.legal_moves(&mut v);
                v.contains(&mv)
            },
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        self.ply += 1;
        let s = self.to_move as usize;
        match mv {
            SniggleMove::Step { from, to } => {
                let (from, to) = (from as u32, to as u32);
                self.toggle_piece(s, from);
                self.toggle_piece(s, to);
                if self.triangles.has(from) {
                    self.triangles ^= B192::bit(from) | B192::bit(to);
                    self.hash ^=
                        self.keys.triangle[from as usize] ^ self.keys.triangle[to as usize];
                }
                // N-3: an odd count of opponents' pieces in the landing
                // column makes the piece step again, unless it cannot (QN4)
                // or the step would leave an empty field (N-4).
                let again = !self
                    .opponents_in_column(s, sly::col_of(to))
                    .is_multiple_of(2)
                    && self.continuation(s, to).is_some();
                self.set_chain(if again { to as u8 } else { NO_SQ });
                if !again {
                    self.end_turn();
                }
            }
            SniggleMove::Pass => self.end_turn(),
        }
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Outcome::Win(m) = self.outcome {
            for (k, x) in r.iter_mut().enumerate().take(self.rules.players as usize) {
                *x = if m >> k & 1 == 1 { 1.0 } else { -1.0 };
            }
        }
        r
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let k = self.keys;
        let mut h = k.seat[self.to_move as usize];
        for (seat, p) in self.pieces.iter().enumerate() {
            for sq in p.iter() {
                h ^= k.piece[seat][sq as usize];
            }
        }
        for sq in self.triangles.iter() {
            h ^= k.triangle[sq as usize];
        }
        if self.chain != NO_SQ {
            h ^= k.chain[self.chain as usize];
        }
        h
    }

    /// A compulsory continuation step (N-3) is due: the turn goes on.
    fn continues_turn(&self) -> bool {
        self.continuing().is_some()
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// `<rows> <seat> <continuing> <ply>`: rows 1 to 12 (top first)
    /// separated by `/`, digits for runs of empty spaces, a seat's letter
    /// ([`SEAT_LETTERS`]) for its squares and the lowercase letter for its
    /// triangles; the letter of the seat to move (at the end: the last
    /// mover); the square of the piece that must step again, or `-`.
    fn to_text(&self) -> String {
        let rows = sly::rows_text(|sq| self.letter(sq));
        let chain = if self.chain == NO_SQ {
            "-".to_string()
        } else {
            sly::square_name(self.chain as u32)
        };
        format!(
            "{} {} {chain} {}",
            rows, SEAT_LETTERS[self.to_move as usize], self.ply
        )
    }

    fn move_to_text(&self, mv: SniggleMove) -> String {
        match mv {
            SniggleMove::Step { from, to } => format!(
                "{}-{}",
                sly::square_name(from as u32),
                sly::square_name(to as u32)
            ),
            SniggleMove::Pass => "pass".to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<SniggleMove, GameError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(SniggleMove::Pass);
        }
        let Some((a, b)) = t.split_once('-') else {
            crate::bail!(
                "bad move {text:?}: expected a step from-to along a row, e.g. 4C-4D, or pass"
            );
        };
        let wrap = |e: GameError| GameError::new(format!("bad move {text:?}: {e}"));
        let from = sly::parse_square(a.trim()).map_err(wrap)?;
        let to = sly::parse_square(b.trim()).map_err(wrap)?;
        if sly::row_of(from) != sly::row_of(to) || sly::col_of(to) <= sly::col_of(from) {
            crate::bail!(
                "bad move {text:?}: a step moves right along its own row (N-1), e.g. 4C-4D"
            );
        }
        Ok(SniggleMove::Step {
            from: from as u8,
            to: to as u8,
        })
    }

    /// Race progress: the mover's side's summed piece columns minus the
    /// best opposing seat's (teams: the other team's sum).
    fn evaluate(&self) -> i32 {
        let s = self.to_move as usize;
        let n = self.rules.players as usize;
        if self.rules.teams {
            let mine = self.progress(s) + self.progress(s ^ 2);
            let theirs = self.progress(s ^ 1) + self.progress((s ^ 1) ^ 2);
            return mine - theirs;
        }
        let best = (0..n)
            .filter(|&k| k != s)
            .map(|k| self.progress(k))
            .max()
            .unwrap_or(0);
        self.progress(s) - best
    }
}

impl Research for SniggleState {
    fn seat_role(&self, seat: usize) -> String {
        let letter = SEAT_LETTERS[seat];
        if self.rules.teams {
            format!(
                "{letter}/team {}{}",
                SEAT_LETTERS[seat & 1],
                SEAT_LETTERS[(seat & 1) + 2]
            )
        } else {
            letter.to_string()
        }
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(self.rules.first_seat as usize)
    }
}

impl fmt::Display for SniggleState {
    /// The board as the dossier draws it (§2.1, §4.1): a seat's letter for
    /// its squares, lowercase for triangles; then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", sly::diagram(|sq| self.letter(sq)))?;
        let s = self.to_move as usize;
        match self.outcome {
            Outcome::Win(m) => {
                let w: String = (0..MAX_SEATS)
                    .filter(|&k| m >> k & 1 == 1)
                    .map(|k| SEAT_LETTERS[k])
                    .collect();
                write!(f, "{w} won")
            }
            Outcome::Draw => write!(f, "draw: no piece can move and nobody has won"),
            Outcome::Ongoing if self.chain != NO_SQ => write!(
                f,
                "{} (seat {s}) must step again with {} (N-3)",
                SEAT_LETTERS[s],
                sly::square_name(self.chain as u32)
            ),
            Outcome::Ongoing => write!(f, "{} (seat {s}) to move", SEAT_LETTERS[s]),
        }
    }
}

/// Parses the position text of [`State::to_text`] (the ply may be left
/// out), checking that it is a position of this variant: each seat has 9
/// pieces, three in each track of its band with one triangle per track,
/// and no empty field between its pieces (N-4); a continuing piece (N-3)
/// belongs to the seat to move, stands in a column with an odd count of
/// opponents' pieces and can step. The outcome follows from the pieces:
/// a seat (or team) that has finished has won (N-5, N-7, N-8).
fn parse_position(game: &Sniggle, text: &str) -> Result<SniggleState, GameError> {
    let rules = game.rules;
    let n = rules.players as usize;
    let bad = |what: String| GameError::new(format!("bad sniggle position {text:?}: {what}"));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 3 || fields.len() > 4 {
        return Err(bad(
            "expected 3 or 4 fields: <12 rows separated by /> <seat letter to move> <continuing square or -> [<ply>]"
                .into(),
        ));
    }
    let mut s = game.start();
    s.pieces = [B192::ZERO; MAX_SEATS];
    s.triangles = B192::ZERO;
    let (mut pieces, mut triangles) = ([B192::ZERO; MAX_SEATS], B192::ZERO);
    sly::parse_rows(fields[0], |sq, ch| {
        let upper = ch.to_ascii_uppercase();
        let Some(seat) = SEAT_LETTERS[..n].iter().position(|&l| l == upper) else {
            return Err(format!(
                "unknown piece letter {ch:?} (expected {} or a digit for empty spaces)",
                SEAT_LETTERS[..n]
                    .iter()
                    .flat_map(|l| [*l, l.to_ascii_lowercase()])
                    .map(String::from)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        pieces[seat] |= B192::bit(sq);
        if ch.is_ascii_lowercase() {
            triangles |= B192::bit(sq);
        }
        Ok(())
    })
    .map_err(bad)?;
    s.pieces = pieces;
    s.triangles = triangles;
    for (seat, &letter) in SEAT_LETTERS.iter().enumerate().take(n) {
        let r0 = s.first_row(seat);
        let outside = s.pieces[seat] & !sly::BANDS[rules.bands[seat] as usize];
        if !outside.is_zero() {
            return Err(bad(format!(
                "{letter} has a piece on {}, outside its tracks (rows {}-{}, N-SET-2)",
                sly::square_name(outside.lowest()),
                r0 + 1,
                r0 + 3
            )));
        }
        for t in 0..3 {
            let row = sly::ROWS[(r0 + t) as usize];
            let k = (s.pieces[seat] & row).count();
            let tri = (s.pieces[seat] & row & s.triangles).count();
            if k != 3 || tri != 1 {
                return Err(bad(format!(
                    "{letter}'s track in row {} has {k} pieces and {tri} triangles, expected 3 and 1 (N-SET-1, N-SET-4)",
                    r0 + t + 1
                )));
            }
        }
        let t = s.tracks(seat);
        if !gap_free(t[0] | t[1] | t[2]) {
            return Err(bad(format!(
                "{letter} leaves an empty field between its pieces (N-4)"
            )));
        }
    }
    let seat_text = fields[1];
    let to_move = SEAT_LETTERS[..n]
        .iter()
        .position(|l| seat_text.len() == 1 && seat_text.starts_with(*l))
        .ok_or_else(|| {
            bad(format!(
                "seat to move {seat_text:?}, expected one of {}",
                SEAT_LETTERS[..n].iter().collect::<String>()
            ))
        })?;
    s.to_move = to_move as u8;
    s.chain = NO_SQ;
    if fields[2] != "-" {
        let sq = sly::parse_square(fields[2]).map_err(|e| bad(e.to_string()))?;
        if !s.pieces[to_move].has(sq) {
            return Err(bad(format!(
                "the continuing piece on {} is not {}'s",
                fields[2], SEAT_LETTERS[to_move]
            )));
        }
        if s.opponents_in_column(to_move, sly::col_of(sq))
            .is_multiple_of(2)
        {
            return Err(bad(format!(
                "the piece on {} cannot be continuing: its column holds an even number of opponents' pieces (N-3)",
                fields[2]
            )));
        }
        if s.continuation(to_move, sq).is_none() {
            return Err(bad(format!(
                "the piece on {} cannot step again (N-2, N-4), so the turn would have ended",
                fields[2]
            )));
        }
        s.chain = sq as u8;
    }
    s.ply = match fields.get(3) {
        Some(p) => p
            .parse()
            .map_err(|_| bad(format!("ply {p:?}, expected a whole number")))?,
        None => 0,
    };
    // The outcome (N-5, N-7, N-8, our draw ruling under N-9).
    let winners: Vec<u8> = if rules.teams {
        [0usize, 1]
            .into_iter()
            .filter(|&k| s.finished(k) && s.finished(k + 2))
            .map(|k| s.side_mask(k))
            .collect()
    } else {
        (0..n)
            .filter(|&k| s.finished(k))
            .map(|k| 1u8 << k)
            .collect()
    };
    if winners.len() > 1 {
        return Err(bad("more than one side has finished".into()));
    }
    if let Some(&w) = winners.first() {
        s.outcome = Outcome::Win(w);
    } else if (0..n).all(|k| s.in_goal(k)) {
        s.outcome = Outcome::Draw;
    }
    if s.outcome != Outcome::Ongoing && s.chain != NO_SQ {
        return Err(bad("the game is over, so no piece can be continuing".into()));
    }
    s.hash = s.zobrist_from_scratch();
    Ok(s)
}
