//! The Gateway position, its moves and the [`State`]/[`Research`] impls.

use std::fmt;

use rand::Rng;

use super::movegen::Align;
use super::{GatewayGame, OWNED, Rules, SETUP, SHAPE_LETTERS, keys};
use crate::api::{MAX_SEATS, Research, Returns, State, ToMove};
use crate::board::sly::seats::{self, PieceKeys};
use crate::board::sly::{self, Lines};
use crate::board::{B192, Bits};
use crate::error::GameError;

/// A Gateway move: one piece along its row or column to an empty
/// non-centre space (G-1), with the entry it earns (G-3, G-4), or a pass
/// (G-6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GatewayMove {
    /// The piece on `from` goes to `to` (square indices `r * 12 + c`,
    /// [`sly::square`]); `entry` is 0 for none, 1 for a triangle and 2 for
    /// a square entered on the gateway of `to`'s field. Text `10C-10E`,
    /// `4G-4D+T`, `4G-4D+S`.
    Move {
        /// The square the piece leaves.
        from: u8,
        /// The square it lands on.
        to: u8,
        /// 0 none, 1 triangle, 2 square.
        entry: u8,
    },
    /// No move exists (G-6), or a stuck forced leave under `stuck=pass`.
    Pass,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Outcome {
    Ongoing,
    /// The winning seats, a bit mask (one seat, or a team).
    Win(u8),
    /// The ply cap (G-6).
    Draw,
}

/// A Gateway position: a mailbox, the row and column occupancy words, each
/// seat's pieces as a bit set, the seat to move, the outcome. `Copy`, no
/// heap. The reserves follow from the board (pieces never leave it).
#[derive(Clone, Copy)]
pub struct GatewayState {
    pub(crate) keys: &'static PieceKeys,
    pub(crate) rules: Rules,
    /// 0 empty, else `1 + 3 * seat + shape` (C, T, S).
    pub(crate) board: [u8; 144],
    pub(crate) lines: Lines,
    pub(crate) pieces: [B192; MAX_SEATS],
    /// Per seat and shape, the rows and columns holding such a piece (the
    /// entry test G-3), kept up to date by every move.
    pub(crate) align: Align,
    /// Pieces in reserve per seat: `[triangles, squares]`.
    pub(crate) reserve: [[u8; 2]; MAX_SEATS],
    pub(crate) to_move: u8,
    pub(crate) outcome: Outcome,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
}

impl PartialEq for GatewayState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.board == o.board
            && self.to_move == o.to_move
            && self.outcome == o.outcome
            && self.ply == o.ply
    }
}

impl fmt::Debug for GatewayState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GatewayState({})", self.to_text())
    }
}

impl GatewayState {
    /// The set-up (G-SET-1, G-SET-2, G-SET-4).
    pub(crate) fn start(rules: Rules) -> GatewayState {
        let mut s = GatewayState::empty(rules);
        for seat in 0..rules.players as usize {
            let [c, sq, t] = SETUP[rules.colours[seat] as usize];
            s.put(c, seat, 0);
            s.put(t, seat, 1);
            s.put(sq, seat, 2);
        }
        s.to_move = rules.first_seat;
        s.hash = s.zobrist_from_scratch();
        s
    }

    /// No pieces, seat 0 to move; the reserve counts all 4 triangles and 6
    /// squares until [`GatewayState::put`] places them.
    pub(crate) fn empty(rules: Rules) -> GatewayState {
        GatewayState {
            keys: keys(),
            rules,
            board: [0; 144],
            lines: Lines::default(),
            pieces: [B192::ZERO; MAX_SEATS],
            align: Align::default(),
            reserve: [[OWNED[1] as u8, OWNED[2] as u8]; MAX_SEATS],
            to_move: 0,
            outcome: Outcome::Ongoing,
            ply: 0,
            hash: 0,
        }
    }

    /// Puts a piece (no hash update); every triangle and square on the
    /// board counts against the 4 and 6 a colour owns (G-SET-1), so the
    /// reserve is what is left of them.
    pub(crate) fn put(&mut self, sq: u32, seat: usize, shape: u8) {
        self.board[sq as usize] = 1 + 3 * seat as u8 + shape;
        self.lines.toggle(sq);
        self.pieces[seat] |= B192::bit(sq);
        self.align.add(seat, shape as usize, sq);
        if shape > 0 {
            self.reserve[seat][shape as usize - 1] =
                self.reserve[seat][shape as usize - 1].wrapping_sub(1);
        }
    }

    /// The rules of this position's variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The pieces of `seat`.
    pub fn pieces(&self, seat: usize) -> B192 {
        self.pieces[seat]
    }

