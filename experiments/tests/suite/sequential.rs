//! Runs that stop on their data (`--until`): the stop is the same at any
//! thread count and after an interruption, the summary says the score and
//! the verdict, and bad rules are refused before any game.

use crate::common::{dir, fails, ok, p, rows_without_timing};

fn until(out: &str, rule: &str, threads: &str, extra: &[&str]) -> String {
    let mut a = vec![
        "tournament",
        "--game",
        "slingshot(size=7)",
        "--agents",
        "random",
        "random",
        "--until",
        rule,
        "--seed",
        "3",
        "--threads",
        threads,
        "--quiet",
        "--out",
        out,
    ];
    a.extend_from_slice(extra);
    ok(&a)
}

fn line<'a>(text: &'a str, start: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no {start:?} line in {text}"))
}

/// The same seed stops at the same game count, with the same games, on one
/// thread and on two; a run cut short by a small cap and run again to the
/// default cap ends where the uninterrupted run ended.
#[test]
fn until_stops_at_the_same_game_at_any_thread_count_and_after_a_resume() {
    let d = dir("until-threads");
    let (a, b, c) = (p(&d, "a.csv"), p(&d, "b.csv"), p(&d, "c.csv"));
    let one = until(&a, "halfwidth=0.05", "1", &[]);
    let two = until(&b, "halfwidth=0.05", "2", &[]);
    let stop = line(&one, "stopped:");
    assert!(stop.contains("--until halfwidth=0.05 met at"), "{one}");
    assert_eq!(stop, line(&two, "stopped:"));
    assert_eq!(line(&one, "first mover:"), line(&two, "first mover:"));
    assert_eq!(rows_without_timing(&a), rows_without_timing(&b));
    // Cut short at 300 games (the cap), then resumed without it.
    let short = until(&c, "halfwidth=0.05", "2", &["--max-games", "300"]);
    assert!(line(&short, "stopped:").contains("unmet"), "{short}");
    let resumed = until(&c, "halfwidth=0.05", "2", &[]);
    assert_eq!(line(&resumed, "stopped:"), stop);
    assert_eq!(rows_without_timing(&a), rows_without_timing(&c));
    // Both commands are in the provenance: the resumed one's first
    // stretches had nothing to play and must not drop the first's entry.
    let cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{c}.config.json")).unwrap())
            .unwrap();
    let commands: Vec<&str> = cfg["provenance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["command"].as_str().unwrap())
        .collect();
    assert_eq!(commands.len(), 2, "{cfg}");
    assert!(commands[0].contains("--max-games 300"), "{cfg}");
    assert!(!commands[1].contains("--max-games"), "{cfg}");
    // The interval printed is at most the rule's half-width, and the score
    // is wins plus half the draws over the games.
    let fm = line(&one, "first mover:");
    let nums: Vec<f64> = fm
        .split(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
        .filter_map(|t| t.parse().ok())
        .collect();
    // +W =D -L  score S [LO, HI]  n=N
    let (w, dr, l, s, lo, hi, n) = (
        nums[0], nums[1], nums[2], nums[3], nums[4], nums[5], nums[6],
    );
    assert_eq!(w + dr + l, n, "{fm}");
    assert!(((w + dr / 2.0) / n - s).abs() < 5e-4, "{fm}");
    assert!((hi - lo) / 2.0 <= 0.05 + 5e-4 && lo < s && s < hi, "{fm}");
    assert!(one.contains("\nverdict: "), "{one}");
}

/// Three seats: the first mover's share against the fair share 1/3.
#[test]
fn three_seats_measure_the_share_against_one_third() {
    let d = dir("until-seats");
    let out = ok(&[
        "tournament",
        "--game",
        "empire(players=3)",
        "--agents",
        "random",
        "random",
        "random",
        "--games",
        "60",
        "--quiet",
        "--out",
        &p(&d, "e.csv"),
    ]);
    assert!(
        line(&out, "first mover:").contains("share (fair 1/3)"),
        "{out}"
    );
    assert!(out.contains("\nverdict: "), "{out}");
}

/// Bad rules, a cap that cannot meet the rule and --games beside --until
/// are one-line errors before any game is played.
#[test]
fn bad_until_rules_are_refused_before_play() {
    let d = dir("until-bad");
    let out = p(&d, "x.csv");
    let base = [
        "tournament",
        "--game",
        "slingshot(size=7)",
        "--agents",
        "random",
        "random",
        "--quiet",
        "--out",
        &out,
    ];
    let with = |extra: &[&'static str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        a
    };
    fails(&with(&["--until", "halfwidth=0.7"]), "outside (0, 0.5)");
    fails(&with(&["--until", "decide=0"]), "outside (0, 0.5)");
    fails(
        &with(&["--until", "decide"]),
        "expected halfwidth=H or decide=D",
    );
    fails(&with(&["--until", "width=0.1"]), "unknown rule \"width\"");
    fails(
        &with(&["--until", "halfwidth=0.01", "--max-games", "200"]),
        "--max-games 200 cannot meet it",
    );
    fails(
        &with(&["--until", "decide=0.03", "--games", "200"]),
        "give the cap as --max-games",
    );
    fails(&with(&["--max-games", "200"]), "--until");
    assert!(!std::path::Path::new(&out).exists(), "no game was played");
}
