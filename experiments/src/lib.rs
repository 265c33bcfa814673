//! # boardlab experiments
//!
//! The library behind the `boardlab` command: each subcommand is a thin
//! wrapper over a function here that tests call directly.
//!
//! * [`inspect`]: `games`, `moves`, `perft`.
//! * [`play`]: one game printed ply by ply.
//! * [`tournament`]: parallel self-play tournaments with resumable CSV output.
//! * [`stats`]: Wilson intervals and friends.
#![deny(missing_docs)]

pub mod elo;
pub mod inspect;
pub mod merge;
pub mod play;
pub mod plot;
pub mod stats;
pub mod strength;
pub mod tournament;
