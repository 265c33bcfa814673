//! The Empire position, its moves and the [`State`]/[`Research`] impls.

use std::fmt;

use rand::Rng;

use super::{CORONATION, EmpireGame, KIND_LETTERS, Kind, Rules, THRONES, keys};
use crate::api::{MAX_SEATS, Research, Returns, State, ToMove};
use crate::board::sly::seats::{self, PieceKeys};
use crate::board::sly::{self, Lines};
use crate::board::{B192, Bits};
use crate::error::GameError;

/// An Empire move: one piece along its row or column to an empty space or
/// onto an enemy at its exact capture distance (E-1, E-2), or a pass
/// (E-6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EmpireMove {
    /// The piece on `from` goes to `to` (square indices `r * 12 + c`,
    /// [`sly::square`]); text `1A-1E`, or `1Ax3A` when it captures.
    Move {
        /// The square the piece leaves.
        from: u8,
        /// The square it lands on.
        to: u8,
    },
    /// No move exists (E-6); text `pass`.
    Pass,
}

/// How the game ended or that it goes on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Outcome {
    Ongoing,
    /// The winning seats (a bit mask: one seat or a team) and why.
    Win(u8, Reason),
    /// The ply cap (E-6).
    Draw,
}

/// Why a side won (E-3, E-4, E-5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Reason {
    /// Four thrones (three with 3–4 players each for himself).
    Thrones,
    /// Coronation.
    Coronation,
    /// An enemy commander captured.
    Regicide,
}

impl Reason {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Reason::Thrones => "thrones",
            Reason::Coronation => "coronation",
            Reason::Regicide => "regicide",
        }
    }
}

/// An Empire position: a mailbox, the row and column occupancy words, each
/// seat's pieces as a bit set, the live seats, the seat to move, the
/// outcome. `Copy`, no heap.
#[derive(Clone, Copy)]
pub struct EmpireState {
    pub(crate) keys: &'static PieceKeys,
    pub(crate) rules: Rules,
    /// 0 empty, else `1 + 3 * seat + kind` ([`Kind`] order C, H, A).
    pub(crate) board: [u8; 144],
    pub(crate) lines: Lines,
    /// Each seat's own row and column words (the pieces it moves now):
    /// the friendly pieces a capture may not land on (E-2).
    pub(crate) seat_lines: [Lines; MAX_SEATS],
    pub(crate) pieces: [B192; MAX_SEATS],
    /// Seats still in the game (bit per seat), E-4.
    pub(crate) alive: u8,
    pub(crate) to_move: u8,
    pub(crate) outcome: Outcome,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
}

impl PartialEq for EmpireState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.board == o.board
            && self.to_move == o.to_move
            && self.outcome == o.outcome
            && self.ply == o.ply
            && self.alive == o.alive
    }
}

impl fmt::Debug for EmpireState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EmpireState({})", self.to_text())
    }
}

/// The capture distances of a kind (E-2): commander 2 or 5, horseman 3,
/// archer 4. Zero marks an unused slot.
#[inline(always)]
pub(crate) const fn distances(kind: u8) -> [u32; 2] {
    match kind {
        0 => [2, 5],
        1 => [3, 0],
        _ => [4, 0],
    }
}

impl EmpireState {
    /// The set-up of `game` (E-SET-1…E-SET-4).
    pub(crate) fn start(game: &EmpireGame) -> EmpireState {
        let rules = game.rules();
        let mut s = EmpireState::empty(rules);
        for seat in 0..rules.players as usize {
            for (sq, kind) in game.army(seat) {
                s.put(sq, seat, kind as u8);
            }
        }
        s.alive = (1u8 << rules.players) - 1;
        s.to_move = rules.first_seat;
        s.hash = s.zobrist_from_scratch();
        s
    }

    /// No pieces, seat 0 to move.
    pub(crate) fn empty(rules: Rules) -> EmpireState {
        EmpireState {
            keys: keys(),
            rules,
            board: [0; 144],
            lines: Lines::default(),
            seat_lines: [Lines::default(); MAX_SEATS],
            pieces: [B192::ZERO; MAX_SEATS],
            alive: 0,
            to_move: 0,
            outcome: Outcome::Ongoing,
            ply: 0,
            hash: 0,
        }
    }

