//! `tune --texel`: Texel tuning. The parameters a game's evaluation is
//! linear in (chess's tapered piece-square tables) are fitted to the
//! results of recorded games: every quiet position of every game (not in
//! check, no capture that wins material in the exchange) is labelled with
//! the final result for the seat to move (win 1, draw ½, loss 0), and the
//! parameters minimise the mean squared error between that label and the
//! win probability `1 / (1 + exp(-eval / K))` of the evaluation. `K` is
//! fitted first, to the start values; then full-batch gradient descent
//! with Adam moves the parameters, one game in ten held out: the values
//! kept are those of the epoch with the lowest held-out error, and the
//! run stops when that has not fallen for [`PATIENCE`] epochs.
//!
//! Deterministic for its inputs at any thread count: the gradient is a
//! sum over fixed chunks of positions, added in chunk order.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use rayon::prelude::*;

use engine::{Game, GameVisitor, Search, State, ToMove, parse_legal_move, visit_game};

use crate::run::records::read_records;

/// Epochs without a lower held-out error before the descent stops.
pub const PATIENCE: u32 = 100;

/// Positions a gradient chunk holds (the unit of the fixed summation
/// order).
const CHUNK: usize = 4096;

/// What `tune --texel` reads and writes.
pub struct TexelArgs {
    /// The game string; rows of other games are skipped.
    pub game: String,
    /// Games files (a run's CSV, `.csv.gz`, or records files).
    pub files: Vec<PathBuf>,
    /// Plies at the start of each game whose positions are not used.
    pub skip: u32,
    /// Most epochs of gradient descent (0: write the start values).
    pub epochs: u32,
    /// Adam's step size, in evaluation units.
    pub rate: f64,
    /// The ridge penalty: `l2` × the sum of the squared moves from the
    /// start values is added to the error descended (not to the held-out
    /// error that picks the epoch).
    pub l2: f64,
    /// The CSV written: `parameter,start,tuned`.
    pub out: PathBuf,
}

/// Positions as the linear model sees them.
#[derive(Default)]
struct Positions {
    /// Parameter index of every term, positions one after another.
    index: Vec<u32>,
    /// Coefficient of every term.
    coef: Vec<f32>,
    /// Per position: its first term, the rest of its evaluation, its
    /// label.
    pos: Vec<(usize, f32, f32)>,
}

impl Positions {
    fn len(&self) -> usize {
        self.pos.len()
    }

    /// The terms of position `i`.
    fn terms(&self, i: usize) -> std::ops::Range<usize> {
        let end = self.pos.get(i + 1).map_or(self.index.len(), |p| p.0);
        self.pos[i].0..end
    }

    /// The evaluation of position `i` with parameters `p`.
    fn eval(&self, i: usize, p: &[f64]) -> f64 {
        let mut e = f64::from(self.pos[i].1);
        for t in self.terms(i) {
            e += f64::from(self.coef[t]) * p[self.index[t] as usize];
        }
        e
    }

    /// The mean squared error of the win probabilities at scale `k`.
    fn loss(&self, p: &[f64], k: f64) -> f64 {
        if self.pos.is_empty() {
            return f64::NAN;
        }
        let sum: f64 = (0..self.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| (sigmoid(self.eval(i, p) / k) - f64::from(self.pos[i].2)).powi(2))
            .collect::<Vec<f64>>()
            .iter()
            .sum();
        sum / self.len() as f64
    }

    /// The gradient of [`Positions::loss`] in the parameters.
    fn gradient(&self, p: &[f64], k: f64) -> Vec<f64> {
        let chunks: Vec<Vec<f64>> = (0..self.len().div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut g = vec![0.0; p.len()];
                for i in c * CHUNK..((c + 1) * CHUNK).min(self.len()) {
                    let s = sigmoid(self.eval(i, p) / k);
                    let d = 2.0 * (s - f64::from(self.pos[i].2)) * s * (1.0 - s) / k;
                    for t in self.terms(i) {
                        g[self.index[t] as usize] += d * f64::from(self.coef[t]);
                    }
                }
                g
            })
            .collect();
        let mut g = vec![0.0; p.len()];
        for c in chunks {
            for (a, b) in g.iter_mut().zip(c) {
                *a += b;
            }
        }
        let n = self.len() as f64;
        g.iter_mut().for_each(|x| *x /= n);
        g
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What reading the games found.
#[derive(Default)]
struct Counts {
    games: [usize; 2],
    other_games: usize,
    unfinished: usize,
}

/// Reads the files' games of one game and turns their quiet positions
/// into the linear model's terms.
struct Collect<'a> {
    args: &'a TexelArgs,
}

