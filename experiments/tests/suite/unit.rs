//! Unit tests of the library's modules, one file a module (`run_storage`
//! tests `experiments::run::storage`). They live here, not in `#[cfg(test)]`
//! modules, so that `cargo test` compiles the library once: its test
//! harness would build the whole crate a second time (several minutes of
//! CI at `opt-level = 3`), for these few tests.

mod output_csvfmt;
mod research_analyse;
mod research_compare;
mod research_pool;
mod research_spsa;
mod run_config;
mod run_jobs;
mod run_safety;
mod run_slurm;
mod run_storage;
mod run_summary;
mod stats;
mod stats_elo;
mod stats_sequential;
