//! The Blockade position and its [`State`] implementation: turns (B-1),
//! the start-of-turn escape check (B-2), apply, the ply cap (B-7) and the
//! Zobrist key.

use rand::Rng;

use super::escape::{Flood, escape_flood};
use super::{BlockadeMove, GUARDS, Rules, Side, keys};
use crate::api::{BoardShape, MAX_SEATS, Research, Returns, State, ToMove};
use crate::board::{B192, Bits, sly};
use crate::error::GameError;

/// Why a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move found an escape path at the start of his turn
    /// and won (B-2).
    Escape,
    /// The ply cap (B-7, ruling QB7): draw.
    PlyCap,
}

impl Outcome {
    /// The end reason's name in records.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Escape => "escape",
            Outcome::PlyCap => "ply cap",
        }
    }
}

/// A Blockade position: each side's guards, the side to move, the plies
/// played, the ending and the key. Kings never move (B-SET-2): their
/// squares are in the rules. Cheap to clone: three bit sets and counters.
#[derive(Clone, Copy)]
pub struct BlockadeState {
    pub(super) rules: Rules,
    /// Guards by side, `[North, South]`.
    pub(super) guards: [B192; 2],
    /// Both kings' fields (B-3, B-4), from the rules.
    pub(super) king_fields: B192,
    pub(super) side: Side,
    pub(super) ply: u32,
    pub(super) end: Option<(Outcome, Option<Side>)>,
    pub(super) hash: u64,
}

impl std::fmt::Debug for BlockadeState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlockadeState({})", self.to_text())
    }
}

impl BlockadeState {
    /// The two kings alone, seat 0's side to move (B-SET-1, B-1).
    pub(super) fn new(rules: Rules) -> BlockadeState {
        let mut s = BlockadeState {
            rules,
            guards: [B192::ZERO; 2],
            king_fields: rules.king_fields(),
            side: rules.first,
            ply: 0,
            end: None,
            hash: 0,
        };
        s.hash = s.zobrist_from_scratch();
        s.settle();
        s
    }

    /// The side to move (also when the game is over: the side whose turn it
    /// would be).
    #[inline(always)]
    pub fn side(&self) -> Side {
        self.side
    }

    /// `side`'s guards.
    #[inline(always)]
    pub fn guards(&self, side: Side) -> B192 {
        self.guards[side.index()]
    }

    /// The guards of both sides.
    #[inline(always)]
    pub fn all_guards(&self) -> B192 {
        self.guards[0] | self.guards[1]
    }

    /// The kings' squares, `[North, South]`.
    #[inline(always)]
    pub fn kings(&self) -> [u32; 2] {
        self.rules.kings
    }

    /// The empty spaces.
    #[inline(always)]
    pub fn empty(&self) -> B192 {
        let k = self.rules.kings;
        sly::FULL & !self.all_guards() & !B192::bit(k[0]) & !B192::bit(k[1])
    }

    /// The ending, if the game is over: why, and the winner.
    pub fn ending(&self) -> Option<(Outcome, Option<Side>)> {
        self.end
    }

    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether the side to move is still placing guards (B-3).
    #[inline(always)]
    pub fn placing(&self) -> bool {
        self.guards[self.side.index()].count() < GUARDS
    }

    /// The escape flood of `side`'s king in this position (B-5), run to the
    /// end (every reachable segment start) unless `stop_early`.
    pub fn flood(&self, side: Side, stop_early: bool) -> Flood {
        let k = self.rules.kings;
        escape_flood(
            side,
            k[side.index()],
            k[side.other().index()],
            self.all_guards(),
            self.rules.escape,
            stop_early,
        )
    }

    /// Whether `side`'s king has an escape path now (B-5).
    #[inline]
    pub fn escapes(&self, side: Side) -> bool {
        self.flood(side, true).escape
    }

    /// Sets the ending at the start of the side to move's turn: his escape
    /// (B-2; not at the first turn unless `first_turn=checked`, QB2), then
    /// the ply cap (B-7).
    pub(super) fn settle(&mut self) {
        self.end = if (self.ply > 0 || self.rules.first_turn_checked) && self.escapes(self.side) {
            Some((Outcome::Escape, Some(self.side)))
        } else if self.ply >= self.rules.ply_cap {
            Some((Outcome::PlyCap, None))
        } else {
            None
        };
    }

