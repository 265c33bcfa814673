//! The experiments crate's integration tests, one binary: balance and
//! swap maps, the command line, strength research. Shared helpers live in
//! [`common`].

mod balance;
mod cli;
mod common;
mod fuzz;
mod strength;
