//! The Royal Guard game state: a [`Board`], the repetition history and the
//! game's outcome (RG-8), with the [`State`] implementation.

use crate::api::Research;

use super::movegen::{self, MoveList, Sink};
use super::position::Board;
use super::text::{parse_fen, parse_uci, to_fen};
use super::{DeadRule, MoveKind, Piece, RoyalGuardMove, Rules, Side};
use crate::api::{MAX_SEATS, Returns, State, ToMove};
use crate::board::KeyHistory;
use crate::error::GameError;

/// How the game stands (RG-8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The side to move is checkmated; the other colour wins.
    Checkmate(Side),
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The position occurred `repetition` times (FIDE 9.2).
    Repetition,
    /// 100 plies without a capture or pawn move (FIDE 9.3).
    FiftyMove,
    /// Dead position by the `dead` rule (ruling RG-R4).
    DeadPosition,
}

/// A Royal Guard (or, with powers off, chess) game state.
///
/// Cheap to clone: the 80-byte [`Board`], the newest keys of the
/// repetition history inline and older ones shared (a [`KeyHistory`]: a
/// clone copies about 350 bytes and bumps at most one reference count; see
/// the module docs of [`crate::royal_guard`]).
#[derive(Clone)]
pub struct RoyalGuardState {
    pub(super) rules: Rules,
    pub(super) board: Board,
    /// Keys of the earlier positions since the last irreversible move
    /// (capture or pawn move), every one of them: repetition is exact.
    history: KeyHistory,
    outcome: Outcome,
}