    /// Checks `mv` is legal here.
    ///
    /// # Errors
    /// A move at the end of the game or one not among the legal moves.
    pub fn check_legal(&self, mv: BlockadeMove) -> Result<(), GameError> {
        if self.end.is_some() {
            crate::bail!("move {:?}: the game is already over", self.move_to_text(mv));
        }
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        if !v.contains(&mv) {
            crate::bail!(
                "move {:?} is not legal in this position ({} must {})",
                self.move_to_text(mv),
                self.side.name(),
                if self.placing() {
                    "place a guard on an empty space outside both kings' fields, the first not on a centre (B-3)"
                } else {
                    "slide a guard through empty spaces to a space outside both kings' fields (B-4)"
                }
            );
        }
        Ok(())
    }
}

impl State for BlockadeState {
    type Move = BlockadeMove;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline(always)]
    fn to_move(&self) -> ToMove {
        if self.end.is_some() {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.rules.seat_of(self.side))
        }
    }

    fn legal_moves(&self, out: &mut Vec<BlockadeMove>) {
        out.clear();
        if self.end.is_none() {
            super::movegen::generate(self, |m| out.push(m));
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        if self.end.is_some() {
            0
        } else {
            super::movegen::count(self) as usize
        }
    }

    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _buf: &mut Vec<BlockadeMove>,
    ) -> Option<BlockadeMove> {
        if self.end.is_some() {
            return None;
        }
        let n = super::movegen::count(self);
        Some(super::movegen::nth(self, rng.random_range(0..n)))
    }

    #[inline]
    fn apply(&mut self, mv: BlockadeMove) {
        debug_assert!(
            self.check_legal(mv).is_ok(),
            "illegal move {mv:?} in {}",
            self.to_text()
        );
        let k = keys();
        let me = self.side.index();
        match mv {
            BlockadeMove::Place(sq) => {
                self.guards[me] |= B192::bit(sq as u32);
                self.hash ^= k.guard[me][sq as usize];
            }
            BlockadeMove::Slide { from, to } => {
                self.guards[me] ^= B192::bit(from as u32) | B192::bit(to as u32);
                self.hash ^= k.guard[me][from as usize] ^ k.guard[me][to as usize];
            }
            BlockadeMove::Pass => {}
        }
        self.side = self.side.other();
        self.hash ^= k.south_to_move;
        self.ply += 1;
        self.settle();
    }

    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Some((_, Some(w))) = self.end {
            r[self.rules.seat_of(w)] = 1.0;
            r[self.rules.seat_of(w.other())] = -1.0;
        }
        r
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let k = keys();
        let mut h = if self.side == Side::South {
            k.south_to_move
        } else {
            0
        };
        for side in 0..2 {
            for sq in self.guards[side].iter() {
                h ^= k.guard[side][sq as usize];
            }
        }
        h
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn to_text(&self) -> String {
        super::text::position_text(self)
    }

    fn move_to_text(&self, mv: BlockadeMove) -> String {
        super::text::move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<BlockadeMove, GameError> {
        super::text::parse_move(text)
    }
}

impl Research for BlockadeState {
    /// The board picture (see [`Research::board_picture`]).
    fn board_picture(&self) -> Option<crate::api::BoardPicture> {
        crate::api::sly_picture(
            &crate::api::State::to_text(self),
            false,
            crate::api::cased_piece,
        )
    }

    fn seat_role(&self, seat: usize) -> crate::SeatRole {
        crate::SeatRole::colour(self.rules.side_of_seat(seat).name())
    }

    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }

    fn board_shape(&self) -> Option<BoardShape> {
        Some(BoardShape::Square {
            width: 12,
            height: 12,
        })
    }

    /// The square a guard lands on, as `(column, rank)` with rank 0 the
    /// bottom row (row 12).
    fn move_cells(&self, mv: BlockadeMove) -> Vec<(i32, i32)> {
        let to = match mv {
            BlockadeMove::Place(sq) => sq,
            BlockadeMove::Slide { to, .. } => to,
            BlockadeMove::Pass => return Vec::new(),
        } as u32;
        vec![(sly::col_of(to) as i32, 11 - sly::row_of(to) as i32)]
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.end.map(|(e, _)| e.name())
    }

    /// The reason from the rules (placement B-3, slides B-4, the pass
    /// B-6); see `text::illegal_reason`.
    fn illegal_reason(&self, text: &str) -> Option<String> {
        super::text::illegal_reason(self, text)
    }
}
