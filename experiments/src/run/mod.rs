//! Parallel self-play tournaments: a deterministic list of games, played
//! under rayon, each finished game appended and flushed to a CSV as one row.
//!
//! * **Jobs.** For a two-seat game every pair of agents plays `games`
//!   games, seats alternated (game `k` of a pair: the first agent in seat 0
//!   when `k` is even). For games of other seat counts the agents list must
//!   fill the seats, and seats rotate from game to game. Job `i` has the
//!   game seed `mix(run seed, i)`; each agent is built fresh from
//!   `mix(game seed, seat + 1)`, so results do not depend on the thread
//!   count or on the order in which games finish (timings aside; agents with
//!   a millisecond budget are not reproducible and the summary says so).
//! * **Resume.** The run's configuration is written beside the CSV
//!   (`FILE.config.json`). Run again with the same output and
//!   configuration, it keeps every complete row, drops a half-written last
//!   row with a warning, and plays only the missing games. A different
//!   configuration is refused unless `--overwrite` is given; the message
//!   lists only the fields that differ. A larger `--games` on a run of one
//!   pairing extends it: seeds depend on the game index alone, so only the
//!   new games are played and the file equals a run of the larger size.
//! * **Safety** ([`safety`]): the output is locked for the whole run, every
//!   output is checked before the first game, threads are capped, the
//!   configuration file records provenance ([`config`]).
//! * **Memory.** Jobs are computed from their index, finished rows are
//!   streamed (resume reads the CSV row by row) and the summary is kept as
//!   running counts ([`SummaryBuilder`]) plus each game's first-mover share
//!   (24 bytes a game, for the interval), so a run of millions of games
//!   needs tens of megabytes, not its records, unless the caller asks for
//!   them ([`TournamentArgs::keep_records`]).

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use rayon::iter::{IntoParallelIterator, ParallelIterator};
use serde::{Deserialize, Serialize};

use agents::AgentSpec;
use engine::{Game, GameVisitor, Research, visit_game};

use crate::stats::sequential::{ALPHA, Until, checkpoints};

pub mod config;
pub mod jobs;
pub mod merge;
pub mod node;
pub mod openings;
pub mod play;
pub mod records;
pub mod rows;
pub mod safety;
pub mod slurm;
pub mod storage;
pub mod summary;
pub mod vector;

pub use jobs::{Job, JobTable, jobs, mix, parse_shard};
pub use openings::{Opening, OpeningsConfig, OpeningsRequest};
pub use play::{GameRecord, PlaySetup, forfeit_returns, play_job, play_out, play_out_or_forfeit};
use rows::RowWriter;
pub use rows::{GameRow, check_rows, read_config, read_rows, write_rows};
pub use summary::{AgentSummary, ScoreSummary, Summary, SummaryBuilder, summarise};

/// Everything that determines a tournament's games (not its threads).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The canonical game string.
    pub game: String,
    /// Canonical agent specs, in the order given.
    pub agents: Vec<String>,
    /// Games per pairing (per agent for one-seat games).
    pub games: u32,
    /// The run seed.
    pub seed: u64,
    /// Who plays whom.
    #[serde(default)]
    pub schedule: Schedule,
    /// Game pairs: games `2k` and `2k + 1` of a pairing share their seed
    /// (the same opening), seats swapped.
    #[serde(default)]
    pub paired: bool,
    /// `Some((k, n))`: only the `k`-th of `n` slices (1-based) of the jobs.
    #[serde(default)]
    pub shard: Option<(u32, u32)>,
    /// Agents seeded by agent index, not by seat (see [`PlaySetup`]); absent
    /// (false) in the configurations of runs made before, which resume as
    /// they were made.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub agent_seeds: bool,
    /// The run's openings, if its games start from them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningsConfig>,
    /// Job indices interleave the blocks (see [`jobs::blocks`]), so that a
    /// larger `games` keeps every finished game's index and seed in a run
    /// of any number of pairings; absent (false) in runs made before, whose
    /// blocks are consecutive and which resume as they were made.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interleaved: bool,
}

/// Which pairs of agents play (two-seat games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Schedule {
    /// Every pair of agents.
    #[default]
    RoundRobin,
    /// The first agent (a baseline) against each of the others.
    Gauntlet,
}

