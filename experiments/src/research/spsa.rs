//! `tune --spsa`: simultaneous perturbation stochastic approximation
//! (Spall) over several agent parameters at once, in fishtest's form.
//!
//! * **The spec.** Each tuned parameter of `--agent` is written
//!   `START:STEP:LO..HI` (`mcts(iterations=100,c=1.0:0.2:0.1..3.0)`):
//!   its start value, its perturbation at the last iteration (fishtest's
//!   `c_end`) and its bounds. A parameter the agent declares as an integer
//!   is rounded when the agent string is built; θ itself stays real.
//! * **An iteration** `k` (1..=N) draws a Rademacher vector Δ (±1 each,
//!   from a generator seeded by the run seed and `k`), plays one game pair
//!   (both seatings, one opening) between θ + c_k Δ and θ − c_k Δ (each
//!   clamped to the bounds) and scores r = points(θ+) − points(θ−) over
//!   the pair (draws ½: r is −2..2), then updates
//!   θ_i ← clamp(θ_i + a_k r / (c_k Δ_i)).
//! * **Gains.** a_k = a / (A + k)^α and c_k = c / k^γ with α = 0.602,
//!   γ = 0.101 and A = `a_ratio` × N (0.1). As fishtest does, the constants
//!   come from the values wanted at the last iteration: c = c_end N^γ (so
//!   c_N = c_end) and a = r_end c_end² (A + N)^α (so a_N = r_end c_end²,
//!   and the last steps move θ_i by r_end c_end r). r_end is 0.002 by
//!   default (fishtest's).
//! * **Batches.** Iterations run in batches of B (`batch`, from 1): every
//!   pair of a batch is played from θ as it was at the batch's start, in
//!   parallel, and the updates are then applied in iteration order. B is
//!   part of the configuration, the thread count is not, so a seed gives
//!   one trajectory at any thread count.
//! * **Resume.** Each finished batch's rows are appended to the trajectory
//!   CSV; run again, the command reads the rows, drops a half-written last
//!   line and goes on from the last finished iteration, giving the file an
//!   uninterrupted run gives. The configuration is kept beside it
//!   (`FILE.config.json`) with its provenance; another configuration is
//!   refused unless `overwrite`. SPSA is sequential (each batch starts from
//!   the last one's θ), so it is not sharded.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use plotters::prelude::{
    BLACK, ChartBuilder, Color, IntoDrawingArea, LineSeries, Palette, Palette99, PathElement,
    SVGBackend, WHITE,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::iter::{IntoParallelIterator, ParallelIterator};
use serde::{Deserialize, Serialize};

use agents::AgentSpec;
use engine::spec::Spec;
use engine::{Game, GameVisitor, visit_game};

use crate::research::strength::{points_of, two_seats};
use crate::run::openings::{self, OpeningsConfig, OpeningsRequest};
use crate::run::rows::config_path;
use crate::run::safety::{self, Provenance};
use crate::run::{GameRecord, Job, PlaySetup, mix, play_job};

/// Spall's exponent of the step gain a_k.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation gain c_k.
pub const GAMMA: f64 = 0.101;
/// A as a share of the iterations (Spall: about 10 %).
pub const A_RATIO: f64 = 0.1;
/// fishtest's default r_end: a_N = r_end c_end².
pub const R_END: f64 = 0.002;
/// Iterations per batch by default.
pub const BATCH: u64 = 8;
/// The time budget per move of the printed verification, in milliseconds.
pub const VERIFY_MS: u64 = 100;

/// Mixed into the run seed for the perturbations' generators.
const DELTA_SALT: u64 = 0x5B5A_DE17;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// Its name in the agent spec.
    pub name: String,
    /// The start value θ_0.
    pub start: f64,
    /// The perturbation at the last iteration, c_N (fishtest's `c_end`).
    pub c_end: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// Declared as an integer by the agent: rounded in agent strings.
    pub integer: bool,
}

/// The gain schedule of a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// N, the iterations (game pairs) of the run.
    pub iterations: u64,
    /// A as a share of N.
    pub a_ratio: f64,
    /// a_N / c_end², fishtest's `r_end`.
    pub r_end: f64,
    /// Exponent of a_k.
    pub alpha: f64,
    /// Exponent of c_k.
    pub gamma: f64,
}

