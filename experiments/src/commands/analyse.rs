//! `boardlab analyse`: one position searched by one agent.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::commands::options::PositionOpts;
use crate::research::analyse::analyse;

/// Search one position with one agent: `info` lines as the search goes
/// (depth or iterations, score, win probability, proven result, nodes,
/// speed, principal variation), then `bestmove M`.
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    at: PositionOpts,
    /// Agent spec.
    #[arg(long)]
    agent: String,
    /// Seed of the initial position and the agent.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Search and print the `info` lines and the best move.
///
/// # Errors
/// A bad game or agent spec, position or move.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let best = analyse(
        &args.at.game,
        args.at.position.as_deref(),
        args.at.moves.as_deref(),
        &args.agent,
        args.seed,
        out,
    )?;
    writeln!(out, "{best}")?;
    Ok(())
}
