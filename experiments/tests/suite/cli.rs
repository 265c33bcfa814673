//! The `boardlab` command as a user runs it: the README's commands, the
//! determinism and resume promises of `tournament`, and bad input.

use crate::common::{boardlab, fails, ok, rows_without_timing, scratch};
use std::process::Command;

use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let dir = scratch("cli");
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    let _ = std::fs::remove_file(config_of(&p));
    p
}

fn config_of(p: &Path) -> PathBuf {
    PathBuf::from(format!("{}.config.json", p.display()))
}

#[test]
fn games_lists_slingshot_and_agents() {
    let out = ok(&["games"]);
    assert!(out.contains("slingshot") && out.contains("size=5|7|9") && out.contains("mcts("));
}

/// `--turns` counts whole turns, `--divide` the count under each first move,
/// and perft ignores automatic draws (the FIDE bare-kings vector).
#[test]
fn perft_turns_divide_and_draw_rules() {
    // docs/rules/sniggle.md §4.3: 9 first moves; each of Y's 9 replies continues D -> E (N-3),
    // so 81 two-turn lines.
    let out = ok(&[
        "perft", "--game", "sniggle", "--depth", "2", "--turns", "--divide",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "1 9");
    assert_eq!(lines.iter().filter(|l| l.starts_with("  ")).count(), 9);
    assert!(lines.contains(&"  4C-4D 9"), "{out}");
    assert_eq!(lines[10], "2 81");
    // The FIDE vector (the Chess Programming Wiki's perft page): 8/k1P5/8/1K6/8/8/8/8 depth 7 = 567,584;
    // under the default dead=kk a promotion capture leaves K v K, which must
    // not end the perft branch.
    let out = ok(&[
        "perft",
        "--game",
        "royal_guard(royal_powers=false)",
        "--position",
        "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
        "--depth",
        "7",
    ]);
    assert!(out.contains("\n7 567584\n"), "{out}");
    fails(
        &["perft", "--game", "catapult", "--depth", "0"],
        "out of range",
    );
    fails(
        &["perft", "--game", "catapult", "--depth", "4000000000"],
        "out of range",
    );
}

#[test]
fn perft_and_moves_reproduce_the_dossier() {
    // docs/rules/slingshot.md A.7.1: 39, 2,698, 193,000.
    let out = ok(&[
        "perft",
        "--game",
        "slingshot",
        "--moves",
        "e5,a1 chooser=B",
        "--depth",
        "3",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(&lines[..3], &["1 39", "2 2698", "3 193000"]);
    assert!(lines[3].contains("nodes per second"));
    // A.7.7 on 7×7: 29 first moves; the list ends with its count.
    let out = ok(&[
        "moves",
        "--game",
        "slingshot(size=7)",
        "--moves",
        "d4,g7 chooser=B",
    ]);
    assert!(
        out.trim_end().ends_with("29 legal moves (seat 1 to move)"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 30);
    // From a position text: A.7.4 (85 replies for Teal).
    let out = ok(&[
        "moves",
        "--game",
        "slingshot",
        "--position",
        "9/9/9/4B4/4B4/4B4/9/9/T8 T C 0 1",
    ]);
    assert!(
        out.trim_end().ends_with("85 legal moves (seat 0 to move)"),
        "{out}"
    );
}

#[test]
fn play_prints_a_whole_game() {
    let out = ok(&[
        "play",
        "--game",
        "slingshot(size=7)",
        "--agents",
        "random",
        "mcts(iterations=20)",
        "--seed",
        "5",
    ]);
    assert!(
        out.contains("record: ") && out.contains("returns: seat 0 setter/"),
        "{out}"
    );
    let record = out
        .lines()
        .find_map(|l| l.strip_prefix("record: "))
        .unwrap();
    // The record replays as a legal game.
    ok(&["moves", "--game", "slingshot(size=7)", "--moves", record]);
}

#[test]
fn bad_input_gives_one_line_errors() {
    fails(
        &["perft", "--game", "chess", "--depth", "1"],
        "unknown game \"chess\"",
    );
    fails(
        &["perft", "--game", "slingshot(size=8)", "--depth", "1"],
        "7|9",
    );
    fails(
        &["perft", "--game", "slingshot(colour=1)", "--depth", "1"],
        "unknown parameter",
    );
    fails(
        &["perft", "--game", "slingshot(", "--depth", "1"],
        "bad spec",
    );
    fails(
        &["moves", "--game", "slingshot", "--position", "9/9 B C 0 1"],
        "rows",
    );
    fails(
        &[
            "moves",
            "--game",
            "slingshot",
            "--position",
            "9/9/9/9/9/9/9/9/8Q B C 0 1",
        ],
        "unknown square letter",
    );
    fails(
        &[
            "moves",
            "--game",
            "slingshot",
            "--moves",
            "e5,a1 chooser=B e4+e6xe9",
        ],
        "not legal",
    );
    fails(
        &[
            "moves",
            "--game",
            "slingshot",
            "--moves",
            "e5,a1 chooser=B zz",
        ],
        "bad move \"zz\"",
    );
    fails(
        &["moves", "--game", "slingshot", "--moves", "e5,e5"],
        "two different squares",
    );
    fails(
        &[
            "play",
            "--game",
            "slingshot",
            "--agents",
            "mcts(iters=3)",
            "random",
        ],
        "unknown parameter",
    );
    fails(
        &[
            "play",
            "--game",
            "slingshot",
            "--agents",
            "deep_blue",
            "random",
        ],
        "unknown agent",
    );
    fails(
        &["play", "--game", "slingshot", "--agents", "random"],
        "give 2 agents",
    );
    let out = tmp("x.csv");
    fails(
        &[
            "tournament",
            "--game",
            "slingshot",
            "--agents",
            "random",
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
        "at least two agents",
    );
    fails(
        &[
            "tournament",
            "--agents",
            "random",
            "random",
            "--games",
            "1",
            "--out",
            "/proc/no/such/dir/x.csv",
            "--quiet",
        ],
        "cannot",
    );
}

const T: [&str; 8] = [
    "tournament",
    "--game",
    "slingshot(size=7)",
    "--agents",
    "mcts(iterations=40)",
    "random",
    "--quiet",
    "--seed",
];

fn tournament(out: &Path, games: &str, threads: &str, extra: &[&str]) -> String {
    let mut args: Vec<&str> = T.to_vec();
    args.extend([
        "7",
        "--games",
        games,
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(extra);
    ok(&args)
}

#[test]
fn same_seed_same_rows_for_any_thread_count() {
    let (a, b) = (tmp("t1.csv"), tmp("t2.csv"));
    let sa = tournament(&a, "12", "1", &[]);
    tournament(&b, "12", "2", &[]);
    let rows = rows_without_timing(&a);
    assert_eq!(rows.len(), 12);
    assert_eq!(rows, rows_without_timing(&b));
    // Seats alternate: agent 0 sits in seat 0 in even games.
    assert!(
        rows.iter()
            .all(|r| (r[1].parse::<u32>().unwrap() % 2 == 0) == (r[3] == "0"))
    );
    assert!(
        sa.contains("first mover: +")
            && sa.contains("\nverdict: ")
            && sa.contains("setter:           +")
            && sa.contains("n=12"),
        "{sa}"
    );
}

#[test]
fn resume_keeps_rows_drops_a_partial_row_and_refuses_other_configs() {
    let (full, part) = (tmp("full.csv"), tmp("part.csv"));
    tournament(&full, "10", "2", &[]);
    tournament(&part, "10", "2", &[]);
    // Cut the file to the header, three rows and half of the fourth.
    let text = std::fs::read_to_string(&part).unwrap();
    let mut ends = text.match_indices('\n').map(|(i, _)| i + 1);
    let keep = ends.nth(3).unwrap();
    let half = keep + (ends.next().unwrap() - keep) / 2;
    std::fs::write(&part, &text[..half]).unwrap();
    let out = boardlab(&{
        let mut a: Vec<&str> = T.to_vec();
        a.extend(["7", "--games", "10", "--out", part.to_str().unwrap()]);
        a
    });
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("dropped a half-written last row"), "{err}");
    assert_eq!(rows_without_timing(&part), rows_without_timing(&full));
    // A run with another configuration is refused, naming the file.
    let mut a: Vec<&str> = T.to_vec();
    a.extend(["8", "--games", "10", "--out", part.to_str().unwrap()]);
    let out = boardlab(&a);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another configuration"));
    // --overwrite replaces it.
    a.push("--overwrite");
    assert!(boardlab(&a).status.success());
}

#[test]
fn a_killed_run_loses_no_finished_row_and_resumes() {
    let (full, killed) = (tmp("k_full.csv"), tmp("k_killed.csv"));
    let args = |out: &Path| -> Vec<String> {
        let mut a: Vec<String> = T.iter().map(|s| s.to_string()).collect();
        a.extend(
            ["7", "--games", "40", "--threads", "1", "--out"]
                .iter()
                .map(|s| s.to_string()),
        );
        a.push(out.to_str().unwrap().to_string());
        a[4] = "mcts(iterations=400)".into();
        a
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args(&killed))
        .spawn()
        .unwrap();
    // Wait for a few finished rows, then kill -9.
    let start = std::time::Instant::now();
    loop {
        let lines = std::fs::read_to_string(&killed)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines >= 4 || start.elapsed().as_secs() > 60 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = rows_without_timing(&killed);
    assert!(
        !before.is_empty() && before.len() < 40,
        "killed after {} rows",
        before.len()
    );
    // Resume and compare with an uninterrupted run.
    let a = args(&killed);
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(&a)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = rows_without_timing(&killed);
    for row in &before {
        assert!(resumed.contains(row), "a finished row was lost");
    }
    let a = args(&full);
    assert!(
        Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .args(&a)
            .output()
            .unwrap()
            .status
            .success()
    );
    assert_eq!(resumed, rows_without_timing(&full));
}

/// The committed evidence page is what `boardlab evidence` writes now.
#[test]
fn evidence_page_is_current() {
    let page = experiments::research::evidence::evidence_page().unwrap();
    assert!(page.contains(
        "| `catapult(royal=true)` | `start` | 3 | 40,905 | docs/rules/catapult.md §1.16"
    ));
    let committed = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/EVIDENCE.md"),
    )
    .unwrap();
    assert_eq!(
        committed, page,
        "results/EVIDENCE.md is stale: run boardlab evidence --out results/EVIDENCE.md"
    );
    let out = ok(&["evidence"]);
    assert_eq!(out, page);
}

/// The committed report is what `boardlab report` writes now from the
/// committed results and study files: `REPORT.md`, `report.html` and every
/// plot, byte for byte (regenerated in a copy, so the tree is untouched).
#[test]
fn committed_report_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let d = crate::common::dir("report-current");
    copy_tree(&root.join("results"), &d.join("results"));
    copy_tree(&root.join("studies"), &d.join("studies"));
    let results = d.join("results");
    ok(&["report", "--results", results.to_str().unwrap()]);
    let mut names = vec!["REPORT.md".to_string(), "report.html".to_string()];
    for e in std::fs::read_dir(root.join("results/plots")).unwrap() {
        names.push(format!(
            "plots/{}",
            e.unwrap().file_name().to_string_lossy()
        ));
    }
    for e in std::fs::read_dir(results.join("plots")).unwrap() {
        let n = format!("plots/{}", e.unwrap().file_name().to_string_lossy());
        assert!(
            names.contains(&n),
            "results/{n} is missing: run boardlab report --results results"
        );
    }
    for n in &names {
        let committed = std::fs::read(root.join("results").join(n)).unwrap_or_default();
        let now = std::fs::read(results.join(n)).unwrap_or_default();
        assert!(
            committed == now,
            "results/{n} is stale: run boardlab report --results results"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let path = e.path();
        if e.file_type().unwrap().is_dir() {
            copy_tree(&path, &to.join(e.file_name()));
        } else {
            std::fs::copy(&path, to.join(e.file_name())).unwrap();
        }
    }
}

/// Argument errors that clap catches (a bad number, an out-of-range or
/// negative one, an unknown or misspelt flag, a missing option, options that
/// exclude each other) are one line on standard error with status 2, like
/// every other error; help still prints whole.
#[test]
fn argument_errors_are_one_line() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["tournament", "--game", "catapult", "--threads", "abc"],
            "invalid value 'abc' for '--threads",
        ),
        (
            &["solve", "--game", "sly_solitaire", "--threads", "0"],
            "0 is not in 1..=256",
        ),
        (
            &["tournament", "--gmae", "catapult"],
            "unexpected argument '--gmae' found; tip: a similar argument exists: '--game'",
        ),
        (
            &["perft", "--depth", "2"],
            "required arguments were not provided: --game <GAME>",
        ),
        (
            &["balance", "--game", "catapult", "--all"],
            "cannot be used with",
        ),
        // A negative number is a bad value, not an unknown flag.
        (
            &["tournament", "--game", "catapult", "--seed", "-3"],
            "invalid value '-3' for '--seed",
        ),
    ];
    for (args, needle) in cases {
        let out = boardlab(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
    }
    let out = boardlab(&["tournament", "--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).lines().count() > 10);
}
