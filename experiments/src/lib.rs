//! # boardlab experiments
//!
//! The library behind the `boardlab` command: each subcommand is a thin
//! wrapper over a function here that tests call directly.
//!
//! * [`inspect`]: `games`, `moves`, `perft`.
//! * [`play`]: one game printed ply by ply.
//! * [`tournament`]: parallel self-play tournaments with resumable CSV output.
//! * [`stats`]: Wilson intervals and friends.
//! * [`solve`]: the exact solver over many start positions (`boardlab solve`).
//! * [`balance`], [`swapmap`], [`report`]: first-mover advantage, pie-rule
//!   swap maps and the generated `results/REPORT.md` (issue 7).
#![deny(missing_docs)]

pub mod balance;
pub mod csvio;
pub mod elo;
pub mod inspect;
pub mod merge;
pub mod play;
pub mod plot;
pub mod report;
pub mod solve;
pub mod stats;
pub mod strength;
pub mod swapmap;
pub mod tournament;
