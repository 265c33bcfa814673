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
//!   configuration is refused unless `--overwrite` is given.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use agents::AgentSpec;
use engine::Research;
use engine::board::zobrist::SplitMix64;
use engine::{Game, GameVisitor, State, ToMove, visit_game};

use crate::stats::{Proportion, mean_sd, wilson};

/// Everything that determines a tournament's games (not its threads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Replace an existing output made with another configuration.
    pub overwrite: bool,
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
            progress: false,
            schedule: Schedule::RoundRobin,
            paired: false,
            shard: None,
            limit: None,
        }
    }
}

/// Parses `k/n` (1 <= k <= n).
///
/// # Errors
/// Anything else.
pub fn parse_shard(text: &str) -> Result<(u32, u32)> {
    let bad = || anyhow!("--shard {text:?}: expected k/n with 1 <= k <= n, e.g. 2/8");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u32, u32) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job {
    /// Game index within the run (0-based).
    pub index: u64,
    /// Seed of this game.
    pub seed: u64,
    /// Agent index (into the agents list) per seat.
    pub seats: Vec<usize>,
}

/// A finished game, as written to the CSV.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game index within the run.
    pub index: u64,
    /// Game seed.
    pub seed: u64,
    /// Agent index per seat.
    pub seats: Vec<usize>,
    /// Winning seats: those with the highest return (two partners in a team
    /// game); empty for a draw (every seat's return equal).
    pub winners: Vec<usize>,
    /// Return per seat.
    pub returns: Vec<f64>,
    /// Role per seat (e.g. `setter/teal`).
    pub roles: Vec<String>,
    /// Seat that moved first in the main game, if the game has one.
    pub first_mover: Option<usize>,
    /// Seat that made the pie set-up, if any.
    pub setter: Option<usize>,
    /// Plies played.
    pub plies: u32,
    /// Wall-clock milliseconds for the game.
    pub wall_ms: u64,
    /// The move record, space-separated, in the game's notation.
    pub moves: String,
}

/// `SplitMix64` of `a` mixed with `b`: independent seeds for jobs and seats.
pub fn mix(a: u64, b: u64) -> u64 {
    let mut g = SplitMix64(a ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03));
    g.next();
    g.next()
}

/// The deterministic job list of a run.
///
/// # Errors
/// A seat count the agent list cannot fill.
pub fn jobs(config: &TournamentConfig, num_seats: usize) -> Result<Vec<Job>> {
    let k = config.agents.len();
    let mut out = Vec::new();
    let paired = config.paired;
    let mut push = |seats: Vec<usize>, game_in_pairing: u32| {
        let index = out.len() as u64;
        // Paired: both games of a pair take the seed of the pair's first.
        let seed_index = if paired {
            index - (game_in_pairing % 2) as u64
        } else {
            index
        };
        out.push(Job {
            index,
            seed: mix(config.seed, seed_index),
            seats,
        });
    };
    match num_seats {
        1 => {
            for a in 0..k {
                for g in 0..config.games {
                    push(vec![a], g);
                }
            }
        }
        2 => {
            if k < 2 {
                bail!(
                    "a two-seat game needs at least two agents (give --agents A B; the same spec twice is fine)"
                );
            }
            let pairings: Vec<(usize, usize)> = match config.schedule {
                Schedule::RoundRobin => (0..k)
                    .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
                    .collect(),
                Schedule::Gauntlet => (1..k).map(|j| (0, j)).collect(),
            };
            for (i, j) in pairings {
                for g in 0..config.games {
                    push(if g % 2 == 0 { vec![i, j] } else { vec![j, i] }, g);
                }
            }
        }
        n => {
            if k != n {
                bail!(
                    "this game has {n} seats: give exactly {n} agents (seats rotate between games)"
                );
            }
            for g in 0..config.games {
                push((0..n).map(|s| (s + g as usize) % n).collect(), g);
            }
        }
    }
    if let Some((k, n)) = config.shard {
        // Slices keep game pairs together: pair p goes to slice p mod n.
        out.retain(|j| (j.index / 2) % n as u64 == (k - 1) as u64);
    }
    Ok(out)
}