impl RoyalGuardState {
    /// Parses a FEN under `rules` (no history: repetition counts start here).
    ///
    /// # Errors
    /// A malformed or impossible FEN (see the FEN notes in `royal_guard/text.rs`
    /// notes); the message names the bad field.
    pub fn from_fen(rules: Rules, fen: &str) -> Result<RoyalGuardState, GameError> {
        let board = parse_fen(fen, rules.royal_powers)?;
        let mut s = RoyalGuardState {
            rules,
            board,
            history: KeyHistory::default(),
            outcome: Outcome::Ongoing,
        };
        s.settle();
        Ok(s)
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// How the game stands.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// Whether the side to move is in check (RG-5).
    pub fn in_check(&self) -> bool {
        self.board.checkers() != 0
    }

    /// Passes the turn (a null move, for searches; see
    /// [`crate::Search::null_move`]): refused in check, at the end of the
    /// game and where the opponent would then have no move or the game
    /// would end (a stalemate, the fifty-move rule). The repetition history
    /// is cleared: no position before the pass recurs after it.
    pub fn null_move(&mut self) -> bool {
        if self.outcome != Outcome::Ongoing || self.in_check() {
            return false;
        }
        let mut b = self.board;
        b.make_null();
        let any = movegen::has_legal(&b);
        if Self::outcome_of(self.rules, &b, any, 0, |_| 0) != Outcome::Ongoing {
            return false;
        }
        self.board = b;
        self.history.clear();
        true
    }

    /// The FEN.
    pub fn fen(&self) -> String {
        to_fen(&self.board)
    }

    /// How often the current position has occurred (this one included).
    pub fn occurrences(&self) -> usize {
        1 + self.history.count(self.board.hash) as usize
    }

    /// Whether `b` is a dead position under the `dead` rule (ruling RG-R4).
    fn dead(rules: Rules, b: &Board) -> bool {
        let kings = b.by_piece[Piece::King as usize];
        let occ = b.occupied();
        match rules.dead {
            DeadRule::Off => false,
            DeadRule::KingVKing => occ == kings,
            DeadRule::Fide => {
                let minors = occ & !kings;
                let bishops = b.by_piece[Piece::Bishop as usize];
                const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;
                minors == 0
                    || (minors.count_ones() == 1
                        && minors & b.by_piece[Piece::Knight as usize] != 0)
                    || (minors == bishops && (bishops & LIGHT == 0 || bishops & !LIGHT == 0))
            }
        }
    }

    /// Finds whether there is a legal move and sets the outcome (RG-8).
    #[inline]
    fn settle(&mut self) {
        self.outcome = Self::outcome_of(
            self.rules,
            &self.board,
            movegen::has_legal(&self.board),
            self.history.len() as usize,
            |key| self.history.count(key) as usize,
        );
    }

    /// The outcome of position `b` (whose side to move has a legal move
    /// when `any` holds), whose repetition window holds `window` earlier
    /// positions, of which `earlier(key)` have the key `key` (RG-8).
    #[inline(always)]
    fn outcome_of(
        rules: Rules,
        b: &Board,
        any: bool,
        window: usize,
        earlier: impl FnOnce(u64) -> usize,
    ) -> Outcome {
        // A mate or stalemate stands even on the 100th ply (FIDE 9.3).
        if !any {
            return if b.checkers() != 0 {
                Outcome::Checkmate(b.side.other())
            } else {
                Outcome::Stalemate
            };
        }
        // A repetition needs at least 4 more plies per earlier occurrence.
        if let Some(n) = rules.repetition
            && window >= 4 * (n as usize - 1)
            && 1 + earlier(b.hash) >= n as usize
        {
            return Outcome::Repetition;
        }
        if rules.fifty_move && b.halfmove >= 100 {
            return Outcome::FiftyMove;
        }
        if Self::dead(rules, b) {
            return Outcome::DeadPosition;
        }
        Outcome::Ongoing
    }

    /// The move in standard algebraic notation (`Nf3`, `exd5`, `O-O`,
    /// `e8=Q+`, `Qh4#`); a royal forward capture reads `exe5` (§3.6).
    /// `m` must be legal here.
    pub fn san(&self, m: RoyalGuardMove) -> String {
        let b = &self.board;
        let (from, to) = (m.from(), m.to());
        let piece = b.piece_at(from).map_or(Piece::Pawn, |(_, p)| p);
        let capture = b.occupied() & (1u64 << to) != 0 || m.kind() == MoveKind::EnPassant;
        let mut s = String::new();
        if m.kind() == MoveKind::Castle {
            s += if to > from { "O-O" } else { "O-O-O" };
        } else if piece == Piece::Pawn {
            if capture {
                s.push((b'a' + (from % 8) as u8) as char);
                s.push('x');
            }
            s += &super::square_name(to);
            if let Some(p) = m.kind().promotion() {
                s.push('=');
                s.push(p.letter());
            }
        } else {
            s.push(piece.letter());
            let mut list = MoveList::default();
            movegen::generate(b, &mut list);
            let rivals: Vec<RoyalGuardMove> = list
                .as_slice()
                .iter()
                .copied()
                .filter(|o| {
                    o.to() == to
                        && o.from() != from
                        && b.piece_at(o.from()).map(|(_, p)| p) == Some(piece)
                })
                .collect();
            if !rivals.is_empty() {
                let file_unique = rivals.iter().all(|o| o.from() % 8 != from % 8);
                let rank_unique = rivals.iter().all(|o| o.from() / 8 != from / 8);
                let name = super::square_name(from);
                if file_unique {
                    s.push_str(&name[..1]);
                } else if rank_unique {
                    s.push_str(&name[1..]);
                } else {
                    s += &name;
                }
            }
            if capture {
                s.push('x');
            }
            s += &super::square_name(to);
        }
        let mut after = *b;
        after.make(m);
        if after.checkers() != 0 {
            s.push(if movegen::count(&after) == 0 {
                '#'
            } else {
                '+'
            });
        }
        s
    }
}

/// `Vec<Move>` as a move sink (for [`State::legal_moves`]).
struct VecSink<'a>(&'a mut Vec<RoyalGuardMove>);

impl Sink for VecSink<'_> {
    #[inline(always)]
    fn piece(&mut self, from: usize, mut to: u64) {
        while to != 0 {
            let t = to.trailing_zeros() as usize;
            self.0.push(RoyalGuardMove::new(from, t, MoveKind::Normal));
            to &= to - 1;
        }
    }
    #[inline(always)]
    fn pawns(&mut self, mut to: u64, delta: i32) {
        while to != 0 {
            let t = to.trailing_zeros() as usize;
            let f = (t as i32 - delta) as usize;
            if !(8..56).contains(&t) {
                for k in [
                    MoveKind::PromoQueen,
                    MoveKind::PromoRook,
                    MoveKind::PromoBishop,
                    MoveKind::PromoKnight,
                ] {
                    self.0.push(RoyalGuardMove::new(f, t, k));
                }
            } else {
                self.0.push(RoyalGuardMove::new(f, t, MoveKind::Normal));
            }
            to &= to - 1;
        }
    }
    #[inline(always)]
    fn doubles(&mut self, mut to: u64, delta: i32) {
        while to != 0 {
            let t = to.trailing_zeros() as usize;
            self.0.push(RoyalGuardMove::new(
                (t as i32 - delta) as usize,
                t,
                MoveKind::DoublePush,
            ));
            to &= to - 1;
        }
    }
    #[inline(always)]
    fn one(&mut self, m: RoyalGuardMove) {
        self.0.push(m);
    }
}

