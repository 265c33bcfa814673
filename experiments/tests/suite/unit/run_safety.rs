//! Unit tests of `experiments::run::safety`.

use experiments::run::safety::*;

#[test]
fn threads_are_capped_by_cores_and_games() {
    let max = max_threads();
    assert_eq!(cap_threads(3, 100).0, 3.min(max));
    let (n, note) = cap_threads(10_000, 2);
    assert_eq!(n, 2);
    assert!(note.unwrap().contains("--threads 10000 capped at 2"));
    assert_eq!(cap_threads(10_000, 1_000_000).0, max);
    assert!(cap_threads(0, 1).1.is_none());
}

/// The machine that built the tests runs them: nothing is missing; the
/// error names each missing extension and the portable build.
#[test]
fn the_build_host_has_every_compiled_extension() {
    assert_eq!(missing_cpu_features(), Vec::<&str>::new());
    let e = cpu_error(&["avx2", "bmi2"]);
    assert!(
        e.contains("with avx2, bmi2") && e.contains("lacks them"),
        "{e}"
    );
    assert!(e.contains("target-cpu=x86-64-v2") && !e.contains('\n'));
}
