//! The subcommands of `boardlab`, one file each, named as the command.
//!
//! A command file owns its `clap` arguments (its doc comment is the
//! command's help) and a short `run` that builds the library's request
//! from them, calls one function of [`crate::research`], [`crate::report`]
//! or [`crate::run`] and prints what it returns. Option groups that several
//! commands share are in [`options`].

pub mod analyse;
pub mod balance;
pub mod engine;
pub mod evidence;
pub mod export;
pub mod games;
pub mod merge;
pub mod moves;
pub mod options;
pub mod perft;
pub mod pie;
pub mod play;
pub mod rate;
pub mod replay;
pub mod report;
pub mod serve;
pub mod show;
pub mod solve;
pub mod sprt;
pub mod study;
pub mod tournament;
pub mod tune;
