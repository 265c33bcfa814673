//! `boardlab evidence`: the evidence page.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args as ClapArgs;

use crate::research::evidence::evidence_page;

/// Write the evidence page: per game, the perft vectors with their
/// sources, the reference-generator diffs and cross-engine agreement.
#[derive(ClapArgs)]
pub struct Args {
    /// Output Markdown file (standard output if not given).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Write the page to `--out` or print it.
///
/// # Errors
/// A vector that does not reproduce, or an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let page = evidence_page()?;
    match args.out {
        Some(p) => {
            std::fs::write(&p, &page).map_err(|e| anyhow!("cannot write {}: {e}", p.display()))?;
            writeln!(out, "wrote {}", p.display())?;
        }
        None => write!(out, "{page}")?,
    }
    Ok(())
}
