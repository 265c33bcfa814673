//! # boardlab engine
//!
//! Bitboard engines for a family of abstract board games behind one
//! [`Game`]/[`State`] API modelled on OpenSpiel's state model:
//! the seat to move (or a chance node, or terminal), legal moves written into
//! a caller's buffer, apply, returns per seat, chance outcomes, an
//! incrementally kept Zobrist key, a position text that round-trips and a move
//! text in each game's dossier notation.
//!
//! Layers are one-way: this crate knows no agent and no file format.
//!
//! * [`api`]: the [`Game`] and [`State`] traits and the generic helpers every
//!   game gets for free ([`perft`], [`parse_legal_move`], [`apply_moves`]).
//! * [`spec`]: OpenSpiel-style game strings, `slingshot(size=7)`.
//! * [`board`]: the shared bitboard toolkit (bit sets of 64 and 128 bits,
//!   square grids, flood fill, 0-1 connection distance, Zobrist tables).
//! * [`registry`]: every game by name with its parameters, and dispatch from a
//!   game string to a generic function over the concrete game type.
//! * [`testkit`]: the generic consistency checks every game's tests run.
//! * [`pie`]: the pie rule for any two-seat game (`pie(G)`), and the
//!   no-swap view that swap maps play openings out with.
//! * one module per game: [`slingshot`], [`catapult`], [`sniggle`],
//!   [`sly_solitaire`],
//!   [`spinner`], [`bagel`], [`royal_guard`], [`andalusia`],
//!   [`kings_colour`].
#![deny(missing_docs)]

pub mod andalusia;
pub mod api;
pub mod bagel;
pub mod board;
pub mod catapult;
pub mod error;
pub mod kings_colour;
pub mod pie;
pub mod registry;
pub mod royal_guard;
pub mod slingshot;
pub mod sly_solitaire;
pub mod sniggle;
pub mod spec;
pub mod spinner;
pub mod testkit;

pub use api::{
    BoardShape, Game, MAX_SEATS, Research, Returns, State, ToMove, apply_moves, parse_legal_move,
    perft, perft_turns,
};
pub use error::GameError;
pub use registry::{GameVisitor, visit_game};
