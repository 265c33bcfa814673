//! The agents crate's integration tests, one binary: agents on small games
//! whose best moves are known by hand (Nim, its three-seat race solved by
//! max^n, a chance game with 1–4 seats, Slingshot positions with an
//! immediate win), win distances in the capture games against a plain
//! minimax reference, the allocation-free pie wrappers, the pie choice
//! searched in full (Nim with a pie rule), the exact solver, and the
//! depth-bounded proof-number search against plain minimax and the Line Up
//! solution. Shared helpers live in [`common`].

mod allocations;
mod alphabeta;
mod chance;
mod common;
mod game_defaults;
mod mcts;
mod pie;
mod proof;
mod searchers;
mod solver;
mod tactics;
