//! `boardlab rate`: Elo ratings from a paired round robin.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::{OpeningOpts, RunOpts, ShardOpts};
use crate::research::rate::{self, RateArgs};
use crate::research::strength::games_csv_for;

/// Elo ratings from a round robin in game pairs (Bradley-Terry fit), or
/// from a gauntlet of the first agent against the others; relative to an
/// anchor, or on a fixed outside scale (--fixed, e.g. Stockfish's UCI_Elo
/// levels).
#[derive(ClapArgs)]
pub struct Args {
    /// Game string.
    #[arg(long)]
    game: String,
    /// Agent specs (two or more).
    #[arg(long, num_args = 2.., required = true)]
    agents: Vec<String>,
    /// Games per pair of agents (even: game pairs).
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// The agent fixed at Elo 0 (spec or index; default the first).
    #[arg(long)]
    anchor: Option<String>,
    /// Hold an agent at a stated Elo, AGENT=ELO (agent index or spec;
    /// repeat for several, e.g. --fixed 1=1350 --fixed 2=1700): the
    /// others are fitted on that scale. Replaces --anchor.
    #[arg(long, value_name = "AGENT=ELO")]
    fixed: Vec<String>,
    /// Play only the first agent's pairings (against each other agent),
    /// not every pair.
    #[arg(long)]
    gauntlet: bool,
    /// Ratings CSV.
    #[arg(long, default_value = "runs/ratings.csv")]
    ratings: PathBuf,
    /// Games CSV (default: RATINGS with -games before .csv).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    run: RunOpts,
    #[command(flatten)]
    open: OpeningOpts,
    #[command(flatten)]
    shard: ShardOpts,
}

/// Play the round robin, fit and print the ratings.
///
/// # Errors
/// A bad game or agent spec, bad options, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let games_csv = args.out.unwrap_or_else(|| games_csv_for(&args.ratings));
    let mut run =
        args.run
            .tournament(&args.game, &args.agents, args.games, games_csv, args.open)?;
    run.shard = args.shard.parse()?;
    let fixed = args
        .fixed
        .iter()
        .map(|f| rate::parse_fixed(f))
        .collect::<Result<Vec<_>>>()?;
    let rate = RateArgs {
        run,
        anchor: args.anchor,
        fixed,
        gauntlet: args.gauntlet,
        ratings_out: args.ratings,
    };
    writeln!(out, "{}", rate::rate(&rate)?)?;
    Ok(())
}
