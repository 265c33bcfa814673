//! `boardlab solve`: the exact `solver` agent on the start positions of a
//! game, one per game index, drawn exactly as `boardlab tournament` draws
//! them (game `i` has seed `mix(run seed, i)`, so a one-agent tournament
//! with the same `--seed` plays the same layouts). One CSV row per
//! position, written and flushed as it is solved; a summary at the end. A
//! run resumes: rows already in `--out` (same game and solver) are kept and
//! their positions skipped, so an interrupted run is finished, or
//! summarised, by the same command. `--threads` solves positions in
//! parallel, each thread with its own solver (and table of `mb` MiB); the
//! rows are written as they finish and the file is rewritten in index order
//! at the end, so it does not depend on the thread count (but `wall_ms`).
//!
//! Columns: `game`, `game_index`, `seed`, `spec`, `value` (the best return,
//! seat 0), `proven` (false when the node budget ran out), `plies` (the
//! line's length; two seats, the plies to the end under perfect play, empty
//! when the value is unproven), `nodes`, `wall_ms` (not reproducible), `start` (the
//! position text), `line` (the moves in the game's notation).

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Read as _, Seek as _, SeekFrom, Write as _};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use rayon::iter::{IntoParallelRefIterator, ParallelIterator};
use serde::{Deserialize, Serialize};

use agents::{AgentSpec, Solver};
use engine::{Game, GameVisitor, State, visit_game};

use crate::run::mix;
use crate::run::safety::create;
use crate::stats::{mean_sd, wilson};

/// The most positions one `solve` run takes (its list of positions left is
/// kept in memory).
pub const MAX_POSITIONS: u64 = 10_000_000;

/// The columns of a solve CSV, in order.
const SOLVE_COLUMNS: [&str; 11] = [
    "game",
    "game_index",
    "seed",
    "spec",
    "value",
    "proven",
    "plies",
    "nodes",
    "wall_ms",
    "start",
    "line",
];

/// One solved position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveRow {
    /// Canonical game string.
    pub game: String,
    /// Index of the position (0-based).
    pub game_index: u64,
    /// The seed of its initial state.
    #[serde(with = "crate::output::csvfmt::seed")]
    pub seed: u64,
    /// The solver's canonical spec.
    pub spec: String,
    /// The best return of seat 0 (one-seat games) or the value for the
    /// seat to move (two seats: 1 win, 0 draw, −1 loss).
    pub value: f64,
    /// Whether the value (and with `plies=fewest` the length) is proven.
    pub proven: bool,
    /// Plies of the line (one seat) or to the end under perfect play (two
    /// seats); empty when a two-seat value is unproven.
    pub plies: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock milliseconds.
    pub wall_ms: u64,
    /// The start position text.
    pub start: String,
    /// The line, space-separated.
    pub line: String,
}

struct Run<'a> {
    spec: &'a AgentSpec,
    games: u64,
    seed: u64,
    threads: usize,
    out: &'a Path,
}