impl Gains {
    /// Spall's and fishtest's defaults for `iterations`.
    pub fn new(iterations: u64) -> Gains {
        Gains {
            iterations,
            a_ratio: A_RATIO,
            r_end: R_END,
            alpha: ALPHA,
            gamma: GAMMA,
        }
    }

    /// The stability constant A.
    pub fn big_a(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }

    /// c_k of `p` at iteration `k` (from 1): c_end (N / k)^γ.
    pub fn c_k(&self, p: &Param, k: u64) -> f64 {
        p.c_end * (self.iterations as f64 / k as f64).powf(self.gamma)
    }

    /// a_k of `p` at iteration `k` (from 1): r_end c_end² ((A + N) / (A + k))^α.
    pub fn a_k(&self, p: &Param, k: u64) -> f64 {
        let a = self.big_a();
        self.r_end
            * p.c_end
            * p.c_end
            * ((a + self.iterations as f64) / (a + k as f64)).powf(self.alpha)
    }

    /// Checks the schedule.
    ///
    /// # Errors
    /// No iterations, or a gain that is not a positive number.
    pub fn check(&self) -> Result<()> {
        if self.iterations == 0 {
            bail!("--iterations must be at least 1");
        }
        if !(self.a_ratio.is_finite() && self.a_ratio >= 0.0) {
            bail!("--a-ratio {}: give a number >= 0", self.a_ratio);
        }
        if !(self.r_end.is_finite() && self.r_end > 0.0) {
            bail!("--r-end {}: give a number > 0", self.r_end);
        }
        Ok(())
    }
}

/// The Rademacher vector Δ of iteration `k`: ±1 for each of `n`
/// parameters, from a generator seeded by `seed` and `k` alone.
pub fn rademacher(seed: u64, k: u64, n: usize) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(mix(mix(seed, DELTA_SALT), k));
    (0..n)
        .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
        .collect()
}

/// θ + sign c_k Δ, each coordinate clamped to its bounds.
pub fn perturbed(
    params: &[Param],
    gains: &Gains,
    theta: &[f64],
    k: u64,
    delta: &[f64],
    sign: f64,
) -> Vec<f64> {
    params
        .iter()
        .zip(theta)
        .zip(delta)
        .map(|((p, &t), &d)| (t + sign * gains.c_k(p, k) * d).clamp(p.lo, p.hi))
        .collect()
}

/// The update of iteration `k` with the pair's result `r`:
/// θ_i ← clamp(θ_i + a_k r / (c_k Δ_i)).
pub fn update(params: &[Param], gains: &Gains, theta: &mut [f64], k: u64, delta: &[f64], r: f64) {
    for ((p, t), &d) in params.iter().zip(theta.iter_mut()).zip(delta) {
        *t = (*t + gains.a_k(p, k) * r / (gains.c_k(p, k) * d)).clamp(p.lo, p.hi);
    }
}

/// One pair to play: its iteration, θ+ and θ−.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The iteration (from 1).
    pub k: u64,
    /// θ + c_k Δ, clamped.
    pub plus: Vec<f64>,
    /// θ − c_k Δ, clamped.
    pub minus: Vec<f64>,
}

