//! `boardlab report`: REPORT.md and its plots from a results folder.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::report;

/// Regenerate REPORT.md and its SVG plots from the CSVs in a results folder.
#[derive(ClapArgs)]
pub struct Args {
    /// The results folder (reads balance.csv, swapmap.csv and the game
    /// CSVs they name); the committed one is `results`.
    #[arg(long, default_value = "runs")]
    results: PathBuf,
    /// The report (default: RESULTS/REPORT.md).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Write the report and its plots.
///
/// # Errors
/// Missing or malformed results, an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let md = args.out.unwrap_or_else(|| args.results.join("REPORT.md"));
    let r = report::run(&args.results, &md)?;
    writeln!(
        out,
        "wrote {} and {} plots",
        r.markdown.display(),
        r.plots.len()
    )?;
    Ok(())
}
