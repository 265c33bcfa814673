//! Long runs that lose nothing: one writer per output, outputs
//! checked before the first game, corrupt configurations named, runs
//! extended by index, finished SPRTs not recorded twice, threads bounded,
//! provenance recorded.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{boardlab, dir, fails, ok, p, rows_without_timing};

const G: &str = "slingshot(size=7)";

fn tournament(out: &str, games: &str, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "tournament",
        "--game",
        G,
        "--agents",
        "random",
        "random",
        "--games",
        games,
        "--seed",
        "5",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A second run on an output another run is writing is refused at once,
/// naming the first run's pid; the first run's file is untouched by it.
#[test]
fn a_second_run_on_the_same_output_is_refused() {
    let d = dir("runs-lock");
    let out = p(&d, "t.csv");
    let mut args = tournament(&out, "2000000", &[]);
    args[11] = "1".into(); // --threads 1
    let mut first = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(strs(&args))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the first run holds the lock and has written a row.
    let lock = format!("{out}.lock");
    let start = Instant::now();
    while !(std::fs::read_to_string(&lock).is_ok_and(|t| t.contains("pid"))
        && std::fs::read_to_string(&out).is_ok_and(|t| t.lines().count() > 2))
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "first run did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let t = Instant::now();
    let second = boardlab(&strs(&args));
    let err = String::from_utf8_lossy(&second.stderr).to_string();
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains("being written by another run")
            && err.contains(&format!("pid {}", first.id())),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(5), "refused at once");
    // Once the first is gone, the same command resumes its file. The
    // killed run may have left its last row half written (a resume drops
    // it), so only whole lines are counted: the header and a row at least.
    let text = std::fs::read_to_string(&out).unwrap();
    let whole = text
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .count();
    assert!(whole > 1, "{whole} whole lines");
    let resumed = tournament(&out, "10", &[]);
    // (A smaller --games is a change of configuration, named as such.)
    fails(&strs(&resumed), "games: 2000000 -> 10");
}

/// An output that cannot be created is refused before any game is played:
/// the tournament CSV itself, and the SPRT, ratings and plot files that
/// used to be written only after every game.
#[test]
fn an_unwritable_output_is_refused_before_any_game() {
    let d = dir("runs-unwritable");
    std::fs::write(d.join("file"), "not a folder").unwrap();
    let bad = p(&d, "file/x.csv");
    fails(&strs(&tournament(&bad, "4", &[])), "file");
    let games = p(&d, "games.csv");
    for (cmd, flag) in [("sprt", "--sprt"), ("rate", "--ratings")] {
        let mut a = vec![
            cmd, "--game", G, "--agents", "random", "random", "--out", &games, flag, &bad,
            "--quiet",
        ];
        if cmd == "sprt" {
            a.extend(["--elo0", "0", "--elo1", "30", "--max-games", "4"]);
        } else {
            a.extend(["--games", "4"]);
        }
        fails(&a, "file");
        assert!(
            !Path::new(&games).exists() || rows_without_timing(&games).is_empty(),
            "{cmd}: games were played before the output was checked"
        );
    }
    fails(
        &[
            "tune",
            "--game",
            G,
            "--agent",
            "uct(iterations=[2,4])",
            "--baseline",
            "random",
            "--games",
            "2",
            "--out",
            &games,
            "--tune",
            &p(&d, "tune.csv"),
            "--plot",
            &bad,
            "--quiet",
        ],
        "file",
    );
    assert!(!Path::new(&games).exists() || rows_without_timing(&games).is_empty());
}

/// The commit a configuration should name, asked of git here: `HEAD`,
/// with `-dirty` when the binary's sources (experiments/build.rs) differ
/// from it; "unknown" without git.
fn expected_commit() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(&root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let Some(head) = git(&["rev-parse", "HEAD"]) else {
        return "unknown".into();
    };
    let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    args.extend(env!("BOARDLAB_SOURCES").split(' '));
    match git(&args) {
        Some(s) if s.is_empty() => head,
        _ => format!("{head}-dirty"),
    }
}

