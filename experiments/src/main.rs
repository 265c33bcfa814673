//! The `boardlab` command. Each subcommand parses its arguments with clap
//! and calls the library; errors print as one line and exit with status 2.

use std::path::PathBuf;
use std::process::ExitCode;

use std::io::Write as _;

use anyhow::Result;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use experiments::research::analyse;
use experiments::research::solve;
use experiments::research::strength::{self, RateArgs, SprtArgs, TuneArgs, games_csv_for};
use experiments::research::{inspect, play};
use experiments::run::merge;
use experiments::run::{self, TournamentArgs, summarise};

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

/// Options every run that plays many games shares.
#[derive(Args)]
struct RunOpts {
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Run seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Replace an output made with another configuration.
    #[arg(long)]
    overwrite: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Play only the k-th of n deterministic slices (k/n); combine the
    /// slices' CSVs with `boardlab merge`.
    #[arg(long)]
    shard: Option<String>,
}

/// Openings the games start from (every command that plays a tournament).
#[derive(Args)]
struct OpeningOpts {
    /// Start the games from K distinct random openings of --opening-plies
    /// plies (game pairs 2k, 2k+1 play opening k with the seats swapped;
    /// give --games 2K to play each once per seating). With
    /// --openings-file: use only its first K openings.
    #[arg(long, value_name = "K")]
    openings: Option<u32>,
    /// Plies of each random opening (uniformly random legal moves).
    #[arg(long, value_name = "P")]
    opening_plies: Option<u32>,
    /// Openings from a file: one per line, moves from the start in the
    /// game's notation, or a position text; `#` starts a comment line.
    #[arg(long, value_name = "FILE")]
    openings_file: Option<PathBuf>,
    /// Keep only random openings this agent judges balanced: its win
    /// probability for the seat to move within --opening-margin of 1/2
    /// after one search (e.g. "alphabeta(depth=4)").
    #[arg(long, value_name = "AGENT")]
    opening_filter: Option<String>,
    /// With --opening-filter: how far from 1/2 the win probability may be
    /// (default 0.1).
    #[arg(long, value_name = "M")]
    opening_margin: Option<f64>,
}

impl OpeningOpts {
    fn request(&self) -> run::OpeningsRequest {
        run::OpeningsRequest {
            count: self.openings,
            plies: self.opening_plies,
            file: self.openings_file.clone(),
            filter: self.opening_filter.clone(),
            margin: self.opening_margin,
        }
    }
}

