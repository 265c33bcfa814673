//! `rate`, `sprt`, `tune` and `merge` as a user runs them: outputs exist
//! and agree with the games, shards merge into the unsharded run, and bad
//! input is refused with one-line errors.

use crate::common::{fails, ok, p, rows_without_timing};
use std::process::Command;

use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    crate::common::scratch("strength")
}

const G: &str = "slingshot(size=7)";

#[test]
fn rate_writes_ratings_anchored_at_zero() {
    let d = dir();
    let ratings = p(&d, "ratings.csv");
    let out = ok(&[
        "rate",
        "--game",
        G,
        "--agents",
        "random",
        "uct(iterations=100)",
        "--games",
        "8",
        "--ratings",
        &ratings,
        "--quiet",
        "--seed",
        "3",
    ]);
    assert!(
        out.contains("Score of random vs uct(iterations=100,c=1.4,ms=0):") && out.contains("LOS"),
        "{out}"
    );
    let mut r = csv::Reader::from_path(&ratings).unwrap();
    let recs: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(recs.len(), 2);
    let random = recs.iter().find(|x| &x[3] == "random").unwrap();
    assert_eq!(&random[4], "0.00", "the anchor is at 0");
    // Games went to the default games CSV, in pairs sharing a seed.
    let games = rows_without_timing(p(&d, "ratings-games.csv.gz"));
    assert_eq!(games.len(), 8);
    assert!(
        games
            .chunks(2)
            .all(|c| c[0][2] == c[1][2] && c[0][3] == c[1][5])
    );
    fails(
        &[
            "rate",
            "--game",
            G,
            "--agents",
            "random",
            "random",
            "--games",
            "3",
            "--ratings",
            &p(&d, "r2.csv"),
        ],
        "even",
    );
    fails(
        &[
            "rate",
            "--game",
            G,
            "--agents",
            "random",
            "random",
            "--anchor",
            "mcts",
            "--games",
            "2",
            "--ratings",
            &p(&d, "r3.csv"),
            "--quiet",
        ],
        "not one of the agents",
    );
}

