//! Unit tests of `experiments::research::analyse`.

use anyhow::Result;
use experiments::research::analyse::*;

fn run(game: &str, pos: Option<&str>, moves: Option<&str>, agent: &str) -> Result<String> {
    let mut out = Vec::new();
    let best = analyse(game, pos, moves, agent, 1, &mut out)?;
    Ok(format!("{}{best}", String::from_utf8(out).unwrap()))
}

#[test]
fn prints_info_lines_and_a_best_move() {
    let t = run("catapult", None, None, "alphabeta(depth=2)").unwrap();
    assert!(t.contains("info depth 1 "), "{t}");
    assert!(t.contains("info depth 2 "), "{t}");
    assert!(t.contains(" pv "), "{t}");
    assert!(t.lines().last().unwrap().starts_with("bestmove "), "{t}");
    let t = run("catapult", None, Some("a2-b2"), "mcts(iterations=200)").unwrap();
    assert!(t.contains("info iterations 200 "), "{t}");
    assert!(t.lines().last().unwrap().starts_with("bestmove "), "{t}");
}

#[test]
fn bad_input_is_a_one_line_error() {
    for (game, pos, moves, agent, needle) in [
        ("nope", None, None, "random", "unknown game"),
        ("catapult", None, None, "mcts(cutoff=x)", "cutoff=x"),
        ("catapult", Some("garbage"), None, "random", "--position"),
        ("catapult", None, Some("a1-a9"), "random", "--moves"),
        ("sniggle(players=3)", None, None, "alphabeta", "two-seat"),
        // Black's a3+a5xd4 completes file d (the agents tests' win).
        (
            "slingshot(size=7)",
            Some("3B3/3B3/3B3/T2T2T/3B3/3B3/3B3 B C 0 0"),
            Some("a3+a5xd4"),
            "random",
            "terminal",
        ),
    ] {
        let e = run(game, pos, moves, agent).unwrap_err().to_string();
        assert!(e.contains(needle), "{game} {agent}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}
