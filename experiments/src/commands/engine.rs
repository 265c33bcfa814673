//! `boardlab engine`: the UGI protocol on standard input and output.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::research::ugi;

/// Speak UGI (the game-agnostic UCI of the cutegames match runner) on
/// standard input and output, searching with one agent: `ugi`,
/// `isready`, `setoption name seed|agent value V`, `uginewgame`,
/// `position startpos|fen <text> [moves M...]`, `go movetime N | nodes N
/// | depth N | wtime N btime N ...`, `query gameover|p1turn|result`,
/// `stop`, `quit`. See docs/protocol.md for a worked session.
#[derive(ClapArgs)]
pub struct Args {
    /// Game string.
    #[arg(long)]
    game: String,
    /// Agent spec; `go` limits replace its budget.
    #[arg(long)]
    agent: String,
}

/// Answer commands from standard input until `quit` or its end.
///
/// # Errors
/// A bad game or agent spec, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    ugi::engine(&args.game, &args.agent, &mut std::io::stdin().lock(), out)
}
