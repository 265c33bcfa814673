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
//!   [`kings_colour`], [`empire`], [`gateway`], [`line_up`], [`blockade`].
//!
//! ## Examples
//!
//! Build a game from its game string and count its move-generation tree
//! (docs/rules/catapult.md §1.16: 30 and 900):
//!
//! ```
//! use engine::{Game, GameVisitor, perft, visit_game};
//!
//! struct Perft(u32);
//! impl GameVisitor for Perft {
//!     type Output = u64;
//!     fn visit<G: Game>(self, game: G) -> u64 {
//!         perft(&game.perft_game().initial_state(0), self.0)
//!     }
//! }
//! assert_eq!(visit_game("catapult", Perft(1)).unwrap(), 30);
//! assert_eq!(visit_game("catapult(size=8)", Perft(2)).unwrap(), 900);
//! assert!(visit_game("catapult(size=10)", Perft(1)).is_err());
//! ```
//!
//! Play a game to the end with uniformly random moves, with a concrete game
//! type, reading moves in the game's notation:
//!
//! ```
//! use engine::sniggle::SniggleGame;
//! use engine::spec::Spec;
//! use engine::{Game, State, ToMove, parse_legal_move};
//! use rand::SeedableRng;
//!
//! let game = SniggleGame::from_spec(&Spec::parse("sniggle(players=2)").unwrap()).unwrap();
//! let mut s = game.initial_state(0);
//! // docs/rules/sniggle.md §4.3: C to D is a first move; Y's piece then continues to E.
//! let mv = parse_legal_move(&s, "4C-4D").unwrap();
//! s.apply(mv);
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! let mut buf = Vec::new();
//! while let ToMove::Seat(_) = s.to_move() {
//!     let mv = s.sample_legal_move(&mut rng, &mut buf).unwrap();
//!     s.apply(mv);
//! }
//! assert!(s.is_terminal());
//! assert_eq!(s.returns()[..2].iter().sum::<f64>(), 0.0); // one wins, one loses
//! ```
#![deny(missing_docs)]

pub mod andalusia;
pub mod api;
pub mod bagel;
pub mod blockade;
pub mod board;
pub mod catapult;
pub mod empire;
pub mod error;
pub mod gateway;
pub mod kings_colour;
pub mod line_up;
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
    ActionSeq, AloneSolution, BoardPicture, BoardShape, CellKind, CellPicture, CellShape,
    EvalWeight, Game, Learning, MAX_SEATS, PiecePicture, Research, Returns, Search, SearchDefaults,
    SeatRole, State, ToMove, apply_moves, generic_illegal_reason, parse_legal_move,
    parse_move_explained, perft, perft_leaves, perft_turns,
};
pub use error::GameError;
pub use registry::{GameVisitor, visit_game};
