//! `boardlab study`: a study file answered into one folder.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::ShardOpts;
use crate::research::study::{self, StudyArgs};
use crate::research::{balance, compare};
use crate::run::slurm::{self, SlurmOpts};

/// Run a study file (`studies/<name>.toml`: the question, the blocks and
/// comparisons, the stopping rule, the cap): plays or resumes every block
/// and writes one folder with a generated README, the summary CSVs, the
/// plots and the games (docs/studies.md).
#[derive(ClapArgs)]
pub struct Args {
    /// The study file.
    file: PathBuf,
    /// The folder written (default runs/<name>/; committed studies go to
    /// results/<name>/).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    shard: ShardOpts,
    /// Merge every block's shards (shards/<block>.<k>of<n>.csv) and write
    /// the summaries and README; a block with neither games nor shards is
    /// an error.
    #[arg(long, conflicts_with = "shard")]
    merge: bool,
    /// Worker threads (default: the file's `threads`, else one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Replace block files made with another configuration.
    #[arg(long)]
    overwrite: bool,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    slurm: SlurmArgs,
}

/// Running the study's shards on a Slurm cluster (docs/cluster.md).
#[derive(ClapArgs)]
struct SlurmArgs {
    /// Submit the study to Slurm: an array job of --tasks shards
    /// (`--shard k/n` each), then a merge job that depends on it; the batch
    /// scripts are written to the study's folder, under slurm/.
    #[arg(long, conflicts_with_all = ["shard", "merge"])]
    slurm: bool,
    /// Shards, one array task each.
    #[arg(long, default_value_t = 4, requires = "slurm")]
    tasks: u32,
    /// CPUs each task asks for; its shard plays on that many threads.
    #[arg(long, default_value_t = 1, requires = "slurm")]
    cpus_per_task: u32,
    /// Each task's time limit in Slurm's form (30, 2:00:00, 1-12).
    #[arg(long, default_value = "1:00:00", requires = "slurm")]
    time: String,
    /// The partition (default: the cluster's).
    #[arg(long, requires = "slurm")]
    partition: Option<String>,
    /// With --slurm: write the batch scripts and print their paths, submit
    /// nothing.
    #[arg(long, requires = "slurm")]
    dry_run: bool,
    /// Where a submitted study stands: each shard's state (with why a
    /// failed one failed) and the merge's.
    #[arg(long, conflicts_with_all = ["slurm", "merge", "shard"])]
    status: bool,
}

/// Run the study and print its tables.
///
/// # Errors
/// A malformed study file (the line and the field), an unknown game or
/// agent, bad shards, an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let s = study::load(&args.file)?;
    let dir = args.out.unwrap_or_else(|| study::default_out(&s));
    if args.slurm.status {
        write!(out, "{}", slurm::status(&dir)?)?;
        return Ok(());
    }
    if args.slurm.slurm {
        let a = &args.slurm;
        let opts = SlurmOpts {
            tasks: a.tasks,
            cpus_per_task: a.cpus_per_task,
            time: a.time.clone(),
            partition: a.partition.clone(),
            binary: std::env::current_exe()
                .map_err(|e| anyhow::anyhow!("cannot find this boardlab binary: {e}"))?,
        };
        let sub = slurm::submit(&s.name, &args.file, &dir, &opts, a.dry_run)?;
        match (&sub.array_job, &sub.merge_job) {
            (Some(array), Some(merge)) => writeln!(
                out,
                "submitted array job {array} ({} shards) and merge job {merge}; watch with: boardlab study {} --out {} --status",
                sub.tasks,
                args.file.display(),
                dir.display()
            )?,
            _ => writeln!(
                out,
                "dry run: wrote {} and {}; nothing submitted",
                sub.shards_script.display(),
                sub.merge_script.display()
            )?,
        }
        return Ok(());
    }
    let request = StudyArgs {
        out: dir.clone(),
        shard: args.shard.parse()?,
        merge: args.merge,
        threads: args.threads,
        progress: !args.quiet,
        overwrite: args.overwrite,
    };
    let outcome = study::run(&s, &request)?;
    if let Some((k, n)) = request.shard {
        writeln!(
            out,
            "shard {k}/{n} of study {}: {} games played, {} in its files under {}",
            s.name,
            outcome.played,
            outcome.games,
            dir.join("shards").display()
        )?;
        writeln!(
            out,
            "once every shard is done: boardlab study {} --out {} --merge",
            args.file.display(),
            dir.display()
        )?;
        return Ok(());
    }
    for name in &outcome.merged {
        writeln!(out, "merged the shards of {name}")?;
    }
    let command = crate::run::safety::command_line();
    crate::report::study::write(&dir, &s, &outcome, &command)?;
    write!(out, "{}", balance::table(&outcome.rows))?;
    if !outcome.comparisons.is_empty() {
        write!(out, "{}", compare::table(&outcome.comparisons))?;
    }
    writeln!(
        out,
        "{} games played now, {} in the study ({:.3} core-hours); written to {}",
        outcome.played,
        outcome.games,
        outcome.wall_ms as f64 / 3.6e6,
        dir.join("README.md").display()
    )?;
    Ok(())
}
