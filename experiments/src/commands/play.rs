//! `boardlab play`: one game, board by board.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::commands::options::PositionOpts;
use crate::research::play::{PlayArgs, play_game};

/// Play one game, printing the board after each ply and the record at the end.
///
/// A `human` seat reads its moves from standard input, one per line in
/// the game's notation (an illegal one is answered with the rule it
/// breaks); `moves [CELL]` lists the legal moves, `undo` takes back your
/// last turn, `hint` asks the opposing agent, `help` lists the commands,
/// `quit` (or the end of input) abandons the game.
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    at: PositionOpts,
    /// One agent spec per seat, seat 0 first (`human` for a person).
    #[arg(long, num_args = 1.., required = true)]
    agents: Vec<String>,
    /// Append the finished game's record (one JSON line, as in
    /// `FILE.records.jsonl`) to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Seed of the game and the agents.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print each searching agent's `info` lines before its move.
    #[arg(long)]
    verbose: bool,
}

/// Play the game, reading a human seat's moves from standard input.
///
/// # Errors
/// A bad game or agent spec, position, move or record file.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let play = PlayArgs {
        game: args.at.game,
        agents: args.agents,
        seed: args.seed,
        verbose: args.verbose,
        position: args.at.position,
        moves: args.at.moves,
        record: args.record,
    };
    let end = play_game(&play, &mut std::io::stdin().lock(), out)?;
    writeln!(out, "{end}")?;
    Ok(())
}