/// A tournament request from the command line.
#[derive(Clone, Debug)]
pub struct TournamentArgs {
    /// Game string as given.
    pub game: String,
    /// Agent specs as given.
    pub agents: Vec<String>,
    /// Games per pairing.
    pub games: u32,
    /// Worker threads (0 = one per core).
    pub threads: usize,
    /// Run seed.
    pub seed: u64,
    /// Output CSV path.
    pub out: PathBuf,
    /// Replace an existing output (any; with [`Self::overwrite_changed_only`],
    /// only one made with another configuration).
    pub overwrite: bool,
    /// With `overwrite`: an output made with this very configuration is
    /// kept and resumed, and only one made with another is replaced. A
    /// study's or `balance`'s blocks and rating runs set it, so that
    /// `--overwrite` after a change discards the changed files alone.
    pub overwrite_changed_only: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// Who plays whom.
    pub schedule: Schedule,
    /// Play game pairs (same seed, seats swapped).
    pub paired: bool,
    /// Only the `k`-th of `n` slices (1-based).
    pub shard: Option<(u32, u32)>,
    /// Play only jobs with an index below this (sequential runs such as SPRT
    /// grow it batch by batch); `None` for all.
    pub limit: Option<u64>,
    /// Return every game in [`TournamentResult::records`] (memory grows
    /// with the games); otherwise only the streamed summary.
    pub keep_records: bool,
    /// Other files the command writes after the games (ratings, SPRT rows,
    /// plots): checked writable before the first game.
    pub also_writes: Vec<PathBuf>,
    /// Openings to start the games from (`--openings`, `--opening-plies`,
    /// `--openings-file`).
    pub openings: OpeningsRequest,
    /// This call continues the same command's previous call on the same
    /// file (the next batch of a sequential run such as SPRT): it says
    /// nothing about resuming, and replaces the provenance entry this
    /// process wrote rather than adding another.
    pub continues: bool,
    /// `--until`: play until the first mover's interval meets this rule
    /// (checked at [`checkpoints`]), `games` being the cap (`--max-games`).
    pub until: Option<Until>,
    /// The level α of the first mover's interval: 0.05, or 0.05/m when the
    /// run is one of m cells.
    pub alpha: f64,
}

impl TournamentArgs {
    /// A request with the defaults: round robin, unpaired, unsharded, no
    /// progress bar, one thread per core.
    pub fn new(game: &str, agents: &[String], games: u32, seed: u64, out: PathBuf) -> Self {
        TournamentArgs {
            game: game.to_string(),
            agents: agents.to_vec(),
            games,
            threads: 0,
            seed,
            out,
            overwrite: false,
            overwrite_changed_only: false,
            progress: false,
            schedule: Schedule::RoundRobin,
            paired: false,
            shard: None,
            limit: None,
            keep_records: true,
            also_writes: Vec::new(),
            openings: OpeningsRequest::default(),
            continues: false,
            until: None,
            alpha: ALPHA,
        }
    }
}

/// The outcome of a run: its configuration, its summary and (if asked for)
/// every game (resumed ones included), sorted by game index.
#[derive(Clone, Debug)]
pub struct TournamentResult {
    /// The run's configuration.
    pub config: TournamentConfig,
    /// Seats of the game.
    pub num_seats: usize,
    /// Every finished game, if [`TournamentArgs::keep_records`].
    pub records: Vec<GameRecord>,
    /// The summary of every finished game (kept as they streamed).
    pub summary: Summary,
    /// Finished games in the file (resumed and new).
    pub games: u64,
    /// Games played in this invocation.
    pub played: usize,
    /// Whether any agent uses a wall-clock budget.
    pub timed: bool,
    /// Wall-clock seconds of this invocation.
    pub seconds: f64,
    /// A sequential run: the game count at which its rule was met, or
    /// `None` when it reached its cap undecided.
    pub stopped_at: Option<u64>,
}

struct RunVisitor<'a> {
    args: &'a TournamentArgs,
    specs: Vec<AgentSpec>,
}

