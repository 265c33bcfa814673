//! The Andalusia position and its [`State`] implementation: apply, check,
//! the endings of §2.6, the repetition history and the Zobrist key.

use crate::api::Research;

use rand::Rng;

use super::movegen::{self, BOARD, Counter, Lister, Probe};
use super::{AndalusiaMove, Geometry, Piece, Rules, Side, StalemateResult};
use crate::api::{MAX_SEATS, Returns, State, ToMove};
use crate::board::KeyHistory;
use crate::error::GameError;

/// How a finished game ended (§2.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is in check with no legal move and loses (A-E1).
    Checkmate,
    /// The side to move has no legal move and is not in check: it loses
    /// (ruling A-R2, `stalemate=loss`) or the game is drawn (`draw`).
    Stalemate,
    /// The position occurred `repetitions` times (ruling A-R3 i): draw.
    Repetition,
    /// `quiet_plies` plies without capture or soldier move (A-R3 ii): draw.
    QuietPlies,
    /// The ply cap (A-R3 iii): draw.
    PlyCap,
}

/// An Andalusia position: the pieces, the side to move, the counters of the
/// draw rules, the repetition history, the ply and the Zobrist key.
///
/// Cheap to clone: five bit sets, a few counters and the newest 16 keys of
/// the history (older keys are shared).
#[derive(Clone)]
pub struct AndalusiaState {
    pub(super) geo: &'static Geometry,
    pub(super) rules: Rules,
    /// Each side's pieces, King included (index [`Side::index`]).
    pub(super) colour: [u128; 2],
    /// The Chariots of both sides.
    pub(super) chariots: u128,
    /// The Soldiers of both sides.
    pub(super) soldiers: u128,
    /// Each side's King point.
    pub(super) kings: [u8; 2],
    pub(super) side: Side,
    pub(super) ending: Option<Outcome>,
    /// Plies since the last capture or Soldier move (A-R3 ii).
    pub(super) quiet: u32,
    pub(super) ply: u32,
    pub(super) hash: u64,
    history: KeyHistory,
}

impl std::fmt::Debug for AndalusiaState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AndalusiaState({})", self.to_text())
    }
}

impl AndalusiaState {
    /// An empty board with both Kings on `a1` (not a position: the parser
    /// and the set-up fill it in), White to move.
    pub(super) fn empty(rules: Rules, geo: &'static Geometry) -> AndalusiaState {
        AndalusiaState {
            geo,
            rules,
            colour: [0; 2],
            chariots: 0,
            soldiers: 0,
            kings: [0; 2],
            side: Side::White,
            ending: None,
            quiet: 0,
            ply: 0,
            hash: 0,
            history: KeyHistory::default(),
        }
    }

    /// The set-up of A-S2, White to move (A-R1).
    pub(super) fn initial(rules: Rules, geo: &'static Geometry) -> AndalusiaState {
        let mut s = AndalusiaState::empty(rules, geo);
        // Rank 1: chariots b1 c1 d1 f1 g1 h1, King e1; rank 2: soldiers.
        let white_chariots: u128 = 0b0_1110_1110;
        let white_soldiers: u128 = 0x1FF << 9;
        s.chariots = white_chariots | (white_chariots << 72);
        s.soldiers = white_soldiers | (0x1FF << 63);
        s.kings = [4, 76];
        s.colour = [
            white_chariots | white_soldiers | (1 << 4),
            (white_chariots << 72) | (0x1FF << 63) | (1 << 76),
        ];
        s.hash = s.zobrist_from_scratch();
        s
    }

    /// The rulings of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move (also at the end: the side that would move next).
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// All pieces of `side`, its King included (bit `9 · rank + file`).
    #[inline(always)]
    pub fn pieces(&self, side: Side) -> u128 {
        self.colour[side.index()]
    }

    /// The points of `side`'s pieces of kind `piece`.
    pub fn pieces_of(&self, side: Side, piece: Piece) -> u128 {
        match piece {
            Piece::King => 1u128 << self.kings[side.index()],
            Piece::Chariot => self.chariots & self.colour[side.index()],
            Piece::Soldier => self.soldiers & self.colour[side.index()],
        }
    }

