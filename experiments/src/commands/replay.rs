//! `boardlab replay`: a recorded game board by board, or every record
//! checked.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::run::records;

/// Print the boards of a recorded game ply by ply, or check every game
/// of a games file (a run's `FILE.csv` or `FILE.csv.gz`) or a records file
/// (JSON Lines, `.jsonl` or `.jsonl.gz`).
#[derive(ClapArgs)]
pub struct Args {
    /// A games file (`FILE.csv`, `FILE.csv.gz`) or a records file (JSON
    /// Lines, one game per line; `.jsonl` or `.jsonl.gz`).
    file: PathBuf,
    /// The game index of the game to print (default: the first record).
    #[arg(long, conflicts_with = "verify")]
    index: Option<u64>,
    /// Replay every record, checking each move's legality and the
    /// recorded plies, turns, returns, winners and end reason; exit 2
    /// naming the first record that does not reproduce.
    #[arg(long)]
    verify: bool,
    /// Also draw every position of the game as SVG in this folder
    /// (`ply-0000.svg` is the start).
    #[arg(long, conflicts_with = "verify", value_name = "DIR")]
    svg: Option<PathBuf>,
}

/// Print the game, or verify every record.
///
/// # Errors
/// A missing, empty or malformed file, a game that does not
/// reproduce, an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    if args.verify {
        let n = records::verify(&args.file)?;
        writeln!(out, "{n} games in {} reproduce", args.file.display())?;
    } else {
        records::replay_svg(&args.file, args.index, out, args.svg.as_deref())?;
    }
    Ok(())
}