/// A corrupt configuration file is reported as corrupt (with the parse
/// error), not as missing; a changed configuration lists only the fields
/// that differ.
#[test]
fn a_corrupt_or_changed_configuration_is_named() {
    let d = dir("runs-config");
    let out = p(&d, "t.csv");
    ok(&strs(&tournament(&out, "4", &[])));
    let cfg = format!("{out}.config.json");
    let good = std::fs::read_to_string(&cfg).unwrap();
    // Provenance: version, commit and the command line.
    let v: serde_json::Value = serde_json::from_str(&good).unwrap();
    let prov = &v["provenance"][0];
    assert_eq!(prov["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(prov["commit"].as_str(), Some(expected_commit().as_str()));
    assert!(
        prov["command"]
            .as_str()
            .is_some_and(|c| c.contains("tournament") && c.contains("--seed 5")),
        "{prov}"
    );
    std::fs::write(&cfg, &good[..good.len() / 2]).unwrap();
    fails(&strs(&tournament(&out, "4", &[])), "is corrupt");
    std::fs::write(&cfg, &good).unwrap();
    let mut changed = tournament(&out, "4", &[]);
    changed[9] = "6".into(); // --seed 5 -> 6
    let o = boardlab(&strs(&changed));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("seed: 5 -> 6") && !err.contains("agents") && !err.contains("\"game\""),
        "{err}"
    );
    // An old configuration file (no provenance) still resumes.
    let old: serde_json::Value = serde_json::from_str(&good).unwrap();
    let mut old = old.as_object().unwrap().clone();
    old.remove("provenance");
    std::fs::write(&cfg, serde_json::to_string(&old).unwrap()).unwrap();
    let again = ok(&strs(&tournament(&out, "4", &[])));
    assert!(again.contains("played 0 games"), "{again}");
}

/// The same command with a larger `--games` plays only the new games, and
/// gives the rows of a run of the larger size from scratch, with one
/// pairing or several; a run made before job indices interleaved the
/// pairings can be extended only with one pairing.
#[test]
fn a_run_extended_from_40_to_60_games_equals_a_60_game_run() {
    let d = dir("runs-extend");
    let a = p(&d, "a.csv");
    let b = p(&d, "b.csv");
    ok(&strs(&tournament(&a, "40", &[])));
    let out = ok(&strs(&tournament(&a, "60", &[])));
    assert!(
        out.contains("played 20 games") && out.contains("60 rows"),
        "{out}"
    );
    ok(&strs(&tournament(&b, "60", &[])));
    assert_eq!(rows_without_timing(&a).len(), 60);
    assert_eq!(rows_without_timing(&a), rows_without_timing(&b));
    // Several pairings: the same, since job indices interleave the
    // pairings a game pair at a time.
    let c = p(&d, "c.csv");
    let e = p(&d, "e.csv");
    let mut three = tournament(&c, "4", &[]);
    three.insert(5, "random".into());
    ok(&strs(&three));
    three[8] = "6".into();
    let out = ok(&strs(&three));
    assert!(out.contains("played 6 games"), "{out}");
    let mut fresh = tournament(&e, "6", &[]);
    fresh.insert(5, "random".into());
    ok(&strs(&fresh));
    assert_eq!(rows_without_timing(&c).len(), 18);
    assert_eq!(rows_without_timing(&c), rows_without_timing(&e));
    // A run made before the interleaving (its config says nothing of it)
    // keeps its layout, where indices depend on the games per pairing.
    let cfg = format!("{c}.config.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    let mut v = v.as_object().unwrap().clone();
    assert_eq!(v.remove("interleaved"), Some(serde_json::Value::Bool(true)));
    std::fs::write(&cfg, serde_json::to_string(&v).unwrap()).unwrap();
    three[8] = "8".into();
    fails(&strs(&three), "only to a run of one pairing");
}

/// A finished SPRT run again adds no second row; `--max-games` errors name
/// `--max-games`.
#[test]
fn a_repeated_finished_sprt_adds_no_row() {
    let d = dir("runs-sprt");
    let sprt = p(&d, "sprt.csv");
    let args = [
        "sprt",
        "--game",
        G,
        "--agents",
        "random",
        "random",
        "--elo0",
        "0",
        "--elo1",
        "30",
        "--max-games",
        "32",
        "--sprt",
        &sprt,
        "--quiet",
    ];
    let first = ok(&args);
    let second = ok(&args);
    assert_eq!(first, second);
    let text = std::fs::read_to_string(&sprt).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    let mut odd = args.to_vec();
    odd[11] = "3";
    fails(&odd, "--max-games 3");
}

/// `--threads` beyond 4 × the cores or the games is capped with a note, and
/// a two-game run with 10,000 threads finishes at once.
#[test]
fn threads_are_capped() {
    let d = dir("runs-threads");
    let out = p(&d, "t.csv");
    let mut a = tournament(&out, "2", &[]);
    a[11] = "10000".into();
    let t = Instant::now();
    let o = boardlab(&strs(&a));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("--threads 10000 capped at"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(10));
    assert_eq!(rows_without_timing(&out).len(), 2);
}

/// `solve`: the same rows at one and two threads (wall time
/// aside), a resumed run solves nothing again, a resume of another seed or
/// of fewer positions is refused, and bad numbers are one-line errors: a
/// thread count of 0, no positions or more than one run takes, tables
/// beyond the machine's memory.
#[test]
fn solve_is_the_same_at_any_thread_count_and_resumes() {
    let d = dir("solve-threads");
    let args = |games: &'static str, seed: &'static str, threads: &'static str, out: &str| {
        let mut v = vec!["solve", "--game", "sly_solitaire(layout=random)"];
        v.extend(["--solver", "solver(mb=16,plies=any)", "--games", games]);
        v.extend(["--seed", seed, "--threads", threads]);
        let mut v: Vec<String> = v.into_iter().map(String::from).collect();
        v.extend(["--out".to_string(), out.to_string()]);
        v
    };
    let (one, two) = (p(&d, "one.csv"), p(&d, "two.csv"));
    ok(&strs(&args("3", "2026", "1", &one)));
    ok(&strs(&args("3", "2026", "2", &two)));
    let first = rows_without_timing(&one);
    assert_eq!(first.len(), 3);
    assert_eq!(first, rows_without_timing(&two));
    // Resumed: the file is kept as it was, wall times included.
    let before = std::fs::read_to_string(&two).unwrap();
    ok(&strs(&args("3", "2026", "2", &two)));
    assert_eq!(std::fs::read_to_string(&two).unwrap(), before);
    // Resuming another seed, or fewer positions than the file holds, is
    // refused rather than mixing or dropping rows.
    fails(&strs(&args("3", "1", "1", &one)), "another --seed");
    fails(&strs(&args("2", "2026", "1", &one)), "beyond --games 2");
    let o = p(&d, "x.csv");
    let base = ["solve", "--game", "sly_solitaire", "--out", &o];
    fails(
        &[&base[..], &["--threads", "0"]].concat(),
        "0 is not in 1..=256",
    );
    fails(
        &[&base[..], &["--games", "18446744073709551615"]].concat(),
        "positions for one run",
    );
    fails(
        &[&base[..], &["--games", "0"]].concat(),
        "--games must be at least 1",
    );
    if agents::solver::physical_memory_mib().is_some_and(|m| m < 2 * 65536) {
        fails(
            &[
                &base[..],
                &["--solver", "solver(mb=65536)", "--threads", "2"],
            ]
            .concat(),
            "memory",
        );
    }
}

/// An agent spec is read with the game's own search defaults, and the
/// rows and the configuration carry the values it played with: `mcts` on
/// Bagel plays its playouts to the end (`cutoff=end`), a cut-off the spec
/// gives is kept, Slingshot cuts off after its tuned 3, plain Catapult 8×8
/// evaluates at the leaf (its tuned 0), and on games not tuned (Catapult
/// 9×9) the generic `cutoff=4` stays.
#[test]
fn rows_carry_the_agent_as_the_game_reads_it() {
    let d = dir("game-defaults");
    for (game, agent, want) in [
        ("bagel", "mcts(iterations=20)", "cutoff=end"),
        ("bagel", "mcts(iterations=20,cutoff=3)", "cutoff=3"),
        ("slingshot(size=7)", "mcts(iterations=20)", "cutoff=3"),
        ("catapult", "mcts(iterations=20)", "cutoff=0"),
        ("catapult(size=9)", "mcts(iterations=20)", "cutoff=4"),
    ] {
        let out = p(&d, &format!("{}-{}.csv", game, want.replace('=', "-")));
        ok(&[
            "tournament",
            "--game",
            game,
            "--agents",
            agent,
            "random",
            "--games",
            "2",
            "--quiet",
            "--out",
            &out,
        ]);
        let config = std::fs::read_to_string(format!("{out}.config.json")).unwrap();
        assert!(config.contains(want), "{game} {agent}: {config}");
        let rows = rows_without_timing(&out);
        assert_eq!(rows.len(), 2, "{game} {agent}");
        assert!(
            rows.iter().all(|r| r.iter().any(|c| c.contains(want))),
            "{game} {agent}: {rows:?}"
        );
    }
}
