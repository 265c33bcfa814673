//! Option groups that several commands share, each defined once and
//! flattened into the commands' arguments with `#[command(flatten)]`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::run::{OpeningsRequest, TournamentArgs, parse_shard};
use crate::stats::sequential::{DEFAULT_MAX_GAMES, Until};

/// The position a command starts from: a game, then a position text or its
/// initial state, then moves (`moves`, `perft`, `play`, `analyse`, `show`).
/// `--seed` is each command's own, since its default differs: 0 where it
/// only draws a set-up, 1 where it also seeds agents.
#[derive(Args)]
pub struct PositionOpts {
    /// Game string, e.g. `slingshot(size=7)`.
    #[arg(long)]
    pub game: String,
    /// Start position in the game's position text (default: the initial
    /// state for --seed).
    #[arg(long)]
    pub position: Option<String>,
    /// Moves played from the start position first, space-separated, in the
    /// game's notation.
    #[arg(long)]
    pub moves: Option<String>,
}

/// Options every run that plays many games shares.
#[derive(Args)]
pub struct RunOpts {
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Run seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Replace an output made with another configuration.
    #[arg(long)]
    pub overwrite: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `--until` and `--max-games`: a sequential run that stops on its data
/// (`tournament`, `balance`; `pie`, whose rule reads the pie value's
/// interval).
#[derive(Args)]
pub struct UntilOpts {
    /// Play until the first mover's anytime-valid 95 % interval meets a
    /// rule: `halfwidth=H` (its half-width is at most H) or `decide=D` (it
    /// excludes the fair value, or lies inside it ± D); H and D are
    /// fractions of the score, 0.03 is 3 points. Checked at 64 games, then
    /// every 10 % more.
    #[arg(long, value_name = "RULE")]
    pub until: Option<String>,
    /// The cap of an --until run: games per pairing (per block in
    /// balance, per map in pie), 100000 by default.
    #[arg(long, value_name = "N", requires = "until")]
    pub max_games: Option<u32>,
}

impl UntilOpts {
    /// The parsed rule and the games to play: `--max-games` (default
    /// 100,000) with a rule, `games` without.
    ///
    /// # Errors
    /// A malformed rule, or `--games` given beside `--until`.
    pub fn resolve(&self, games: u32, games_given: bool) -> Result<(Option<Until>, u32)> {
        match &self.until {
            None => Ok((None, games)),
            Some(text) => {
                if games_given {
                    anyhow::bail!(
                        "--until plays until its rule is met: give the cap as --max-games, not --games"
                    );
                }
                let rule = Until::parse(text)?;
                Ok((Some(rule), self.max_games.unwrap_or(DEFAULT_MAX_GAMES)))
            }
        }
    }
}

/// `--shard`, for the runs whose games split into independent slices
/// (`tournament`, `rate`, `tune`; not the sequential `sprt`, nor `balance`
/// and `pie`, whose blocks resume on their own).
#[derive(Args)]
pub struct ShardOpts {
    /// Play only the k-th of n deterministic slices (k/n); combine the
    /// slices' CSVs with `boardlab merge`.
    #[arg(long)]
    pub shard: Option<String>,
}

impl ShardOpts {
    /// The parsed `(k, n)`, if given.
    ///
    /// # Errors
    /// A `--shard` that is not `k/n` with `1 <= k <= n`.
    pub fn parse(&self) -> Result<Option<(u32, u32)>> {
        self.shard.as_deref().map(parse_shard).transpose()
    }
}

/// Openings the games start from (every command that plays a tournament).
#[derive(Args)]
pub struct OpeningOpts {
    /// Start the games from K distinct random openings of --opening-plies
    /// plies (game pairs 2k, 2k+1 play opening k with the seats swapped;
    /// give --games 2K to play each once per seating). With
    /// --openings-file: use only its first K openings.
    #[arg(long, value_name = "K")]
    pub openings: Option<u32>,
    /// Plies of each random opening (uniformly random legal moves).
    #[arg(long, value_name = "P")]
    pub opening_plies: Option<u32>,
    /// Openings from a file: one per line, moves from the start in the
    /// game's notation, or a position text; `#` starts a comment line.
    #[arg(long, value_name = "FILE")]
    pub openings_file: Option<PathBuf>,
    /// Keep only random openings this agent judges balanced: its win
    /// probability for the seat to move within --opening-margin of 1/2
    /// after one search (e.g. "alphabeta(depth=4)").
    #[arg(long, value_name = "AGENT")]
    pub opening_filter: Option<String>,
    /// With --opening-filter: how far from 1/2 the win probability may be
    /// (default 0.1).
    #[arg(long, value_name = "M")]
    pub opening_margin: Option<f64>,
}

impl OpeningOpts {
    /// The library's openings request.
    pub fn request(self) -> OpeningsRequest {
        OpeningsRequest {
            count: self.openings,
            plies: self.opening_plies,
            file: self.openings_file,
            filter: self.opening_filter,
            margin: self.opening_margin,
        }
    }
}

impl RunOpts {
    /// A tournament request of `game`, `agents`, `games` and `out` with
    /// these options and `openings`.
    ///
    /// # Errors
    /// None today; a `Result` so that request checks can grow here.
    pub fn tournament(
        &self,
        game: &str,
        agents: &[String],
        games: u32,
        out: PathBuf,
        openings: OpeningOpts,
    ) -> Result<TournamentArgs> {
        let mut t = TournamentArgs::new(game, agents, games, self.seed, out);
        t.threads = self.threads;
        t.overwrite = self.overwrite;
        t.progress = !self.quiet;
        t.openings = openings.request();
        Ok(t)
    }
}