/// Runs the iterations after those of `trajectory` (θ after iterations
/// 0, 1, ..., `trajectory.len() - 1`; the first is θ_0) up to N, batch by
/// batch: `play` gets a batch's pairs and returns their results in order;
/// `emit` gets each batch's finished iterations `(k, θ_k, r_k)` in order.
/// Returns the final θ.
///
/// A batch holds iterations `(j - 1) B + 1 ..= j B`; all its pairs are
/// played from θ at its start, so a trajectory cut anywhere (a killed run)
/// goes on as the uninterrupted run went.
///
/// # Errors
/// An empty trajectory, or what `play` or `emit` return.
pub fn run_spsa(
    params: &[Param],
    gains: &Gains,
    seed: u64,
    batch: u64,
    trajectory: &[Vec<f64>],
    mut play: impl FnMut(&[Pair]) -> Result<Vec<f64>>,
    mut emit: impl FnMut(&[(u64, Vec<f64>, f64)]) -> Result<()>,
) -> Result<Vec<f64>> {
    let batch = batch.max(1);
    let done = (trajectory.len() as u64)
        .checked_sub(1)
        .ok_or_else(|| anyhow!("a trajectory starts with θ_0"))?;
    let mut theta = trajectory[done as usize].clone();
    let mut k = done + 1;
    while k <= gains.iterations {
        let first = (k - 1) / batch * batch + 1;
        let last = (first + batch - 1).min(gains.iterations);
        // θ at the batch's start: after iteration first - 1.
        let base = trajectory
            .get(first as usize - 1)
            .cloned()
            .unwrap_or_else(|| theta.clone());
        let deltas: Vec<Vec<f64>> = (k..=last)
            .map(|i| rademacher(seed, i, params.len()))
            .collect();
        let pairs: Vec<Pair> = (k..=last)
            .zip(&deltas)
            .map(|(i, d)| Pair {
                k: i,
                plus: perturbed(params, gains, &base, i, d, 1.0),
                minus: perturbed(params, gains, &base, i, d, -1.0),
            })
            .collect();
        let results = play(&pairs)?;
        let mut rows = Vec::with_capacity(pairs.len());
        for ((pair, d), &r) in pairs.iter().zip(&deltas).zip(&results) {
            update(params, gains, &mut theta, pair.k, d, r);
            rows.push((pair.k, theta.clone(), r));
        }
        emit(&rows)?;
        k = last + 1;
    }
    Ok(theta)
}

/// One argument of the tuned agent spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Arg {
    /// As given.
    Fixed(String),
    /// The tuned parameter of this index.
    Tuned(usize),
}

/// An agent spec with tuned parameters: `mcts(c=1.0:0.2:0.1..3.0)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    name: String,
    args: Vec<(String, Arg)>,
    /// The tuned parameters, in the order given.
    pub params: Vec<Param>,
    /// The game's search defaults, for the parameters the spec leaves out
    /// (and its evaluation weights, alpha-beta's `w_<term>`).
    defaults: engine::SearchDefaults,
}

