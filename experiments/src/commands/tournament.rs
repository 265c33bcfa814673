//! `boardlab tournament`: a self-play tournament.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use super::options::{OpeningOpts, RunOpts, ShardOpts, UntilOpts};
use crate::run;

/// Default agents of the embedded tournament.
const DEFAULT_AGENTS: [&str; 3] = ["mcts(iterations=4000)", "alphabeta(depth=3)", "random"];

/// Self-play tournament in parallel; one CSV row per finished game.
/// With no arguments: Slingshot 9×9, MCTS against alpha-beta against
/// random, about 10 s of games on 2 cores.
#[derive(ClapArgs)]
pub struct Args {
    /// Game string.
    #[arg(long, default_value = "slingshot")]
    game: String,
    /// Agent specs; every pair plays (default: mcts(iterations=4000),
    /// alphabeta(depth=3), random).
    #[arg(long, num_args = 1..)]
    agents: Vec<String>,
    /// Games per pair of agents, seats alternated.
    #[arg(long)]
    games: Option<u32>,
    /// Output CSV (its configuration goes to FILE.config.json).
    #[arg(long, default_value = "runs/tournament.csv")]
    out: PathBuf,
    #[command(flatten)]
    run: RunOpts,
    #[command(flatten)]
    open: OpeningOpts,
    #[command(flatten)]
    until: UntilOpts,
    #[command(flatten)]
    shard: ShardOpts,
}

/// Games per pair of agents when neither --games nor --until is given.
const DEFAULT_GAMES: u32 = 50;

/// Play (or resume) the tournament and print its summary.
///
/// # Errors
/// A bad game or agent spec, bad options, an output made with another
/// configuration, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let agents = if args.agents.is_empty() {
        DEFAULT_AGENTS.iter().map(|s| s.to_string()).collect()
    } else {
        args.agents
    };
    let (until, games) = args
        .until
        .resolve(args.games.unwrap_or(DEFAULT_GAMES), args.games.is_some())?;
    let mut t = args
        .run
        .tournament(&args.game, &agents, games, args.out, args.open)?;
    t.shard = args.shard.parse()?;
    t.until = until;
    // The summary streams: memory does not grow with --games.
    t.keep_records = false;
    let res = run::run(&t)?;
    writeln!(out, "{}", res.summary.render(&res.config))?;
    if let Some(rule) = until {
        match (res.stopped_at, &res.summary.first_mover_score) {
            (Some(n), _) => writeln!(out, "stopped: --until {rule} met at {n} games")?,
            (None, Some(e)) => writeln!(
                out,
                "stopped: --max-games reached with --until {rule} unmet; it needs about {} games",
                e.games_needed(rule)
                    .map_or("more than 10^9".to_string(), |n| n.to_string())
            )?,
            (None, None) => {}
        }
    }
    writeln!(
        out,
        "played {} games in {:.1} s; {} rows in {}",
        res.played,
        res.seconds,
        res.games,
        t.out.display()
    )?;
    if res.timed {
        writeln!(
            out,
            "note: an agent has a millisecond budget, so these games are not reproducible from the seed"
        )?;
    }
    Ok(())
}
