//! # boardlab experiments
//!
//! The library behind the `boardlab` command. The crate is layered, each
//! layer using only the ones below it (a test, `tests/suite/layers.rs`,
//! checks it):
//!
//! * [`commands`]: one file per subcommand, named as the command, with its
//!   `clap` arguments and a short `run` that calls the library; shared
//!   option groups in [`commands::options`].
//! * [`research`] and [`report`]: one home per research question: `games`,
//!   `moves`, `perft` ([`research::inspect`]), `play` ([`research::play`]),
//!   `rate` ([`research::rate`]), `sprt` ([`research::sprt`]), `tune`
//!   ([`research::tune`]), `balance` ([`research::balance`]), `pie` swap
//!   maps ([`research::swapmap`]), `evidence` ([`research::evidence`]),
//!   `engine` ([`research::ugi`]); the generated `results/REPORT.md` and its
//!   plots ([`report`]), which read the research results.
//! * [`run`]: playing many games: the deterministic job list and seeds
//!   ([`run::jobs`]), the one play loop ([`run::play`]), the CSV row schema
//!   and resume ([`run::rows`]), the summary ([`run::summary`]), game
//!   records with `replay` and PGN export ([`run::records`]), and merging
//!   shards ([`run::merge`]). `boardlab tournament` is [`run::run`].
//!   [`run::node`] and [`run::vector`] are any game behind one object-safe
//!   trait, for the Python bindings.
//! * [`stats`] and [`output`]: Wilson intervals, Elo and the Bradley–Terry
//!   fit, SPRT; CSV formats and tables, the progress bar and thread pool,
//!   SVG pictures of boards.
#![deny(missing_docs)]

pub mod commands;
pub mod output;
pub mod report;
pub mod research;
pub mod run;
pub mod serve;
pub mod stats;
