//! boardlab from Python (the `boardlab` package's Rust extension,
//! `boardlab._boardlab`, built by maturin with the `python` feature).
//!
//! Every game by its game string, states with moves as text and as action
//! ids ([`engine::Learning`]), agents by spec, tournaments, and
//! `VectorGames`, which steps many games at once in Rust. Without the
//! `python` feature the crate is empty, so `cargo test --workspace` never
//! links against libpython; the type-erased core ([`node`]) is plain Rust
//! and tested there.
#![deny(missing_docs)]

pub mod node;
pub mod vector;

#[cfg(feature = "python")]
mod bindings;
