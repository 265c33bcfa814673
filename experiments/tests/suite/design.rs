//! The design of the runs: agents seeded by agent (so that a game
//! pair of two identical agents is two games), openings played with both
//! seatings, the `end` column and the distinct-game count.

use std::path::PathBuf;

use engine::{Game, State, apply_moves, visit_game};
use experiments::run::{self, OpeningsRequest, TournamentArgs, read_rows, summarise};

use crate::common::{dir, fails, ok, p};

fn args(game: &str, agents: &[&str], games: u32, out: PathBuf) -> TournamentArgs {
    let agents: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
    let mut t = TournamentArgs::new(game, &agents, games, 7, out);
    t.threads = 1;
    t
}

#[test]
fn a_pair_of_identical_agents_plays_two_games() {
    let d = dir("design-pairs");
    let mut t = args(
        "catapult",
        &["mcts(iterations=30)", "mcts(iterations=30)"],
        8,
        d.join("p.csv"),
    );
    t.paired = true;
    let res = run::run(&t).unwrap();
    // Both games of a pair share the seed (the same dice, the same start);
    // seeded by seat they were the same game with the seats swapped.
    for pair in res.records.chunks(2) {
        assert_eq!(pair[0].seed, pair[1].seed);
        assert_ne!(pair[0].moves, pair[1].moves, "pair {}", pair[0].index);
    }
    assert!(res.config.agent_seeds);
    assert_eq!(summarise(&res.config, &res.records).distinct, 8);
}

#[test]
fn openings_are_distinct_and_played_with_both_seatings() {
    let d = dir("design-openings");
    let out = d.join("o.csv");
    let mut t = args(
        "line_up(first_seat=0)",
        &["alphabeta(depth=1)", "alphabeta(depth=2)"],
        10,
        out.clone(),
    );
    t.openings = OpeningsRequest {
        count: Some(5),
        plies: Some(3),
        ..Default::default()
    };
    let res = run::run(&t).unwrap();
    let (rows, _) = read_rows(&out, false, None).unwrap();
    assert_eq!(rows.len(), 10);
    let mut openings = std::collections::BTreeSet::new();
    for r in &rows {
        let k = r.opening.expect("every row names its opening");
        assert_eq!(k, (r.index / 2) as u32 % 5);
        let text = r.opening_moves.clone().unwrap();
        assert_eq!(text.split_whitespace().count(), 3);
        openings.insert((k, text.clone()));
        // The opening then the game's moves replay legally to the end.
        let ends = visit_game("line_up(first_seat=0)", Replay(&text, &r.moves)).unwrap();
        assert!(ends, "row {}", r.index);
        assert!(r.end.is_some());
    }
    // Five openings, each once per seating, all distinct positions.
    assert_eq!(openings.len(), 5);
    assert_eq!(rows[0].seats, vec![0, 1]);
    assert_eq!(rows[1].seats, vec![1, 0]);
    assert_eq!(rows[0].opening_moves, rows[1].opening_moves);
    // Resuming the finished run plays nothing and keeps the openings.
    let again = run::run(&t).unwrap();
    assert_eq!(again.played, 0);
    assert_eq!(again.config, res.config);
}

/// Replays an opening then a game's moves from the start; whether the game
/// is over at the end.
struct Replay<'a>(&'a str, &'a str);

impl engine::GameVisitor for Replay<'_> {
    type Output = bool;
    fn visit<G: Game>(self, game: G) -> bool {
        let mut s = game.initial_state(0);
        apply_moves(&mut s, self.0).unwrap();
        apply_moves(&mut s, self.1).unwrap();
        s.is_terminal()
    }
}

/// Blockade's two-ply openings are rare under random play: 106 of South's
/// 112 first placements let North's king escape at once, and after each of
/// the other 6 only 5 or 6 of North's 111 placements keep South's king in
/// (`boardlab perft --game blockade --moves M --depth 2 --divide` for M in
/// 4E 6E 7E 9E 10E 12E: 5, 6, 5, 6, 5, 6 lines with moves left), 33 in all.
/// The random finder alone found 2 or 3 of them and said no more existed.
#[test]
fn rare_openings_are_counted_exhaustively() {
    let d = dir("design-rare");
    let out = d.join("b.csv");
    let mut t = args("blockade", &["random", "random"], 66, out.clone());
    t.seed = 2029;
    t.openings = OpeningsRequest {
        count: Some(33),
        plies: Some(2),
        ..Default::default()
    };
    run::run(&t).unwrap();
    let (rows, _) = read_rows(&out, false, None).unwrap();
    let openings: std::collections::BTreeSet<_> = rows
        .iter()
        .map(|r| r.opening_moves.clone().unwrap())
        .collect();
    assert_eq!(openings.len(), 33);
    for o in &openings {
        assert_eq!(o.split_whitespace().count(), 2, "{o}");
    }
    let p34 = p(&d, "c.csv");
    fails(
        &[
            "tournament",
            "--game",
            "blockade",
            "--agents",
            "random",
            "random",
            "--games",
            "2",
            "--openings",
            "34",
            "--opening-plies",
            "2",
            "--seed",
            "2029",
            "--quiet",
            "--out",
            &p34,
        ],
        "only 33 distinct openings of 2 plies exist (counted exhaustively)",
    );
}

