//! `boardlab balance`: first-mover advantage, or a strength ladder.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::{OpeningOpts, RunOpts, UntilOpts};
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
    #[arg(long)]
    games: Option<u32>,
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
    /// Re-summarise every row of --out from its games, playing nothing:
    /// scores, intervals (level 0.05/m over the file's m rows), p-values,
    /// verdicts and Elo from ladder.csv beside it. Relative games paths are
    /// read from the current folder.
    #[arg(long, conflicts_with_all = ["game", "all", "ladder"])]
    refresh: bool,
    #[command(flatten)]
    until: UntilOpts,
    #[command(flatten)]
    run: RunOpts,
    #[command(flatten)]
    open: OpeningOpts,
}

/// Games per game and agent when neither --games nor --until is given.
const DEFAULT_GAMES: u32 = 400;

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
        refresh,
        until,
        run,
        open,
    } = args;
    if refresh {
        let rows = balance::refresh(&csv, std::path::Path::new("."))?;
        write!(out, "{}", balance::table(&rows))?;
        writeln!(out, "rows refreshed in {}", csv.display())?;
        return Ok(());
    }
    let (until, games) = until.resolve(games.unwrap_or(DEFAULT_GAMES), games.is_some())?;
    let mut list = game;
    if all {
        list.extend(balance::all_games());
    }
    if !ladder.is_empty() {
        if until.is_some() {
            anyhow::bail!("--until is not available with --ladder: its rungs play a fixed --games");
        }
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
        until,
        family: 0,
    };
    let rows = balance::run(&args)?;
    write!(out, "{}", balance::table(&rows))?;
    writeln!(out, "rows written to {}", csv.display())?;
    Ok(())
}