impl GameVisitor for RunVisitor<'_> {
    type Output = Result<TournamentResult>;

    fn visit<G: Game>(self, game: G) -> Result<TournamentResult> {
        let args = self.args;
        let n = game.num_seats();
        for s in &self.specs {
            s.check_game(n)?;
        }
        let (openings_config, openings) = match openings::make(&game, &args.openings, args.seed)? {
            Some((c, list)) => (Some(c), list),
            None => (None, Vec::new()),
        };
        let mut config = TournamentConfig {
            game: game.game_string(),
            agents: self.specs.iter().map(|s| s.canonical()).collect(),
            games: args.games,
            seed: args.seed,
            schedule: args.schedule,
            paired: args.paired,
            shard: args.shard,
            agent_seeds: true,
            openings: openings_config,
            interleaved: true,
        };
        if config.paired && config.games % 2 == 1 {
            bail!("--games {} must be even for game pairs", config.games);
        }
        jobs::check_seats(&config, n)?;
        // Every output is checked, and the CSV locked, before the first game.
        for p in &args.also_writes {
            safety::check_writable(p)?;
        }
        let _lock = safety::lock_output(&args.out)?;
        safety::check_writable(&args.out)?;
        storage::check_no_twin(&args.out)?;
        let mut history = Vec::new();
        // A configuration as an older run made it: agents seeded by agent
        // and interleaved job indices came later, and such runs resume as
        // they were made.
        let as_made = |old: &TournamentConfig| TournamentConfig {
            agent_seeds: old.agent_seeds,
            interleaved: old.interleaved,
            ..config.clone()
        };
        let unchanged = args.overwrite
            && args.overwrite_changed_only
            && args.out.exists()
            && matches!(config::read_config_file(&args.out),
                Ok(Some(old)) if config::config_diff(&old.config, &as_made(&old.config), n).is_empty());
        let resuming = args.out.exists() && (!args.overwrite || unchanged);
        if resuming {
            let old = config::read_config_file(&args.out)?;
            // A run made before agents were seeded by agent, or before job
            // indices interleaved the blocks, resumes as it was made.
            if let Some(old) = &old
                && (!old.config.agent_seeds || !old.config.interleaved)
            {
                let made = as_made(&old.config);
                if config::config_diff(&old.config, &made, n).is_empty() {
                    config = made;
                }
            }
            // The same agents spelled as an older version wrote them keep
            // that spelling, so that every row of the file agrees.
            if let Some(old) = &old
                && old.config.agents != config.agents
                && config::same_agents(&old.config.agents, &config.agents)
            {
                config.agents = old.config.agents.clone();
            }
            match old {
                None => bail!(
                    "{} exists but has no {}; choose another --out or pass --overwrite",
                    args.out.display(),
                    rows::config_path(&args.out).display()
                ),
                Some(old) => {
                    let diff = config::config_diff(&old.config, &config, n);
                    if !diff.is_empty() {
                        bail!(
                            "{} holds a run with another configuration ({}); choose another --out, or pass --overwrite to discard its games",
                            args.out.display(),
                            diff.join("; ")
                        );
                    }
                    history = old.provenance;
                }
            }
        }
        let table = JobTable::new(&config, n)?;
        // Stream the finished rows: check each, mark its index, count it.
        let mut done = rows::IndexSet::default();
        let mut summary = SummaryBuilder::new();
        let mut records = Vec::new();
        let mut columns = None;
        // Rows written before turns or end reasons were recorded.
        let mut incomplete = false;
        if resuming {
            let (seats, cols) = rows::for_each_row(&args.out, true, Some(&config), |r| {
                rows::check_row(&table, n, &mut done, &r)?;
                incomplete |= r.turns.is_none() || r.end.is_none() || r.start.is_none();
                summary.add(&r);
                if args.keep_records {
                    records.push(r);
                }
                Ok(())
            })
            .with_context(|| format!("cannot resume {}", args.out.display()))?;
            if seats != n {
                bail!(
                    "{}: its header does not match this tournament's columns; choose another --out or pass --overwrite",
                    args.out.display()
                );
            }
            columns = Some(cols);
        }
        let setup = PlaySetup {
            agent_seeds: config.agent_seeds,
            openings,
        };
        if let Some(cols) = &columns
            && (*cols != rows::header(n) || incomplete)
        {
            upgrade(&game, &config, &setup, &args.out, n)?;
            columns = Some(rows::header(n));
            // Sum up the rewritten rows, with their filled turns and ends.
            summary = SummaryBuilder::new();
            records.clear();
            rows::for_each_row(&args.out, false, Some(&config), |r| {
                summary.add(&r);
                if args.keep_records {
                    records.push(r);
                }
                Ok(())
            })?;
        }
        // The last entry is this command's when its previous call wrote it;
        // a previous call with nothing to play (an earlier stretch of a
        // resumed run, already done) wrote none, and the last entry is then
        // the previous command's, which stays.
        if args.continues && history.last() == Some(&safety::Provenance::current()) {
            history.pop();
        }
        let limit = args.limit.unwrap_or(u64::MAX).min(table.count());
        let wanted = |i: u64| !done.contains(i) && jobs::in_shard(&config, i);
        // The games to play, listed first: rayon splits a range by index,
        // so a range whose first part is done (a resumed run, each stretch
        // of a run under --until, a shard) would leave the games to one
        // thread while the other found nothing.
        let indices: Vec<u64> = (0..limit).filter(|&i| wanted(i) && table.has(i)).collect();
        let todo = indices.len();
        // A resumed run with nothing to play leaves its configuration and
        // provenance as they were: reading results is not making them.
        if !(resuming && todo == 0 && columns.is_some()) {
            config::write_config_file(&args.out, &config, history)?;
        }
        let existing = summary.games();
        let mut writer = match columns {
            Some(columns) if existing > 0 => {
                if todo > 0 && !args.continues {
                    eprintln!(
                        "resuming {}: {existing} games done, {todo} to play",
                        args.out.display(),
                    );
                }
                RowWriter::append(&args.out, columns)?
            }
            _ => RowWriter::create(&args.out, n)?,
        };
        let (threads, note) = safety::cap_threads(args.threads, todo);
        // Once per run: not for a block with nothing left to play, nor for
        // each later stretch of a run under a stopping rule.
        if let Some(note) = note
            && todo > 0
            && !args.continues
        {
            eprintln!("{note}");
        }
        let bar = crate::output::table::games_bar(todo, args.progress);
        let pool = crate::output::table::pool(threads)?;
        let start = Instant::now();
        // Bounded: finished games wait for the writer rather than pile up.
        let (tx, rx) = mpsc::sync_channel::<Finished>(4 * threads);
        let specs = &self.specs;
        let setup = &setup;
        let first_batch = Batch::new(tx, writer.format(), &config, args.keep_records);
        std::thread::scope(|scope| -> Result<()> {
            // The one writer: it buffers (and compresses) the rows the
            // workers formatted, and makes them durable whenever no finished
            // game is waiting, so a worker never waits for a file per game.
            let writer_thread = scope.spawn(|| -> Result<()> {
                let rx = rx;
                while let Ok(first) = rx.recv() {
                    let mut next = Some(first);
                    while let Some(batch) = next {
                        writer.write_formatted(&batch.rows)?;
                        bar.inc(batch.summary.games());
                        summary.merge(batch.summary);
                        records.extend(batch.records);
                        next = rx.try_recv().ok();
                    }
                    writer.sync()?;
                }
                writer.finish()
            });
            pool.install(|| {
                indices
                    .into_par_iter()
                    .filter_map(|i| table.get(i))
                    .for_each_with(first_batch, |batch, job| {
                        batch.push(play_job(&game, specs, &job, setup));
                    });
            });
            writer_thread
                .join()
                .map_err(|_| anyhow!("the games writer thread panicked"))??;
            Ok(())
        })
        .with_context(|| format!("writing {}", args.out.display()))?;
        bar.finish_and_clear();
        records.sort_by_key(|r| r.index);
        Ok(TournamentResult {
            timed: self.specs.iter().any(|s| s.is_timed()),
            summary: summary.finish(&config),
            games: summary.games(),
            config,
            num_seats: n,
            records,
            played: todo,
            seconds: start.elapsed().as_secs_f64(),
            stopped_at: None,
        })
    }
}

