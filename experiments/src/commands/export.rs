//! `boardlab export`: a records file as PGN.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args as ClapArgs;

use crate::run::records;

/// Write the two-seat games of a records file as PGN, for rating tools
/// (Ordo, BayesElo): tags and result, the moves in a comment.
#[derive(ClapArgs)]
pub struct Args {
    /// A records file (JSON Lines).
    file: PathBuf,
    /// Output PGN file.
    #[arg(long)]
    pgn: PathBuf,
}

/// Write the PGN file.
///
/// # Errors
/// A missing, empty or malformed records file, an output that cannot be
/// written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let mut text = Vec::new();
    let n = records::pgn(&args.file, &mut text)?;
    std::fs::write(&args.pgn, text)
        .map_err(|e| anyhow!("cannot write {}: {e}", args.pgn.display()))?;
    writeln!(out, "wrote {n} games to {}", args.pgn.display())?;
    Ok(())
}
