//! `boardlab pie`: swap maps and the pie rule's value.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::RunOpts;
use crate::research::swapmap::{self, Openings, PieArgs};

/// Swap maps: the first mover's win rate q after each opening, played
/// out with no swap; the pie-rule value and the fair openings.
#[derive(ClapArgs)]
pub struct Args {
    /// A two-seat game string.
    #[arg(long)]
    game: String,
    /// The agent in both seats.
    #[arg(long, default_value = "mcts(iterations=200)")]
    agent: String,
    /// Games per opening class.
    #[arg(long, default_value_t = 20)]
    games_per_opening: u32,
    /// `all` opening classes, or a number K to sample.
    #[arg(long, default_value = "all")]
    openings: String,
    /// Seeds of the initial state, comma-separated: one map each (Bagel
    /// draws its tile layout from it; other games ignore it).
    #[arg(long, default_value = "0", value_delimiter = ',')]
    start_seeds: Vec<u64>,
    /// Summary CSV; the games go to swapmap/ beside it.
    #[arg(long, default_value = "runs/swapmap.csv")]
    out: PathBuf,
    #[command(flatten)]
    run: RunOpts,
}

/// Play (or resume) the maps and print their summary.
///
/// # Errors
/// A bad game or agent spec, bad options, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let pie = PieArgs {
        game: args.game,
        agent: args.agent,
        games_per_opening: args.games_per_opening,
        openings: Openings::parse(&args.openings)?,
        start_seeds: args.start_seeds,
        seed: args.run.seed,
        out: args.out,
        threads: args.run.threads,
        progress: !args.run.quiet,
        overwrite: args.run.overwrite,
    };
    let rows = swapmap::run(&pie)?;
    write!(out, "{}", swapmap::summary_text(&rows))?;
    writeln!(
        out,
        "{} opening rows written to {}",
        rows.len(),
        pie.out.display()
    )?;
    Ok(())
}
