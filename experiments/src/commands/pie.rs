//! `boardlab pie`: swap maps and the pie rule's value.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::{RunOpts, UntilOpts};
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
    /// An adaptive map: rounds of games go only to the openings that can
    /// still be the fairest, until the pie value's interval meets the rule
    /// (--games-per-opening is the first round; --max-games caps the map).
    #[command(flatten)]
    until: UntilOpts,
}

/// Play (or resume) the maps and print their summary.
///
/// # Errors
/// A bad game or agent spec, bad options, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let (until, max_games) = args.until.resolve(0, false)?;
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
        until: until.map(|u| (u, u64::from(max_games))),
    };
    let outcome = swapmap::run(&pie)?;
    let rows = outcome.rows;
    write!(out, "{}", swapmap::summary_text(&rows))?;
    write!(out, "{}", swapmap::race_text(&outcome.races))?;
    writeln!(
        out,
        "{} opening rows written to {}",
        rows.len(),
        pie.out.display()
    )?;
    Ok(())
}