    /// `side`'s King point.
    #[inline(always)]
    pub fn king(&self, side: Side) -> u32 {
        self.kings[side.index()] as u32
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: u32) -> Option<(Side, Piece)> {
        let b = 1u128 << sq;
        let side = if self.colour[0] & b != 0 {
            Side::White
        } else if self.colour[1] & b != 0 {
            Side::Black
        } else {
            return None;
        };
        let piece = if self.kings[side.index()] as u32 == sq {
            Piece::King
        } else if self.chariots & b != 0 {
            Piece::Chariot
        } else {
            Piece::Soldier
        };
        Some((side, piece))
    }

    /// Plies since the last capture or Soldier move (A-R3 ii).
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<Outcome> {
        self.ending
    }

    /// The winner of a finished game, `None` while it runs or after a draw.
    pub fn winner(&self) -> Option<Side> {
        match self.ending? {
            Outcome::Checkmate => Some(self.side.other()),
            Outcome::Stalemate if self.rules.stalemate == StalemateResult::Loss => {
                Some(self.side.other())
            }
            _ => None,
        }
    }

    /// Whether `side`'s King is attacked (A-K1): by an enemy Soldier that
    /// steps onto it, or by the first piece on a line from it being an
    /// enemy Chariot or the enemy King.
    pub fn attacked_king(&self, side: Side) -> bool {
        let me = side.index();
        let op = 1 - me;
        let occ = self.colour[0] | self.colour[1];
        let sliders = (self.chariots & self.colour[op]) | (1u128 << self.kings[op]);
        movegen::attacked(
            self.geo,
            op,
            self.kings[me] as u32,
            occ,
            self.soldiers & self.colour[op],
            sliders,
        )
    }

    /// Whether the side to move is in check (A-K3: attacked by a Soldier or
    /// a Chariot; the enemy King never gives check).
    pub fn in_check(&self) -> bool {
        self.attacked_king(self.side)
    }

    /// Passes the turn (a null move, for searches; see
    /// [`crate::Search::null_move`]): refused in check, at the end of the
    /// game and where the pass would end it (the opponent without a move,
    /// the quiet-move rule, the ply cap). The repetition history is
    /// cleared: no position before the pass recurs after it.
    pub fn null_move(&mut self) -> bool {
        if self.ending.is_some()
            || self.in_check()
            || (self.rules.quiet_plies > 0 && self.quiet + 1 >= self.rules.quiet_plies)
            || self.ply + 1 >= self.rules.ply_cap
        {
            return false;
        }
        let (side, hash) = (self.side, self.hash);
        self.side = side.other();
        self.hash ^= self.geo.z_black_to_move;
        if !self.has_move() || self.in_check() {
            (self.side, self.hash) = (side, hash);
            return false;
        }
        self.ply += 1;
        self.quiet += 1;
        self.history.clear();
        true
    }

    /// Whether the Kings face each other along a line with nothing between
    /// (A-K1 c); never true in a legal position.
    pub fn kings_facing(&self) -> bool {
        let (a, b) = (self.kings[0] as u32, self.kings[1] as u32);
        self.geo.graph.dir_between(a, b).is_some()
            && self.geo.graph.between(a, b) & (self.colour[0] | self.colour[1]) == 0
    }

    #[inline(always)]
    fn generate<K: movegen::Sink>(&self, sink: &mut K) {
        match self.side {
            Side::White => movegen::generate::<K, 0>(self, sink),
            Side::Black => movegen::generate::<K, 1>(self, sink),
        }
    }

    /// Whether the side to move has a legal move (ongoing or not).
    #[inline]
    fn has_move(&self) -> bool {
        let mut p = Probe(false);
        self.generate(&mut p);
        p.0
    }

    /// Sets the ending from the position, the counters and the history, in
    /// the order of the module docs: no legal move, repetition, quiet plies,
    /// ply cap.
    pub(super) fn settle(&mut self) {
        self.ending = if !self.has_move() {
            Some(if self.in_check() {
                Outcome::Checkmate
            } else {
                Outcome::Stalemate
            })
        } else {
            self.draw_ending()
        };
    }