/// A quiet position of a game being read: its terms, the rest of its
/// evaluation, the seat to move.
type Quiet = (Vec<(u32, f32)>, i32, usize);

type Collected = (Vec<(String, i32)>, [Positions; 2], Counts, String);

impl GameVisitor for Collect<'_> {
    type Output = Result<Collected>;

    fn visit<G: Game>(self, game: G) -> Result<Collected> {
        let canonical = game.game_string();
        let params = game.initial_state(0).linear_params();
        if params.is_empty() {
            bail!(
                "{canonical}: its evaluation has no linear parameters to tune (tune --texel knows chess, royal_guard(royal_powers=false))"
            );
        }
        let mut sets = [Positions::default(), Positions::default()];
        let mut counts = Counts::default();
        let (mut moves, mut terms) = (Vec::new(), Vec::new());
        for path in &self.args.files {
            for (line, rec) in read_records(path)? {
                if rec.game != canonical {
                    counts.other_games += 1;
                    continue;
                }
                let here = || format!("{} line {line}", path.display());
                let mut state = game
                    .parse_position(&rec.start)
                    .map_err(|e| anyhow!("{}: start: {e}", here()))?;
                let mut found: Vec<Quiet> = Vec::new();
                for (ply, m) in rec.moves.iter().enumerate() {
                    if let ToMove::Seat(seat) = state.to_move()
                        && ply as u32 >= self.args.skip
                        && quiet(&state, &mut moves)
                    {
                        let rest = state.linear_terms(&mut terms);
                        found.push((terms.clone(), rest, seat));
                    }
                    let mv = parse_legal_move(&state, m)
                        .map_err(|e| anyhow!("{}: move {}: {e}", here(), ply + 1))?;
                    state.apply(mv);
                }
                if !state.is_terminal() {
                    counts.unfinished += 1;
                    continue;
                }
                let returns = state.returns();
                // One game in ten (by its order in the files) is held out.
                let set = usize::from(counts.games.iter().sum::<usize>() % 10 == 9);
                counts.games[set] += 1;
                let target = &mut sets[set];
                for (t, rest, seat) in found {
                    let label = ((returns[seat] + 1.0) / 2.0).clamp(0.0, 1.0) as f32;
                    target.pos.push((target.index.len(), rest as f32, label));
                    for (i, c) in t {
                        target.index.push(i);
                        target.coef.push(c);
                    }
                }
            }
        }
        Ok((params, sets, counts, canonical))
    }
}

/// Not in check, and no capture wins material in the exchange (or, where
/// the game has no exchange evaluation, no capture at all).
fn quiet<S: Search>(state: &S, moves: &mut Vec<S::Move>) -> bool {
    if state.in_check() {
        return false;
    }
    state.legal_moves(moves);
    !moves
        .iter()
        .any(|&m| state.is_capture(m) && state.exchange_value(m).is_none_or(|v| v > 0))
}