/// An SPRT of several batches extends one run: no "resuming" line about its
/// own file between batches, one provenance entry per command, and
/// `--overwrite` discards an old run once, not each batch's games.
#[test]
fn sprt_batches_extend_one_run() {
    let d = dir();
    let sprt = p(&d, "batches.csv");
    let games = p(&d, "batches-games.csv.gz");
    let mut args = vec!["sprt", "--game", G, "--agents", "random", "random"];
    args.extend(["--elo0", "-5", "--elo1", "5", "--max-games", "96"]);
    args.extend(["--sprt", &sprt, "--quiet", "--overwrite"]);
    // A first run (nothing to overwrite), then the same with --overwrite.
    for n in [args.len() - 1, args.len()] {
        let out = crate::common::boardlab(&args[..n]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(!err.contains("resuming"), "{err}");
        // Three batches of 16 pairs, none replayed.
        assert_eq!(rows_without_timing(&games).len(), 96);
        let config = std::fs::read_to_string(p(&d, "batches-games.csv.config.json")).unwrap();
        let config: serde_json::Value = serde_json::from_str(&config).unwrap();
        assert_eq!(config["provenance"].as_array().unwrap().len(), 1);
    }
}

#[test]
fn sprt_stops_and_appends_a_row() {
    let d = dir();
    let sprt = p(&d, "sprt.csv");
    // MCTS with 200 iterations against random: H1 (+50 Elo) is accepted at
    // the first batch of 16 pairs.
    let out = ok(&[
        "sprt",
        "--game",
        G,
        "--agents",
        "mcts(iterations=200)",
        "random",
        "--elo0",
        "0",
        "--elo1",
        "50",
        "--sprt",
        &sprt,
        "--quiet",
    ]);
    assert!(
        out.contains("H1 accepted") && out.contains("after 16 pairs"),
        "{out}"
    );
    let text = std::fs::read_to_string(&sprt).unwrap();
    assert_eq!(text.lines().count(), 2);
    assert!(text.lines().nth(1).unwrap().contains(",H1,"));
    // Only the first batch was played (the game cap is 20,000).
    assert_eq!(rows_without_timing(p(&d, "sprt-games.csv.gz")).len(), 32);
    fails(
        &[
            "sprt", "--game", G, "--agents", "random", "random", "--elo0", "5", "--elo1", "0",
            "--sprt", &sprt,
        ],
        "below --elo1",
    );
    fails(
        &[
            "sprt", "--game", G, "--agents", "random", "random", "--elo0", "0", "--elo1", "5",
            "--alpha", "0.7", "--sprt", &sprt,
        ],
        "--alpha",
    );
}

#[test]
fn tune_writes_a_row_per_value_and_a_plot() {
    let d = dir();
    let (tune, plot) = (p(&d, "tune.csv"), p(&d, "tune.svg"));
    ok(&[
        "tune",
        "--game",
        G,
        "--agent",
        "mcts(iterations=60,c=[0.5,2.0])",
        "--baseline",
        "random",
        "--games",
        "4",
        "--tune",
        &tune,
        "--plot",
        &plot,
        "--quiet",
    ]);
    let mut r = csv::Reader::from_path(&tune).unwrap();
    let values: Vec<String> = r.records().map(|x| x.unwrap()[2].to_string()).collect();
    assert_eq!(values, vec!["0.5", "2.0"]);
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("Elo over the baseline"));
    fails(
        &[
            "tune",
            "--game",
            G,
            "--agent",
            "mcts(c=1)",
            "--baseline",
            "random",
            "--tune",
            &tune,
        ],
        "exactly one parameter as a list",
    );
    fails(
        &[
            "tune",
            "--game",
            G,
            "--agent",
            "mcts(c=[])",
            "--baseline",
            "random",
            "--tune",
            &tune,
        ],
        "empty",
    );
    fails(
        &[
            "tune",
            "--game",
            G,
            "--agent",
            "mcts(c=[1,x])",
            "--baseline",
            "random",
            "--tune",
            &tune,
            "--quiet",
        ],
        "c=",
    );
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let d = dir();
    let base = [
        "tournament",
        "--game",
        G,
        "--agents",
        "mcts(iterations=30)",
        "random",
        "--games",
        "10",
        "--seed",
        "4",
        "--quiet",
    ];
    let whole = p(&d, "whole.csv");
    let mut a: Vec<&str> = base.to_vec();
    a.extend(["--out", &whole]);
    let whole_summary = ok(&a);
    let shards: Vec<String> = (1..=3).map(|k| p(&d, &format!("shard{k}.csv"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let spec = format!("{}/3", k + 1);
        let mut a: Vec<&str> = base.to_vec();
        a.extend(["--out", s, "--shard", &spec]);
        ok(&a);
    }
    let merged = p(&d, "merged.csv");
    let mut m = vec!["merge", "--out", &merged];
    m.extend(shards.iter().map(|s| s.as_str()));
    let merged_summary = ok(&m);
    assert_eq!(rows_without_timing(&merged), rows_without_timing(&whole));
    // The summary lines (all but the timing line) are the same.
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("played") && !l.starts_with("merged"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&merged_summary), strip(&whole_summary));
    // The same shard twice, or a shard of another run, is refused.
    fails(
        &["merge", "--out", &p(&d, "m2.csv"), &shards[0], &shards[0]],
        "twice",
    );
    let other = p(&d, "other.csv");
    let mut a: Vec<&str> = base.to_vec();
    a[9] = "5";
    a.extend(["--out", &other, "--shard", "2/3"]);
    ok(&a);
    fails(
        &["merge", "--out", &p(&d, "m3.csv"), &shards[0], &other],
        "another run",
    );
    fails(
        &["merge", "--out", &p(&d, "m4.csv"), &p(&d, "missing.csv")],
        "cannot read",
    );
}

#[test]
fn a_corrupt_row_in_the_middle_is_an_error_on_resume() {
    let d = dir();
    let out = p(&d, "corrupt.csv");
    let base = [
        "tournament",
        "--game",
        G,
        "--agents",
        "random",
        "random",
        "--games",
        "6",
        "--quiet",
        "--out",
        &out,
    ];
    ok(&base);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "garbage,row";
    std::fs::write(&out, lines.join("\n") + "\n").unwrap();
    fails(&base, "row 3");
}

#[test]
fn merge_refuses_incomplete_or_clashing_inputs() {
    let d = dir();
    let base = [
        "tournament",
        "--game",
        G,
        "--agents",
        "random",
        "random",
        "--games",
        "8",
        "--seed",
        "6",
        "--quiet",
    ];
    let shards: Vec<String> = (1..=2).map(|k| p(&d, &format!("m_shard{k}.csv"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let spec = format!("{}/2", k + 1);
        let mut a: Vec<&str> = base.to_vec();
        a.extend(["--out", s, "--shard", &spec]);
        ok(&a);
    }
    let out = p(&d, "m_merged.csv");
    fails(&["merge", "--out", &out, &shards[0]], "missing");
    fails(
        &["merge", "--out", &shards[0], &shards[0], &shards[1]],
        "one of the inputs",
    );
    ok(&["merge", "--out", &out, &shards[0], &shards[1]]);
    fails(
        &["merge", "--out", &out, &shards[0], &shards[1]],
        "--overwrite",
    );
    // An unfinished shard: drop its last row.
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    let cut: Vec<&str> = text.lines().collect();
    std::fs::write(&shards[1], cut[..cut.len() - 1].join("\n") + "\n").unwrap();
    fails(
        &[
            "merge",
            "--out",
            &out,
            "--overwrite",
            &shards[0],
            &shards[1],
        ],
        "unfinished",
    );
    // A duplicated row is refused on resume, never counted twice.
    let whole = p(&d, "m_whole.csv");
    let mut a: Vec<&str> = base.to_vec();
    a.extend(["--out", &whole]);
    ok(&a);
    let text = std::fs::read_to_string(&whole).unwrap();
    let row = text.lines().nth(1).unwrap().to_string();
    std::fs::write(&whole, text.clone() + &row + "\n").unwrap();
    fails(&a, "appears twice");
    // A row from another seed (edited seed) is refused.
    let mut fields: Vec<String> = row.split(',').map(|s| s.to_string()).collect();
    let seed_field = fields.iter().position(|f| f.starts_with("0x")).unwrap();
    fields[seed_field] = "0x0000000000003039".into();
    std::fs::write(&whole, text.replacen(&row, &fields.join(","), 1)).unwrap();
    fails(&a, "seed or seating");
}

#[test]
fn strength_runs_check_their_input_before_playing() {
    let d = dir();
    let s = p(&d, "x.csv");
    fails(
        &[
            "sprt", "--game", G, "--agents", "random", "random", "--elo0", "nan", "--elo1", "5",
            "--sprt", &s,
        ],
        "finite",
    );
    fails(
        &[
            "sprt", "--game", G, "--agents", "random", "random", "--elo0", "0", "--elo1", "5",
            "--shard", "1/2", "--sprt", &s,
        ],
        // sprt is sequential: it has no --shard (the library refuses one too).
        "unexpected argument '--shard'",
    );
    fails(
        &[
            "rate",
            "--game",
            "sniggle(players=3)",
            "--agents",
            "random",
            "random",
            "random",
            "--ratings",
            &s,
        ],
        "two-seat",
    );
    fails(
        &[
            "tune",
            "--game",
            G,
            "--agent",
            "mcts(c=[1,2])",
            "--baseline",
            "nobody",
            "--tune",
            &s,
        ],
        "--baseline",
    );
    fails(
        &[
            "rate",
            "--game",
            G,
            "--agents",
            "random",
            "random",
            "--anchor",
            "7",
            "--ratings",
            &s,
        ],
        "not an agent index",
    );
    assert!(
        !Path::new(&p(&d, "x-games.csv.gz")).exists(),
        "nothing was played"
    );
}

#[test]
fn moves_lists_chance_outcomes_and_a_closed_pipe_is_quiet() {
    // At the start nobody has a piece, so S re-spins (K6): 1, 2, 3 at 1/3.
    let out = ok(&["moves", "--game", "spinner"]);
    assert!(
        out.contains("spin=1 0.333333") && out.contains("chance node: 3 outcomes"),
        "{out}"
    );
    // `boardlab games | head -1`: the reader goes away; no panic, exit 0.
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([
            "perft",
            "--game",
            G,
            "--moves",
            "d4,g7 chooser=B",
            "--depth",
            "3",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}