    /// Puts a piece (no hash update).
    pub(crate) fn put(&mut self, sq: u32, seat: usize, kind: u8) {
        self.board[sq as usize] = 1 + 3 * seat as u8 + kind;
        self.lines.toggle(sq);
        self.seat_lines[seat].toggle(sq);
        self.pieces[seat] |= B192::bit(sq);
    }

    /// The rules of this position's variant.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The piece on `sq`: `(seat, kind)`.
    #[inline(always)]
    pub fn piece(&self, sq: u32) -> Option<(usize, Kind)> {
        let v = self.board[sq as usize];
        (v != 0).then(|| {
            let k = match (v - 1) % 3 {
                0 => Kind::Commander,
                1 => Kind::Horseman,
                _ => Kind::Archer,
            };
            ((v as usize - 1) / 3, k)
        })
    }

    /// The pieces `seat` moves now (its own and any absorbed, E-4).
    pub fn pieces(&self, seat: usize) -> B192 {
        self.pieces[seat]
    }

    /// Whether `seat` is still in the game (not eliminated, E-4).
    pub fn is_alive(&self, seat: usize) -> bool {
        self.alive >> seat & 1 == 1
    }

    /// The winning seats once the game is won (one seat, or both partners).
    pub fn winners(&self) -> Option<Vec<usize>> {
        match self.outcome {
            Outcome::Win(m, _) => Some(seats::of_mask(m)),
            _ => None,
        }
    }

    /// The seats on `seat`'s side: itself, and in teams its partner.
    #[inline(always)]
    pub(crate) fn side_mask(&self, seat: usize) -> u8 {
        seats::side_mask(self.rules.teams, seat)
    }

    /// Whether `other`'s pieces are enemies of `seat` (E-2, E-5).
    #[inline(always)]
    pub(crate) fn is_enemy(&self, seat: usize, other: usize) -> bool {
        self.side_mask(seat) >> other & 1 == 0
    }

    /// Whether `seat` may capture a piece coded `v` (E-2; ruling QE5 and
    /// its `partner_capture` alternative, which spares the commander).
    #[inline(always)]
    pub(crate) fn can_capture(&self, seat: usize, v: u8) -> bool {
        let owner = (v as usize - 1) / 3;
        self.is_enemy(seat, owner)
            || (self.rules.partner_capture && owner != seat && !(v - 1).is_multiple_of(3))
    }

    /// Whether a piece of `seat` on `sq` could be captured by an enemy next
    /// move (E-3(b)): an enemy horseman 3, archer 4 or commander 2 or 5
    /// spaces away in its row or column; movement ignores blocking.
    pub(crate) fn attacked(&self, seat: usize, sq: u32) -> bool {
        let mut hit = false;
        for d in 2..=5u32 {
            sly::for_each_at_distance(sq, d, |t| {
                let v = self.board[t as usize];
                if v != 0 && self.is_enemy(seat, (v as usize - 1) / 3) {
                    let k = (v - 1) % 3;
                    if distances(k).contains(&d) {
                        hit = true;
                    }
                }
            });
        }
        hit
    }

    /// The square of `seat`'s own commander, if it has one.
    pub(crate) fn commander_of(&self, seat: usize) -> Option<u32> {
        let code = 1 + 3 * seat as u8;
        self.pieces[seat]
            .iter()
            .find(|&sq| self.board[sq as usize] == code)
    }

    #[inline(always)]
    fn toggle(&mut self, sq: u32, v: u8) {
        let seat = (v as usize - 1) / 3;
        let kind = (v as usize - 1) % 3;
        self.lines.toggle(sq);
        self.seat_lines[seat].toggle(sq);
        self.pieces[seat] ^= B192::bit(sq);
        self.hash ^= self.keys.piece[seat][kind][sq as usize];
    }

    /// The next live seat clockwise after `s` (E-4: eliminated seats are
    /// skipped).
    #[inline(always)]
    fn next_seat(&self, s: usize) -> usize {
        let n = self.rules.players as usize;
        // A compare, not `% n`: a division a ply showed in the profile.
        let step = |k: usize| if k + 1 == n { 0 } else { k + 1 };
        let mut k = step(s);
        while self.alive >> k & 1 == 0 {
            k = step(k);
        }
        k
    }

