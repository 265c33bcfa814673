//! `boardlab tune`: one agent parameter tuned against a baseline, or
//! several at once by SPSA (`--spsa`), or an evaluation's piece-square
//! tables fitted to recorded games (`--texel`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args as ClapArgs;

use super::options::{OpeningOpts, RunOpts, ShardOpts};
use crate::research::spsa::{self, Gains, SpsaArgs};
use crate::research::strength::games_csv_for;
use crate::research::texel::{self, TexelArgs};
use crate::research::tune::{self, TuneArgs};

/// Tune one agent parameter against a baseline on game pairs, or several
/// at once by SPSA (--spsa), or an evaluation's linear parameters (chess's
/// piece-square tables) to the results of recorded games (--texel).
#[derive(ClapArgs)]
pub struct Args {
    /// Game string.
    #[arg(long)]
    game: String,
    /// Agent spec with one list-valued parameter, e.g.
    /// "mcts(c=[0.5,1.0,1.4])"; with --spsa, each tuned parameter as
    /// START:STEP:LO..HI, e.g. "mcts(iterations=100,c=1.0:0.2:0.1..3.0)".
    #[arg(long, required_unless_present = "texel")]
    agent: Option<String>,
    /// The baseline agent spec (not with --spsa).
    #[arg(
        long,
        required_unless_present_any = ["spsa", "texel"],
        conflicts_with_all = ["spsa", "texel"]
    )]
    baseline: Option<String>,
    /// Games per value (even: game pairs).
    #[arg(long, default_value_t = 100, conflicts_with = "spsa")]
    games: u32,
    /// Simultaneous perturbation stochastic approximation: θ+ against θ−
    /// on one game pair per iteration (see docs/cli.md).
    #[arg(long)]
    spsa: bool,
    /// Texel tuning: fit the parameters the game's evaluation is linear in
    /// (chess's tapered piece-square tables) to the results of the games
    /// in these files (games CSVs or records files; rows of other games
    /// are skipped); writes `parameter,start,tuned` to --tune (default
    /// runs/tune-texel.csv).
    #[arg(long, num_args = 1.., value_name = "FILES", conflicts_with_all = ["spsa", "agent"])]
    texel: Vec<PathBuf>,
    /// With --texel: plies at the start of each game not sampled.
    #[arg(long, requires = "texel", default_value_t = 8)]
    skip: u32,
    /// With --texel: most epochs of gradient descent (0: write the start
    /// values).
    #[arg(long, requires = "texel", default_value_t = 2000)]
    epochs: u32,
    /// With --texel: Adam's step size, in evaluation units (centipawns).
    #[arg(long, requires = "texel", default_value_t = 1.0)]
    rate: f64,
    /// With --texel: the ridge penalty on the squared moves from the start
    /// values, added to the error descended.
    #[arg(long, requires = "texel", default_value_t = 0.0)]
    l2: f64,
    /// With --spsa: iterations N (game pairs; 2N games).
    #[arg(long, requires = "spsa")]
    iterations: Option<u64>,
    /// With --spsa: iterations per batch, played in parallel from the θ of
    /// the batch's start (part of the run's configuration; threads are not).
    #[arg(long, requires = "spsa", default_value_t = spsa::BATCH)]
    batch: u64,
    /// With --spsa: the last step's gain a_N as a share of STEP² (fishtest's r_end).
    #[arg(long, requires = "spsa", default_value_t = spsa::R_END)]
    r_end: f64,
    /// With --spsa: the stability constant A as a share of N.
    #[arg(long, requires = "spsa", default_value_t = spsa::A_RATIO)]
    a_ratio: f64,
    /// With --spsa: milliseconds a move in the printed verification sprt.
    #[arg(long, requires = "spsa", default_value_t = spsa::VERIFY_MS)]
    verify_ms: u64,
    /// Per-value CSV (default runs/tune.csv), or with --spsa the
    /// trajectory CSV (default runs/tune-spsa.csv).
    #[arg(long)]
    tune: Option<PathBuf>,
    /// SVG plot (default: TUNE with .svg).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Games CSV (default: TUNE with -games before .csv; not with --spsa).
    #[arg(long, conflicts_with = "spsa")]
    out: Option<PathBuf>,
    #[command(flatten)]
    run: RunOpts,
    #[command(flatten)]
    open: OpeningOpts,
    #[command(flatten)]
    shard: ShardOpts,
}

/// Play every value against the baseline and print the table, or run SPSA
/// and print the final θ.
///
/// # Errors
/// A bad game or agent spec, bad options, an I/O error.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    if args.spsa {
        return run_spsa(args, out);
    }
    if !args.texel.is_empty() {
        let texel = TexelArgs {
            game: args.game,
            files: args.texel,
            skip: args.skip,
            epochs: args.epochs,
            rate: args.rate,
            l2: args.l2,
            out: args
                .tune
                .unwrap_or_else(|| PathBuf::from("runs/tune-texel.csv")),
        };
        writeln!(out, "{}", texel::texel(&texel)?)?;
        return Ok(());
    }
    let tune_out = args.tune.unwrap_or_else(|| PathBuf::from("runs/tune.csv"));
    let games_csv = args.out.unwrap_or_else(|| games_csv_for(&tune_out));
    let plot = args.plot.unwrap_or_else(|| tune_out.with_extension("svg"));
    let mut run = args
        .run
        .tournament(&args.game, &[], args.games, games_csv, args.open)?;
    run.shard = args.shard.parse()?;
    let tune = TuneArgs {
        run,
        agent: args.agent.unwrap_or_default(),
        baseline: args.baseline.unwrap_or_default(),
        tune_out,
        plot,
    };
    writeln!(out, "{}", tune::tune(&tune)?)?;
    Ok(())
}

fn run_spsa(args: Args, out: &mut dyn Write) -> Result<()> {
    if args.shard.shard.is_some() {
        bail!(
            "tune --spsa is sequential (each batch starts from the last one's θ) and cannot be sharded; run it whole (it resumes after an interruption)"
        );
    }
    let Some(iterations) = args.iterations else {
        bail!("tune --spsa needs --iterations N (game pairs)");
    };
    let tune_out = args
        .tune
        .unwrap_or_else(|| PathBuf::from("runs/tune-spsa.csv"));
    let gains = Gains {
        r_end: args.r_end,
        a_ratio: args.a_ratio,
        ..Gains::new(iterations)
    };
    let spsa = SpsaArgs {
        game: args.game,
        agent: args.agent.unwrap_or_default(),
        gains,
        batch: args.batch,
        seed: args.run.seed,
        threads: args.run.threads,
        openings: args.open.request(),
        plot: args.plot.unwrap_or_else(|| tune_out.with_extension("svg")),
        out: tune_out,
        overwrite: args.run.overwrite,
        progress: !args.run.quiet,
        verify_ms: args.verify_ms,
    };
    writeln!(out, "{}", spsa::spsa(&spsa)?)?;
    Ok(())
}