/// Rewrites a tournament CSV of the first shape (`rows::Shape::V1`), or one
/// with rows that lack `turns`, `end` or `start` (written before they were
/// recorded), in the current columns, row for row in file order, before a
/// run appends to it. Each game is replayed from its start to fill the
/// role, colour and team columns, which the old single label cannot give,
/// and the turns and end reason where a row has none. The new file replaces
/// the old only when complete (written beside it, then renamed).
///
/// # Errors
/// A row whose moves do not replay, or an output that cannot be written.
fn upgrade<G: Game>(
    game: &G,
    config: &TournamentConfig,
    setup: &PlaySetup<G::State>,
    out: &std::path::Path,
    n: usize,
) -> Result<()> {
    // Beside the output, with its name's ending (so compressed alike).
    let name = out.file_name().unwrap_or_default().to_string_lossy();
    let tmp = out.with_file_name(format!(".upgrade-{name}"));
    let mut writer = RowWriter::create(&tmp, n)?;
    let mut count = 0u64;
    rows::for_each_row(out, false, Some(config), |mut r| {
        let (state, turns) = crate::run::records::replay_row(game, setup, &r)?;
        r.turns = r.turns.or(Some(turns));
        if r.end.is_none() {
            r.end = state.end_reason().map(str::to_string);
        }
        if r.start.is_none() {
            r.start = Some(crate::run::records::start_text(game, setup, &r)?);
        }
        let roles: Vec<engine::SeatRole> = (0..n).map(|s| state.seat_role(s)).collect();
        r.roles = roles.iter().map(|x| x.role.to_string()).collect();
        r.colours = roles.iter().map(|x| x.colour.clone()).collect();
        r.teams = roles.iter().map(|x| x.team).collect();
        count += 1;
        writer.write(config, &r)
    })
    .with_context(|| format!("cannot rewrite {} in the current columns", out.display()))?;
    writer.finish()?;
    std::fs::rename(&tmp, out).with_context(|| format!("cannot replace {}", out.display()))?;
    eprintln!(
        "rewrote {} in the current columns ({count} games; see docs/results-format.md)",
        out.display()
    );
    Ok(())
}