/// Plays `state` to the end: `players[s]` chooses for seat `s`, chance
/// outcomes are drawn from a generator seeded with `chance_seed`; the text of
/// each move is pushed to `record` if given.
pub fn play_out<S: State + 'static>(
    state: &mut S,
    players: &mut [Box<dyn agents::Agent<S>>],
    chance_seed: u64,
    mut record: Option<&mut Vec<String>>,
) {
    let mut chance_rng = ChaCha8Rng::seed_from_u64(chance_seed);
    let mut outcomes = Vec::new();
    loop {
        let mv = match state.to_move() {
            ToMove::Terminal => break,
            ToMove::Chance => state
                .sample_chance(&mut chance_rng, &mut outcomes)
                .expect("a chance node has outcomes"),
            ToMove::Seat(s) => players[s].select(state),
        };
        if let Some(r) = record.as_deref_mut() {
            r.push(state.move_to_text(mv));
        }
        state.apply(mv);
    }
}

/// Plays one game of a job with fresh agents.
pub fn play_job<G: Game>(game: &G, specs: &[AgentSpec], job: &Job) -> GameRecord {
    let start = Instant::now();
    let mut state = game.initial_state(job.seed);
    let mut players: Vec<_> = job
        .seats
        .iter()
        .enumerate()
        .map(|(seat, &a)| specs[a].build::<G::State>(mix(job.seed, seat as u64 + 1)))
        .collect();
    let mut moves = Vec::new();
    play_out(&mut state, &mut players, mix(job.seed, 0), Some(&mut moves));
    let n = game.num_seats();
    let r = state.returns();
    let best = r[..n].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut winners: Vec<usize> = (0..n).filter(|&s| r[s] == best).collect();
    if winners.len() == n && n > 1 {
        winners.clear();
    }
    GameRecord {
        index: job.index,
        seed: job.seed,
        seats: job.seats.clone(),
        winners,
        returns: r[..n].to_vec(),
        roles: (0..n).map(|s| state.seat_role(s)).collect(),
        first_mover: state.first_mover_seat(),
        setter: state.setter_seat(),
        plies: state.ply(),
        wall_ms: start.elapsed().as_millis() as u64,
        moves: moves.join(" "),
    }
}

fn header(n: usize) -> Vec<String> {
    let mut h: Vec<String> = vec!["game".into(), "game_index".into(), "seed".into()];
    for s in 0..n {
        h.push(format!("agent_{s}"));
        h.push(format!("spec_{s}"));
    }
    h.push("winner_seat".into());
    h.push("winner_agent".into());
    for s in 0..n {
        h.push(format!("return_{s}"));
    }
    for s in 0..n {
        h.push(format!("role_{s}"));
    }
    for c in [
        "first_mover_seat",
        "setter_seat",
        "plies",
        "wall_ms",
        "moves",
    ] {
        h.push(c.into());
    }
    h
}

fn opt(v: Option<usize>) -> String {
    v.map_or(String::new(), |s| s.to_string())
}

fn row(config: &TournamentConfig, r: &GameRecord) -> Vec<String> {
    let mut v = vec![config.game.clone(), r.index.to_string(), r.seed.to_string()];
    for &a in &r.seats {
        v.push(a.to_string());
        v.push(config.agents[a].clone());
    }
    let join = |v: Vec<String>| v.join("+");
    if r.winners.is_empty() {
        v.push("draw".into());
        v.push(String::new());
    } else {
        v.push(join(r.winners.iter().map(|s| s.to_string()).collect()));
        v.push(join(
            r.winners.iter().map(|&s| r.seats[s].to_string()).collect(),
        ));
    }
    v.extend(r.returns.iter().map(|x| x.to_string()));
    v.extend(r.roles.iter().cloned());
    v.push(opt(r.first_mover));
    v.push(opt(r.setter));
    v.push(r.plies.to_string());
    v.push(r.wall_ms.to_string());
    v.push(r.moves.clone());
    v
}