    /// How many thrones `mask`'s seats hold (E-T1).
    #[inline(always)]
    pub(crate) fn thrones_held(&self, mask: u8) -> u32 {
        THRONES
            .iter()
            .filter(|&&t| {
                let v = self.board[t as usize];
                v != 0 && mask >> ((v - 1) / 3) & 1 == 1
            })
            .count() as u32
    }

    /// The thrones a side needs: four, or three with 3–4 players each for
    /// himself (E-3(a), E-4(a), E-5(a)).
    #[inline(always)]
    pub(crate) fn thrones_needed(&self) -> u32 {
        if self.rules.players > 2 && !self.rules.teams {
            3
        } else {
            4
        }
    }

    /// Whether `seat`'s commander stands on its coronation centre and no
    /// enemy could capture it (E-3(b), E-T2).
    fn crowned(&self, seat: usize) -> bool {
        let c = CORONATION[self.rules.corners[seat] as usize];
        self.board[c as usize] == 1 + 3 * seat as u8 && !self.attacked(seat, c)
    }

    fn finish(&mut self, outcome: Outcome) {
        self.outcome = outcome;
        self.hash ^= self.keys.flag;
    }

    fn legal_check(&self, mv: EmpireMove) -> bool {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v.contains(&mv)
    }

    /// The one-letter-and-digit name of the piece on `sq` (`C1`, `H3`).
    pub(crate) fn cell(&self, sq: u32) -> Option<(char, usize)> {
        let v = self.board[sq as usize];
        (v != 0).then(|| {
            (
                KIND_LETTERS.as_bytes()[(v as usize - 1) % 3] as char,
                (v as usize - 1) / 3,
            )
        })
    }
}

impl State for EmpireState {
    type Move = EmpireMove;

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