/// A real parameter value as written in agent strings: six decimals,
/// trailing zeros dropped.
fn real_text(x: f64) -> String {
    let t = format!("{x:.6}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t == "-0" { "0".into() } else { t.into() }
}

impl Tuned {
    /// Parses `--agent` for the game `game` with each tuned parameter as
    /// `START:STEP:LO..HI`; the parameters it leaves out take the game's
    /// search defaults. Alpha-beta's evaluation weights (`w_<term>`, the
    /// game's) are integers.
    ///
    /// # Errors
    /// A bad game string, a malformed spec, no tuned parameter, a tuned
    /// parameter that is not numeric or whose values are malformed, out of
    /// order or rejected by the agent at a bound (the message names the
    /// parameter).
    pub fn parse(text: &str, game: &str) -> Result<Tuned> {
        let defaults = engine::registry::search_defaults(game).map_err(|e| anyhow!("{e}"))?;
        let spec = Spec::parse(text).map_err(|e| anyhow!("--agent: {e}"))?;
        let declared = agents::AGENTS
            .iter()
            .find(|(n, _)| *n == spec.name)
            .map(|(_, p)| *p);
        let mut params = Vec::new();
        let mut args = Vec::new();
        for (key, value) in &spec.args {
            if !value.contains(':') || value.starts_with('"') {
                args.push((key.clone(), Arg::Fixed(value.clone())));
                continue;
            }
            let bad = |why: &str| {
                anyhow!(
                    "--agent: parameter {key}={value}: {why} (expected START:STEP:LO..HI, e.g. {key}=1.0:0.2:0.1..3.0)"
                )
            };
            // An evaluation weight is declared once, as `w_<term>`.
            let declared_as = if key.starts_with(agents::alphabeta::WEIGHT_PREFIX) {
                agents::alphabeta::WEIGHT_PARAM
            } else {
                key.as_str()
            };
            let info = declared
                .and_then(|d| d.iter().find(|p| p.name == declared_as))
                .ok_or_else(|| match declared {
                    Some(d) => anyhow!(
                        "--agent: parameter {key}: agent {} has no such parameter (valid: {})",
                        spec.name,
                        d.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
                    ),
                    None => anyhow!(
                        "--agent: parameter {key}: agent {:?} takes no tuned parameters",
                        spec.name
                    ),
                })?;
            let integer = info.values.starts_with("integer");
            if !integer && !info.values.starts_with("number") {
                bail!(
                    "--agent: parameter {key} is not numeric ({}); only numbers can be tuned",
                    info.values
                );
            }
            let parts: Vec<&str> = value.split(':').collect();
            let [start, step, range] = parts[..] else {
                return Err(bad("three fields separated by ':'"));
            };
            let (lo, hi) = range
                .split_once("..")
                .ok_or_else(|| bad("bounds written LO..HI"))?;
            let num = |s: &str, what: &str| -> Result<f64> {
                match s.trim().parse::<f64>() {
                    Ok(x) if x.is_finite() => Ok(x),
                    _ => Err(bad(&format!("{what} {s:?} is not a number"))),
                }
            };
            let p = Param {
                name: key.clone(),
                start: num(start, "start")?,
                c_end: num(step, "step")?,
                lo: num(lo, "lower bound")?,
                hi: num(hi, "upper bound")?,
                integer,
            };
            if p.lo >= p.hi {
                return Err(bad("the lower bound must be below the upper bound"));
            }
            if !(p.lo..=p.hi).contains(&p.start) {
                return Err(bad("the start lies outside the bounds"));
            }
            if p.c_end <= 0.0 {
                return Err(bad("the step must be > 0"));
            }
            if args.iter().any(|(k, _)| k == key) {
                bail!("--agent: parameter {key} is given twice");
            }
            args.push((key.clone(), Arg::Tuned(params.len())));
            params.push(p);
        }
        if params.is_empty() {
            bail!(
                "--agent {text:?}: give at least one parameter as START:STEP:LO..HI, e.g. mcts(c=1.0:0.2:0.1..3.0)"
            );
        }
        let tuned = Tuned {
            name: spec.name.clone(),
            args,
            params,
            defaults,
        };
        // Every bound (and the start) must build an agent.
        for (i, p) in tuned.params.iter().enumerate() {
            for v in [p.lo, p.hi] {
                let mut theta: Vec<f64> = tuned.params.iter().map(|q| q.start).collect();
                theta[i] = v;
                tuned
                    .spec(&theta)
                    .map_err(|e| anyhow!("--agent: parameter {} at {}: {e}", p.name, v))?;
            }
        }
        Ok(tuned)
    }

    /// The agent string for `theta` as written (integers rounded), before
    /// the agents crate reads it.
    pub fn text(&self, theta: &[f64]) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|(k, a)| {
                let v = match a {
                    Arg::Fixed(v) => v.clone(),
                    Arg::Tuned(i) if self.params[*i].integer => {
                        format!("{}", theta[*i].round() as i64)
                    }
                    Arg::Tuned(i) => real_text(theta[*i]),
                };
                if k.is_empty() { v } else { format!("{k}={v}") }
            })
            .collect();
        format!("{}({})", self.name, args.join(","))
    }

    /// The canonical agent spec for `theta`.
    ///
    /// # Errors
    /// A value the agent rejects.
    pub fn spec(&self, theta: &[f64]) -> Result<String> {
        let text = self.text(theta);
        Ok(AgentSpec::parse_with(&text, &self.defaults)
            .map_err(|e| anyhow!("{text}: {e}"))?
            .canonical())
    }

    /// θ_0.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }
}

/// What determines a run's trajectory (written beside it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaConfig {
    /// The canonical game string.
    pub game: String,
    /// The agent spec with its tuned parameters, as given.
    pub agent: String,
    /// The tuned parameters.
    pub params: Vec<Param>,
    /// The gain schedule.
    pub gains: Gains,
    /// Iterations per batch.
    pub batch: u64,
    /// The run seed.
    pub seed: u64,
    /// The openings, if the pairs start from them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningsConfig>,
}

