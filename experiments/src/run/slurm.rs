//! A study on a Slurm cluster: an array job of shards, then a merge job.
//!
//! [`submit`] writes two batch scripts into the study's folder,
//! `slurm/shards.sbatch` (an array job, one task per shard, each running
//! `boardlab study FILE --out DIR --shard k/n --threads
//! $SLURM_CPUS_PER_TASK`) and `slurm/merge.sbatch` (`boardlab study FILE
//! --out DIR --merge`), and submits them, the merge with
//! `--dependency=afterok:` the array, so it starts only when every shard has
//! finished well. A task that is preempted or requeued (`scontrol requeue`)
//! starts its shard again, which resumes: its games file keeps every
//! finished game, and job seeds come from the game index, so no game is lost
//! or played twice. Each task records its state in `slurm/shard-k.status`
//! (`running`, `done`, `failed: exit N`) and its output in
//! `slurm/shard-k.out`; [`status`] reads them back and says which shard
//! failed and why (the last line it printed). `docs/cluster.md` is the
//! manual; `scripts/slurm-local` gives a one-node cluster to try it on.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

/// How to run a study's shards on the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmOpts {
    /// Shards, one array task each (`--array=1-N`).
    pub tasks: u32,
    /// CPUs per task (`--cpus-per-task`); each shard plays on that many
    /// threads.
    pub cpus_per_task: u32,
    /// Each task's time limit in Slurm's form (`--time`: `MM`, `HH:MM:SS`,
    /// `D-HH`).
    pub time: String,
    /// The partition (`--partition`); the cluster's default if `None`.
    pub partition: Option<String>,
    /// The `boardlab` binary the tasks run (this one by default); on a
    /// cluster it must be on a file system every node sees.
    pub binary: PathBuf,
}

/// What [`submit`] did: the scripts it wrote and the job ids Slurm gave.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    /// Shards (array tasks).
    pub tasks: u32,
    /// The array job's id (`None` for a dry run).
    pub array_job: Option<String>,
    /// The merge job's id (`None` for a dry run).
    pub merge_job: Option<String>,
    /// The shards' batch script.
    pub shards_script: PathBuf,
    /// The merge's batch script.
    pub merge_script: PathBuf,
}

/// A value quoted for a POSIX shell: in single quotes, each `'` closed,
/// escaped and reopened.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The `#SBATCH` lines both scripts share.
fn header(name: &str, opts: &SlurmOpts, cpus: u32) -> String {
    let mut h = String::from("#!/bin/bash\n");
    let _ = writeln!(h, "#SBATCH --job-name=boardlab-{name}");
    let _ = writeln!(h, "#SBATCH --time={}", opts.time);
    let _ = writeln!(h, "#SBATCH --cpus-per-task={cpus}");
    let _ = writeln!(h, "#SBATCH --ntasks=1");
    if let Some(p) = &opts.partition {
        let _ = writeln!(h, "#SBATCH --partition={p}");
    }
    h
}

/// Checks the options before anything is written.
pub fn check(opts: &SlurmOpts) -> Result<()> {
    if opts.tasks == 0 || opts.cpus_per_task == 0 {
        bail!("--tasks and --cpus-per-task must be at least 1");
    }
    let time_ok = !opts.time.is_empty()
        && opts
            .time
            .chars()
            .all(|c| c.is_ascii_digit() || c == ':' || c == '-');
    if !time_ok {
        bail!(
            "--time {:?}: expected Slurm's form, minutes (30), HH:MM:SS (2:00:00) or D-HH (1-12)",
            opts.time
        );
    }
    if let Some(p) = &opts.partition
        && (p.is_empty() || p.contains(char::is_whitespace))
    {
        bail!("--partition {p:?}: expected a partition name");
    }
    Ok(())
}