/// Parses a row; with a configuration, also checks the game string and the
/// agent specs against it (and that agent indices exist).
fn parse_row_checked(
    n: usize,
    rec: &csv::StringRecord,
    config: Option<&TournamentConfig>,
) -> Result<GameRecord> {
    if let Some(c) = config {
        if rec.get(0) != Some(c.game.as_str()) {
            bail!(
                "game {:?} is not this run's {:?}",
                rec.get(0).unwrap_or(""),
                c.game
            );
        }
        for s in 0..n {
            let a: usize = rec
                .get(3 + 2 * s)
                .unwrap_or("")
                .parse()
                .map_err(|_| anyhow!("bad agent index"))?;
            if a >= c.agents.len() || rec.get(4 + 2 * s) != Some(c.agents[a].as_str()) {
                bail!(
                    "seat {s}: agent {a} {:?} is not one of this run's agents",
                    rec.get(4 + 2 * s).unwrap_or("")
                );
            }
        }
    }
    let want = header(n).len();
    if rec.len() != want {
        bail!("{} fields, expected {want}", rec.len());
    }
    let get = |i: usize| rec.get(i).unwrap_or("");
    let num = |i: usize| -> Result<u64> {
        get(i)
            .parse::<u64>()
            .map_err(|_| anyhow!("field {} is {:?}, expected a number", i + 1, get(i)))
    };
    let optn = |i: usize| -> Result<Option<usize>> {
        if get(i).is_empty() {
            Ok(None)
        } else {
            Ok(Some(num(i)? as usize))
        }
    };
    let mut seats = Vec::new();
    for s in 0..n {
        seats.push(num(3 + 2 * s)? as usize);
    }
    let w = 3 + 2 * n;
    let winners = if get(w) == "draw" {
        Vec::new()
    } else {
        get(w)
            .split('+')
            .map(|x| match x.parse::<usize>() {
                Ok(s) if s < n => Ok(s),
                _ => Err(anyhow!(
                    "winner_seat {:?} is not draw or seats joined by +",
                    get(w)
                )),
            })
            .collect::<Result<Vec<usize>>>()?
    };
    let mut returns = Vec::new();
    for s in 0..n {
        returns.push(
            get(w + 2 + s)
                .parse::<f64>()
                .map_err(|_| anyhow!("bad return {:?}", get(w + 2 + s)))?,
        );
    }
    let roles = (0..n).map(|s| get(w + 2 + n + s).to_string()).collect();
    let b = w + 2 + 2 * n;
    Ok(GameRecord {
        index: num(1)?,
        seed: num(2)?,
        seats,
        winners,
        returns,
        roles,
        first_mover: optn(b)?,
        setter: optn(b + 1)?,
        plies: num(b + 2)? as u32,
        wall_ms: num(b + 3)?,
        moves: get(b + 4).to_string(),
    })
}

fn config_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".config.json");
    PathBuf::from(p)
}

/// Checks rows against the run that should have made them: each game
/// index is a job of the run (and of its shard) at most once, with that
/// job's seed and seating, the game string, per-seat returns in range and
/// winners that match the returns. A row edited by hand or copied from
/// another run is an error, never silently counted.
///
/// # Errors
/// The first row that does not fit, named by its game index.
pub fn check_rows(
    config: &TournamentConfig,
    num_seats: usize,
    records: &[GameRecord],
) -> Result<()> {
    let all = jobs(config, num_seats)?;
    let by_index: std::collections::HashMap<u64, &Job> = all.iter().map(|j| (j.index, j)).collect();
    let mut seen = HashSet::new();
    for r in records {
        let Some(job) = by_index.get(&r.index) else {
            bail!(
                "row with game_index {} is not a game of this run (or of this shard)",
                r.index
            );
        };
        if !seen.insert(r.index) {
            bail!("game_index {} appears twice", r.index);
        }
        if r.seed != job.seed || r.seats != job.seats {
            bail!(
                "row {}: its seed or seating differs from the run's game {}",
                r.index,
                r.index
            );
        }
        if r.returns.len() != num_seats || r.returns.iter().any(|x| !x.is_finite()) {
            bail!("row {}: bad returns {:?}", r.index, r.returns);
        }
        if num_seats > 1 && r.returns.iter().any(|x| !(-1.0..=1.0).contains(x)) {
            bail!("row {}: returns {:?} out of [-1, 1]", r.index, r.returns);
        }
        let best = r.returns.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut winners: Vec<usize> = (0..num_seats).filter(|&s| r.returns[s] == best).collect();
        if winners.len() == num_seats && num_seats > 1 {
            winners.clear();
        }
        if winners != r.winners {
            bail!("row {}: winner_seat does not match the returns", r.index);
        }
    }
    Ok(())
}

