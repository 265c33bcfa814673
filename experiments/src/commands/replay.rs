//! `boardlab replay`: a recorded game board by board, or every record
//! checked.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::run::records;

/// Print the boards of a recorded game ply by ply, or check every game
/// of a records file (`FILE.csv.records.jsonl`, written beside every
/// run's CSV).
#[derive(ClapArgs)]
pub struct Args {
    /// A records file (JSON Lines, one game per line).
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
/// A missing, empty or malformed records file, a record that does not
/// reproduce, an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    if args.verify {
        let n = records::verify(&args.file)?;
        writeln!(out, "{n} records in {} reproduce", args.file.display())?;
    } else {
        records::replay_svg(&args.file, args.index, out, args.svg.as_deref())?;
    }
    Ok(())
}