/// The two batch scripts of a study: the shards' array job and the merge.
/// `study` is the study file, `out` the study's folder (both as the tasks
/// will see them: absolute paths).
pub fn scripts(name: &str, study: &Path, out: &Path, opts: &SlurmOpts) -> (String, String) {
    let bin = quote(&opts.binary.to_string_lossy());
    let file = quote(&study.to_string_lossy());
    let dir = out.join("slurm");
    let dir_q = quote(&dir.to_string_lossy());
    let out_q = quote(&out.to_string_lossy());
    let n = opts.tasks;
    let mut shards = header(name, opts, opts.cpus_per_task);
    let _ = writeln!(shards, "#SBATCH --array=1-{n}");
    let _ = writeln!(
        shards,
        "#SBATCH --output={}/shard-%a.out",
        dir.to_string_lossy()
    );
    // A preempted or requeued task runs again and resumes its shard.
    shards.push_str("#SBATCH --requeue\n#SBATCH --open-mode=append\n");
    let _ = write!(
        shards,
        r#"# Written by boardlab study --slurm; docs/cluster.md.
set -u
k=$SLURM_ARRAY_TASK_ID
status={dir_q}/shard-$k.status
echo "running (job $SLURM_JOB_ID, restart ${{SLURM_RESTART_COUNT:-0}}, $(hostname))" > "$status"
{bin} study {file} --out {out_q} --shard "$k/{n}" --threads "${{SLURM_CPUS_PER_TASK:-1}}" --quiet
rc=$?
if [ "$rc" -eq 0 ]; then echo done > "$status"; else echo "failed: exit $rc" > "$status"; fi
exit "$rc"
"#
    );
    let mut merge = header(name, opts, 1);
    let _ = writeln!(
        merge,
        "#SBATCH --output={}/merge.out",
        dir.to_string_lossy()
    );
    let _ = write!(
        merge,
        r#"# Written by boardlab study --slurm; runs once every shard is done.
set -u
status={dir_q}/merge.status
echo "running (job $SLURM_JOB_ID, $(hostname))" > "$status"
{bin} study {file} --out {out_q} --merge --quiet
rc=$?
if [ "$rc" -eq 0 ]; then echo done > "$status"; else echo "failed: exit $rc" > "$status"; fi
exit "$rc"
"#
    );
    (shards, merge)
}

/// Runs `sbatch --parsable ARGS SCRIPT` and returns the job id.
fn sbatch(args: &[String], script: &Path) -> Result<String> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .arg(script)
        .output()
        .map_err(|e| {
            anyhow!("cannot run sbatch: {e} (is Slurm installed? scripts/slurm-local start gives a one-node cluster)")
        })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        bail!(
            "sbatch refused {}: {}",
            script.display(),
            if line.is_empty() {
                "no message"
            } else {
                line.trim()
            }
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    // --parsable prints `id` or `id;cluster`.
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        bail!("sbatch printed {:?}, not a job id", text.trim());
    }
    Ok(id)
}

/// The file [`submit`] records its submission in.
pub fn submission_path(out: &Path) -> PathBuf {
    out.join("slurm").join("submission.json")
}

/// Writes the scripts into `out/slurm/` and (unless `dry_run`) submits the
/// array job and the merge job that depends on it. `study` and `out` are
/// made absolute, since the tasks run in their own folders.
///
/// # Errors
/// Bad options, a folder that cannot be written, `sbatch` missing or
/// refusing a job (its message, one line).
pub fn submit(
    name: &str,
    study: &Path,
    out: &Path,
    opts: &SlurmOpts,
    dry_run: bool,
) -> Result<Submission> {
    check(opts)?;
    let abs = |p: &Path| -> Result<PathBuf> {
        std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()))
    };
    let (study, out) = (abs(study)?, abs(out)?);
    let dir = out.join("slurm");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let (shards, merge) = scripts(name, &study, &out, opts);
    let mut sub = Submission {
        tasks: opts.tasks,
        shards_script: dir.join("shards.sbatch"),
        merge_script: dir.join("merge.sbatch"),
        ..Submission::default()
    };
    for (path, text) in [(&sub.shards_script, shards), (&sub.merge_script, merge)] {
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if !dry_run {
        // A new submission's states replace the last one's.
        for k in 1..=opts.tasks {
            let _ = std::fs::remove_file(dir.join(format!("shard-{k}.status")));
        }
        let _ = std::fs::remove_file(dir.join("merge.status"));
        let array = sbatch(&[], &sub.shards_script)?;
        let merge = sbatch(
            &[
                format!("--dependency=afterok:{array}"),
                "--kill-on-invalid-dep=yes".into(),
            ],
            &sub.merge_script,
        )?;
        sub.array_job = Some(array);
        sub.merge_job = Some(merge);
    }
    let path = submission_path(&out);
    std::fs::write(&path, serde_json::to_string_pretty(&sub)? + "\n")
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(sub)
}