/// Reads the complete rows of an existing output, rewriting the file
/// without a half-written last row if there is one.
fn load_existing(out: &Path, n: usize, config: &TournamentConfig) -> Result<Vec<GameRecord>> {
    let (records, seats) = read_rows(out, true, Some(config))?;
    if seats != n {
        bail!(
            "{}: its header does not match this tournament's columns; choose another --out or pass --overwrite",
            out.display()
        );
    }
    Ok(records)
}

/// Reads a tournament CSV: its complete rows and the seat count its header
/// implies. A half-written last row is dropped with a warning; with
/// `repair` the file is rewritten without it (so appending can resume).
///
/// # Errors
/// An unreadable file or header, a header that is not a tournament's, or a
/// malformed complete row (named by its line).
pub fn read_rows(
    path: &Path,
    repair: bool,
    config: Option<&TournamentConfig>,
) -> Result<(Vec<GameRecord>, usize)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let complete_len = if text.ends_with('\n') {
        text.len()
    } else {
        text.rfind('\n').map_or(0, |i| i + 1)
    };
    let (good, partial) = text.split_at(complete_len);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(good.as_bytes());
    let head = reader
        .headers()
        .with_context(|| format!("{}: unreadable header", path.display()))?
        .clone();
    let n = head.iter().filter(|h| h.starts_with("agent_")).count();
    if n == 0 || head.iter().collect::<Vec<_>>() != header(n) {
        bail!(
            "{}: not a boardlab tournament CSV (its header differs)",
            path.display()
        );
    }
    let mut records = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let rec = rec.with_context(|| format!("{}: row {} unreadable", path.display(), i + 2))?;
        records.push(
            parse_row_checked(n, &rec, config)
                .with_context(|| format!("{}: row {}", path.display(), i + 2))?,
        );
    }
    if !partial.is_empty() {
        eprintln!(
            "warning: {}: dropped a half-written last row ({} bytes); that game is played again",
            path.display(),
            partial.len()
        );
        if repair {
            std::fs::write(path, good)
                .with_context(|| format!("cannot rewrite {}", path.display()))?;
        }
    }
    Ok((records, n))
}

/// Reads the configuration written beside a tournament CSV.
///
/// # Errors
/// A missing or malformed `FILE.config.json`.
pub fn read_config(csv_path: &Path) -> Result<TournamentConfig> {
    let p = config_path(csv_path);
    let text =
        std::fs::read_to_string(&p).with_context(|| format!("cannot read {}", p.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{}: not a tournament configuration", p.display()))
}

/// Writes `records` (sorted by game index) as a tournament CSV with its
/// configuration beside it.
///
/// # Errors
/// An output that cannot be written.
pub fn write_rows(
    path: &Path,
    config: &TournamentConfig,
    num_seats: usize,
    records: &[GameRecord],
) -> Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    w.write_record(header(num_seats))?;
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.index);
    for r in sorted {
        w.write_record(row(config, r))?;
    }
    w.flush()?;
    std::fs::write(
        config_path(path),
        serde_json::to_string_pretty(config)? + "\n",
    )
    .with_context(|| format!("cannot write {}", config_path(path).display()))?;
    Ok(())
}