/// A worker's finished games on their way to the writer: their rows and
/// their summary, both made by the worker, and the records themselves only
/// when the run keeps them. So the writer copies bytes and merges counts,
/// and no record made on a worker is freed on the writer (a free across
/// threads takes the allocator's lock the worker is using).
struct Finished {
    rows: Vec<u8>,
    summary: SummaryBuilder,
    records: Vec<GameRecord>,
}

/// A worker's finished games, formatted as they finish and sent together
/// when [`Batch::GAMES`] are waiting or [`Batch::WAIT`] has passed since
/// the last send, so that short games do not wake the writer thread one by
/// one (a futex wake-up costs more than a random game), while a long game
/// is sent the moment it ends. Whatever is left goes when the worker's
/// batch is dropped, at the end of its share of the jobs. Formatting here,
/// on the workers, leaves the writer only the copying: with the writer
/// formatting every row it took a fifth of a two-thread run's time on
/// random Catapult, and the run scaled 1.6× from one thread to two.
struct Batch<'a> {
    tx: mpsc::SyncSender<Finished>,
    format: rows::RowFormat,
    config: &'a TournamentConfig,
    keep_records: bool,
    summary: SummaryBuilder,
    records: Vec<GameRecord>,
    sent: Instant,
}

impl<'a> Batch<'a> {
    const GAMES: usize = 256;
    const WAIT: std::time::Duration = std::time::Duration::from_millis(20);

    fn new(
        tx: mpsc::SyncSender<Finished>,
        format: rows::RowFormat,
        config: &'a TournamentConfig,
        keep_records: bool,
    ) -> Batch<'a> {
        Batch {
            tx,
            format,
            config,
            keep_records,
            summary: SummaryBuilder::new(),
            records: Vec::new(),
            sent: Instant::now(),
        }
    }

    fn push(&mut self, rec: GameRecord) {
        // Memory cannot fail to take a row.
        let _ = self.format.push(self.config, &rec);
        self.summary.add(&rec);
        if self.keep_records {
            self.records.push(rec);
        }
        if self.summary.games() >= Self::GAMES as u64 || self.sent.elapsed() >= Self::WAIT {
            self.send();
        }
    }

    fn send(&mut self) {
        if self.summary.games() > 0 {
            // The writer ends only on an I/O error, reported by the run.
            let _ = self.tx.send(Finished {
                rows: self.format.take(),
                summary: std::mem::take(&mut self.summary),
                records: std::mem::take(&mut self.records),
            });
        }
        self.sent = Instant::now();
    }
}

/// Rayon gives each piece of the jobs its own batch.
impl Clone for Batch<'_> {
    fn clone(&self) -> Self {
        Batch::new(
            self.tx.clone(),
            self.format.clone(),
            self.config,
            self.keep_records,
        )
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.send();
    }
}

struct SeatsVisitor;

impl GameVisitor for SeatsVisitor {
    type Output = usize;
    fn visit<G: Game>(self, game: G) -> usize {
        game.num_seats()
    }
}