impl State for RoyalGuardState {
    type Move = RoyalGuardMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.outcome == Outcome::Ongoing {
            ToMove::Seat(self.board.side as usize)
        } else {
            ToMove::Terminal
        }
    }

    fn legal_moves(&self, out: &mut Vec<RoyalGuardMove>) {
        out.clear();
        if self.outcome == Outcome::Ongoing {
            movegen::generate(&self.board, &mut VecSink(out));
        }
    }

    /// The generator's bulk count (the end test of `apply` only asks
    /// whether there is a move); 0 at the end.
    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.outcome == Outcome::Ongoing {
            movegen::count(&self.board)
        } else {
            0
        }
    }

    /// Copy-make on the 80-byte board and count, with the end test of
    /// `apply` on the history `apply` would leave (none of it is cloned).
    fn perft_after(&self, mv: RoyalGuardMove) -> u64 {
        let mut b = self.board;
        b.make(mv);
        let legal = movegen::count(&b);
        let outcome = if b.halfmove == 0 {
            Self::outcome_of(self.rules, &b, legal > 0, 0, |_| 0)
        } else {
            // The window gains the position left, `self.board.hash`.
            let prev = self.board.hash;
            Self::outcome_of(
                self.rules,
                &b,
                legal > 0,
                self.history.len() as usize + 1,
                |key| self.history.count(key) as usize + usize::from(prev == key),
            )
        };
        if outcome == Outcome::Ongoing {
            legal as u64
        } else {
            0
        }
    }

    fn apply(&mut self, mv: RoyalGuardMove) {
        debug_assert!(
            {
                let mut v = Vec::new();
                self.legal_moves(&mut v);
                v.contains(&mv)
            },
            "illegal move {mv:?} in {}",
            self.fen()
        );
        let prev = self.board.hash;
        self.board.make(mv);
        if self.board.halfmove == 0 {
            // A capture or pawn move: no earlier position can recur.
            self.history.clear();
        } else {
            self.history.push(prev);
        }
        self.settle();
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Outcome::Checkmate(w) = self.outcome {
            r[w as usize] = 1.0;
            r[w.other() as usize] = -1.0;
        }
        r
    }

    fn zobrist(&self) -> u64 {
        self.board.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        self.board.hash_from_scratch()
    }

    fn ply(&self) -> u32 {
        2 * (self.board.fullmove as u32 - 1) + self.board.side as u32
    }

    fn to_text(&self) -> String {
        self.fen()
    }

    fn move_to_text(&self, mv: RoyalGuardMove) -> String {
        mv.uci()
    }

    fn parse_move(&self, text: &str) -> Result<RoyalGuardMove, GameError> {
        parse_uci(&self.board, text)
    }
}

impl Research for RoyalGuardState {
    /// The reason from the rules (the piece's movement RG-1, royal powers
    /// RG-3/RG-4, castling RG-6, a King left in check RG-5...); see
    /// `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    /// `checkmate`, `stalemate`, `repetition`, `fifty-move rule`, `dead position` (RG-8).
    fn end_reason(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Ongoing => None,
            Outcome::Checkmate(_) => Some("checkmate"),
            Outcome::Stalemate => Some("stalemate"),
            Outcome::Repetition => Some("repetition"),
            Outcome::FiftyMove => Some("fifty-move rule"),
            Outcome::DeadPosition => Some("dead position"),
        }
    }

    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        use crate::api::{board_field, cased_piece, chequered, square_picture};
        let p = square_picture(
            board_field(&crate::api::State::to_text(self)),
            false,
            cased_piece,
            chequered,
        )?;
        Some(p)
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole::colour(["white", "black"].get(seat).copied().unwrap_or(""))
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}