/// The outcome of a run: its configuration and every game (resumed ones
/// included), sorted by game index.
#[derive(Clone, Debug)]
pub struct TournamentResult {
    /// The run's configuration.
    pub config: TournamentConfig,
    /// Seats of the game.
    pub num_seats: usize,
    /// Every finished game.
    pub records: Vec<GameRecord>,
    /// Games played in this invocation.
    pub played: usize,
    /// Whether any agent uses a wall-clock budget.
    pub timed: bool,
    /// Wall-clock seconds of this invocation.
    pub seconds: f64,
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
        let config = TournamentConfig {
            game: game.game_string(),
            agents: self.specs.iter().map(|s| s.canonical()).collect(),
            games: args.games,
            seed: args.seed,
            schedule: args.schedule,
            paired: args.paired,
            shard: args.shard,
        };
        if config.paired && config.games % 2 == 1 {
            bail!("--games {} must be even for game pairs", config.games);
        }
        let all_jobs = jobs(&config, n)?;
        let cfg_path = config_path(&args.out);
        if let Some(dir) = args.out.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create output folder {}", dir.display()))?;
        }
        let mut existing = Vec::new();
        if args.out.exists() && !args.overwrite {
            let old: Option<TournamentConfig> = std::fs::read_to_string(&cfg_path)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            match old {
                Some(old) if old == config => {
                    existing = load_existing(&args.out, n, &config)?;
                    check_rows(&config, n, &existing)
                        .with_context(|| format!("cannot resume {}", args.out.display()))?;
                }
                Some(old) => bail!(
                    "{} holds a run with another configuration ({}); choose another --out or pass --overwrite",
                    args.out.display(),
                    serde_json::to_string(&old)?
                ),
                None => bail!(
                    "{} exists but has no matching {}; choose another --out or pass --overwrite",
                    args.out.display(),
                    cfg_path.display()
                ),
            }
        }
        std::fs::write(&cfg_path, serde_json::to_string_pretty(&config)? + "\n")
            .with_context(|| format!("cannot write {}", cfg_path.display()))?;
        let done: HashSet<u64> = existing.iter().map(|r| r.index).collect();
        let limit = args.limit.unwrap_or(u64::MAX);
        let todo: Vec<Job> = all_jobs
            .into_iter()
            .filter(|j| !done.contains(&j.index) && j.index < limit)
            .collect();
        let fresh = existing.is_empty();
        let file = if fresh {
            File::create(&args.out)
        } else {
            OpenOptions::new().append(true).open(&args.out)
        }
        .with_context(|| format!("cannot write {}", args.out.display()))?;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        if fresh {
            writer.write_record(header(n))?;
            writer.flush()?;
        } else if !todo.is_empty() {
            eprintln!(
                "resuming {}: {} games done, {} to play",
                args.out.display(),
                existing.len(),
                todo.len()
            );
        }
        let bar = crate::csvio::games_bar(todo.len(), args.progress);
        let pool = crate::csvio::pool(args.threads)?;
        let start = Instant::now();
        let (tx, rx) = mpsc::channel::<GameRecord>();
        let specs = &self.specs;
        let played = todo.len();
        let mut records = existing;
        std::thread::scope(|scope| -> Result<()> {
            let writer_thread = scope.spawn(|| -> Result<Vec<GameRecord>> {
                let mut got = Vec::new();
                for rec in rx {
                    writer.write_record(row(&config, &rec))?;
                    writer.flush()?;
                    bar.inc(1);
                    got.push(rec);
                }
                Ok(got)
            });
            pool.install(|| {
                todo.par_iter().for_each_with(tx, |tx, job| {
                    let rec = play_job(&game, specs, job);
                    // The writer ends only on an I/O error, reported below.
                    let _ = tx.send(rec);
                });
            });
            let got = writer_thread
                .join()
                .map_err(|_| anyhow!("the CSV writer thread panicked"))??;
            records.extend(got);
            Ok(())
        })
        .with_context(|| format!("writing {}", args.out.display()))?;
        bar.finish_and_clear();
        records.sort_by_key(|r| r.index);
        Ok(TournamentResult {
            timed: self.specs.iter().any(|s| s.is_timed()),
            config,
            num_seats: n,
            records,
            played,
            seconds: start.elapsed().as_secs_f64(),
        })
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
        .map(|a| AgentSpec::parse(a).map_err(|e| anyhow!("{e}")))
        .collect::<Result<Vec<_>>>()?;
    visit_game(&args.game, RunVisitor { args, specs }).map_err(|e| anyhow!("{e}"))?
}

/// Per-agent results of a run.
#[derive(Clone, Debug)]
pub struct AgentSummary {
    /// Index in the agents list.
    pub agent: usize,
    /// Canonical spec.
    pub spec: String,
    /// Wins, draws, losses.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Score (win 1, draw ½) with its Wilson interval.
    pub score: Proportion,
}