/// The state one task recorded, with the last line it printed when it
/// failed. A task whose file still says `running` is checked with Slurm
/// ([`slurm_job_state`]): a job Slurm has ended, or no longer knows, never
/// reached the end of its script (killed at start, say), so it is failed.
fn task_state(dir: &Path, stem: &str) -> String {
    let read = || {
        std::fs::read_to_string(dir.join(format!("{stem}.status")))
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "pending (not started)".into())
    };
    let mut state = read();
    if let Some(job) = state
        .strip_prefix("running (job ")
        .and_then(|r| r.split([',', ')']).next())
        .map(str::to_string)
    {
        match slurm_job_state(&job) {
            Some(JobState::Live(s)) if s != "RUNNING" => {
                state = format!("{state}; Slurm: {s}");
            }
            // The task may have written its end between the two reads.
            Some(JobState::Ended(_) | JobState::Unknown) if read() != state => state = read(),
            Some(JobState::Ended(s)) => {
                state = format!("failed: Slurm ended job {job} ({s}) before the task finished");
            }
            Some(JobState::Unknown) => {
                state =
                    format!("failed: Slurm no longer knows job {job}, and the task never finished");
            }
            _ => {}
        }
    }
    if !state.starts_with("failed") {
        return state;
    }
    let out = std::fs::read_to_string(dir.join(format!("{stem}.out"))).unwrap_or_default();
    match out.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(line) => format!("{state}: {}", line.trim()),
        None => state,
    }
}

/// What Slurm says of a job.
enum JobState {
    /// Pending, running, completing, requeued, suspended: its state word.
    Live(String),
    /// Ended (completed, failed, cancelled, timed out, ...): its state word.
    Ended(String),
    /// Not in the controller's records (purged some minutes after its end).
    Unknown,
}

/// Asks `squeue` for job `job`'s state, ended jobs included (`-t all`);
/// `None` when `squeue` cannot be run or the controller does not answer.
/// The line of `job` itself is read: asked for an array's own id (which
/// its last task to start keeps), `squeue` lists every task of the array,
/// and another task may have ended while this one runs.
fn slurm_job_state(job: &str) -> Option<JobState> {
    let out = Command::new("squeue")
        .args(["-h", "-t", "all", "-j", job, "-o", "%A %T"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let word = squeue_state(&text, job).map(str::to_string);
    match word {
        Some(w) if out.status.success() => Some(match w.as_str() {
            "PENDING" | "RUNNING" | "COMPLETING" | "CONFIGURING" | "SUSPENDED" | "REQUEUED"
            | "REQUEUE_HOLD" | "REQUEUE_FED" | "RESIZING" | "SIGNALING" | "STAGE_OUT"
            | "STOPPED" | "SPECIAL_EXIT" | "RESV_DEL_HOLD" => JobState::Live(w),
            _ => JobState::Ended(w),
        }),
        _ if String::from_utf8_lossy(&out.stderr).contains("Invalid job id") => {
            Some(JobState::Unknown)
        }
        _ => None,
    }
}

/// The state word of job `job` in the output of `squeue -h -o "%A %T"`
/// (a job id and its state a line), `None` if no line is that job's.
pub fn squeue_state<'a>(text: &'a str, job: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        let mut f = l.split_whitespace();
        if f.next() == Some(job) {
            f.next()
        } else {
            None
        }
    })
}

/// Where a submitted study stands: each shard's state (pending, running,
/// done, or failed with its exit status and last line), then the merge's;
/// the first line names the jobs.
///
/// # Errors
/// A folder with no submission.
pub fn status(out: &Path) -> Result<String> {
    let path = submission_path(out);
    let text = std::fs::read_to_string(&path).map_err(|_| {
        anyhow!(
            "{} has no Slurm submission ({} is missing); submit with --slurm",
            out.display(),
            path.display()
        )
    })?;
    let sub: Submission = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a submission record", path.display()))?;
    let dir = out.join("slurm");
    let mut s = String::new();
    match (&sub.array_job, &sub.merge_job) {
        (Some(a), Some(m)) => {
            let _ = writeln!(s, "array job {a} ({} shards), merge job {m}", sub.tasks);
        }
        _ => {
            let _ = writeln!(
                s,
                "dry run: scripts written, nothing submitted ({})",
                sub.shards_script.display()
            );
        }
    }
    let mut failed = Vec::new();
    for k in 1..=sub.tasks {
        let st = task_state(&dir, &format!("shard-{k}"));
        if st.starts_with("failed") {
            failed.push(k);
        }
        let _ = writeln!(s, "shard {k}/{}: {st}", sub.tasks);
    }
    let merge = task_state(&dir, "merge");
    let merge = if !failed.is_empty() && merge.starts_with("pending") {
        "not started: a shard failed (fix it, then submit again: finished games are kept)"
            .to_string()
    } else {
        merge
    };
    let _ = writeln!(s, "merge: {merge}");
    Ok(s)
}
