//! `boardlab show`: a position as text or SVG.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::commands::options::PositionOpts;
use crate::research::show::show;

/// Show a position: the terminal board, or with --svg an SVG picture
/// (cells with their names, pieces, Bagel's tiles, King's Colour's
/// castles and walls, the Sly fields and centres, Andalusia's lines).
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    at: PositionOpts,
    /// Seed of the initial position (games with random set-ups).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write the picture to this SVG file.
    #[arg(long)]
    svg: Option<PathBuf>,
}

/// Print the board, or write its picture.
///
/// # Errors
/// A bad game string, position or move, an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let text = show(
        &args.at.game,
        args.at.position.as_deref(),
        args.at.moves.as_deref(),
        args.seed,
        args.svg.as_deref(),
    )?;
    writeln!(out, "{text}")?;
    Ok(())
}