/// The seat count of a game string.
///
/// # Errors
/// An unknown game or bad parameters.
pub fn num_seats(game: &str) -> Result<usize> {
    visit_game(game, SeatsVisitor).map_err(|e| anyhow!("{e}"))
}

/// Runs (or resumes) a tournament and returns every game.
///
/// # Errors
/// Unknown game or agent, an agent that cannot play the game, an output
/// that cannot be written or that holds another configuration.
pub fn run(args: &TournamentArgs) -> Result<TournamentResult> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let specs = args
        .agents
        .iter()
        .map(|a| AgentSpec::parse_in(a, &args.game).map_err(|e| anyhow!("{e}")))
        .collect::<Result<Vec<_>>>()?;
    if let Some(rule) = args.until {
        return run_until(args, rule);
    }
    let mut res =
        visit_game(&args.game, RunVisitor { args, specs }).map_err(|e| anyhow!("{e}"))??;
    res.summary.set_level(args.alpha, None, None);
    Ok(res)
}

/// The shape of a sequential run before any game: its job count and the
/// games per observation of its interval.
///
/// # Errors
/// Agents that do not fill the game's seats.
pub fn until_shape(args: &TournamentArgs, seats: usize) -> Result<(u64, u64)> {
    let shape = TournamentConfig {
        agents: args.agents.clone(),
        games: args.games,
        schedule: args.schedule,
        paired: args.paired,
        openings: args.openings.is_set().then(|| OpeningsConfig {
            count: 1,
            plies: 0,
            file: None,
            digest: String::new(),
            filter: None,
        }),
        interleaved: true,
        ..TournamentConfig::default()
    };
    jobs::check_seats(&shape, seats)?;
    let total = jobs::job_count(&shape, seats);
    let group = summary::observation_group(&shape, seats);
    Ok((total, group))
}

/// A sequential run: plays up to each of the [`checkpoints`] in turn and
/// stops at the first where the first mover's interval (over the games
/// below the checkpoint, in index order) meets `rule`, or at the cap. The
/// checkpoints and the games are fixed by the seed, so the stop is the
/// same at any thread count, and an interrupted run resumes to the same
/// stop. The interval printed at the end covers every finished game: it is
/// valid at any game count, however chosen.
fn run_until(args: &TournamentArgs, rule: Until) -> Result<TournamentResult> {
    if args.shard.is_some() {
        bail!(
            "--until is sequential and cannot be sharded; run it whole (it resumes after an interruption)"
        );
    }
    let seats = num_seats(&args.game)?;
    if seats < 2 {
        bail!("--until measures the first mover, and this game has one seat");
    }
    let (total, group) = until_shape(args, seats)?;
    rule.check_reachable(total / group, group, args.alpha)?;
    let bar = crate::output::table::spinner(args.progress);
    let mut call = args.clone();
    call.progress = false;
    let (mut played, mut seconds) = (0, 0.0);
    for checkpoint in checkpoints(group) {
        let limit = checkpoint.min(total);
        call.limit = Some(limit);
        let mut res = visit_game(
            &call.game,
            RunVisitor {
                args: &call,
                specs: call
                    .agents
                    .iter()
                    .map(|a| AgentSpec::parse_in(a, &call.game).map_err(|e| anyhow!("{e}")))
                    .collect::<Result<Vec<_>>>()?,
            },
        )
        .map_err(|e| anyhow!("{e}"))??;
        // The next batch extends this file (even after --overwrite).
        call.overwrite = false;
        call.continues = true;
        played += res.played;
        seconds += res.seconds;
        res.played = played;
        res.seconds = seconds;
        res.summary.set_level(args.alpha, Some(rule), Some(limit));
        let met = res
            .summary
            .first_mover_score
            .as_ref()
            .is_some_and(|e| rule.met((e.lower, e.upper), e.fair));
        if let Some(e) = &res.summary.first_mover_score {
            bar.set_message(format!(
                "{} games  first mover {:.3} [{:.3}, {:.3}]  until {rule}",
                e.games, e.score, e.lower, e.upper
            ));
            bar.tick();
        }
        if met || limit >= total {
            bar.finish_and_clear();
            res.stopped_at = met.then_some(limit);
            res.summary.set_level(args.alpha, Some(rule), None);
            return Ok(res);
        }
    }
    unreachable!("checkpoints are endless")
}
