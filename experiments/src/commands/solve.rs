//! `boardlab solve`: start positions solved exactly.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::research::solve::solve_run;

/// Solve the start positions of a game with the exact solver, one per
/// game index (seeded as `tournament` seeds its games); CSV rows to --out
/// and a summary to X.summary.txt beside an output X.csv.
#[derive(ClapArgs)]
pub struct Args {
    /// Game string.
    #[arg(long)]
    game: String,
    /// The solver spec, e.g. "solver(mb=256,plies=any)".
    #[arg(long, default_value = "solver")]
    solver: String,
    /// Start positions to solve.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Run seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions solved at once, each thread with its own solver and
    /// table (memory: threads x the solver's mb).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Output CSV.
    #[arg(long)]
    out: PathBuf,
}

/// Solve, write the rows and print the summary.
///
/// # Errors
/// A bad game or solver spec, or an output that cannot be written.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let text = solve_run(
        &args.game,
        &args.solver,
        args.games,
        args.seed,
        args.threads as usize,
        &args.out,
    )?;
    writeln!(out, "{text}")?;
    Ok(())
}
