//! Anytime-valid intervals for a score, the stopping rules of `--until`,
//! and the verdict a run prints.
//!
//! **The method.** A run's observations are scores in [0, 1]: one per game,
//! or one per group of games that share a seed or an opening (game pairs
//! with the seats swapped: the group's mean, the pair-aware variance of
//! fishtest's pentanomial counts). Their mean `μ` gets an empirical-Bernstein
//! confidence sequence (Howard, Ramdas, McAuliffe and Sekhon,
//! "Time-uniform, nonparametric, nonasymptotic confidence sequences",
//! Annals of Statistics 49, 2021, Theorem 4): with `S_t = Σ_{i≤t} x_i`,
//! the variance process `V_t = Σ_{i≤t} (x_i − μ̂_{i−1})²` around the
//! predictable running mean `μ̂_i = (½ + Σ_{j≤i} x_j) / (i + 1)`, and
//! `ψ(λ) = −ln(1 − λ) − λ`, each of
//!
//! `M⁺_t(m) = exp(λ (S_t − t m) − ψ(λ) V_t)` and `M⁻_t(m) = exp(λ (t m − S_t) − ψ(λ) V_t)`
//!
//! is a nonnegative supermartingale when `m = μ`, for any fixed λ in
//! [0, 1). The sequence mixes them over a fixed grid of bets,
//! `λ_k = ½ · 2^(−k/2)` for `k = 0 … 19` with weights 1/20 (a discrete
//! mixture: each λ is near-optimal at one scale of `t`, from tens of games
//! to tens of millions), and the interval at `t` is every `m` with
//! `M⁺_t(m) < 2/α` and `M⁻_t(m) < 2/α`, found by bisection. By Ville's
//! inequality the intervals cover `μ` at every `t` at once with
//! probability at least 1 − α, so a run may stop when its own data say so
//! (`--until`), be resumed, or be extended, and the interval it prints
//! stays valid. Where the games' means differ (openings), it covers their
//! average. It adapts to the variance (draws narrow it). The price of that
//! validity is width: about 1.8 times a fixed-n normal interval over the
//! same games, from a few thousand games to a hundred thousand.
//!
//! **The p-value.** Against a null mean `m₀` (½, or the fair share 1/k),
//! `E_t = ½ (M⁺_t(m₀) + M⁻_t(m₀))` is a nonnegative supermartingale with
//! `E_0 = 1` under the null, so `p_t = min(1, 1 / max_{s≤t} E_s)` is an
//! anytime-valid p-value. These are the p-values that a table of many cells
//! adjusts with Holm's method ([`holm`]).

use std::fmt;

use anyhow::{Result, bail};

/// The family-wise error rate of every run: 5 %.
pub const ALPHA: f64 = 0.05;

/// The bets of the mixture: `½ · 2^(−k/2)`, `k = 0 … 19`.
const BETS: usize = 20;

/// Each bet λ with `ψ(λ)`, computed once.
fn bets() -> &'static [(f64, f64); BETS] {
    static TABLE: std::sync::OnceLock<[(f64, f64); BETS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|k| {
            let l = 0.5 * 2f64.powf(-(k as f64) / 2.0);
            (l, psi(l))
        })
    })
}

/// `ψ(λ) = −ln(1 − λ) − λ`, the empirical-Bernstein exponent of range 1.
fn psi(lambda: f64) -> f64 {
    -(1.0 - lambda).ln() - lambda
}

/// The margin of `balanced within ±D` when a run gives no `decide=D`:
/// 3 points of score.
pub const DEFAULT_MARGIN: f64 = 0.03;

/// The default cap on a sequential run's games (`--max-games`).
pub const DEFAULT_MAX_GAMES: u32 = 100_000;

/// An empirical-Bernstein confidence sequence for a mean in [0, 1], kept
/// as running sums (constant memory), with the anytime-valid p-value of
/// one null mean. See the module documentation for the method.
#[derive(Clone, Debug)]
pub struct ConfidenceSequence {
    alpha: f64,
    null: f64,
    t: u64,
    sum: f64,
    var: f64,
    mean_prev: f64,
    log_max_e: f64,
    next_check: u64,
}

/// An interval of a mean: `(lower, upper)`.
pub type Interval = (f64, f64);

impl ConfidenceSequence {
    /// An empty sequence at level `alpha` (its intervals cover with
    /// probability 1 − alpha at every time) with p-values against `null`.
    pub fn new(alpha: f64, null: f64) -> Self {
        ConfidenceSequence {
            alpha,
            null,
            t: 0,
            sum: 0.0,
            var: 0.0,
            mean_prev: 0.5,
            log_max_e: 0.0,
            next_check: 1,
        }
    }