/// `FILE.config.json` beside a trajectory.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ConfigFile {
    #[serde(flatten)]
    config: SpsaConfig,
    #[serde(default)]
    provenance: Vec<Provenance>,
}

/// A request for `boardlab tune --spsa`.
#[derive(Clone, Debug)]
pub struct SpsaArgs {
    /// Game string.
    pub game: String,
    /// The agent spec with tuned parameters.
    pub agent: String,
    /// The schedule (with N).
    pub gains: Gains,
    /// Iterations per batch.
    pub batch: u64,
    /// Run seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Openings the pairs start from.
    pub openings: OpeningsRequest,
    /// The trajectory CSV.
    pub out: PathBuf,
    /// The SVG plot.
    pub plot: PathBuf,
    /// Replace a trajectory made with another configuration.
    pub overwrite: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// Time per move of the printed verification (ms).
    pub verify_ms: u64,
}

/// The trajectory's header for `params`.
fn header(params: &[Param]) -> Vec<String> {
    let mut h = vec!["iteration".to_string()];
    h.extend(params.iter().map(|p| p.name.clone()));
    h.extend(["result".to_string(), "games".to_string()]);
    h
}

/// One trajectory line: θ written as Rust prints an `f64` (it reads back
/// exactly, so a resumed run goes on from the very same θ).
fn line(k: u64, theta: &[f64], r: Option<f64>) -> String {
    let mut s = k.to_string();
    for t in theta {
        let _ = write!(s, ",{t}");
    }
    let _ = write!(
        s,
        ",{},{}",
        r.map_or(String::new(), |r| r.to_string()),
        2 * k
    );
    s.push('\n');
    s
}

/// Reads a trajectory: θ after each finished iteration (from 0), with
/// each iteration's result. A half-written last line is cut off the file.
fn read_trajectory(path: &Path, params: &[Param]) -> Result<(Vec<Vec<f64>>, Vec<f64>)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    if complete < text.len() {
        eprintln!(
            "{}: dropped a half-written last line ({} bytes)",
            path.display(),
            text.len() - complete
        );
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(complete as u64))
            .with_context(|| format!("cannot repair {}", path.display()))?;
    }
    let mut r = csv::ReaderBuilder::new().from_reader(&text.as_bytes()[..complete]);
    let head: Vec<String> = r
        .headers()
        .with_context(|| format!("cannot read {}", path.display()))?
        .iter()
        .map(String::from)
        .collect();
    if head != header(params) {
        bail!(
            "{}: its header is not this run's ({}); choose another --tune or pass --overwrite",
            path.display(),
            header(params).join(",")
        );
    }
    let (mut thetas, mut results) = (Vec::new(), Vec::new());
    for (i, rec) in r.records().enumerate() {
        let at = || format!("{} line {}", path.display(), i + 2);
        let rec = rec.with_context(at)?;
        let num = |j: usize| -> Result<f64> {
            rec.get(j)
                .and_then(|v| v.parse::<f64>().ok())
                .ok_or_else(|| anyhow!("{}: column {} is not a number", at(), head[j]))
        };
        if num(0)? != i as f64 {
            bail!("{}: expected iteration {i}", at());
        }
        thetas.push((1..=params.len()).map(num).collect::<Result<Vec<_>>>()?);
        if i > 0 {
            results.push(num(params.len() + 1)?);
        }
    }
    if thetas.is_empty() {
        bail!("{}: no row for iteration 0", path.display());
    }
    Ok((thetas, results))
}

/// The fields in which two configurations differ.
fn config_diff(old: &SpsaConfig, new: &SpsaConfig) -> Vec<String> {
    // Both as read back from JSON text, so that a number compares as the
    // file holds it.
    let value = |c: &SpsaConfig| {
        serde_json::to_string(c)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .unwrap_or_default()
    };
    let (a, b) = (value(old), value(new));
    let keys = [
        "game", "agent", "params", "gains", "batch", "seed", "openings",
    ];
    keys.iter()
        .filter(|k| a.get(**k) != b.get(**k))
        .map(|k| {
            let show =
                |v: &serde_json::Value, k: &str| v.get(k).map_or("none".into(), |x| x.to_string());
            format!("{k}: {} -> {}", show(&a, k), show(&b, k))
        })
        .collect()
}