/// The scale `K` of least error for parameters `p`: a golden-section
/// search of its logarithm between 1 and 10,000 evaluation units.
fn fit_scale(data: &Positions, p: &[f64]) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0f64, 10_000f64.ln());
    let f = |x: f64| data.loss(p, x.exp());
    let (mut a, mut b) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..40 {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - phi * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + phi * (hi - lo);
            fb = f(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Full-batch gradient descent with Adam from `start`, at most
/// `a.epochs` epochs of step `a.rate`, on the error of `train` plus the
/// ridge penalty `a.l2`: the parameters of the epoch with the lowest
/// error on `held` (the start's if none is lower), that epoch, and the
/// epochs run (fewer when [`PATIENCE`] epochs pass without a lower one).
fn descend(
    train: &Positions,
    held: &Positions,
    start: &[f64],
    k: f64,
    a: &TexelArgs,
) -> (Vec<f64>, u32, u32) {
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut p = start.to_vec();
    let (mut m, mut v) = (vec![0.0; p.len()], vec![0.0; p.len()]);
    let (mut best, mut best_loss, mut best_epoch) = (p.clone(), held.loss(start, k), 0);
    let mut epoch = 0;
    while epoch < a.epochs && epoch - best_epoch < PATIENCE {
        epoch += 1;
        let g = train.gradient(&p, k);
        let t = f64::from(epoch);
        for j in 0..p.len() {
            let gj = g[j] + 2.0 * a.l2 * (p[j] - start[j]);
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let (mh, vh) = (m[j] / (1.0 - b1.powf(t)), v[j] / (1.0 - b2.powf(t)));
            p[j] -= a.rate * mh / (vh.sqrt() + eps);
        }
        let l = held.loss(&p, k);
        if l < best_loss {
            (best, best_loss, best_epoch) = (p.clone(), l, epoch);
        }
    }
    (best, best_epoch, epoch)
}

/// Runs the tuning and writes the CSV; returns the summary printed.
///
/// # Errors
/// An unknown game, a game whose evaluation has no linear parameters, an
/// unreadable file or a game in it that does not replay, no position to
/// tune on, or an output that cannot be written.
pub fn texel(args: &TexelArgs) -> Result<String> {
    if args.files.is_empty() {
        bail!("tune --texel: give the games files to tune on");
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        bail!("--rate {}: expected a positive step size", args.rate);
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        bail!("--l2 {}: expected a penalty of 0 or more", args.l2);
    }
    let (params, [train, held], counts, canonical) =
        visit_game(&args.game, Collect { args }).map_err(|e| anyhow!("--game: {e}"))??;
    let games = counts.games.iter().sum::<usize>();
    if (1..10).contains(&games) {
        bail!(
            "{canonical}: {games} finished games in the files; tune --texel needs at least 10 (one in ten is held out)"
        );
    }
    if train.len() == 0 || held.len() == 0 {
        bail!(
            "{canonical}: no quiet positions to tune on in {} finished games of the files ({} rows of other games)",
            games,
            counts.other_games
        );
    }
    let start: Vec<f64> = params.iter().map(|(_, v)| f64::from(*v)).collect();
    let k = fit_scale(&train, &start);
    let (start_train, start_held) = (train.loss(&start, k), held.loss(&start, k));

    let (best, best_epoch, epoch) = descend(&train, &held, &start, k, args);
    let tuned: Vec<i32> = best.iter().map(|x| x.round() as i32).collect();
    let rounded: Vec<f64> = tuned.iter().map(|&x| f64::from(x)).collect();
    let (end_train, end_held) = (train.loss(&rounded, k), held.loss(&rounded, k));

    let mut csv = String::from("parameter,start,tuned\n");
    for ((name, s), t) in params.iter().zip(&tuned) {
        writeln!(csv, "{name},{s},{t}")?;
    }
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot write {}", dir.display()))?;
    }
    std::fs::write(&args.out, csv)
        .with_context(|| format!("cannot write {}", args.out.display()))?;

    let moved = params
        .iter()
        .zip(&tuned)
        .filter(|((_, s), t)| s != *t)
        .count();
    let largest = params
        .iter()
        .zip(&tuned)
        .map(|((_, s), t)| (t - s).abs())
        .max()
        .unwrap_or(0);
    let mut s = String::new();
    writeln!(s, "Texel tuning of {canonical}")?;
    writeln!(
        s,
        "games: {} used ({} tuned on, {} held out), {} of other games skipped, {} unfinished skipped",
        counts.games[0] + counts.games[1],
        counts.games[0],
        counts.games[1],
        counts.other_games,
        counts.unfinished
    )?;
    writeln!(
        s,
        "quiet positions (from ply {}): {} tuned on, {} held out",
        args.skip,
        train.len(),
        held.len()
    )?;
    writeln!(s, "scale K: {k:.1} evaluation units")?;
    writeln!(
        s,
        "mean squared error, tuned on: {start_train:.6} -> {end_train:.6}; held out: {start_held:.6} -> {end_held:.6}"
    )?;
    writeln!(
        s,
        "epochs: {epoch} (best held-out error at epoch {best_epoch}; Adam, step {}, ridge penalty {})",
        args.rate, args.l2
    )?;
    writeln!(
        s,
        "parameters: {} of {} moved, the largest move {largest}",
        moved,
        params.len()
    )?;
    write!(s, "written: {}", args.out.display())?;
    Ok(s)
}