impl Run<'_> {
    /// The rows already in `--out` for this run: same game, solver and
    /// seed, indices below `--games`. A last row cut short (no line end) is
    /// dropped with a warning, as `tournament` does.
    fn resume(&self, game: &str) -> Result<Vec<SolveRow>> {
        let out = self.out;
        let mut rows: Vec<SolveRow> = Vec::new();
        if !out.exists() {
            return Ok(rows);
        }
        let read = || format!("cannot read {}", out.display());
        let mut file = File::open(out).with_context(read)?;
        let total = file.metadata().with_context(read)?.len();
        if total == 0 {
            return Ok(rows);
        }
        let good = crate::run::rows::complete_len(&mut file).with_context(read)?;
        if good < total {
            eprintln!(
                "warning: {}: dropped a half-written last row",
                out.display()
            );
        }
        file.seek(SeekFrom::Start(0)).with_context(read)?;
        let mut r = csv::Reader::from_reader(BufReader::new(file.take(good)));
        let head: Vec<String> = r
            .headers()
            .with_context(|| format!("reading {}", out.display()))?
            .iter()
            .map(str::to_string)
            .collect();
        if head != SOLVE_COLUMNS {
            bail!(
                "{} is not a solve CSV (its columns: {}); choose another --out",
                out.display(),
                head.join(",")
            );
        }
        for row in r.deserialize() {
            let row: SolveRow = row.with_context(|| format!("reading {}", out.display()))?;
            if row.game != game || row.spec != self.spec.canonical() {
                bail!(
                    "{} holds rows of {} with {}: not this run (remove it or choose another --out)",
                    out.display(),
                    row.game,
                    row.spec
                );
            }
            if row.seed != mix(self.seed, row.game_index) {
                bail!(
                    "{} holds position {} of another --seed: not this run (remove it or choose another --out)",
                    out.display(),
                    row.game_index
                );
            }
            if row.game_index >= self.games {
                bail!(
                    "{} holds position {}, beyond --games {}: give at least --games {} or choose another --out",
                    out.display(),
                    row.game_index,
                    self.games,
                    row.game_index + 1
                );
            }
            rows.push(row);
        }
        Ok(rows)
    }
}

impl GameVisitor for Run<'_> {
    type Output = Result<Vec<SolveRow>>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let AgentSpec::Solver(config) = self.spec else {
            bail!("boardlab solve needs a solver(...) spec")
        };
        // Each thread allocates a table of `mb` MiB.
        let want = config.mb as u64 * self.threads as u64;
        if let Some(total) = agents::solver::physical_memory_mib()
            && want > total
        {
            bail!(
                "--threads {} x solver mb={} = {want} MiB is more than this machine's memory ({total} MiB)",
                self.threads,
                config.mb
            );
        }
        if game.num_seats() > 2 {
            bail!(
                "the solver handles one- and two-seat games; {} has {} seats",
                game.game_string(),
                game.num_seats()
            );
        }
        let rows = self.resume(&game.game_string())?;
        let done: std::collections::BTreeSet<u64> = rows.iter().map(|r| r.game_index).collect();
        let mut w = csv::Writer::from_writer(create(self.out)?);
        for row in &rows {
            w.serialize(row)?;
        }
        w.flush()?;
        let todo: Vec<u64> = (0..self.games).filter(|i| !done.contains(i)).collect();
        let shared = Mutex::new((w, rows, None::<anyhow::Error>));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()?;
        pool.install(|| {
            todo.par_iter().for_each_init(
                || Solver::<G::State>::new(config.clone()),
                |solver, &i| {
                    let row = solve_one(&game, solver, self.spec, self.seed, i);
                    let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                    let (w, rows, err) = &mut *guard;
                    if err.is_some() {
                        return;
                    }
                    let written = w.serialize(&row).and_then(|()| Ok(w.flush()?));
                    match written {
                        Ok(()) => rows.push(row),
                        Err(e) => *err = Some(e.into()),
                    }
                },
            )
        });
        let (_, mut rows, err) = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = err {
            return Err(e.context(format!("writing {}", self.out.display())));
        }
        // The file in index order, whatever the threads' finishing order.
        rows.sort_by_key(|r| r.game_index);
        let mut w = csv::Writer::from_writer(create(self.out)?);
        for row in &rows {
            w.serialize(row)?;
        }
        w.flush()?;
        Ok(rows)
    }
}