    /// The piece on `sq`: `(seat, shape)` with shape 0 cylinder, 1
    /// triangle, 2 square.
    pub fn piece(&self, sq: u32) -> Option<(usize, u8)> {
        let v = self.board[sq as usize];
        (v != 0).then(|| ((v as usize - 1) / 3, (v - 1) % 3))
    }

    /// `seat`'s reserve: `(triangles, squares)` still to enter (G-SET-1).
    pub fn reserve(&self, seat: usize) -> (u32, u32) {
        (self.reserve[seat][0] as u32, self.reserve[seat][1] as u32)
    }

    /// The winning seats once the game is won (one seat, or both partners).
    pub fn winners(&self) -> Option<Vec<usize>> {
        match self.outcome {
            Outcome::Win(m) => Some(seats::of_mask(m)),
            _ => None,
        }
    }

    /// The seats on `seat`'s side: itself, and in teams its partner.
    #[inline(always)]
    pub(crate) fn side_mask(&self, seat: usize) -> u8 {
        seats::side_mask(self.rules.teams, seat)
    }

    /// `seat`'s enemy seats as a bit mask (G-3: not itself, not its partner).
    #[inline(always)]
    pub(crate) fn enemies(&self, seat: usize) -> u8 {
        ((1u8 << self.rules.players) - 1) & !self.side_mask(seat)
    }

    /// Whether `seat` has entered all 8 reserve pieces.
    #[inline(always)]
    pub(crate) fn done(&self, seat: usize) -> bool {
        self.reserve[seat] == [0, 0]
    }

    /// Puts the piece coded `v` on the empty `sq` (or takes it off with
    /// `add` false): the occupancy words, the seat's pieces, the alignment
    /// tables and the hash; the mailbox is the caller's.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, sq: u32, v: u8, add: bool) {
        let seat = (v as usize - 1) / 3;
        let shape = (v as usize - 1) % 3;
        self.lines.toggle(sq);
        self.pieces[seat] ^= B192::bit(sq);
        if add {
            self.align.add(seat, shape, sq);
        } else {
            self.align.remove(seat, shape, sq);
        }
        self.hash ^= self.keys.piece[seat][shape][sq as usize];
    }

    /// The shape letter and seat of the piece on `sq`.
    pub(crate) fn cell(&self, sq: u32) -> Option<(char, usize)> {
        let v = self.board[sq as usize];
        (v != 0).then(|| {
            (
                SHAPE_LETTERS.as_bytes()[(v as usize - 1) % 3] as char,
                (v as usize - 1) / 3,
            )
        })
    }

    /// The outcome that follows from the pieces (G-5) and the ply (G-6).
    pub(crate) fn outcome_from_pieces(&self) -> Result<Outcome, String> {
        let n = self.rules.players as usize;
        let winners: Vec<u8> = if self.rules.teams {
            [0usize, 1]
                .into_iter()
                .filter(|&k| self.done(k) && self.done(k + 2))
                .map(|k| self.side_mask(k))
                .collect()
        } else {
            (0..n).filter(|&k| self.done(k)).map(|k| 1u8 << k).collect()
        };
        match winners.as_slice() {
            [] if self.ply >= self.rules.ply_cap => Ok(Outcome::Draw),
            [] => Ok(Outcome::Ongoing),
            [w] => Ok(Outcome::Win(*w)),
            _ => Err("more than one side has entered all its pieces (G-5)".into()),
        }
    }
}

impl State for GatewayState {
    type Move = GatewayMove;

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

    fn legal_moves(&self, out: &mut Vec<GatewayMove>) {
        out.clear();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        self.for_each_move(|from, to, entry| out.push(GatewayMove::Move { from, to, entry }));
        if out.is_empty() {
            out.push(GatewayMove::Pass);
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        self.count_moves().max(1)
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<GatewayMove>,
    ) -> Option<GatewayMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        Some(self.sample_move(rng).unwrap_or(GatewayMove::Pass))
    }

    fn apply(&mut self, mv: GatewayMove) {
        debug_assert!(
            {
                let mut v = Vec::new();
                self.legal_moves(&mut v);
                v.contains(&mv)
            },
            "illegal {mv:?} in {}",
            self.to_text()
        );
        self.ply += 1;
        let s = self.to_move as usize;
        if let GatewayMove::Move { from, to, entry } = mv {
            let (from, to) = (from as u32, to as u32);
            let v = self.board[from as usize];
            self.toggle(from, v, false);
            self.board[from as usize] = 0;
            self.board[to as usize] = v;
            self.toggle(to, v, true);
            if entry != 0 {
                // G-4: the new piece on the gateway of `to`'s field.
                let g = sly::centre_of_field(sly::field_of(to));
                let e = 1 + 3 * s as u8 + entry;
                self.board[g as usize] = e;
                self.toggle(g, e, true);
                self.reserve[s][entry as usize - 1] -= 1;
                // G-5: the win.
                if self.done(s) && (!self.rules.teams || self.done(s ^ 2)) {
                    self.outcome = Outcome::Win(self.side_mask(s));
                    return;
                }
            }
        }
        if self.ply >= self.rules.ply_cap {
            self.outcome = Outcome::Draw;
            return;
        }
        // A compare, not `% players` (a division every ply).
        let next = if s + 1 == self.rules.players as usize {
            0
        } else {
            s + 1
        };
        self.hash ^= self.keys.seat[s] ^ self.keys.seat[next];
        self.to_move = next as u8;
    }

