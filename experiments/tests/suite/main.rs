//! The experiments crate's integration tests, one binary: balance and
//! swap maps (and the race of adaptive maps on synthetic ones), the command
//! line, strength research, game records, the human seat and UCI. Shared
//! helpers live in
//! [`common`].

mod balance;
mod cli;
mod columns;
mod common;
mod design;
mod docs;
mod fuzz;
#[path = "../../../engine/tests/suite/fuzz_runner.rs"]
mod fuzz_runner;
mod layers;
mod pictures;
mod protocol;
mod race;
mod records;
mod runs;
mod sequential;
mod serve;
mod slurm;
mod spsa;
mod strength;
mod study;
mod texel;
mod uci;
mod unit;
