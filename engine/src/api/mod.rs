//! The Game/State API every engine implements (after OpenSpiel's `State`).
//!
//! Conventions, shared by all games:
//! * **Seats** are numbered `0..num_seats()` (1 to [`MAX_SEATS`]). A seat is
//!   where an agent sits; a game may map seats to colours later (the pie rule
//!   does), and reports the mapping with [`Research::seat_role`] (its `colour`).
//! * **Returns** at the end: a win is `1.0`, a loss `-1.0`, a draw `0.0`
//!   (shared team results count for both partners). A one-seat game returns
//!   its score. Entries past `num_seats()` are `0.0`.
//! * **Chance** nodes list their outcomes with probabilities that sum to 1;
//!   an outcome is applied with [`State::apply`] like any move.
//! * **Moves, plies and turns.** A *move* is one decision of a seat (or one
//!   chance outcome); a *ply* is one applied move; a *turn* is a seat's whole
//!   go, one or more plies. The convention for compound turns:
//!   - parts a seat chooses together, with no new information and no forced
//!     step in between, are **one move** (Catapult's dagger `m1;m2`, Bagel's
//!     pair of discs, Slingshot's set-up): perft then counts whole turns, as
//!     the dossiers do;
//!   - parts that are forced or that follow a chance outcome are **a
//!     sequence of moves by the same seat** (Sniggle's compulsory
//!     continuation steps, the spinner's placements after the spin): the
//!     state knows it is mid-turn, shows it in its text and hashes it.
//!
//!   [`State::continues_turn`] tells which: a turn ends at every ply after
//!   which it is false. So a record has both `plies` and `turns`, and
//!   [`perft()`] counts plies (chance outcomes included) while
//!   [`perft_turns`] counts whole turns. Alpha-beta's depth unit is the ply.
//!
//! ## Conventions
//!
//! Every game module has the same shape and the same names, so that one game
//! read teaches the others:
//! * **Types**: `XxxGame` (the [`Game`], its parameters fixed), `XxxState`
//!   (the [`State`]), `XxxMove` (its move). How a game stands or ended is
//!   an enum `Outcome` (`Ongoing` until the end; King's Colour keeps an
//!   `End` record of winner and reason instead). The side or colour a seat
//!   plays, where a game has two, is `Side` (`Side::White`, `Side::Teal`,
//!   `Side::North`, ...). The heuristic is the free function
//!   `eval::evaluate(&XxxState) -> i32`, which the game's
//!   [`Search::evaluate`] calls; a capture game names its evaluation's
//!   weights instead: `XxxState::evaluate_with(&EvalWeights)` (Catapult,
//!   Andalusia, King's Colour; Royal Guard's `eval::evaluate_with` reads
//!   its `Board`), the struct declared with `eval_weights!` so that its
//!   weights are alpha-beta's `w_<term>` ([`SearchDefaults::eval_weights`],
//!   [`Search::evaluate_weighted`]).
//! * **Files**: `mod.rs` (the rules doc, the game and its parameters, the
//!   move type), `state.rs` (the state and its [`State`] and [`Research`]
//!   impls), `movegen.rs` (move generation), `text.rs` (the position and
//!   move text, both ways), `eval.rs` (the heuristic and the [`Search`]
//!   impl), `learning.rs` (the [`Learning`] impl: action ids and
//!   observation planes).
//! * **Traits**: [`State`] is what move generation and playouts need;
//!   [`Search`] what searches ask (evaluation, quiescence, exact solutions);
//!   [`Research`] what the harness's records and reports read; [`Learning`]
//!   the fixed action space and observation learning agents need. Every
//!   game's state implements all four ([`Game::State`] requires it);
//!   generic code asks for the least it uses.
//!
//! The module's files are split by reader: `mod.rs` (this core), `search.rs`,
//! `research.rs`, `learning.rs`, `picture.rs` (drawing a position) and `perft.rs` (perft
//! and the checked move parsing); their items are all re-exported here.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::fmt::{Debug, Display};
use std::hash::Hash;

use rand::Rng;

use crate::error::GameError;

mod learning;
mod perft;
mod picture;
mod research;
mod search;