/// The summary of a run.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Games.
    pub games: usize,
    /// Per agent.
    pub agents: Vec<AgentSummary>,
    /// Wins of the first mover (Black in Slingshot), over games that have one.
    pub first_mover: Proportion,
    /// Wins of the pie setter, over games that have one.
    pub setter: Proportion,
    /// Wins per seat (seat order is itself an advantage to measure).
    pub seats: Vec<Proportion>,
    /// Wins shared by several seats (teams), per winning set of seats.
    pub coalitions: Vec<(Vec<usize>, Proportion)>,
    /// Draws over all games.
    pub draws: Proportion,
    /// Mean and standard deviation of plies.
    pub plies: (f64, f64),
    /// Per ordered pairing `(a, b)` with `a < b`: wins of a, wins of b, draws.
    pub pairings: Vec<(usize, usize, u64, u64, u64)>,
    /// One-seat games: per agent, the distribution of its return (score).
    pub scores: Vec<ScoreSummary>,
}

/// One agent's returns in a one-seat game (a puzzle's score).
#[derive(Clone, Debug)]
pub struct ScoreSummary {
    /// Index in the agents list.
    pub agent: usize,
    /// Games played.
    pub games: u64,
    /// Mean and standard deviation of the return.
    pub mean_sd: (f64, f64),
    /// Each return value reached, best first, with the share of games
    /// reaching it (Wilson 95 % interval).
    pub values: Vec<(f64, Proportion)>,
    /// Mean and largest wall-clock milliseconds per game (not
    /// reproducible).
    pub wall_ms: (f64, u64),
}