    /// `ln M⁺_t(m)` (`up`) or `ln M⁻_t(m)`, the mixture over the bets.
    fn log_mixture(&self, m: f64, up: bool) -> f64 {
        let drift = if up {
            self.sum - self.t as f64 * m
        } else {
            self.t as f64 * m - self.sum
        };
        let mut a = [0.0; BETS];
        let mut max = f64::NEG_INFINITY;
        for (x, &(l, p)) in a.iter_mut().zip(bets()) {
            *x = l * drift - p * self.var;
            max = max.max(*x);
        }
        max + (a.iter().map(|x| (x - max).exp()).sum::<f64>() / BETS as f64).ln()
    }

    /// Adds one observation (clamped to [0, 1]).
    pub fn push(&mut self, x: f64) {
        let x = x.clamp(0.0, 1.0);
        self.t += 1;
        self.var += (x - self.mean_prev).powi(2);
        self.sum += x;
        self.mean_prev = (0.5 + self.sum) / (self.t as f64 + 1.0);
        if self.t == self.next_check {
            self.log_max_e = self.log_max_e.max(self.log_e());
            self.next_check = self.t + 1 + self.t / 100;
        }
    }

    /// `ln E_t` at the null.
    fn log_e(&self) -> f64 {
        let (a, b) = (
            self.log_mixture(self.null, true),
            self.log_mixture(self.null, false),
        );
        let max = a.max(b);
        max + (0.5 * ((a - max).exp() + (b - max).exp())).ln()
    }

    /// Observations so far.
    pub fn len(&self) -> u64 {
        self.t
    }

    /// Whether nothing was observed.
    pub fn is_empty(&self) -> bool {
        self.t == 0
    }

    /// The interval now (`[0, 1]` before the first observation): every `m`
    /// at which neither one-sided mixture reaches 2/α.
    pub fn interval(&self) -> Interval {
        if self.t == 0 {
            return (0.0, 1.0);
        }
        let bound = (2.0 / self.alpha).ln();
        let mean = self.sum / self.t as f64;
        // M⁺ falls as m rises: the lower end is where it crosses the bound.
        let lower = if self.log_mixture(0.0, true) < bound {
            0.0
        } else {
            let (mut a, mut b) = (0.0, mean);
            for _ in 0..40 {
                let c = 0.5 * (a + b);
                if self.log_mixture(c, true) >= bound {
                    a = c;
                } else {
                    b = c;
                }
            }
            b
        };
        let upper = if self.log_mixture(1.0, false) < bound {
            1.0
        } else {
            let (mut a, mut b) = (mean, 1.0);
            for _ in 0..40 {
                let c = 0.5 * (a + b);
                if self.log_mixture(c, false) >= bound {
                    b = c;
                } else {
                    a = c;
                }
            }
            a
        };
        (lower, upper)
    }

    /// The anytime-valid p-value of the null mean: `1 / max E_s` over the
    /// times `s` of a fixed schedule (every time up to 100, then about
    /// every 1 %, and now). A maximum over fewer times is smaller, so the
    /// p-value is, if anything, conservative; the schedule depends on `t`
    /// alone, so the same games give the same p-value.
    pub fn p_value(&self) -> f64 {
        if self.t == 0 {
            return 1.0;
        }
        (-self.log_max_e.max(self.log_e())).exp().min(1.0)
    }

    /// The level α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}

/// A stopping rule of `--until`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Until {
    /// Stop once the interval's half-width is at most H.
    HalfWidth(f64),
    /// Stop once the interval excludes the fair value, or lies inside the
    /// fair value ± D.
    Decide(f64),
}

impl Until {
    /// Parses `halfwidth=H` or `decide=D`, H and D in (0, 0.5) as fractions
    /// of the score (`0.03` is 3 points).
    ///
    /// # Errors
    /// Another form, or a value outside (0, 0.5).
    pub fn parse(text: &str) -> Result<Until> {
        let expected = "expected halfwidth=H or decide=D, H and D fractions of the score between 0 and 0.5 (0.03 is 3 points)";
        let Some((rule, value)) = text.split_once('=') else {
            bail!("--until {text:?}: {expected}");
        };
        let v: f64 = match value.trim().parse() {
            Ok(v) => v,
            Err(_) => bail!("--until {text:?}: {value:?} is not a number; {expected}"),
        };
        if !(v > 0.0 && v < 0.5) {
            bail!("--until {text:?}: {v} is outside (0, 0.5); {expected}");
        }
        match rule.trim() {
            "halfwidth" => Ok(Until::HalfWidth(v)),
            "decide" => Ok(Until::Decide(v)),
            other => bail!("--until {text:?}: unknown rule {other:?}; {expected}"),
        }
    }

    /// The margin of a `balanced` verdict: D, or [`DEFAULT_MARGIN`].
    pub fn margin(rule: Option<Until>) -> f64 {
        match rule {
            Some(Until::Decide(d)) => d,
            _ => DEFAULT_MARGIN,
        }
    }

    /// Whether an interval meets the rule, for a fair value `fair`.
    pub fn met(self, (lower, upper): Interval, fair: f64) -> bool {
        match self {
            Until::HalfWidth(h) => (upper - lower) / 2.0 <= h,
            Until::Decide(d) => verdict((lower, upper), fair, d, 2) != Verdict::Undecided,
        }
    }