pub use learning::{ActionSeq, Decisions, Learning, MAX_DECISIONS};
pub use perft::{
    apply_moves, parse_legal_move, parse_move_explained, perft, perft_leaves, perft_turns,
};
pub use picture::{
    BoardPicture, CellKind, CellPicture, CellShape, PiecePicture, alquerque_links, board_field,
    cased_piece, chequered, numbered_piece, piece, sly_picture, square_picture,
};
pub use research::{
    BoardShape, Research, SeatRole, ToExplain, generic_illegal_reason, move_to_explain,
};
pub(crate) use search::eval_weights;
pub use search::{AloneSolution, EvalWeight, Search, SearchDefaults};

thread_local! {
    /// Scratch lists per element type, reused so that lists a method needs
    /// but cannot take from its caller (a default `count_legal_moves`, the
    /// pie wrappers' lists of the inner game's moves) allocate only on a
    /// thread's first calls. A few types per thread, so a list searched by
    /// `TypeId` (no hashing) is fastest.
    static SCRATCH: RefCell<Vec<(TypeId, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with a cleared scratch `Vec<T>` of this thread, reused across
/// calls (no allocation once it has grown). Re-entrant: a nested call gets a
/// list of its own.
pub fn with_scratch<T: 'static, R>(f: impl FnOnce(&mut Vec<T>) -> R) -> R {
    let id = TypeId::of::<Vec<T>>();
    let slot = |m: &mut Vec<(TypeId, Box<dyn Any>)>| -> Option<usize> {
        m.iter().position(|(t, _)| *t == id)
    };
    let mut v: Vec<T> = SCRATCH
        .with(|m| {
            let mut m = m.borrow_mut();
            let i = slot(&mut m)?;
            m[i].1.downcast_mut::<Vec<T>>().map(std::mem::take)
        })
        .unwrap_or_default();
    v.clear();
    let r = f(&mut v);
    SCRATCH.with(|m| {
        let mut m = m.borrow_mut();
        match slot(&mut m) {
            Some(i) => {
                if let Some(s) = m[i].1.downcast_mut::<Vec<T>>()
                    && s.capacity() < v.capacity()
                {
                    *s = v;
                }
            }
            None => m.push((id, Box::new(v))),
        }
    });
    r
}

/// The largest number of seats any game has.
pub const MAX_SEATS: usize = 4;

/// Returns per seat; entries past the game's seat count are 0.
pub type Returns = [f64; MAX_SEATS];

/// Who acts in a state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToMove {
    /// The seat (`0..num_seats`) that chooses the next move.
    Seat(usize),
    /// A chance node: the next move is drawn from [`State::chance_outcomes`].
    Chance,
    /// The game is over; see [`State::returns`].
    Terminal,
}

/// A game with its parameters fixed: builds initial states and parses
/// positions. Cheap to clone and shareable across threads.
pub trait Game: Clone + Send + Sync + 'static {
    /// The state type of this game: every game's state answers searches
    /// and research too.
    type State: Research + Search + Learning;

    /// The canonical game string with every parameter spelled out, e.g.
    /// `slingshot(size=9,supply=45,corners=ordinary,stuck=pass)`.
    fn game_string(&self) -> String;

    /// Number of seats (1 to [`MAX_SEATS`]).
    fn num_seats(&self) -> usize;

    /// The initial state. Games with a random set-up draw it from `seed`
    /// (the same seed gives the same set-up); others ignore it.
    fn initial_state(&self, seed: u64) -> Self::State;

    /// The same game with every automatic draw by rule turned off
    /// (repetition, quiet-move counters, dead positions, ply caps), for
    /// perft: perft counts the move-generation tree, so only the game's real
    /// ends (mate, connection, annihilation, ...) end a branch. The default
    /// is the game itself, for games without such draws.
    fn perft_game(&self) -> Self {
        self.clone()
    }

    /// Parses the game's position text (the inverse of [`State::to_text`]).
    ///
    /// # Errors
    /// Malformed text, or a position that breaks the game's invariants; the
    /// message names the field and what was expected.
    fn parse_position(&self, text: &str) -> Result<Self::State, GameError>;
}

