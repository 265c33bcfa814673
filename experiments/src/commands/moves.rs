//! `boardlab moves`: the legal moves of a position.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::research::inspect;

/// List the legal moves of a position, one per line, then their count.
#[derive(ClapArgs)]
pub struct Args {
    /// Game string, e.g. `slingshot(size=7)`.
    #[arg(long)]
    game: String,
    /// Start position in the game's position text (default: initial state).
    #[arg(long)]
    position: Option<String>,
    /// Moves to apply first, space-separated, in the game's notation.
    #[arg(long)]
    moves: Option<String>,
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
        &args.game,
        args.position.as_deref(),
        args.moves.as_deref(),
        args.seed,
    )?;
    writeln!(out, "{text}")?;
    Ok(())
}
