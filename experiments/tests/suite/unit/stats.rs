//! Unit tests of `experiments::stats`.

use experiments::stats::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 5e-5
}

#[test]
fn wilson_matches_published_values() {
    // Newcombe (1998), "Two-sided confidence intervals for the single
    // proportion", Table I, method 3 (Wilson score without continuity
    // correction): 0/10 -> 0-0.2775; 5/10 ... from the same formula.
    let w = wilson(0.0, 10);
    assert!(close(w.lower, 0.0) && close(w.upper, 0.2775), "{w:?}");
    let w = wilson(5.0, 10);
    assert!(close(w.lower, 0.2366) && close(w.upper, 0.7634), "{w:?}");
    let w = wilson(50.0, 100);
    assert!(close(w.lower, 0.4038) && close(w.upper, 0.5962), "{w:?}");
    // Newcombe Table I: 81/263 -> 0.2553-0.3662.
    let w = wilson(81.0, 263);
    assert!(close(w.lower, 0.2553) && close(w.upper, 0.3662), "{w:?}");
    let w = wilson(0.0, 0);
    assert_eq!((w.lower, w.upper), (0.0, 1.0));
}

#[test]
fn mean_and_sd() {
    let (m, s) = mean_sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
    assert!(close(m, 5.0) && close(s, 2.13809), "{m} {s}");
}