#[test]
fn bad_openings_are_one_line_errors() {
    let d = dir("design-bad");
    let file = d.join("openings.txt");
    std::fs::write(&file, "# two openings\n2B\n2E 2E\n").unwrap();
    let out = p(&d, "t.csv");
    let base = [
        "tournament",
        "--game",
        "line_up(first_seat=0)",
        "--agents",
        "random",
        "random",
        "--games",
        "4",
        "--quiet",
        "--out",
        &out,
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let run = |extra: &[&str], needle: &str| {
        let v = with(extra);
        let v: Vec<&str> = v.iter().map(String::as_str).collect();
        fails(&v, needle);
    };
    run(
        &["--openings-file", file.to_str().unwrap()],
        "line 3: move 2 of the record: move \"2E\" is not legal",
    );
    // Line Up has 16 first moves (docs/rules/line_up.md §5 perft 1 = 16).
    run(
        &["--openings", "20", "--opening-plies", "1"],
        "only 16 distinct openings of 1 plies exist",
    );
    // A huge count is refused at once, and asking for far more than exist
    // stops once new positions stop coming (it used to try for hours).
    run(
        &["--openings", "4000000000", "--opening-plies", "1"],
        "--openings 4000000000: at most 1000000",
    );
    run(
        &["--openings", "1000000", "--opening-plies", "1"],
        "only 16 distinct openings of 1 plies exist",
    );
    // No game of Line Up lasts past its ply cap of 200.
    run(
        &["--openings", "2", "--opening-plies", "900"],
        "ended before ply 900",
    );
    run(
        &["--openings", "2"],
        "need both --openings K and --opening-plies P",
    );
    run(
        &["--openings-file", "/nonexistent/o.txt"],
        "cannot read openings file",
    );
    // The balance filter's bad input (arguments split at spaces).
    for (extra, needle) in [
        ("--opening-filter random", "reports no evaluation"),
        ("--opening-filter mcts(bogus=1)", "--opening-filter"),
        (
            "--opening-filter alphabeta(depth=1) --opening-margin 0.7",
            "--opening-margin 0.7: give a number from 0 to 0.5",
        ),
        (
            "--opening-margin 0.1",
            "--opening-margin applies with --opening-filter",
        ),
    ] {
        let mut a = vec!["--openings", "2", "--opening-plies", "2"];
        a.extend(extra.split(' '));
        run(&a, needle);
    }
    // With a margin of 0 only exactly even positions pass: Line Up's
    // 2-ply openings are not all judged exactly even, so 200 cannot be found.
    run(
        &[
            "--openings",
            "200",
            "--opening-plies",
            "2",
            "--opening-filter",
            "alphabeta(depth=2)",
            "--opening-margin",
            "0",
        ],
        "were balanced by alphabeta(depth=2",
    );
    // The end column and the distinct-game count reach the summary.
    let text = ok(&with(&["--openings", "2", "--opening-plies", "2"])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert!(text.contains("distinct "), "{text}");
    assert!(text.contains("ends: "), "{text}");
}

#[test]
fn ladder_rows_rate_each_rung_and_reach_the_report() {
    use experiments::research::ladder::{read_ladder, split_rungs};
    assert_eq!(
        split_rungs(&["random,uct(iterations=20,c=1.4)".into(), "mcts".into()]),
        vec!["random", "uct(iterations=20,c=1.4)", "mcts"]
    );
    let d = dir("design-ladder");
    let out = p(&d, "results/balance.csv");
    let text = ok(&[
        "balance",
        "--game",
        "catapult",
        "--ladder",
        "random,uct(iterations=20)",
        "--games",
        "6",
        "--rating-games",
        "4",
        "--seed",
        "5",
        "--out",
        &out,
        "--quiet",
    ]);
    assert!(text.contains("first mover score [interval]"), "{text}");
    let rows = read_ladder(&d.join("results/ladder.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].rung, rows[0].elo), (0, 0.0));
    for r in &rows {
        assert_eq!(r.n, 6);
        assert!(
            r.first_mover_lower <= r.first_mover_win && r.first_mover_win <= r.first_mover_upper
        );
        assert!((r.first_mover_win + r.draw + r.first_mover_loss - 1.0).abs() < 1e-9);
        assert!(r.distinct <= r.n);
    }
    ok(&["report", "--results", &p(&d, "results")]);
    let md = std::fs::read_to_string(d.join("results/REPORT.md")).unwrap();
    assert!(
        md.contains("over agent strength") && md.contains("plots/ladder-catapult"),
        "{md}"
    );
    fails(
        &[
            "balance", "--game", "catapult", "--ladder", "random", "--out", &out,
        ],
        "at least two agents",
    );
    // An empty rung is a typo, refused rather than skipped.
    fails(
        &[
            "balance",
            "--game",
            "catapult",
            "--ladder",
            "random,,uct(iterations=5)",
            "--out",
            &out,
        ],
        "--ladder \"\"",
    );
    fails(
        &[
            "balance",
            "--game",
            "sniggle(players=3)",
            "--ladder",
            "random,random",
            "--out",
            &out,
        ],
        "two-seat game",
    );
}

/// `--opening-filter`: every opening kept is one the agent judges within the
/// margin of ½, as `analyse` (a separate command) prints it; without the
/// filter, some openings fall outside it, so the filter is what keeps them.
#[test]
fn opening_filter_keeps_only_balanced_openings() {
    let d = dir("design-filter");
    let winprob = |opening: &str| -> f64 {
        let t = ok(&[
            "analyse",
            "--game",
            "catapult",
            "--moves",
            opening,
            "--agent",
            "alphabeta(depth=2)",
        ]);
        let last = t.lines().rfind(|l| l.starts_with("info ")).unwrap();
        let w: Vec<&str> = last.split_whitespace().collect();
        let i = w.iter().position(|x| *x == "winprob").unwrap();
        w[i + 1].parse().unwrap()
    };
    let openings_of = |out: &str, extra: &[&str]| -> Vec<String> {
        let mut a = vec![
            "tournament",
            "--game",
            "catapult",
            "--agents",
            "random",
            "random",
            "--games",
            "16",
            "--openings",
            "8",
            "--opening-plies",
            "4",
            "--seed",
            "9",
            "--quiet",
            "--out",
            out,
        ];
        a.extend(extra);
        ok(&a);
        let mut r = csv::Reader::from_path(out).unwrap();
        let head = r.headers().unwrap().clone();
        let k = head.iter().position(|h| h == "opening_moves").unwrap();
        let mut v: Vec<String> = r.records().map(|x| x.unwrap()[k].to_string()).collect();
        v.sort();
        v.dedup();
        v
    };
    let kept = openings_of(
        &p(&d, "f.csv"),
        &[
            "--opening-filter",
            "alphabeta(depth=2)",
            "--opening-margin",
            "0.05",
        ],
    );
    assert_eq!(kept.len(), 8);
    for o in &kept {
        let w = winprob(o);
        assert!((w - 0.5).abs() <= 0.05 + 1e-9, "{o}: winprob {w}");
    }
    let all = openings_of(&p(&d, "u.csv"), &[]);
    assert!(
        all.iter().any(|o| (winprob(o) - 0.5).abs() > 0.05),
        "every unfiltered opening was already balanced: the test shows nothing"
    );
    // The filter is part of the run's configuration.
    let cfg = std::fs::read_to_string(p(&d, "f.csv.config.json")).unwrap();
    assert!(cfg.contains("within 0.05"), "{cfg}");
}

/// A run that keeps no records (as `tournament` runs) has its rows formatted
/// and its distinct-game keys computed by the workers, and the move text
/// dropped there: its file and its summary must be those of a run that
/// keeps every record, at any thread count.
#[test]
fn a_run_that_keeps_no_records_writes_and_counts_the_same() {
    let d = dir("design-streamed");
    let mut kept = args(
        "line_up(first_seat=0)",
        &["alphabeta(depth=1)", "random"],
        40,
        d.join("kept.csv"),
    );
    // Openings, so that the key covers the opening's text too.
    kept.openings = OpeningsRequest {
        count: Some(2),
        plies: Some(1),
        ..Default::default()
    };
    let a = run::run(&kept).unwrap();
    let mut streamed = kept.clone();
    streamed.out = d.join("streamed.csv.gz");
    streamed.keep_records = false;
    streamed.threads = 2;
    let b = run::run(&streamed).unwrap();
    assert!(b.records.is_empty());
    let (file_a, _) = read_rows(&kept.out, false, None).unwrap();
    let (mut file_b, _) = read_rows(&streamed.out, false, None).unwrap();
    file_b.sort_by_key(|r| r.index);
    let without_time = |rows: &[experiments::run::GameRecord]| {
        rows.iter()
            .map(|r| experiments::run::GameRecord {
                wall_ms: 0,
                ..r.clone()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(without_time(&file_a), without_time(&file_b));
    // The distinct count, from the file's own columns.
    let distinct: std::collections::HashSet<(Option<String>, String)> = file_a
        .iter()
        .map(|r| (r.opening_moves.clone(), r.moves.clone()))
        .collect();
    assert_eq!(a.summary.distinct, distinct.len());
    assert_eq!(b.summary.distinct, distinct.len());
    assert_eq!(a.summary.games, b.summary.games);
}
