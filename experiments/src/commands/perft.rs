//! `boardlab perft`: leaf counts of the game tree.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::commands::options::PositionOpts;
use crate::research::inspect::{self, PerftArgs};

/// Count the leaf nodes of the game tree to each depth (perft).
///
/// Perft counts the move-generation tree: automatic draws by rule
/// (repetition, quiet-move counters, dead positions such as Royal
/// Guard's dead=kk, ply caps) do not end a branch; the game's real ends
/// (mate, connection, annihilation, ...) do. A ply is one move, chance
/// outcomes included; --turns counts whole turns (Sniggle's continuation
/// steps and the spinner's spin and placements are one turn). Each
/// depth's line is printed as soon as it is known.
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    at: PositionOpts,
    /// Deepest depth, in plies (in turns with --turns); 1 to 30.
    #[arg(long)]
    depth: u32,
    /// Seed of the initial state.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Count whole turns rather than plies.
    #[arg(long)]
    turns: bool,
    /// Print the count under each first move at the deepest depth.
    #[arg(long)]
    divide: bool,
}

/// Print one line per depth as it is counted.
///
/// # Errors
/// A bad game string, position, move or depth.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let perft = PerftArgs {
        game: args.at.game,
        position: args.at.position,
        moves: args.at.moves,
        seed: args.seed,
        depth: args.depth,
        turns: args.turns,
        divide: args.divide,
    };
    inspect::perft_run(&perft, out)
}
