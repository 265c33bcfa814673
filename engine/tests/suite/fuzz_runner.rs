//! The fuzz runner both test crates share: proptest with a fixed
//! seed, `BOARDLAB_FUZZ_CASES` inputs per target (else the smoke count) and
//! `BOARDLAB_FUZZ_SEED`; progress and totals go to standard error. The
//! experiments suite includes this file by path.
#![allow(dead_code)]

use std::cell::Cell;
use std::fmt::Debug;
use std::io::Write;
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

/// Inputs per target: `BOARDLAB_FUZZ_CASES`, else `smoke`.
pub fn cases(smoke: u32) -> u32 {
    std::env::var("BOARDLAB_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(smoke)
}

/// Runs `target` on `cases` inputs drawn from `strategy` with a fixed seed
/// (`BOARDLAB_FUZZ_SEED` and the target's name); on a failure or a panic
/// proptest shrinks the input and the test fails with the minimal one.
pub fn fuzz<S: Strategy>(
    name: &str,
    smoke: u32,
    strategy: S,
    target: impl Fn(S::Value) -> Result<(), String>,
) where
    S::Value: Debug,
{
    let cases = cases(smoke);
    let seed: u64 = std::env::var("BOARDLAB_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    for (i, b) in name.bytes().enumerate() {
        key[8 + i % 24] ^= b;
    }
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key));
    let tried = Cell::new(0u64);
    let start = Instant::now();
    let result = runner.run(&strategy, |input| {
        tried.set(tried.get() + 1);
        if tried.get().is_multiple_of(100_000) {
            // Progress of a long run, so a stopped run still says how far
            // it got.
            let _ = writeln!(
                std::io::stderr(),
                "fuzz {name}: {} inputs so far, {:.0} s",
                tried.get(),
                start.elapsed().as_secs_f64()
            );
        }
        target(input).map_err(TestCaseError::fail)
    });
    // Straight to stderr, past the test harness's capture.
    let _ = writeln!(
        std::io::stderr(),
        "fuzz {name}: {} inputs in {:.1} s (seed {seed})",
        tried.get(),
        start.elapsed().as_secs_f64()
    );
    if let Err(e) = result {
        panic!("fuzz {name}: {e}");
    }
}
