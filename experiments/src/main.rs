//! The `boardlab` command. Each subcommand parses its arguments with clap
//! and calls the library; errors print as one line and exit with status 2.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use experiments::tournament::{self, TournamentArgs, summarise};
use experiments::{inspect, play};

/// boardlab: exact bitboard engines, game-playing agents and honest
/// self-play statistics for a family of abstract board games.
#[derive(Parser)]
#[command(name = "boardlab", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Default agents of the embedded tournament.
const DEFAULT_AGENTS: [&str; 3] = ["mcts(iterations=4000)", "alphabeta(depth=3)", "random"];

#[derive(Subcommand)]
enum Command {
    /// List every game with its parameters and defaults, and the agents.
    Games,
    /// List the legal moves of a position, one per line, then their count.
    Moves {
        /// Game string, e.g. `slingshot(size=7)`.
        #[arg(long)]
        game: String,
        /// Start position in the game's position text (default: initial state).
        #[arg(long)]
        position: Option<String>,
        /// Moves to apply first, space-separated, in the game's notation.
        #[arg(long)]
        moves: Option<String>,
        /// Seed of the initial state (games with random set-ups).
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Count the leaf nodes of the game tree to each depth (perft).
    Perft {
        /// Game string.
        #[arg(long)]
        game: String,
        /// Start position in the game's position text.
        #[arg(long)]
        position: Option<String>,
        /// Moves to apply first.
        #[arg(long)]
        moves: Option<String>,
        /// Deepest depth in plies.
        #[arg(long)]
        depth: u32,
        /// Seed of the initial state.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Play one game, printing the board after each ply and the record at the end.
    Play {
        /// Game string.
        #[arg(long)]
        game: String,
        /// One agent spec per seat, seat 0 first.
        #[arg(long, num_args = 1.., required = true)]
        agents: Vec<String>,
        /// Seed of the game and the agents.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Self-play tournament in parallel; one CSV row per finished game.
    /// With no arguments: Slingshot 9×9, MCTS against alpha-beta against
    /// random, about a minute on 2 cores.
    Tournament {
        /// Game string (default `slingshot`).
        #[arg(long, default_value = "slingshot")]
        game: String,
        /// Agent specs; every pair plays (default: mcts(iterations=4000),
        /// alphabeta(depth=3), random).
        #[arg(long, num_args = 1..)]
        agents: Vec<String>,
        /// Games per pair of agents, seats alternated.
        #[arg(long, default_value_t = 50)]
        games: u32,
        /// Worker threads (default: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Run seed: the same seed gives the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output CSV (its configuration goes to FILE.config.json).
        #[arg(long, default_value = "results/tournament.csv")]
        out: PathBuf,
        /// Replace an output made with another configuration.
        #[arg(long)]
        overwrite: bool,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Games => print!("{}", inspect::games_text()),
        Command::Moves {
            game,
            position,
            moves,
            seed,
        } => {
            println!(
                "{}",
                inspect::moves_text(&game, position.as_deref(), moves.as_deref(), seed)?
            )
        }
        Command::Perft {
            game,
            position,
            moves,
            depth,
            seed,
        } => {
            let r =
                inspect::perft_report(&game, position.as_deref(), moves.as_deref(), seed, depth)?;
            println!("{}", r.render());
        }
        Command::Play { game, agents, seed } => {
            let mut out = std::io::stdout();
            let end = play::play(&game, &agents, seed, &mut out)?;
            println!("{end}");
        }
        Command::Tournament {
            game,
            agents,
            games,
            threads,
            seed,
            out,
            overwrite,
            quiet,
        } => {
            let agents = if agents.is_empty() {
                DEFAULT_AGENTS.iter().map(|s| s.to_string()).collect()
            } else {
                agents
            };
            let args = TournamentArgs {
                game,
                agents,
                games,
                threads,
                seed,
                out,
                overwrite,
                progress: !quiet,
            };
            let res = tournament::run(&args)?;
            let summary = summarise(&res.config, &res.records);
            println!("{}", summary.render(&res.config));
            println!(
                "played {} games in {:.1} s; {} rows in {}",
                res.played,
                res.seconds,
                res.records.len(),
                args.out.display()
            );
            if res.timed {
                println!(
                    "note: an agent has a millisecond budget, so these games are not reproducible from the seed"
                );
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
