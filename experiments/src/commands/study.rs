//! `boardlab study`: a study file answered into one folder.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::ShardOpts;
use crate::research::study::{self, StudyArgs};
use crate::research::{balance, compare};

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
}

/// Run the study and print its tables.
///
/// # Errors
/// A malformed study file (the line and the field), an unknown game or
/// agent, bad shards, an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let s = study::load(&args.file)?;
    let dir = args.out.unwrap_or_else(|| study::default_out(&s));
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
        writeln!(out, "merged the shards of block {name}")?;
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