    /// The half-width the rule needs to be met however the data fall:
    /// H itself, or D (the `balanced` branch, which a score at the fair
    /// value can reach only that way).
    pub fn width(self) -> f64 {
        match self {
            Until::HalfWidth(h) | Until::Decide(h) => h,
        }
    }

    /// Checks, before any game, that `max_units` observations can meet the
    /// rule at level `alpha` at all: even the most favourable data (every
    /// observation at the fair value) must bring the half-width to
    /// [`Until::width`].
    ///
    /// # Errors
    /// A rule out of reach, with the smallest cap that reaches it.
    pub fn check_reachable(self, max_units: u64, group: u64, alpha: f64) -> Result<()> {
        let best = best_half_width(max_units, alpha);
        if best > self.width() {
            let need = units_for_half_width(0.0, self.width(), alpha)
                .map_or("more than 10^9".to_string(), |u| (u * group).to_string());
            bail!(
                "--until {}: --max-games {} cannot meet it (at best ±{best:.3} after that many games at level {alpha}); raise --max-games to at least {need}",
                self,
                max_units * group,
            );
        }
        Ok(())
    }
}

impl fmt::Display for Until {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Until::HalfWidth(h) => write!(f, "halfwidth={h}"),
            Until::Decide(d) => write!(f, "decide={d}"),
        }
    }
}

/// The half-width after `units` observations of zero spread (the best any
/// data can do).
fn best_half_width(units: u64, alpha: f64) -> f64 {
    let mut cs = ConfidenceSequence::new(alpha, 0.5);
    for _ in 0..units {
        cs.push(0.5);
    }
    let (lo, hi) = cs.interval();
    (hi - lo) / 2.0
}

/// The observations after which data of variance `var` (alternating
/// `½ ± σ`) bring the half-width to `target`; `None` beyond 10^9.
pub fn units_for_half_width(var: f64, target: f64, alpha: f64) -> Option<u64> {
    let sd = var.max(0.0).sqrt().min(0.5);
    let mut cs = ConfidenceSequence::new(alpha, 0.5);
    let mut next_check = 1u64;
    for t in 1..=1_000_000_000u64 {
        cs.push(if t % 2 == 0 { 0.5 + sd } else { 0.5 - sd });
        if t == next_check {
            let (lo, hi) = cs.interval();
            if (hi - lo) / 2.0 <= target {
                return Some(t);
            }
            next_check = t + 1 + t / 100;
        }
    }
    None
}

/// What a run says about its first mover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// The interval lies above the fair value.
    FirstFavoured,
    /// Two seats: the interval lies below ½.
    SecondFavoured,
    /// Three or four seats: the first mover's share lies below 1/k.
    FirstDisfavoured,
    /// The interval lies inside the fair value ± the margin.
    Balanced(f64),
    /// None of these.
    Undecided,
}

/// The verdict of an interval against the fair value (½, or 1/k for k
/// seats) with a `balanced` margin.
pub fn verdict((lower, upper): Interval, fair: f64, margin: f64, seats: usize) -> Verdict {
    if lower > fair {
        Verdict::FirstFavoured
    } else if upper < fair {
        if seats > 2 {
            Verdict::FirstDisfavoured
        } else {
            Verdict::SecondFavoured
        }
    } else if lower >= fair - margin && upper <= fair + margin {
        Verdict::Balanced(margin)
    } else {
        Verdict::Undecided
    }
}

impl fmt::Display for Verdict {
    /// `first mover favoured`, `second mover favoured`, `first mover
    /// disfavoured`, `balanced within ±0.03`, `undecided`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::FirstFavoured => write!(f, "first mover favoured"),
            Verdict::SecondFavoured => write!(f, "second mover favoured"),
            Verdict::FirstDisfavoured => write!(f, "first mover disfavoured"),
            Verdict::Balanced(d) => write!(f, "balanced within ±{d}"),
            Verdict::Undecided => write!(f, "undecided"),
        }
    }
}

/// The game counts at which a sequential run checks its rule: 64, then
/// about 10 % more each time, every count a multiple of `group`. Fixed in
/// advance, so where a run stops depends on its games alone, never on the
/// thread count.
pub fn checkpoints(group: u64) -> impl Iterator<Item = u64> {
    let g = group.max(1);
    let first = 64u64.div_ceil(g) * g;
    std::iter::successors(Some(first), move |&n| {
        let next = (n + n / 10).div_ceil(g) * g;
        Some(next.max(n + g))
    })
}

/// Holm's step-down adjustment of `p` (S. Holm, "A simple sequentially
/// rejective multiple test procedure", Scand. J. Statist. 6, 1979): the
/// `i`-th smallest becomes `max_{j≤i} min(1, (m − j + 1) p_(j))`, returned
/// in the input order. Rejecting the adjusted values below α controls the
/// family-wise error rate at α.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}