/// Plays or resumes a run, writes the trajectory and its plot, and returns
/// the report.
///
/// # Errors
/// A bad game, spec or gains; a game without two seats; outputs that
/// cannot be written, or that hold another configuration.
pub fn spsa(args: &SpsaArgs) -> Result<String> {
    args.gains.check()?;
    if args.batch == 0 {
        bail!("--batch must be at least 1");
    }
    two_seats(&args.game, "tune --spsa")?;
    let tuned = Tuned::parse(&args.agent, &args.game)?;
    visit_game(&args.game, SpsaVisitor { args, tuned }).map_err(|e| anyhow!("{e}"))?
}

struct SpsaVisitor<'a> {
    args: &'a SpsaArgs,
    tuned: Tuned,
}

impl GameVisitor for SpsaVisitor<'_> {
    type Output = Result<String>;

    fn visit<G: Game>(self, game: G) -> Result<String> {
        let (args, tuned) = (self.args, &self.tuned);
        let start = tuned.start();
        let start_spec = tuned.spec(&start)?;
        let first =
            AgentSpec::parse_with(&start_spec, &tuned.defaults).map_err(|e| anyhow!("{e}"))?;
        first.check_game(game.num_seats())?;
        let (openings_config, openings) = match openings::make(&game, &args.openings, args.seed)? {
            Some((c, list)) => (Some(c), list),
            None => (None, Vec::new()),
        };
        let config = SpsaConfig {
            game: game.game_string(),
            agent: args.agent.trim().to_string(),
            params: tuned.params.clone(),
            gains: args.gains,
            batch: args.batch,
            seed: args.seed,
            openings: openings_config,
        };
        safety::check_writable(&args.plot)?;
        let _lock = safety::lock_output(&args.out)?;
        let params = &tuned.params;
        let mut history = Vec::new();
        let (mut thetas, mut results) = (vec![start.clone()], Vec::new());
        let resuming = args.out.exists() && !args.overwrite;
        if resuming {
            let p = config_path(&args.out);
            let old: ConfigFile = match std::fs::read_to_string(&p) {
                Ok(t) => serde_json::from_str(&t).with_context(|| {
                    format!(
                        "{} is corrupt (not an SPSA configuration); pass --overwrite to discard the run",
                        p.display()
                    )
                })?,
                Err(_) => bail!(
                    "{} exists but has no {}; choose another --tune or pass --overwrite",
                    args.out.display(),
                    p.display()
                ),
            };
            let diff = config_diff(&old.config, &config);
            if !diff.is_empty() {
                bail!(
                    "{} holds a run with another configuration ({}); choose another --tune, or pass --overwrite to discard it",
                    args.out.display(),
                    diff.join("; ")
                );
            }
            history = old.provenance;
            (thetas, results) = read_trajectory(&args.out, params)?;
        } else {
            safety::check_writable(&args.out)?;
            std::fs::write(
                &args.out,
                header(params).join(",") + "\n" + &line(0, &start, None),
            )
            .with_context(|| format!("cannot write {}", args.out.display()))?;
        }
        let done = thetas.len() as u64 - 1;
        let todo = args.gains.iterations.saturating_sub(done);
        if done > args.gains.iterations {
            bail!(
                "{} holds {done} iterations, more than --iterations {}",
                args.out.display(),
                args.gains.iterations
            );
        }
        if todo > 0 {
            if done > 0 {
                eprintln!(
                    "resuming {}: {done} iterations done, {todo} to play",
                    args.out.display()
                );
            }
            let file = ConfigFile {
                config: config.clone(),
                provenance: {
                    history.push(Provenance::current());
                    history
                },
            };
            let p = config_path(&args.out);
            std::fs::write(&p, serde_json::to_string_pretty(&file)? + "\n")
                .with_context(|| format!("cannot write {}", p.display()))?;
        }
        let (threads, note) = safety::cap_threads(args.threads, 2 * args.batch as usize);
        if let Some(note) = note {
            eprintln!("{note}");
        }
        let pool = crate::output::table::pool(threads)?;
        let bar = crate::output::table::games_bar(2 * todo as usize, args.progress);
        let setup = PlaySetup {
            agent_seeds: true,
            openings,
        };
        let n_openings = setup.openings.len() as u64;
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&args.out)
            .with_context(|| format!("cannot write {}", args.out.display()))?;
        let play = |pairs: &[Pair]| -> Result<Vec<f64>> {
            let specs: Vec<[AgentSpec; 2]> = pairs
                .iter()
                .map(|p| -> Result<[AgentSpec; 2]> {
                    let parse = |t: &[f64]| {
                        AgentSpec::parse_with(&tuned.spec(t)?, &tuned.defaults)
                            .map_err(|e| anyhow!("{e}"))
                    };
                    Ok([parse(&p.plus)?, parse(&p.minus)?])
                })
                .collect::<Result<_>>()?;
            let records: Vec<GameRecord> = pool.install(|| {
                (0..2 * pairs.len())
                    .into_par_iter()
                    .map(|g| {
                        let (j, second) = (g / 2, g % 2 == 1);
                        let k = pairs[j].k;
                        let job = Job {
                            index: 2 * (k - 1) + u64::from(second),
                            seed: mix(args.seed, k),
                            seats: if second { vec![1, 0] } else { vec![0, 1] },
                            opening: (n_openings > 0).then(|| ((k - 1) % n_openings) as u32),
                        };
                        let rec = play_job(&game, &specs[j], &job, &setup);
                        bar.inc(1);
                        rec
                    })
                    .collect()
            });
            Ok(records
                .chunks(2)
                .map(|g| g.iter().map(|r| 2.0 * points_of(r, 0) - 1.0).sum())
                .collect())
        };
        let resumed = thetas.clone();
        let final_theta = run_spsa(
            params,
            &args.gains,
            args.seed,
            args.batch,
            &resumed,
            play,
            |rows| {
                let mut text = String::new();
                for (k, theta, r) in rows {
                    text.push_str(&line(*k, theta, Some(*r)));
                    thetas.push(theta.clone());
                    results.push(*r);
                }
                file.write_all(text.as_bytes())
                    .and_then(|()| file.flush())
                    .with_context(|| format!("cannot write {}", args.out.display()))
            },
        )?;
        bar.finish_and_clear();
        trajectory_plot(&args.plot, &config, &thetas)?;
        let final_spec = tuned.spec(&final_theta)?;
        let mut out = String::new();
        let iterations = thetas.len() as u64 - 1;
        let _ = writeln!(
            out,
            "tune --spsa {} on {}: {iterations} iterations, {} games ({} played now), seed {}",
            config.agent,
            config.game,
            2 * iterations,
            2 * todo,
            config.seed
        );
        let wins = results.iter().filter(|&&r| r > 0.0).count();
        let losses = results.iter().filter(|&&r| r < 0.0).count();
        let _ = writeln!(
            out,
            "pairs won by θ+: {wins}, by θ-: {losses}, even: {}",
            results.len() - wins - losses
        );
        for (i, p) in params.iter().enumerate() {
            let _ = writeln!(
                out,
                "{:<12} {} -> {}  [{}, {}]{}",
                p.name,
                p.start,
                real_text(final_theta[i]),
                p.lo,
                p.hi,
                if p.integer {
                    "  (integer: rounded)"
                } else {
                    ""
                }
            );
        }
        let _ = writeln!(out, "start  {start_spec}");
        let _ = writeln!(out, "final  {final_spec}");
        if first.is_timed() {
            let _ = writeln!(
                out,
                "note: the agent has a millisecond budget, so the games (and θ) are not reproducible"
            );
        }
        let _ = writeln!(
            out,
            "wrote {} and {}",
            args.out.display(),
            args.plot.display()
        );
        let _ = write!(
            out,
            "verify at equal time ({} ms a move):\n{}",
            args.verify_ms,
            verify_command(args, &config.game, &final_spec, &start_spec)?
        );
        Ok(out)
    }
}

