//! `boardlab study --slurm` on a real Slurm cluster: the one-node cluster of
//! `scripts/slurm-local start` (CI starts it). Without a cluster each test
//! says so and is skipped (returns).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{dir, ok, p, rows_without_timing};

/// Whether a Slurm cluster takes jobs here; otherwise says the test is
/// skipped.
fn cluster(test: &str) -> bool {
    let up = Command::new("sinfo")
        .args(["-h", "-o", "%a"])
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("up"));
    if !up {
        eprintln!(
            "{test}: skipped: no Slurm cluster (scripts/slurm-local start makes a one-node one)"
        );
    }
    up
}

/// A small study of two blocks, written into `d`.
fn study(d: &Path, agent: &str, games: u32) -> String {
    let file = p(d, "tiny.toml");
    std::fs::write(
        &file,
        format!(
            "question = \"Does the first mover win more often in Slingshot 7x7?\"\n\
             seed = 5\ngames = {games}\n\n\
             [[block]]\nname = \"random\"\ngame = \"slingshot(size=7)\"\nagent = \"random\"\n\n\
             [[block]]\nname = \"searching\"\ngame = \"slingshot(size=7)\"\nagent = \"{agent}\"\n"
        ),
    )
    .unwrap();
    file
}

/// Polls `--status` until the merge is done (or a shard failed, or the
/// time runs out); returns the last status text.
fn wait_for_merge(file: &str, out: &str, limit: Duration) -> String {
    let start = Instant::now();
    loop {
        let s = ok(&["study", file, "--out", out, "--status"]);
        if s.contains("merge: done") || s.contains("failed") || start.elapsed() > limit {
            return s;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Writes the study's Slurm scripts into `out` without submitting them
/// (two shards); returns what `--dry-run` printed.
fn dry_run(file: &str, out: &str) -> String {
    ok(&[
        "study",
        file,
        "--out",
        out,
        "--slurm",
        "--tasks",
        "2",
        "--dry-run",
    ])
}

/// The games files of a study folder, each with its rows (timings aside).
fn games_of(out: &Path) -> Vec<(String, Vec<Vec<String>>)> {
    let mut files: Vec<(String, Vec<Vec<String>>)> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.to_string_lossy().ends_with(".csv.gz"))
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            (name, rows_without_timing(&f))
        })
        .collect();
    files.sort();
    files
}

/// A study submitted as an array job of two shards and a merge job gives
/// the files the same study gives on one machine.
#[test]
fn slurm_array_job_equals_one_machine() {
    if !cluster("slurm_array_job_equals_one_machine") {
        return;
    }
    let d = dir("slurm-array");
    let file = study(&d, "mcts(iterations=20)", 12);
    let local = p(&d, "local");
    ok(&["study", &file, "--out", &local, "--quiet"]);
    let remote = p(&d, "cluster");
    let sub = ok(&[
        "study",
        &file,
        "--out",
        &remote,
        "--slurm",
        "--tasks",
        "2",
        "--cpus-per-task",
        "1",
        "--time",
        "10",
    ]);
    assert!(sub.contains("array job"), "{sub}");
    let status = wait_for_merge(&file, &remote, Duration::from_secs(240));
    assert!(status.contains("merge: done"), "{status}");
    assert!(status.contains("shard 1/2: done") && status.contains("shard 2/2: done"));
    let (a, b) = (games_of(Path::new(&local)), games_of(Path::new(&remote)));
    assert_eq!(a.len(), 2, "two blocks' games files in {local}");
    assert_eq!(a, b);
    assert!(Path::new(&remote).join("README.md").exists());
}

