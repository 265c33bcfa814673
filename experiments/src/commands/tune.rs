//! `boardlab tune`: one agent parameter tuned against a baseline.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::{OpeningOpts, RunOpts, ShardOpts};
use crate::research::strength::games_csv_for;
use crate::research::tune::{self, TuneArgs};

/// Tune one agent parameter against a baseline on game pairs.
#[derive(ClapArgs)]
pub struct Args {
    /// Game string.
    #[arg(long)]
    game: String,
    /// Agent spec with one list-valued parameter, e.g. "mcts(c=[0.5,1.0,1.4])".
    #[arg(long)]
    agent: String,
    /// The baseline agent spec.
    #[arg(long)]
    baseline: String,
    /// Games per value (even: game pairs).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Per-value CSV.
    #[arg(long, default_value = "runs/tune.csv")]
    tune: PathBuf,
    /// SVG plot (default: TUNE with .svg).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Games CSV (default: TUNE with -games before .csv).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    run: RunOpts,
    #[command(flatten)]
    open: OpeningOpts,
    #[command(flatten)]
    shard: ShardOpts,
}

/// Play every value against the baseline and print the table.
///
/// # Errors
/// A bad game or agent spec, bad options, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let games_csv = args.out.unwrap_or_else(|| games_csv_for(&args.tune));
    let plot = args.plot.unwrap_or_else(|| args.tune.with_extension("svg"));
    let mut run = args
        .run
        .tournament(&args.game, &[], args.games, games_csv, args.open)?;
    run.shard = args.shard.parse()?;
    let tune = TuneArgs {
        run,
        agent: args.agent,
        baseline: args.baseline,
        tune_out: args.tune,
        plot,
    };
    writeln!(out, "{}", tune::tune(&tune)?)?;
    Ok(())
}