/// `spec` (as the game `game` reads it) with its budget replaced by `ms` a
/// move: `mcts` and `uct` search
/// until the clock runs out, `alphabeta` deepens until it does; a spec that
/// already has a time budget, or an agent without one, is left as it is.
///
/// # Errors
/// A spec the agents crate rejects.
pub fn at_equal_time(spec: &str, ms: u64, game: &str) -> Result<String> {
    let mut s = Spec::parse(spec).map_err(|e| anyhow!("{e}"))?;
    let timed = AgentSpec::parse_in(spec, game)
        .map_err(|e| anyhow!("{e}"))?
        .is_timed();
    let set =
        |s: &mut Spec, key: &str, value: String| match s.args.iter_mut().find(|(k, _)| k == key) {
            Some(a) => a.1 = value,
            None => s.args.push((key.to_string(), value)),
        };
    if !timed {
        match s.name.as_str() {
            "mcts" | "uct" => {
                set(&mut s, "iterations", "0".into());
                set(&mut s, "ms", ms.to_string());
            }
            "alphabeta" => {
                // A node budget is not a time budget: it goes.
                set(&mut s, "depth", "64".into());
                set(&mut s, "nodes", "0".into());
                set(&mut s, "ms", ms.to_string());
            }
            _ => {}
        }
    }
    let args: Vec<String> = s.args.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let text = format!("{}({})", s.name, args.join(","));
    Ok(AgentSpec::parse_in(&text, game)
        .map_err(|e| anyhow!("{text}: {e}"))?
        .canonical())
}

