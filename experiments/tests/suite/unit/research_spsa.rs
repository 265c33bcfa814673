//! Unit tests of `experiments::research::spsa`.

use experiments::research::spsa::*;

#[test]
fn spsa_gains_meet_their_end_values() {
    let g = Gains::new(1000);
    let p = Param {
        name: "x".into(),
        start: 0.0,
        c_end: 0.5,
        lo: -1.0,
        hi: 1.0,
        integer: false,
    };
    assert!((g.c_k(&p, 1000) - 0.5).abs() < 1e-12);
    assert!((g.a_k(&p, 1000) - R_END * 0.25).abs() < 1e-12);
    // c_1 = c_end N^γ; a_1 = a_N ((A + N) / (A + 1))^α, A = 100.
    assert!((g.c_k(&p, 1) - 0.5 * 1000f64.powf(0.101)).abs() < 1e-12);
    assert!((g.a_k(&p, 1) - R_END * 0.25 * (1100f64 / 101.0).powf(0.602)).abs() < 1e-12);
}

#[test]
fn spsa_spec_rounds_integers_and_names_bad_parameters() {
    let t = Tuned::parse(
        "mcts(iterations=50,c=1.0:0.2:0.1..3.0,cutoff=20:4:2..60)",
        "bagel",
    )
    .unwrap();
    assert_eq!(t.params.len(), 2);
    assert!(!t.params[0].integer && t.params[1].integer);
    assert_eq!(
        t.text(&[1.25, 20.6]),
        "mcts(iterations=50,c=1.25,cutoff=21)"
    );
    for (spec, needle) in [
        ("mcts(c=1.0:0.2)", "parameter c=1.0:0.2"),
        ("mcts(c=1.0:0.2:3..0.1)", "parameter c="),
        ("mcts(c=5:0.2:0.1..3)", "outside the bounds"),
        ("mcts(c=1:0:0.1..3)", "step must be > 0"),
        ("mcts(c=1:x:0.1..3)", "step \"x\""),
        ("mcts(c=1:0.2:-1..3)", "parameter c at -1"),
        ("mcts(solver=1:1:0..2)", "parameter solver is not numeric"),
        ("mcts(foo=1:1:0..2)", "parameter foo"),
        ("mcts(c=1.0)", "at least one parameter"),
    ] {
        let e = Tuned::parse(spec, "bagel").unwrap_err().to_string();
        assert!(e.contains(needle) && !e.contains('\n'), "{spec}: {e}");
    }
}

#[test]
fn spsa_tunes_a_games_evaluation_weights_as_integers() {
    let t = Tuned::parse(
        "alphabeta(depth=2,w_range=5:2:0..30,w_attack=20:4:0..60)",
        "catapult",
    )
    .unwrap();
    assert!(t.params.iter().all(|p| p.integer));
    // A weight at its game default is not written; others are, rounded.
    let spec = t.spec(&[7.4, 20.2]).unwrap();
    assert!(spec.ends_with(",w_range=7)"), "{spec}");
    for (spec, game, needle) in [
        (
            "alphabeta(w_foo=1:1:0..2)",
            "catapult",
            "unknown evaluation weight \"w_foo\"",
        ),
        (
            "alphabeta(w_range=1:1:0..2)",
            "bagel",
            "has no named weights",
        ),
        ("alphabeta(w_range=1:1:0..2)", "nosuchgame", "nosuchgame"),
    ] {
        let e = Tuned::parse(spec, game).unwrap_err().to_string();
        assert!(
            e.contains(needle) && !e.contains('\n'),
            "{spec} on {game}: {e}"
        );
    }
}

#[test]
fn spsa_verifies_at_equal_time_without_the_tuning_budget() {
    let ab = at_equal_time(
        "alphabeta(depth=64,nodes=40000,mvv=true,w_range=3)",
        100,
        "catapult",
    )
    .unwrap();
    assert!(
        ab.starts_with("alphabeta(depth=64,ms=100,")
            && !ab.contains("nodes=")
            && ab.ends_with(",mvv=true,w_range=3)"),
        "{ab}"
    );
    let m = at_equal_time("mcts(iterations=1000,c=0.3)", 100, "catapult").unwrap();
    assert!(
        m.contains("ms=100") && !m.contains("iterations=1000"),
        "{m}"
    );
    // A spec already timed is left as it is.
    let timed = at_equal_time("alphabeta(ms=50)", 100, "catapult").unwrap();
    assert!(timed.contains("ms=50"), "{timed}");
}
