//! `boardlab moves`: the legal moves of a position.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::commands::options::PositionOpts;
use crate::research::inspect;

/// List the legal moves of a position, one per line, then their count.
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    at: PositionOpts,
    /// Seed of the initial state (games with random set-ups).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Print the moves and their count.
///
/// # Errors
/// A bad game string, position or move.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let text = inspect::moves_text(
        &args.at.game,
        args.at.position.as_deref(),
        args.at.moves.as_deref(),
        args.seed,
    )?;
    writeln!(out, "{text}")?;
    Ok(())
}
