//! Unit tests of `experiments::run::slurm`.

use std::path::Path;

use experiments::run::slurm::*;

fn opts() -> SlurmOpts {
    SlurmOpts {
        tasks: 3,
        cpus_per_task: 2,
        time: "1:00:00".into(),
        partition: Some("short".into()),
        binary: "/opt/it's/boardlab".into(),
    }
}

#[test]
fn the_scripts_hold_the_array_the_resources_and_the_commands() {
    let (shards, merge) = scripts(
        "dagger",
        Path::new("/s/dagger.toml"),
        Path::new("/r/dagger"),
        &opts(),
    );
    for line in [
        "#SBATCH --array=1-3",
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --time=1:00:00",
        "#SBATCH --partition=short",
        "#SBATCH --requeue",
        "#SBATCH --output=/r/dagger/slurm/shard-%a.out",
        r#"'/opt/it'\''s/boardlab' study '/s/dagger.toml' --out '/r/dagger' --shard "$k/3" --threads "${SLURM_CPUS_PER_TASK:-1}" --quiet"#,
    ] {
        assert!(shards.lines().any(|l| l == line), "{line}\n{shards}");
    }
    assert!(merge.contains("--merge --quiet") && merge.contains("#SBATCH --cpus-per-task=1"));
    assert!(!merge.contains("--array"));
}

#[test]
fn bad_options_are_refused_before_anything_is_written() {
    for (o, needle) in [
        (SlurmOpts { tasks: 0, ..opts() }, "at least 1"),
        (
            SlurmOpts {
                time: "1h".into(),
                ..opts()
            },
            "--time \"1h\"",
        ),
        (
            SlurmOpts {
                partition: Some("a b".into()),
                ..opts()
            },
            "--partition",
        ),
    ] {
        let e = check(&o).unwrap_err().to_string();
        assert!(e.contains(needle), "{e}");
    }
}

/// `--status` reads the tasks' state files: a failed shard with its exit
/// status and last line, the merge left unstarted because of it.
#[test]
fn status_names_the_failed_shard_and_why() {
    let d = crate::common::dir("slurm-status");
    let slurm = d.join("slurm");
    std::fs::create_dir_all(&slurm).unwrap();
    assert!(
        status(&d)
            .unwrap_err()
            .to_string()
            .contains("no Slurm submission")
    );
    let sub = Submission {
        tasks: 3,
        array_job: Some("41".into()),
        merge_job: Some("42".into()),
        ..Submission::default()
    };
    std::fs::write(submission_path(&d), serde_json::to_string(&sub).unwrap()).unwrap();
    std::fs::write(slurm.join("shard-1.status"), "done\n").unwrap();
    std::fs::write(slurm.join("shard-2.status"), "failed: exit 2\n").unwrap();
    std::fs::write(
        slurm.join("shard-2.out"),
        "resuming x: 3 games done, 5 to play\nerror: cannot write /r/x.csv.gz: No space left on device\n\n",
    )
    .unwrap();
    let s = status(&d).unwrap();
    assert!(
        s.starts_with("array job 41 (3 shards), merge job 42\n"),
        "{s}"
    );
    assert!(s.contains("shard 1/3: done\n"), "{s}");
    assert!(
        s.contains(
            "shard 2/3: failed: exit 2: error: cannot write /r/x.csv.gz: No space left on device\n"
        ),
        "{s}"
    );
    assert!(s.contains("shard 3/3: pending (not started)\n"), "{s}");
    assert!(s.contains("merge: not started: a shard failed"), "{s}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Asked for an array's own id, `squeue -j` lists every task of the array
/// (seen on Debian's slurm-wlm: `squeue -h -t all -j 19 -o "%A %i %T"`
/// printed `19 19_2 RUNNING` and `20 19_1 RUNNING`). A test run once read
/// the first line, another task's `COMPLETED`, and called a running shard
/// failed. The state is the asked job's own line, wherever it comes.
#[test]
fn a_task_state_is_its_own_line_not_its_arrays_first() {
    let out = "9 COMPLETED\n7 RUNNING\n";
    assert_eq!(squeue_state(out, "7"), Some("RUNNING"));
    assert_eq!(squeue_state(out, "9"), Some("COMPLETED"));
    assert_eq!(squeue_state(out, "70"), None);
    assert_eq!(squeue_state("", "7"), None);
}
