//! boardlab from Python (the `boardlab` package's Rust extension,
//! `boardlab._boardlab`, built by maturin with the `python` feature).
//!
//! Every game by its game string, states with moves as text and as action
//! ids ([`engine::Learning`]), agents by spec, tournaments, and
//! `VectorGames`, which steps many games at once in Rust. Without the
//! `python` feature the crate is empty, so `cargo test --workspace`
//! never needs Python. The type-erased core the bindings wrap
//! (`experiments::run::node` and `experiments::run::vector`) lives in the
//! experiments crate, so that every game and agent is monomorphised once in
//! the workspace, not again here.
#![deny(missing_docs)]

// Not in the crate's own test harness: with the feature on (as .ci/run
// builds the workspace, so that the extension reuses the test build's
// artefacts) the harness must not reference libpython, which an extension
// module leaves to the interpreter that loads it.
#[cfg(all(feature = "python", not(test)))]
mod bindings;