/// Solves position `i` of a run: its start drawn from `mix(seed, i)`.
fn solve_one<G: Game>(
    game: &G,
    solver: &mut Solver<G::State>,
    spec: &AgentSpec,
    seed: u64,
    i: u64,
) -> SolveRow {
    let seed_i = mix(seed, i);
    let s = game.initial_state(seed_i);
    let t = Instant::now();
    let sol = solver.solve(&s);
    let wall_ms = t.elapsed().as_millis() as u64;
    let mut line = Vec::new();
    let mut cur = s.clone();
    for &m in &sol.line {
        line.push(cur.move_to_text(m));
        cur.apply(m);
    }
    SolveRow {
        game: game.game_string(),
        game_index: i,
        seed: seed_i,
        spec: spec.canonical(),
        value: sol.value,
        proven: sol.proven,
        plies: (sol.plies != u32::MAX).then_some(sol.plies),
        nodes: sol.nodes,
        wall_ms,
        start: s.to_text(),
        line: line.join(" "),
    }
}

/// Solves `games` start positions of `game` with the solver `spec`, writing
/// the rows to `out`; returns the summary text (also written to
/// `X.summary.txt` beside an output `X.csv`).
///
/// # Errors
/// A bad game or spec, a spec that is not the solver, an unwritable file.
pub fn solve_run(
    game: &str,
    spec: &str,
    games: u64,
    seed: u64,
    threads: usize,
    out: &Path,
) -> Result<String> {
    let spec = AgentSpec::parse(spec)?;
    if games == 0 {
        bail!("--games must be at least 1");
    }
    if games > MAX_POSITIONS {
        bail!("--games {games} is more than {MAX_POSITIONS} positions for one run");
    }
    // One run writes an output at a time.
    let _lock = crate::run::safety::lock_output(out)?;
    let rows = visit_game(
        game,
        Run {
            spec: &spec,
            games,
            seed,
            threads,
            out,
        },
    )??;
    // The canonical game string, as in the rows.
    let game = rows.first().map_or(game, |r| r.game.as_str());
    let text = summary(game, &spec.canonical(), seed, &rows);
    let mut f = create(&out.with_extension("summary.txt"))?;
    f.write_all(text.as_bytes())?;
    Ok(text)
}

/// The summary: the share of each best value (Wilson 95 %), the proven
/// share, the plies and the time per position.
pub fn summary(game: &str, spec: &str, seed: u64, rows: &[SolveRow]) -> String {
    let n = rows.len() as u64;
    let mut s = String::new();
    let _ = writeln!(
        &mut s,
        "game {game}  solver {spec}  seed {seed}  positions {n}"
    );
    let proven = rows.iter().filter(|r| r.proven).count();
    let _ = writeln!(&mut s, "proven: {}", wilson(proven as f64, n));
    let mut values: Vec<f64> = rows.iter().map(|r| r.value).collect();
    values.sort_by(|a, b| b.total_cmp(a));
    values.dedup();
    for v in values {
        let c = rows.iter().filter(|r| r.value == v).count();
        let _ = writeln!(&mut s, "best return {v}: {}", wilson(c as f64, n));
    }
    let plies: Vec<f64> = rows.iter().filter_map(|r| r.plies).map(f64::from).collect();
    if plies.is_empty() {
        let _ = writeln!(&mut s, "plies of the line: none known (unproven)");
    } else {
        let (pm, ps) = mean_sd(&plies);
        let _ = writeln!(&mut s, "plies of the line: mean {pm:.2}, sd {ps:.2}");
    }
    let mut ms: Vec<u64> = rows.iter().map(|r| r.wall_ms).collect();
    ms.sort();
    let msf: Vec<f64> = ms.iter().map(|&x| x as f64).collect();
    let (mm, msd) = mean_sd(&msf);
    let q = |p: f64| {
        ms.get(((ms.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    let _ = writeln!(
        &mut s,
        "wall ms per position: mean {mm:.0}, sd {msd:.0}, median {}, 90th percentile {}, max {}",
        q(0.5),
        q(0.9),
        q(1.0)
    );
    let nodes: Vec<f64> = rows.iter().map(|r| r.nodes as f64).collect();
    let (nm, _) = mean_sd(&nodes);
    let _ = write!(&mut s, "nodes per position: mean {nm:.0}");
    s
}