    /// The draw that ends the game here, if any (A-R3): repetition, quiet
    /// plies, ply cap, in that order.
    #[inline(always)]
    fn draw_ending(&self) -> Option<Outcome> {
        if self.rules.repetitions >= 2
            && self.history.len() >= 4 * (self.rules.repetitions - 1)
            && self.history.count(self.hash) + 1 >= self.rules.repetitions
        {
            Some(Outcome::Repetition)
        } else if self.rules.quiet_plies > 0 && self.quiet >= self.rules.quiet_plies {
            Some(Outcome::QuietPlies)
        } else if self.ply >= self.rules.ply_cap {
            Some(Outcome::PlyCap)
        } else {
            None
        }
    }

    /// Perft (leaf nodes `depth` plies below) with bulk counting, equal to
    /// the generic [`crate::perft`] and faster: a child is not probed for a
    /// legal move when it is made (a position without one lists none, which
    /// counts the same), only for the draw rules. The bench uses both.
    pub fn perft(&self, depth: u32) -> u64 {
        if self.ending.is_some() {
            return (depth == 0) as u64;
        }
        let mut bufs: Vec<Vec<AndalusiaMove>> =
            (0..depth).map(|_| Vec::with_capacity(128)).collect();
        self.perft_rec(depth, &mut bufs)
    }

    fn perft_rec(&self, depth: u32, bufs: &mut [Vec<AndalusiaMove>]) -> u64 {
        if depth <= 1 {
            if depth == 0 {
                return 1;
            }
            let mut c = Counter(0);
            self.generate(&mut c);
            return c.0 as u64;
        }
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
        buf.clear();
        let me = self.side.index();
        let mut l = Lister {
            out: buf,
            opp: self.colour[1 - me],
            promo: self.geo.promo_rank[me],
        };
        self.generate(&mut l);
        let mut total = 0;
        for &m in buf.iter() {
            let mut child = self.clone();
            child.play(m);
            if child.draw_ending().is_none() {
                total += child.perft_rec(depth - 1, rest);
            }
        }
        total
    }

    /// Checks `mv` is legal here.
    ///
    /// # Errors
    /// A move after the end of the game, or one not among the legal moves.
    pub fn check_legal(&self, mv: AndalusiaMove) -> Result<(), GameError> {
        if self.ending.is_some() {
            crate::bail!("move {:?}: the game is already over", self.move_to_text(mv));
        }
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        if !v.contains(&mv) {
            crate::bail!(
                "move {:?} is not legal in this position",
                self.move_to_text(mv)
            );
        }
        Ok(())
    }

    /// Makes `mv` (a legal move) without settling the ending: pieces,
    /// promotion (A-M5), counters, history, side to move, key.
    #[inline(always)]
    pub(super) fn play(&mut self, mv: AndalusiaMove) {
        let me = self.side;
        let op = me.other();
        let (from, to) = (mv.from(), mv.to());
        let to_bit = 1u128 << to;
        let before = self.hash;
        let capture = self.colour[op.index()] & to_bit != 0;
        if capture {
            // Kings are never captured (A-K3).
            let taken = if self.chariots & to_bit != 0 {
                Piece::Chariot
            } else {
                Piece::Soldier
            };
            self.toggle(op, taken, to);
        }
        let from_bit = 1u128 << from;
        let piece = if self.kings[me.index()] as u32 == from {
            self.kings[me.index()] = to as u8;
            Piece::King
        } else if self.chariots & from_bit != 0 {
            Piece::Chariot
        } else {
            Piece::Soldier
        };
        self.toggle(me, piece, from);
        // A-M5: a Soldier ending its move on its promotion rank becomes a
        // Chariot.
        let lands_as = if piece == Piece::Soldier && self.geo.promo_rank[me.index()] & to_bit != 0 {
            Piece::Chariot
        } else {
            piece
        };
        self.toggle(me, lands_as, to);
        let soldier = piece == Piece::Soldier;
        self.quiet = if capture || soldier {
            0
        } else {
            self.quiet + 1
        };
        // Irreversible: a capture, or a Soldier move that changes rank.
        if capture || (soldier && from / 9 != to / 9) {
            self.history.clear();
        } else {
            self.history.push(before);
        }
        self.side = op;
        self.hash ^= self.geo.z_black_to_move;
        self.ply += 1;
    }