/// Quotes `s` for a POSIX shell.
fn quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The `boardlab sprt` command that tests the final θ against θ_0 at equal
/// time, on fresh openings (the run seed + 1).
fn verify_command(args: &SpsaArgs, game: &str, final_spec: &str, start: &str) -> Result<String> {
    let mut c = format!(
        "boardlab sprt --game {} --agents {} {} --elo0 0 --elo1 5 --seed {}",
        quote(game),
        quote(&at_equal_time(final_spec, args.verify_ms, game)?),
        quote(&at_equal_time(start, args.verify_ms, game)?),
        args.seed.wrapping_add(1)
    );
    let o = &args.openings;
    if let Some(k) = o.count {
        let _ = write!(c, " --openings {k}");
    }
    if let Some(p) = o.plies {
        let _ = write!(c, " --opening-plies {p}");
    }
    if let Some(f) = &o.file {
        let _ = write!(c, " --openings-file {}", quote(&f.display().to_string()));
    }
    if let Some(f) = &o.filter {
        let _ = write!(c, " --opening-filter {}", quote(f));
    }
    if let Some(m) = o.margin {
        let _ = write!(c, " --opening-margin {m}");
    }
    let sprt = args.out.with_file_name(format!(
        "{}-sprt.csv",
        args.out
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default()
    ));
    let _ = write!(c, " --sprt {}", quote(&sprt.display().to_string()));
    Ok(c)
}

/// The trajectory: one line per parameter, normalised to its bounds
/// ((θ − lo) / (hi − lo)), against the iteration.
///
/// # Errors
/// An output that cannot be written.
pub fn trajectory_plot(path: &Path, config: &SpsaConfig, thetas: &[Vec<f64>]) -> Result<()> {
    let err = |e: String| anyhow!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let last = (thetas.len() as f64 - 1.0).max(1.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "SPSA on {}: {} pairs of {}, seed {}",
                config.game,
                thetas.len() - 1,
                config.gains.iterations,
                config.seed
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..last, 0f64..1f64)
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc("iteration (game pair)")
        .y_desc("θ within its bounds (0 = low, 1 = high)")
        .draw()
        .map_err(|e| err(e.to_string()))?;
    for (i, p) in config.params.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                thetas
                    .iter()
                    .enumerate()
                    .map(|(k, t)| (k as f64, (t[i] - p.lo) / (p.hi - p.lo))),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?
            .label(format!(
                "{} ({}..{}, final {})",
                p.name,
                p.lo,
                p.hi,
                real_text(thetas.last().map_or(p.start, |t| t[i]))
            ))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}