impl RunOpts {
    fn apply(&self, open: &OpeningOpts, mut t: TournamentArgs) -> Result<TournamentArgs> {
        t.threads = self.threads;
        t.seed = self.seed;
        t.overwrite = self.overwrite;
        t.progress = !self.quiet;
        t.shard = self.shard.as_deref().map(run::parse_shard).transpose()?;
        t.openings = open.request();
        Ok(t)
    }
}

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
    ///
    /// Perft counts the move-generation tree: automatic draws by rule
    /// (repetition, quiet-move counters, dead positions such as Royal
    /// Guard's dead=kk, ply caps) do not end a branch; the game's real ends
    /// (mate, connection, annihilation, ...) do. A ply is one move, chance
    /// outcomes included; --turns counts whole turns (Sniggle's continuation
    /// steps and the spinner's spin and placements are one turn). Each
    /// depth's line is printed as soon as it is known.
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
        /// Deepest depth, in plies (in turns with --turns); 1 to 30.
        #[arg(long)]
        depth: u32,
        /// Seed of the initial state.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Count whole turns rather than plies.
        #[arg(long)]
        turns: bool,
        /// Print the count under each first move at the deepest depth.
        #[arg(long)]
        divide: bool,
    },
    /// Write the evidence page: per game, the perft vectors with their
    /// sources, the reference-generator diffs and cross-engine agreement.
    Evidence {
        /// Output Markdown file (standard output if not given).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Solve the start positions of a game with the exact solver, one per
    /// game index (seeded as `tournament` seeds its games); CSV rows to --out
    /// and a summary to X.summary.txt beside an output X.csv.
    Solve {
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
    },
    /// Play one game, printing the board after each ply and the record at the end.
    ///
    /// A `human` seat reads its moves from standard input, one per line in
    /// the game's notation; `moves` lists the legal moves, `quit` (or the
    /// end of input) abandons the game.
    Play {
        /// Game string.
        #[arg(long)]
        game: String,
        /// One agent spec per seat, seat 0 first (`human` for a person).
        #[arg(long, num_args = 1.., required = true)]
        agents: Vec<String>,
        /// Start position in the game's position text (default: the initial
        /// state for --seed).
        #[arg(long)]
        position: Option<String>,
        /// Moves played from the start position first, space-separated.
        #[arg(long)]
        moves: Option<String>,
        /// Append the finished game's record (one JSON line, as in
        /// `FILE.records.jsonl`) to this file.
        #[arg(long)]
        record: Option<PathBuf>,
        /// Seed of the game and the agents.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print each searching agent's `info` lines before its move.
        #[arg(long)]
        verbose: bool,
    },
    /// Search one position with one agent: `info` lines as the search goes
    /// (depth or iterations, score, win probability, proven result, nodes,
    /// speed, principal variation), then `bestmove M`.
    Analyse {
        /// Game string.
        #[arg(long)]
        game: String,
        /// Position text (default: the initial position).
        #[arg(long)]
        position: Option<String>,
        /// Moves played from the position first, space-separated.
        #[arg(long)]
        moves: Option<String>,
        /// Agent spec.
        #[arg(long)]
        agent: String,
        /// Seed of the initial position and the agent.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Self-play tournament in parallel; one CSV row per finished game.
    /// With no arguments: Slingshot 9×9, MCTS against alpha-beta against
    /// random, about a minute on 2 cores.
    Tournament {
        /// Game string.
        #[arg(long, default_value = "slingshot")]
        game: String,
        /// Agent specs; every pair plays (default: mcts(iterations=4000),
        /// alphabeta(depth=3), random).
        #[arg(long, num_args = 1..)]
        agents: Vec<String>,
        /// Games per pair of agents, seats alternated.
        #[arg(long, default_value_t = 50)]
        games: u32,
        /// Output CSV (its configuration goes to FILE.config.json).
        #[arg(long, default_value = "runs/tournament.csv")]
        out: PathBuf,
        #[command(flatten)]
        run: RunOpts,
        #[command(flatten)]
        open: OpeningOpts,
    },
    /// Elo ratings from a round robin in game pairs (Bradley-Terry fit).
    Rate {
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
    },
    /// Sequential probability ratio test of A against B on game pairs.
    Sprt {
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
    },
    /// Tune one agent parameter against a baseline on game pairs.
    Tune {
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
    },
    /// First-mover advantage: each game's agent plays itself (seats
    /// alternated) beside a random-against-random baseline; writes one
    /// summary row per game and agent.
    Balance {
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
    },
    /// Swap maps: the first mover's win rate q after each opening, played
    /// out with no swap; the pie-rule value and the fair openings.
    Pie {
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
    },
    /// Regenerate REPORT.md and its SVG plots from the CSVs in a results folder.
    Report {
        /// The results folder (reads balance.csv, swapmap.csv and the game
        /// CSVs they name); the committed one is `results`.
        #[arg(long, default_value = "runs")]
        results: PathBuf,
        /// The report (default: RESULTS/REPORT.md).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Show a position: the terminal board, or with --svg an SVG picture
    /// (cells with their names, pieces, Bagel's tiles, King's Colour's
    /// castles and walls, the Sly fields and centres, Andalusia's lines).
    Show {
        /// Game string.
        #[arg(long)]
        game: String,
        /// Position text (default: the initial position).
        #[arg(long)]
        position: Option<String>,
        /// Moves played from the position first, space-separated.
        #[arg(long)]
        moves: Option<String>,
        /// Seed of the initial position (games with random set-ups).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Write the picture to this SVG file.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// Speak UGI (the game-agnostic UCI of the cutegames match runner) on
    /// standard input and output, searching with one agent: `ugi`,
    /// `isready`, `setoption name seed|agent value V`, `uginewgame`,
    /// `position startpos|fen <text> [moves M...]`, `go movetime N | nodes N
    /// | depth N | wtime N btime N ...`, `query gameover|p1turn|result`,
    /// `stop`, `quit`. See README.md for a worked session.
    Engine {
        /// Game string.
        #[arg(long)]
        game: String,
        /// Agent spec; `go` limits replace its budget.
        #[arg(long)]
        agent: String,
    },
    /// Print the boards of a recorded game ply by ply, or check every game
    /// of a records file (`FILE.csv.records.jsonl`, written beside every
    /// run's CSV).
    Replay {
        /// A records file (JSON Lines, one game per line).
        file: PathBuf,
        /// The game index of the game to print (default: the first record).
        #[arg(long, conflicts_with = "verify")]
        index: Option<u64>,
        /// Replay every record, checking each move's legality and the
        /// recorded plies, turns, returns, winners and end reason; exit 2
        /// naming the first record that does not reproduce.
        #[arg(long)]
        verify: bool,
        /// Also draw every position of the game as SVG in this folder
        /// (`ply-0000.svg` is the start).
        #[arg(long, conflicts_with = "verify", value_name = "DIR")]
        svg: Option<PathBuf>,
    },
    /// Write the two-seat games of a records file as PGN, for rating tools
    /// (Ordo, BayesElo): tags and result, the moves in a comment.
    Export {
        /// A records file (JSON Lines).
        file: PathBuf,
        /// Output PGN file.
        #[arg(long)]
        pgn: PathBuf,
    },
    /// Combine the CSVs of all shards of a run; prints the summary one run gives.
    Merge {
        /// Shard CSVs 1/n … n/n (each with its FILE.config.json).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Merged CSV.
        #[arg(long)]
        out: PathBuf,
        /// Replace an existing --out.
        #[arg(long)]
        overwrite: bool,
    },
}

fn run(cli: Cli) -> Result<()> {
    // Output goes through `so`: a closed pipe (`boardlab ... | head`) ends
    // the command quietly instead of panicking in println!.
    let mut so = std::io::stdout().lock();
    match cli.command {
        Command::Games => write!(so, "{}", inspect::games_text())?,
        Command::Moves {
            game,
            position,
            moves,
            seed,
        } => writeln!(
            so,
            "{}",
            inspect::moves_text(&game, position.as_deref(), moves.as_deref(), seed)?
        )?,
        Command::Perft {
            game,
            position,
            moves,
            depth,
            seed,
            turns,
            divide,
        } => {
            let args = inspect::PerftArgs {
                game,
                position,
                moves,
                seed,
                depth,
                turns,
                divide,
            };
            inspect::perft_run(&args, &mut so)?;
        }
        Command::Evidence { out } => {
            let page = experiments::research::evidence::evidence_page()?;
            match out {
                Some(p) => {
                    std::fs::write(&p, &page)
                        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?;
                    writeln!(so, "wrote {}", p.display())?;
                }
                None => write!(so, "{page}")?,
            }
        }
        Command::Solve {
            game,
            solver,
            games,
            seed,
            threads,
            out,
        } => {
            let text = solve::solve_run(&game, &solver, games, seed, threads as usize, &out)?;
            writeln!(so, "{text}")?;
        }
        Command::Play {
            game,
            agents,
            position,
            moves,
            record,
            seed,
            verbose,
        } => {
            let args = play::PlayArgs {
                game,
                agents,
                seed,
                verbose,
                position,
                moves,
                record,
            };
            let end = play::play_game(&args, &mut std::io::stdin().lock(), &mut so)?;
            writeln!(so, "{end}")?;
        }
        Command::Analyse {
            game,
            position,
            moves,
            agent,
            seed,
        } => {
            let best = analyse::analyse(
                &game,
                position.as_deref(),
                moves.as_deref(),
                &agent,
                seed,
                &mut so,
            )?;
            writeln!(so, "{best}")?;
        }
        Command::Tournament {
            game,
            agents,
            games,
            out,
            run,
            open,
        } => {
            let agents = if agents.is_empty() {
                DEFAULT_AGENTS.iter().map(|s| s.to_string()).collect()
            } else {
                agents
            };
            let mut args = run.apply(&open, TournamentArgs::new(&game, &agents, games, 0, out))?;
            // The summary streams: memory does not grow with --games.
            args.keep_records = false;
            let res = run::run(&args)?;
            writeln!(so, "{}", res.summary.render(&res.config))?;
            writeln!(
                so,
                "played {} games in {:.1} s; {} rows in {}",
                res.played,
                res.seconds,
                res.games,
                args.out.display()
            )?;
            if res.timed {
                writeln!(
                    so,
                    "note: an agent has a millisecond budget, so these games are not reproducible from the seed"
                )?;
            }
        }
        Command::Rate {
            game,
            agents,
            games,
            anchor,
            ratings,
            out,
            run,
            open,
        } => {
            let out = out.unwrap_or_else(|| games_csv_for(&ratings));
            let args = RateArgs {
                run: run.apply(&open, TournamentArgs::new(&game, &agents, games, 0, out))?,
                anchor,
                ratings_out: ratings,
            };
            writeln!(so, "{}", strength::rate(&args)?)?;
        }
        Command::Sprt {
            game,
            agents,
            elo0,
            elo1,
            alpha,
            beta,
            max_games,
            sprt,
            out,
            run,
            open,
        } => {
            let out = out.unwrap_or_else(|| games_csv_for(&sprt));
            let args = SprtArgs {
                run: run.apply(
                    &open,
                    TournamentArgs::new(&game, &agents, max_games, 0, out),
                )?,
                elo0,
                elo1,
                alpha,
                beta,
                sprt_out: sprt,
            };
            writeln!(so, "{}", strength::sprt(&args)?)?;
        }
        Command::Tune {
            game,
            agent,
            baseline,
            games,
            tune,
            plot,
            out,
            run,
            open,
        } => {
            let out = out.unwrap_or_else(|| games_csv_for(&tune));
            let plot = plot.unwrap_or_else(|| tune.with_extension("svg"));
            let args = TuneArgs {
                run: run.apply(&open, TournamentArgs::new(&game, &[], games, 0, out))?,
                agent,
                baseline,
                tune_out: tune,
                plot,
            };
            writeln!(so, "{}", strength::tune(&args)?)?;
        }
        Command::Balance {
            game,
            all,
            agent,
            games,
            out,
            no_baseline,
            ladder,
            rating_games,
            run,
            open,
        } => {
            if run.shard.is_some() {
                anyhow::bail!("balance does not take --shard (each block resumes on its own)");
            }
            let mut list = game;
            if all {
                list.extend(experiments::research::balance::all_games());
            }
            if !ladder.is_empty() {
                use experiments::research::ladder;
                let args = ladder::LadderArgs {
                    games: list,
                    rungs: ladder::split_rungs(&ladder),
                    games_per_rung: games,
                    rating_games,
                    seed: run.seed,
                    out: out.clone(),
                    threads: run.threads,
                    progress: !run.quiet,
                    overwrite: run.overwrite,
                    openings: open.request(),
                };
                let rows = ladder::run(&args)?;
                write!(so, "{}", ladder::table(&rows))?;
                writeln!(
                    so,
                    "rows written to {} and {}",
                    out.display(),
                    ladder::ladder_path(&out).display()
                )?;
                return Ok(());
            }
            let args = experiments::research::balance::BalanceArgs {
                games: list,
                agent,
                games_per_block: games,
                seed: run.seed,
                out: out.clone(),
                threads: run.threads,
                progress: !run.quiet,
                baseline: !no_baseline,
                overwrite: run.overwrite,
                openings: open.request(),
            };
            let rows = experiments::research::balance::run(&args)?;
            write!(so, "{}", experiments::research::balance::table(&rows))?;
            writeln!(so, "rows written to {}", out.display())?;
        }
        Command::Pie {
            game,
            agent,
            games_per_opening,
            openings,
            start_seeds,
            out,
            run,
        } => {
            if run.shard.is_some() {
                anyhow::bail!("pie does not take --shard (an interrupted map resumes)");
            }
            let args = experiments::research::swapmap::PieArgs {
                game,
                agent,
                games_per_opening,
                openings: experiments::research::swapmap::Openings::parse(&openings)?,
                start_seeds,
                seed: run.seed,
                out: out.clone(),
                threads: run.threads,
                progress: !run.quiet,
                overwrite: run.overwrite,
            };
            let rows = experiments::research::swapmap::run(&args)?;
            write!(
                so,
                "{}",
                experiments::research::swapmap::summary_text(&rows)
            )?;
            writeln!(
                so,
                "{} opening rows written to {}",
                rows.len(),
                out.display()
            )?;
        }
        Command::Report { results, out } => {
            let out = out.unwrap_or_else(|| results.join("REPORT.md"));
            let r = experiments::output::report::run(&results, &out)?;
            writeln!(
                so,
                "wrote {} and {} plots",
                r.markdown.display(),
                r.plots.len()
            )?;
        }
        Command::Show {
            game,
            position,
            moves,
            seed,
            svg,
        } => {
            let text = experiments::research::show::show(
                &game,
                position.as_deref(),
                moves.as_deref(),
                seed,
                svg.as_deref(),
            )?;
            writeln!(so, "{text}")?;
        }
        Command::Engine { game, agent } => {
            let mut input = std::io::stdin().lock();
            experiments::research::ugi::engine(&game, &agent, &mut input, &mut so)?;
        }
        Command::Replay {
            file,
            index,
            verify,
            svg,
        } => {
            if verify {
                let n = experiments::records::verify(&file)?;
                writeln!(so, "{n} records in {} reproduce", file.display())?;
            } else {
                experiments::records::replay_svg(&file, index, &mut so, svg.as_deref())?;
            }
        }
        Command::Export { file, pgn } => {
            let mut text = Vec::new();
            let n = experiments::records::pgn(&file, &mut text)?;
            std::fs::write(&pgn, text)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", pgn.display()))?;
            writeln!(so, "wrote {n} games to {}", pgn.display())?;
        }
        Command::Merge {
            inputs,
            out,
            overwrite,
        } => {
            let (config, records) = merge::merge(&inputs, &out, overwrite)?;
            writeln!(so, "{}", summarise(&config, &records).render(&config))?;
            writeln!(
                so,
                "merged {} games from {} files into {}",
                records.len(),
                inputs.len(),
                out.display()
            )?;
        }
    }
    Ok(())
}

/// clap's message for bad arguments on one line: its paragraphs up to the
/// usage block, joined (a tip after "; "), without the closing hint.
fn one_line_usage_error(e: &clap::Error) -> String {
    let mut out = String::new();
    for line in e.to_string().lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out += if line.starts_with("tip:") { "; " } else { " " };
        }
        out += line;
    }
    out
}

fn main() -> ExitCode {
    // A negative number is a value (refused as such by its option), not an
    // unknown flag.
    let command = Cli::command().mut_subcommands(|c| c.allow_negative_numbers(true));
    let cli = match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            e.exit()
        }
        Err(e) => {
            eprintln!("{} (see --help)", one_line_usage_error(&e));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let broken_pipe = e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
