//! `boardlab balance`: first-mover advantage, or a strength ladder.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::{OpeningOpts, RunOpts};
use crate::research::balance::{self, BalanceArgs};
use crate::research::ladder::{self, LadderArgs};

/// First-mover advantage: each game's agent plays itself (seats
/// alternated) beside a random-against-random baseline; writes one
/// summary row per game and agent.
#[derive(ClapArgs)]
pub struct Args {
    /// Game string (repeatable), e.g. --game catapult --game "pie(catapult)".
    #[arg(long)]
    game: Vec<String>,
    /// Every registered game at its defaults.
    #[arg(long, conflicts_with = "game")]
    all: bool,
    /// The agent that plays itself.
    #[arg(long, default_value = "mcts(iterations=1000)")]
    agent: String,
    /// Games per game and agent.
    #[arg(long, default_value_t = 400)]
    games: u32,
    /// Summary CSV; the games go to balance/ beside it.
    #[arg(long, default_value = "runs/balance.csv")]
    out: PathBuf,
    /// Skip the random-against-random baseline.
    #[arg(long)]
    no_baseline: bool,
    /// A strength ladder, weakest first (`A1,A2,...` or several values;
    /// commas inside an agent's parentheses stay): every rung plays
    /// itself (--games each) and the rungs play a paired round robin
    /// (--rating-games per pairing) that rates them in Elo, first rung
    /// 0. Rows go to balance.csv and ladder.csv beside --out. Replaces
    /// --agent.
    #[arg(long, num_args = 1.., value_name = "A")]
    ladder: Vec<String>,
    /// Games per pairing of rungs in the ladder's rating round robin.
    #[arg(long, default_value_t = 40)]
    rating_games: u32,
    #[command(flatten)]
    run: RunOpts,
    #[command(flatten)]
    open: OpeningOpts,
}

/// Play every block (or the ladder) and print the table.
///
/// # Errors
/// A bad game or agent spec, bad options, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let Args {
        game,
        all,
        agent,
        games,
        out: csv,
        no_baseline,
        ladder,
        rating_games,
        run,
        open,
    } = args;
    let mut list = game;
    if all {
        list.extend(balance::all_games());
    }
    if !ladder.is_empty() {
        let args = LadderArgs {
            games: list,
            rungs: ladder::split_rungs(&ladder),
            games_per_rung: games,
            rating_games,
            seed: run.seed,
            out: csv.clone(),
            threads: run.threads,
            progress: !run.quiet,
            overwrite: run.overwrite,
            openings: open.request(),
        };
        let rows = ladder::run(&args)?;
        write!(out, "{}", ladder::table(&rows))?;
        writeln!(
            out,
            "rows written to {} and {}",
            csv.display(),
            ladder::ladder_path(&csv).display()
        )?;
        return Ok(());
    }
    let args = BalanceArgs {
        games: list,
        agent,
        games_per_block: games,
        seed: run.seed,
        out: csv.clone(),
        threads: run.threads,
        progress: !run.quiet,
        baseline: !no_baseline,
        overwrite: run.overwrite,
        openings: open.request(),
    };
    let rows = balance::run(&args)?;
    write!(out, "{}", balance::table(&rows))?;
    writeln!(out, "rows written to {}", csv.display())?;
    Ok(())
}