    /// Removes `side`'s piece `piece` from `sq` or puts it there, keeping
    /// the key.
    #[inline(always)]
    fn toggle(&mut self, side: Side, piece: Piece, sq: u32) {
        let b = 1u128 << sq;
        self.colour[side.index()] ^= b;
        match piece {
            Piece::King => {}
            Piece::Chariot => self.chariots ^= b,
            Piece::Soldier => self.soldiers ^= b,
        }
        self.hash ^= self.geo.z(side, piece, sq);
    }
}

impl State for AndalusiaState {
    type Move = AndalusiaMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline(always)]
    fn to_move(&self) -> ToMove {
        if self.ending.is_none() {
            ToMove::Seat(self.side.index())
        } else {
            ToMove::Terminal
        }
    }

    fn legal_moves(&self, out: &mut Vec<AndalusiaMove>) {
        out.clear();
        if self.ending.is_some() {
            return;
        }
        let me = self.side.index();
        let mut l = Lister {
            out,
            opp: self.colour[1 - me],
            promo: self.geo.promo_rank[me],
        };
        self.generate(&mut l);
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.ending.is_some() {
            return 0;
        }
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0 as usize
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<AndalusiaMove>,
    ) -> Option<AndalusiaMove> {
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }

    /// As [`AndalusiaState::perft`] makes a child: no probe for a legal
    /// move (a position without one counts 0 either way), only the draw
    /// rules.
    #[inline]
    fn perft_after(&self, mv: AndalusiaMove) -> u64 {
        let mut child = self.clone();
        child.play(mv);
        if child.draw_ending().is_some() {
            return 0;
        }
        let mut c = Counter(0);
        child.generate(&mut c);
        c.0 as u64
    }

    #[inline]
    fn apply(&mut self, mv: AndalusiaMove) {
        debug_assert!(
            self.check_legal(mv).is_ok(),
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        self.play(mv);
        self.settle();
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Some(w) = self.winner() {
            r[w.index()] = 1.0;
            r[w.other().index()] = -1.0;
        }
        r
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut h = 0;
        let occ = (self.colour[0] | self.colour[1]) & BOARD;
        let mut o = occ;
        while o != 0 {
            let sq = o.trailing_zeros();
            o &= o - 1;
            if let Some((side, piece)) = self.piece_at(sq) {
                h ^= self.geo.z(side, piece, sq);
            }
        }
        if self.side == Side::Black {
            h ^= self.geo.z_black_to_move;
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        super::text::position_text(self)
    }

    fn move_to_text(&self, mv: AndalusiaMove) -> String {
        super::text::move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<AndalusiaMove, GameError> {
        super::text::parse_move(self, text)
    }
}

impl Research for AndalusiaState {
    /// The reason from the rules (the King's one step A-M1, a blocked
    /// Chariot A-M2, the Soldier's steps A-M3/A-M4, a King left attacked or
    /// facing A-K1...); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }

    /// `checkmate`, `stalemate`, `repetition`, `quiet-move rule`, `ply cap` (§2.6).
    fn end_reason(&self) -> Option<&'static str> {
        Some(match self.ending? {
            Outcome::Checkmate => "checkmate",
            Outcome::Stalemate => "stalemate",
            Outcome::Repetition => "repetition",
            Outcome::QuietPlies => "quiet-move rule",
            Outcome::PlyCap => "ply cap",
        })
    }

    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        use crate::api::{CellKind, board_field, cased_piece, square_picture};
        let mut p = square_picture(
            board_field(&crate::api::State::to_text(self)),
            false,
            cased_piece,
            |_, _| CellKind::Light,
        )?;
        p.cell_shape = crate::api::CellShape::Point;
        p.links = crate::api::alquerque_links(9);
        Some(p)
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole::colour(["white", "black"].get(seat).copied().unwrap_or(""))
    }
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}