/// A task requeued in the middle of its shard starts again and resumes it:
/// the merged files still equal one machine's, and the shard's output says
/// it resumed.
#[test]
fn slurm_requeued_task_resumes_its_shard() {
    if !cluster("slurm_requeued_task_resumes_its_shard") {
        return;
    }
    let d = dir("slurm-requeue");
    // Slow enough games that the first shard is mid-way when requeued.
    let file = study(&d, "mcts(iterations=3000)", 24);
    let local = p(&d, "local");
    ok(&["study", &file, "--out", &local, "--quiet"]);
    let remote = p(&d, "cluster");
    let sub = ok(&[
        "study", &file, "--out", &remote, "--slurm", "--tasks", "2", "--time", "10",
    ]);
    let array = sub
        .split_whitespace()
        .skip_while(|w| *w != "job")
        .nth(1)
        .unwrap_or_else(|| panic!("no array job id in {sub:?}"))
        .to_string();
    // Wait until shard 1 has finished a game of the searching block (the
    // games file is read as a resumed run reads it), then requeue it.
    let live = Path::new(&remote).join("shards/searching.1of2.csv.gz");
    let start = Instant::now();
    loop {
        let rows = experiments::run::storage::open(&live).map_or(0, |mut r| {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut r, &mut text);
            text.lines().count().saturating_sub(1)
        });
        if rows >= 1 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "shard 1 never played"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let rq = Command::new("scontrol")
        .args(["requeue", &format!("{array}_1")])
        .output()
        .unwrap();
    assert!(
        rq.status.success(),
        "{}",
        String::from_utf8_lossy(&rq.stderr)
    );
    // Slurm holds a requeued job for two minutes before it may start
    // again; once it is pending, a test need not wait for that, but it
    // waits two seconds more: slurmd refuses to launch a job in the same
    // second its credential was revoked by the requeue ("Job credential
    // revoked", which failed the task at once in a CI run).
    let task = format!("{array}_1");
    let start = Instant::now();
    loop {
        let st = Command::new("squeue")
            .args(["-h", "-j", &task, "-o", "%T"])
            .output()
            .unwrap();
        if String::from_utf8_lossy(&st.stdout).contains("PENDING") {
            std::thread::sleep(Duration::from_secs(2));
            let up = Command::new("scontrol")
                .args(["update", &format!("jobid={task}"), "starttime=now"])
                .output()
                .unwrap();
            assert!(
                up.status.success(),
                "{}",
                String::from_utf8_lossy(&up.stderr)
            );
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the requeued task never became pending: {}",
            String::from_utf8_lossy(&st.stdout)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = wait_for_merge(&file, &remote, Duration::from_secs(300));
    assert!(status.contains("merge: done"), "{status}");
    let log = std::fs::read_to_string(Path::new(&remote).join("slurm/shard-1.out")).unwrap();
    assert!(
        log.contains("resuming"),
        "the requeued shard did not resume:\n{log}"
    );
    assert_eq!(games_of(Path::new(&local)), games_of(Path::new(&remote)));
}

/// Without `sbatch` on the path, `--slurm` is a one-line error naming the
/// command; `--dry-run` writes the scripts and submits nothing (neither
/// needs a cluster).
#[test]
fn slurm_without_sbatch_is_one_line_and_dry_run_writes_the_scripts() {
    let d = dir("slurm-missing");
    let file = study(&d, "mcts(iterations=5)", 2);
    let out = p(&d, "out");
    let empty = d.join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["study", &file, "--out", &out, "--slurm", "--tasks", "2"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: cannot run sbatch:") && err.trim().lines().count() == 1,
        "{err}"
    );
    let dry = dry_run(&file, &out);
    assert!(dry.starts_with("dry run: wrote "), "{dry}");
    let script = std::fs::read_to_string(Path::new(&out).join("slurm/shards.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --array=1-2") && script.contains("--shard \"$k/2\""));
    let st = ok(&["study", &file, "--out", &out, "--status"]);
    assert!(
        st.starts_with("dry run: scripts written, nothing submitted"),
        "{st}"
    );
}

/// A task whose state file still says `running` is checked with `squeue`
/// (a stand-in script here, so no cluster is needed): a job Slurm ended
/// before the script's end (the requeued task that slurmd refused to
/// launch, in a CI run) or no longer knows is reported failed, which holds
/// the merge; a pending or running one stays running, with Slurm's word.
#[test]
fn status_asks_slurm_about_a_task_still_marked_running() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir("slurm-lost");
    let file = study(&d, "mcts(iterations=5)", 2);
    let out = p(&d, "out");
    dry_run(&file, &out);
    let slurm = Path::new(&out).join("slurm");
    std::fs::write(slurm.join("shard-1.status"), "done\n").unwrap();
    std::fs::write(
        slurm.join("shard-2.status"),
        "running (job 33, restart 0, node7)\n",
    )
    .unwrap();
    let bin = d.join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status_with = |script: &str| {
        let squeue = bin.join("squeue");
        std::fs::write(&squeue, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&squeue, std::fs::Permissions::from_mode(0o755)).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .args(["study", &file, "--out", &out, "--status"])
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    // What the stand-in squeue says, and what --status makes of it (a
    // controller that does not answer leaves the task's own word).
    let running = "shard 2/2: running (job 33, restart 0, node7)";
    for (squeue, want) in [
        (
            "echo 33 FAILED",
            "shard 2/2: failed: Slurm ended job 33 (FAILED) before the task finished".into(),
        ),
        // Job 33 keeps its array's id, so squeue lists the array's other
        // task too, here ended first.
        (
            "printf '34 COMPLETED\\n33 RUNNING\\n'",
            format!("{running}\n"),
        ),
        (
            "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1",
            "shard 2/2: failed: Slurm no longer knows job 33".into(),
        ),
        ("echo 33 PENDING", format!("{running}; Slurm: PENDING\n")),
        ("echo 33 RUNNING", format!("{running}\n")),
        (
            "echo 'Unable to contact slurm controller' >&2; exit 1",
            format!("{running}\n"),
        ),
    ] {
        let s = status_with(squeue);
        assert!(s.contains(&want), "{squeue}: {s}");
        assert_eq!(
            s.contains("merge: not started: a shard failed"),
            want.contains("failed"),
            "{squeue}: {s}"
        );
    }
}