/// Summarises the games of a run.
pub fn summarise(config: &TournamentConfig, records: &[GameRecord]) -> Summary {
    let k = config.agents.len();
    let mut w = vec![0u64; k];
    let mut d = vec![0u64; k];
    let mut l = vec![0u64; k];
    let (mut fm_n, mut fm_w, mut st_n, mut st_w, mut draws) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut pair = std::collections::BTreeMap::<(usize, usize), (u64, u64, u64)>::new();
    let num_seats = records.iter().map(|r| r.seats.len()).max().unwrap_or(0);
    let mut seat_wins = vec![0u64; num_seats];
    let mut coalitions = std::collections::BTreeMap::<Vec<usize>, u64>::new();
    for r in records {
        for &s in &r.winners {
            seat_wins[s] += 1;
        }
        if r.winners.len() > 1 {
            *coalitions.entry(r.winners.clone()).or_default() += 1;
        }
        for (seat, &a) in r.seats.iter().enumerate() {
            if r.winners.is_empty() {
                d[a] += 1;
            } else if r.winners.contains(&seat) {
                w[a] += 1;
            } else {
                l[a] += 1;
            }
        }
        if r.winners.is_empty() {
            draws += 1;
        }
        if let Some(f) = r.first_mover {
            fm_n += 1;
            fm_w += r.winners.contains(&f) as u64;
        }
        if let Some(s) = r.setter {
            st_n += 1;
            st_w += r.winners.contains(&s) as u64;
        }
        if r.seats.len() == 2 {
            let (a, b) = (r.seats[0].min(r.seats[1]), r.seats[0].max(r.seats[1]));
            let e = pair.entry((a, b)).or_default();
            match r.winners.first().map(|&s| r.seats[s]) {
                Some(x) if x == a => e.0 += 1,
                Some(_) => e.1 += 1,
                None => e.2 += 1,
            }
        }
    }
    let agents = (0..k)
        .map(|a| {
            let n = w[a] + d[a] + l[a];
            AgentSummary {
                agent: a,
                spec: config.agents[a].clone(),
                wins: w[a],
                draws: d[a],
                losses: l[a],
                score: wilson(w[a] as f64 + 0.5 * d[a] as f64, n),
            }
        })
        .collect();
    let plies: Vec<f64> = records.iter().map(|r| r.plies as f64).collect();
    let scores = if num_seats == 1 {
        (0..k)
            .filter_map(|a| {
                let mine: Vec<&GameRecord> = records.iter().filter(|r| r.seats[0] == a).collect();
                if mine.is_empty() {
                    return None;
                }
                let n = mine.len() as u64;
                let rets: Vec<f64> = mine.iter().map(|r| r.returns[0]).collect();
                let mut distinct = rets.clone();
                distinct.sort_by(|x, y| y.total_cmp(x));
                distinct.dedup();
                let values = distinct
                    .into_iter()
                    .map(|v| {
                        let c = rets.iter().filter(|&&x| x == v).count();
                        (v, wilson(c as f64, n))
                    })
                    .collect();
                let ms: u64 = mine.iter().map(|r| r.wall_ms).sum();
                let max_ms = mine.iter().map(|r| r.wall_ms).max().unwrap_or(0);
                Some(ScoreSummary {
                    agent: a,
                    games: n,
                    mean_sd: mean_sd(&rets),
                    values,
                    wall_ms: (ms as f64 / n as f64, max_ms),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    Summary {
        scores,
        games: records.len(),
        agents,
        first_mover: wilson(fm_w as f64, fm_n),
        setter: wilson(st_w as f64, st_n),
        seats: seat_wins
            .iter()
            .map(|&w| wilson(w as f64, records.len() as u64))
            .collect(),
        coalitions: coalitions
            .into_iter()
            .map(|(c, x)| (c, wilson(x as f64, records.len() as u64)))
            .collect(),
        draws: wilson(draws as f64, records.len() as u64),
        plies: mean_sd(&plies),
        pairings: pair
            .into_iter()
            .map(|((a, b), (x, y, z))| (a, b, x, y, z))
            .collect(),
    }
}

impl Summary {
    /// The summary as printed at the end of a run.
    pub fn render(&self, config: &TournamentConfig) -> String {
        let mut s = String::new();
        let _ = writeln!(
            &mut s,
            "game {}  seed {}  games {}",
            config.game, config.seed, self.games
        );
        for (a, b, x, y, z) in &self.pairings {
            let _ = writeln!(
                &mut s,
                "Score of A{a} vs A{b}: {x} - {y} - {z}  [{:.3}] {}",
                (*x as f64 + 0.5 * *z as f64) / (x + y + z).max(1) as f64,
                x + y + z
            );
        }
        for a in &self.agents {
            let _ = writeln!(
                &mut s,
                "A{} {}: +{} ={} -{}  score {}",
                a.agent, a.spec, a.wins, a.draws, a.losses, a.score
            );
        }
        let _ = writeln!(&mut s, "first mover wins: {}", self.first_mover);
        if self.setter.n > 0 {
            let _ = writeln!(&mut s, "setter wins:      {}", self.setter);
        }
        for (seat, p) in self.seats.iter().enumerate() {
            let _ = writeln!(&mut s, "seat {seat} wins:      {p}");
        }
        for (c, p) in &self.coalitions {
            let seats: Vec<String> = c.iter().map(|x| x.to_string()).collect();
            let _ = writeln!(&mut s, "seats {} win together: {p}", seats.join("+"));
        }
        for sc in &self.scores {
            let _ = writeln!(
                &mut s,
                "A{} return: mean {:.3}, sd {:.3} over {} games; wall ms per game: mean {:.1}, max {}",
                sc.agent, sc.mean_sd.0, sc.mean_sd.1, sc.games, sc.wall_ms.0, sc.wall_ms.1
            );
            for (v, p) in &sc.values {
                let _ = writeln!(&mut s, "A{}   return {v}: {p}", sc.agent);
            }
        }
        let _ = writeln!(&mut s, "draws:            {}", self.draws);
        let _ = write!(
            &mut s,
            "plies: mean {:.1}, sd {:.1}",
            self.plies.0, self.plies.1
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(index: u64, seats: Vec<usize>, winner: Option<usize>, first: usize) -> GameRecord {
        GameRecord {
            index,
            seed: index,
            returns: (0..seats.len())
                .map(|s| if winner == Some(s) { 1.0 } else { 0.0 })
                .collect(),
            roles: vec![String::new(); seats.len()],
            seats,
            winners: winner.into_iter().collect(),
            first_mover: Some(first),
            setter: Some(0),
            plies: 10 + index as u32,
            wall_ms: 0,
            moves: String::new(),
        }
    }

    #[test]
    fn summary_counts_by_hand() {
        let config = TournamentConfig {
            game: "g".into(),
            agents: vec!["a".into(), "b".into()],
            games: 2,
            seed: 0,
            schedule: Schedule::RoundRobin,
            paired: false,
            shard: None,
        };
        // Game 0: A0 in seat 0 wins as first mover. Game 1: A1 in seat 0
        // wins as second mover (seat 1 moved first). Game 2: draw.
        let records = vec![
            rec(0, vec![0, 1], Some(0), 0),
            rec(1, vec![1, 0], Some(0), 1),
            rec(2, vec![0, 1], None, 0),
        ];
        let s = summarise(&config, &records);
        assert_eq!(
            (s.agents[0].wins, s.agents[0].draws, s.agents[0].losses),
            (1, 1, 1)
        );
        assert_eq!(
            (s.agents[1].wins, s.agents[1].draws, s.agents[1].losses),
            (1, 1, 1)
        );
        assert_eq!(s.agents[0].score.rate, 0.5);
        assert_eq!((s.first_mover.successes, s.first_mover.n), (1.0, 3));
        assert_eq!((s.setter.successes, s.setter.n), (2.0, 3));
        assert_eq!((s.seats[0].successes, s.seats[1].successes), (2.0, 0.0));
        assert_eq!((s.draws.successes, s.draws.n), (1.0, 3));
        assert_eq!(s.pairings, vec![(0, 1, 1, 1, 1)]);
        assert_eq!(s.plies.0, 11.0);
        assert!(s.coalitions.is_empty());
        // A team game: seats 0 and 2 win together (partners share returns).
        let mut team = rec(3, vec![0, 1, 0, 1], None, 0);
        team.winners = vec![0, 2];
        let config4 = TournamentConfig {
            agents: vec!["a".into(), "b".into()],
            ..config.clone()
        };
        let s = summarise(&config4, &[team]);
        assert_eq!((s.agents[0].wins, s.agents[1].losses), (2, 2));
        assert_eq!(s.coalitions.len(), 1);
        assert_eq!(s.coalitions[0].0, vec![0, 2]);
        assert_eq!(
            (
                s.seats[0].successes,
                s.seats[1].successes,
                s.seats[2].successes
            ),
            (1.0, 0.0, 1.0)
        );
    }

    #[test]
    fn jobs_alternate_seats_and_rotate() {
        let mut config = TournamentConfig {
            game: "g".into(),
            agents: vec!["a".into(), "b".into(), "c".into()],
            games: 2,
            seed: 9,
            schedule: Schedule::RoundRobin,
            paired: false,
            shard: None,
        };
        let j = jobs(&config, 2).unwrap();
        let seats: Vec<Vec<usize>> = j.iter().map(|j| j.seats.clone()).collect();
        assert_eq!(
            seats,
            vec![
                vec![0, 1],
                vec![1, 0],
                vec![0, 2],
                vec![2, 0],
                vec![1, 2],
                vec![2, 1]
            ]
        );
        assert!(
            j.iter()
                .enumerate()
                .all(|(i, j)| j.index == i as u64 && j.seed == mix(9, i as u64))
        );
        let j = jobs(&config, 3).unwrap();
        assert_eq!(j[1].seats, vec![1, 2, 0]);
        assert!(jobs(&config, 4).is_err());
        // Pairs share a seed; a gauntlet plays only the baseline's pairings.
        config.paired = true;
        config.schedule = Schedule::Gauntlet;
        let j = jobs(&config, 2).unwrap();
        let seats: Vec<Vec<usize>> = j.iter().map(|j| j.seats.clone()).collect();
        assert_eq!(seats, vec![vec![0, 1], vec![1, 0], vec![0, 2], vec![2, 0]]);
        assert_eq!((j[0].seed, j[2].seed), (j[1].seed, j[3].seed));
        assert_ne!(j[0].seed, j[2].seed);
        // Shards partition the jobs and keep pairs together.
        config.games = 6;
        let all: Vec<u64> = jobs(&config, 2).unwrap().iter().map(|j| j.index).collect();
        let mut union = Vec::new();
        for k in 1..=3 {
            config.shard = Some((k, 3));
            let part: Vec<u64> = jobs(&config, 2).unwrap().iter().map(|j| j.index).collect();
            assert!(part.chunks(2).all(|c| c.len() == 2 && c[0] / 2 == c[1] / 2));
            union.extend(part);
        }
        union.sort();
        assert_eq!(union, all);
        assert!(
            parse_shard("2/8").is_ok()
                && parse_shard("0/8").is_err()
                && parse_shard("9/8").is_err()
        );
        assert!(parse_shard("x").is_err() && parse_shard("1/0").is_err());
    }
}