    fn returns(&self) -> Returns {
        match self.outcome {
            Outcome::Win(m) => seats::win_returns(m, self.rules.players as usize),
            _ => [0.0; MAX_SEATS],
        }
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        self.keys.of_board(&self.board, self.to_move as usize)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        super::text::to_text(self)
    }

    fn move_to_text(&self, mv: GatewayMove) -> String {
        let mut s = String::with_capacity(10);
        self.push_move_text(mv, &mut s);
        s
    }

    /// `10C-10E`, `4G-4D+T`, `4G-4D+S` or `pass`, written in place.
    #[inline]
    fn push_move_text(&self, mv: GatewayMove, out: &mut String) {
        match mv {
            GatewayMove::Move { from, to, entry } => {
                sly::push_square_name(from as u32, out);
                out.push('-');
                sly::push_square_name(to as u32, out);
                out.push_str(["", "+T", "+S"][entry as usize]);
            }
            GatewayMove::Pass => out.push_str("pass"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<GatewayMove, GameError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(GatewayMove::Pass);
        }
        let (step, entry) = match t.split_once('+') {
            None => (t, 0),
            Some((a, e)) if e.eq_ignore_ascii_case("t") => (a, 1),
            Some((a, e)) if e.eq_ignore_ascii_case("s") => (a, 2),
            Some(_) => crate::bail!(
                "bad move {text:?}: an entry is +T (triangle) or +S (square) after the step, e.g. 4G-4D+T"
            ),
        };
        let Some((a, b)) = step.split_once('-') else {
            crate::bail!(
                "bad move {text:?}: expected from-to along a row or column (10C-10E, 4G-4D+T with an entry), or pass"
            );
        };
        let wrap = |e: GameError| GameError::new(format!("bad move {text:?}: {e}"));
        let from = sly::parse_square(a.trim()).map_err(wrap)?;
        let to = sly::parse_square(b.trim()).map_err(wrap)?;
        if from == to
            || (sly::row_of(from) != sly::row_of(to) && sly::col_of(from) != sly::col_of(to))
        {
            crate::bail!(
                "bad move {text:?}: a piece moves along its row or column to another space (G-1)"
            );
        }
        if sly::is_centre(to) {
            crate::bail!("bad move {text:?}: no piece moves onto a gateway (G-1)");
        }
        Ok(GatewayMove::Move {
            from: from as u8,
            to: to as u8,
            entry,
        })
    }
}

impl Research for GatewayState {
    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        crate::api::sly_picture(
            &crate::api::State::to_text(self),
            true,
            crate::api::numbered_piece,
        )
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole {
            colour: format!("P{}", self.rules.colours[seat] + 1),
            team: self.rules.teams.then_some(seat & 1),
            ..Default::default()
        }
    }

    fn first_mover_seat(&self) -> Option<usize> {
        Some(self.rules.first_seat as usize)
    }

    /// The reason from the rules (the step G-1, the forced leave G-2,
    /// entries G-3, G-4, the pass G-6); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    fn end_reason(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Ongoing => None,
            Outcome::Win(_) => Some("entered all"),
            Outcome::Draw => Some("ply cap"),
        }
    }
}

impl fmt::Display for GatewayState {
    /// The board as the dossier draws it (§8.1): shape letters, upper case
    /// for even seats and lower case for odd ones; then the position text
    /// and the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", seats::diagram(|sq| self.cell(sq), &self.to_text()))?;
        match self.outcome {
            Outcome::Win(m) => {
                write!(
                    f,
                    "player(s) {} won: all pieces entered",
                    seats::mask_text(m)
                )
            }
            Outcome::Draw => write!(f, "draw at the ply cap of {}", self.rules.ply_cap),
            Outcome::Ongoing => write!(f, "player {} to move", self.to_move + 1),
        }
    }
}

impl GatewayGame {
    /// The initial state (a shorthand for tests and benches).
    pub fn start(&self) -> GatewayState {
        GatewayState::start(self.rules())
    }
}
