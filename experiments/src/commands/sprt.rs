//! `boardlab sprt`: a sequential probability ratio test.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::{OpeningOpts, RunOpts};
use crate::research::sprt::{self, SprtArgs};
use crate::research::strength::games_csv_for;

/// Sequential probability ratio test of A against B on game pairs.
#[derive(ClapArgs)]
pub struct Args {
    /// Game string.
    #[arg(long)]
    game: String,
    /// The two agents, A (tested) then B (reference).
    #[arg(long, num_args = 2, required = true)]
    agents: Vec<String>,
    /// Elo of A over B under H0.
    #[arg(long, allow_hyphen_values = true)]
    elo0: f64,
    /// Elo of A over B under H1.
    #[arg(long, allow_hyphen_values = true)]
    elo1: f64,
    /// False positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// False negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// The most games to play before calling it inconclusive (even).
    #[arg(long, default_value_t = 20000)]
    max_games: u32,
    /// Result CSV (one row appended per test).
    #[arg(long, default_value = "runs/sprt.csv")]
    sprt: PathBuf,
    /// Games CSV (default: SPRT with -games before .csv).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    run: RunOpts,
    #[command(flatten)]
    open: OpeningOpts,
}

/// Run the test batch by batch and print its verdict.
///
/// # Errors
/// A bad game or agent spec, bad bounds or options, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let games_csv = args.out.unwrap_or_else(|| games_csv_for(&args.sprt));
    let sprt = SprtArgs {
        run: args.run.tournament(
            &args.game,
            &args.agents,
            args.max_games,
            games_csv,
            args.open,
        )?,
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
        sprt_out: args.sprt,
    };
    writeln!(out, "{}", sprt::sprt(&sprt)?)?;
    Ok(())
}
