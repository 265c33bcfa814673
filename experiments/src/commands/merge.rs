//! `boardlab merge`: the shards of a run combined.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::run::merge::merge;
use crate::run::summarise;

/// Combine the CSVs of all shards of a run; prints the summary one run gives.
#[derive(ClapArgs)]
pub struct Args {
    /// Shard CSVs 1/n … n/n (each with its FILE.config.json).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Merged CSV.
    #[arg(long)]
    out: PathBuf,
    /// Replace an existing --out.
    #[arg(long)]
    overwrite: bool,
}

/// Merge the shards and print the run's summary.
///
/// # Errors
/// Shards of different runs, missing or overlapping shards, an output
/// that exists (without `--overwrite`) or cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let (config, records) = merge(&args.inputs, &args.out, args.overwrite)?;
    writeln!(out, "{}", summarise(&config, &records).render(&config))?;
    writeln!(
        out,
        "merged {} games from {} files into {}",
        records.len(),
        args.inputs.len(),
        args.out.display()
    )?;
    Ok(())
}
