//! `boardlab report`: REPORT.md and its plots from a results folder.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::report;

/// Regenerate REPORT.md, report.html and the SVG plots from a results folder: the answers first (from
/// the committed studies), then the details.
#[derive(ClapArgs)]
pub struct Args {
    /// The results folder (reads balance.csv, swapmap.csv and the game
    /// CSVs they name); the committed one is `results`.
    #[arg(long, default_value = "runs")]
    results: PathBuf,
    /// The report (default: RESULTS/REPORT.md); the page `report.html`
    /// goes beside it.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Study files whose answers are not run yet (their rows say how many
    /// games would settle them) (default: the `studies` folder beside
    /// RESULTS, when there is one).
    #[arg(long)]
    studies: Option<PathBuf>,
}

/// Write the report and its plots.
///
/// # Errors
/// Missing or malformed results, an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let md = args.out.unwrap_or_else(|| args.results.join("REPORT.md"));
    let studies = args.studies.or_else(|| {
        let beside = args.results.join("..").join("studies");
        beside.is_dir().then_some(beside)
    });
    let r = report::run(&args.results, &md, studies.as_deref())?;
    let text = std::fs::read_to_string(&r.markdown)?;
    let html = md.with_file_name("report.html");
    // The Markdown's plot links are relative to the results folder.
    std::fs::write(
        &html,
        report::html::page("boardlab report", &text, &args.results)?,
    )
    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", html.display()))?;
    writeln!(
        out,
        "wrote {}, {} and {} plots",
        r.markdown.display(),
        html.display(),
        r.plots.len()
    )?;
    Ok(())
}