    fn legal_moves(&self, out: &mut Vec<EmpireMove>) {
        out.clear();
        if self.outcome != Outcome::Ongoing {
            return;
        }
        self.for_each_move(self.to_move as usize, |from, to| {
            out.push(EmpireMove::Move { from, to })
        });
        if out.is_empty() {
            out.push(EmpireMove::Pass);
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.outcome != Outcome::Ongoing {
            return 0;
        }
        self.count_moves(self.to_move as usize).max(1)
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<EmpireMove>,
    ) -> Option<EmpireMove> {
        if self.outcome != Outcome::Ongoing {
            return None;
        }
        Some(match self.sample_move(self.to_move as usize, rng) {
            Some((from, to)) => EmpireMove::Move { from, to },
            None => EmpireMove::Pass,
        })
    }

    fn apply(&mut self, mv: EmpireMove) {
        debug_assert!(self.legal_check(mv), "illegal {mv:?} in {}", self.to_text());
        self.ply += 1;
        let s = self.to_move as usize;
        if let EmpireMove::Move { from, to } = mv {
            let (from, to) = (from as u32, to as u32);
            let v = self.board[from as usize];
            let victim = self.board[to as usize];
            if victim != 0 {
                self.toggle(to, victim);
            }
            self.toggle(from, v);
            self.board[from as usize] = 0;
            self.board[to as usize] = v;
            self.toggle(to, v);
            let side = self.side_mask(s);
            // E-3(c), E-4(c), E-5(c): a captured commander.
            if victim != 0 && (victim - 1).is_multiple_of(3) {
                let w = (victim as usize - 1) / 3;
                if self.rules.players == 2 || self.rules.teams || self.alive.count_ones() == 2 {
                    self.finish(Outcome::Win(side, Reason::Regicide));
                    return;
                }
                // E-4: elimination; the captured army joins the capturer's.
                self.alive &= !(1 << w);
                for sq in self.pieces[w].iter() {
                    let old = self.board[sq as usize];
                    let new = old + 3 * s as u8 - 3 * w as u8;
                    self.toggle(sq, old);
                    self.board[sq as usize] = new;
                    self.toggle(sq, new);
                }
            }
            // E-3(a), E-4(a), E-5(a): thrones.
            if self.thrones_held(side) >= self.thrones_needed() {
                self.finish(Outcome::Win(side, Reason::Thrones));
                return;
            }
            // E-3(b), E-4(b), E-5(b): coronation, on entry (QE3) or standing.
            let crowned = if self.rules.coronation_on_entry {
                v == 1 + 3 * s as u8
                    && to == CORONATION[self.rules.corners[s] as usize]
                    && self.crowned(s)
            } else {
                (0..self.rules.players as usize).any(|k| side >> k & 1 == 1 && self.crowned(k))
            };
            if crowned {
                self.finish(Outcome::Win(side, Reason::Coronation));
                return;
            }
        }
        if self.ply >= self.rules.ply_cap {
            self.finish(Outcome::Draw);
            return;
        }
        let next = self.next_seat(s);
        self.hash ^= self.keys.seat[s] ^ self.keys.seat[next];
        self.to_move = next as u8;
    }

    fn returns(&self) -> Returns {
        match self.outcome {
            Outcome::Win(m, _) => seats::win_returns(m, self.rules.players as usize),
            _ => [0.0; MAX_SEATS],
        }
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut h = self.keys.of_board(&self.board, self.to_move as usize);
        if self.outcome != Outcome::Ongoing {
            h ^= self.keys.flag;
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        super::text::to_text(self)
    }

    fn move_to_text(&self, mv: EmpireMove) -> String {
        let mut s = String::with_capacity(8);
        self.push_move_text(mv, &mut s);
        s
    }

    /// `1A-1E`, `1Ax3A` or `pass`, written in place.
    #[inline]
    fn push_move_text(&self, mv: EmpireMove, out: &mut String) {
        match mv {
            EmpireMove::Move { from, to } => {
                sly::push_square_name(from as u32, out);
                out.push(if self.board[to as usize] != 0 {
                    'x'
                } else {
                    '-'
                });
                sly::push_square_name(to as u32, out);
            }
            EmpireMove::Pass => out.push_str("pass"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<EmpireMove, GameError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(EmpireMove::Pass);
        }
        let Some(i) = t.find(['-', 'x', 'X']) else {
            crate::bail!(
                "bad move {text:?}: expected from-to along a row or column (1A-1E, 1Ax3A for a capture), or pass"
            );
        };
        let wrap = |e: GameError| GameError::new(format!("bad move {text:?}: {e}"));
        let from = sly::parse_square(t[..i].trim()).map_err(wrap)?;
        let to = sly::parse_square(t[i + 1..].trim()).map_err(wrap)?;
        if from == to
            || (sly::row_of(from) != sly::row_of(to) && sly::col_of(from) != sly::col_of(to))
        {
            crate::bail!(
                "bad move {text:?}: a piece moves along its row or column to another space (E-1)"
            );
        }
        let capture = t.as_bytes()[i] != b'-';
        if capture != (self.board[to as usize] != 0) {
            crate::bail!(
                "bad move {text:?}: a move onto an empty space is written with -, a capture with x (E-1, E-2)"
            );
        }
        Ok(EmpireMove::Move {
            from: from as u8,
            to: to as u8,
        })
    }
}

impl Research for EmpireState {
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
            colour: sly::CORNER_NAMES[self.rules.corners[seat] as usize].to_string(),
            team: self.rules.teams.then_some(seat & 1),
            ..Default::default()
        }
    }

    fn first_mover_seat(&self) -> Option<usize> {
        Some(self.rules.first_seat as usize)
    }

    /// The reason from the rules (friendly pieces and distances E-2,
    /// partners QE5, the pass E-6); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    fn end_reason(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Ongoing => None,
            Outcome::Win(_, r) => Some(r.word()),
            Outcome::Draw => Some("ply cap"),
        }
    }
}

impl fmt::Display for EmpireState {
    /// The board as the dossier draws it (§7.1): kind letter per piece (the
    /// seat is in the position text), then the status.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", seats::diagram(|sq| self.cell(sq), &self.to_text()))?;
        match self.outcome {
            Outcome::Win(m, r) => {
                write!(f, "seat(s) {} won by {}", seats::mask_text(m), r.word())
            }
            Outcome::Draw => write!(f, "draw at the ply cap of {}", self.rules.ply_cap),
            Outcome::Ongoing => write!(f, "seat {} to move", self.to_move + 1),
        }
    }
}
