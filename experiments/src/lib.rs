//! # boardlab experiments
//!
//! The library behind the `boardlab` command: each subcommand is a thin
//! wrapper over a function here that tests call directly. The crate is
//! grouped by what it does:
//!
//! * [`run`]: playing many games: the deterministic job list and seeds
//!   ([`run::jobs`]), the one play loop ([`run::play`]), the CSV row schema
//!   and resume ([`run::rows`]), the summary ([`run::summary`]), and merging
//!   shards ([`run::merge`]). `boardlab tournament` is [`run::run`].
//! * [`research`]: one home per research command: `games`, `moves`,
//!   `perft` ([`research::inspect`]), `play` ([`research::play`]),
//!   `rate`/`sprt`/`tune` ([`research::strength`]), `balance`
//!   ([`research::balance`]), `pie` swap maps ([`research::swapmap`]),
//!   `evidence` ([`research::evidence`]).
//! * [`records`]: game records (JSON Lines) beside every run's CSV,
//!   `replay`, `replay --verify` and PGN export.
//! * [`stats`]: Wilson intervals, Elo and the Bradley–Terry fit, SPRT.
//! * [`output`]: CSV tables, the progress bar and thread pool, SVG plots, and
//!   the generated `results/REPORT.md` ([`output::report`]).
#![deny(missing_docs)]

pub mod output;
pub mod records;
pub mod research;
pub mod run;
pub mod stats;