/// A game position with everything needed to continue the game.
///
/// Cloning is cheap (bitboards and a few counters, no heap).
pub trait State: Clone + Send + Sync + Display + Debug {
    /// A move (or chance outcome). Small and `Copy`.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Number of seats.
    fn num_seats(&self) -> usize;

    /// Who acts next.
    fn to_move(&self) -> ToMove;

    /// Whether the game is over.
    #[inline]
    fn is_terminal(&self) -> bool {
        self.to_move() == ToMove::Terminal
    }

    /// Clears `out` and writes the legal moves of the seat to move, in the
    /// game's fixed order. Empty at chance and terminal nodes. Does not
    /// allocate once `out` has grown to the game's largest move list.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves (perft's bulk count at the last ply).
    /// Games override it with a count that builds no list.
    fn count_legal_moves(&self) -> usize {
        with_scratch(|v: &mut Vec<Self::Move>| {
            self.legal_moves(v);
            v.len()
        })
    }

    /// A legal move drawn uniformly at random, or `None` at chance and
    /// terminal nodes. `buf` is scratch space. Games may override it with a
    /// draw that builds no list; it must stay uniform over
    /// [`State::legal_moves`].
    #[inline]
    fn sample_legal_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }

    /// Clears `out` and writes each chance outcome with its probability
    /// (they sum to 1). Empty unless [`State::to_move`] is `Chance`.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        out.clear();
    }

    /// The leaf count of [`perft()`] one ply below this state after `mv` (a
    /// legal move of the seat to move): 0 if the game is over after `mv`,
    /// the number of chance outcomes at a chance node, else the number of
    /// legal moves. The default applies `mv` to a clone; a game may
    /// override it with a cheaper make-and-count (no repetition history
    /// cloned, say) that must give the same number.
    fn perft_after(&self, mv: Self::Move) -> u64 {
        let mut child = self.clone();
        child.apply(mv);
        perft_leaves(&child)
    }

    /// Draws a chance outcome by its probability. `None` unless at a chance
    /// node.
    fn sample_chance<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<(Self::Move, f64)>,
    ) -> Option<Self::Move> {
        self.chance_outcomes(buf);
        let mut x: f64 = rng.random();
        for &(m, p) in buf.iter() {
            if x < p {
                return Some(m);
            }
            x -= p;
        }
        buf.last().map(|&(m, _)| m)
    }

    /// Applies a legal move or chance outcome. The move must come from
    /// [`State::legal_moves`] or [`State::chance_outcomes`] of this state
    /// (checked in debug builds only; use [`parse_legal_move`] for input).
    fn apply(&mut self, mv: Self::Move);

    /// Returns per seat (see the module docs); all 0 before the end.
    fn returns(&self) -> Returns;

    /// The Zobrist key, kept incrementally by [`State::apply`]; equal to
    /// [`State::zobrist_from_scratch`].
    fn zobrist(&self) -> u64;

    /// The Zobrist key recomputed from the position (for tests).
    fn zobrist_from_scratch(&self) -> u64;

    /// Plies played since the game's initial state.
    fn ply(&self) -> u32;

    /// The position text; [`Game::parse_position`] reads it back to an equal
    /// state.
    fn to_text(&self) -> String;

    /// A move in the game's dossier notation.
    fn move_to_text(&self, mv: Self::Move) -> String;

    /// Appends [`State::move_to_text`]'s text of `mv` to `out`: the play
    /// loop records a game's moves into one buffer this way. Games whose
    /// random games are fast enough for a fresh string a ply to matter
    /// write the text in place; the result is the same text.
    fn push_move_text(&self, mv: Self::Move, out: &mut String) {
        out.push_str(&self.move_to_text(mv));
    }

    /// Parses a move in the game's notation. Checks the syntax and the
    /// squares only; [`parse_legal_move`] also checks legality.
    ///
    /// # Errors
    /// Malformed text; the message says what was expected.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;

    /// Whether the next move continues the turn of the seat that made the
    /// last move (a compulsory continuation step, placements after a spin),
    /// so that no turn ends here. False at the start and wherever a turn has
    /// just ended. See the module docs on turns.
    fn continues_turn(&self) -> bool {
        false
    }
}
