//! Elo arithmetic, pentanomial pair statistics, the Bradley–Terry rating
//! fit and the SPRT log-likelihood ratio: the methods of chess engine
//! testing (cutechess, BayesElo/Ordo, fishtest).

use statrs::distribution::{ContinuousCDF, Normal};

use crate::stats::Z95;

/// Elo difference for an expected score `s` in (0, 1): `−400·log10(1/s − 1)`
/// (the logistic Elo model). 0.75 gives +190.85.
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference: `1 / (1 + 10^(−elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal CDF.
pub fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// Pentanomial counts of game pairs: index `k` counts pairs in which the
/// player scored `k / 2` points (0, ½, 1, 1½, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair in which the player scored `points` (0, 0.5, ..., 2).
    pub fn add(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[k] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and variance of the per-pair score `points / 2` (in [0, 1]).
    /// Empty or constant counts get fishtest's regularisation (1e-3 added to
    /// every count) so the variance is never 0.
    pub fn mean_var(&self) -> (f64, f64) {
        let reg = self.0.iter().filter(|&&c| c > 0).count() <= 1;
        let c: Vec<f64> = self
            .0
            .iter()
            .map(|&c| c as f64 + if reg { 1e-3 } else { 0.0 })
            .collect();
        let n: f64 = c.iter().sum();
        let mean = c
            .iter()
            .enumerate()
            .map(|(k, &c)| c * k as f64 / 4.0)
            .sum::<f64>()
            / n;
        let var = c
            .iter()
            .enumerate()
            .map(|(k, &c)| c * (k as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    /// The score with its 95 % normal interval from the pair variance, as
    /// `(score, lower, upper)`.
    pub fn score_interval(&self) -> (f64, f64, f64) {
        let (m, v) = self.mean_var();
        let half = Z95 * (v / self.pairs().max(1) as f64).sqrt();
        (m, (m - half).max(1e-9), (m + half).min(1.0 - 1e-9))
    }

    /// Elo difference with its 95 % interval, `(elo, lower, upper)`.
    pub fn elo_interval(&self) -> (f64, f64, f64) {
        let (m, lo, hi) = self.score_interval();
        let m = m.clamp(1e-9, 1.0 - 1e-9);
        (elo_from_score(m), elo_from_score(lo), elo_from_score(hi))
    }

    /// Likelihood of superiority: `Φ((score − ½) / standard error)`.
    pub fn los(&self) -> f64 {
        let (m, v) = self.mean_var();
        phi((m - 0.5) / (v / self.pairs().max(1) as f64).sqrt())
    }

    /// The generalised SPRT log-likelihood ratio of H1 (`elo1`) against H0
    /// (`elo0`) in the normal approximation used by fishtest for pentanomial
    /// counts (M. Van den Bergh, "Normalized Elo", 2020):
    /// `N·(s1 − s0)·(2μ − s0 − s1) / (2σ²)`, with `s = score_from_elo(elo)`
    /// and μ, σ² the per-pair score mean and variance.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let (m, v) = self.mean_var();
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        self.pairs() as f64 * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
    }
}

/// The one-sided Clopper–Pearson lower bound at level `alpha` of a
/// binomial proportion with `k` successes in `n` trials: the `alpha`
/// quantile of Beta(k, n − k + 1) (0 when `k = 0`; `alpha^(1/n)` when
/// `k = n`). Exact: it never covers less than 1 − alpha.
pub fn clopper_pearson_lower(k: u64, n: u64, alpha: f64) -> f64 {
    if k == 0 || n == 0 {
        return 0.0;
    }
    if k == n {
        return alpha.powf(1.0 / n as f64);
    }
    statrs::distribution::Beta::new(k as f64, (n - k + 1) as f64)
        .map_or(0.0, |b| b.inverse_cdf(alpha))
}

/// A pairing one side never lost (a sweep, draws allowed) says only that
/// the winner is at least so much stronger: its Elo is a one-sided bound,
/// never a point. With `w` wins and `d` draws in `n = w + d` games and no
/// loss, the score is at least `(q + r) / 2`, where `q` bounds the share
/// of games not lost and `r` the share won, each by an exact one-sided
/// Clopper–Pearson bound at α/4 (Bonferroni: the pair holds at α/2, the
/// lower tail of a two-sided 95 % interval). Without draws that is the
/// plain bound `(α/2)^(1/n)`: 40 wins of 40 give a score of at least
/// 0.9119, **≥ +406 Elo**. `None` when the side lost a game.
pub fn sweep_bound(wins: u64, draws: u64, losses: u64) -> Option<f64> {
    let n = wins + draws;
    if losses > 0 || n == 0 {
        return None;
    }
    let alpha = 1.0 - 0.95;
    let score = if draws == 0 {
        clopper_pearson_lower(n, n, alpha / 2.0)
    } else {
        let q = clopper_pearson_lower(n, n, alpha / 4.0);
        let r = clopper_pearson_lower(wins, n, alpha / 4.0);
        (q + r) / 2.0
    };
    Some(elo_from_score(score.clamp(1e-9, 1.0 - 1e-9)))
}

/// Wald's SPRT bounds `(ln(β/(1−α)), ln((1−β)/α))`: ±2.944 at α = β = 0.05.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// A Bradley–Terry rating: Elo relative to the anchor, its standard error
/// and 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo, anchor at 0.
    pub elo: f64,
    /// Standard error in Elo (0 for the anchor).
    pub se: f64,
}

/// The result of [`bradley_terry`]: ratings and their covariance (Elo²).
#[derive(Clone, Debug)]
pub struct Ratings {
    /// One rating per player.
    pub ratings: Vec<Rating>,
    /// Covariance of the ratings in Elo² (anchor row and column 0).
    pub cov: Vec<Vec<f64>>,
}

impl Ratings {
    /// Likelihood that player `i` is stronger than `j`:
    /// `Φ((e_i − e_j) / sqrt(var_i + var_j − 2 cov_ij))`.
    pub fn los(&self, i: usize, j: usize) -> f64 {
        let v = self.cov[i][i] + self.cov[j][j] - 2.0 * self.cov[i][j];
        if v <= 0.0 {
            return 0.5;
        }
        phi((self.ratings[i].elo - self.ratings[j].elo) / v.sqrt())
    }
}

/// Fits Bradley–Terry strengths by maximum likelihood with the MM iteration
/// of Hunter ("MM algorithms for generalized Bradley–Terry models", Annals
/// of Statistics 32, 2004): `γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j)`.
///
/// `score[i][j]` is what `i` scored against `j` (a win 1, a draw ½) and
/// `games[i][j]` the games they played. Like BayesElo's prior, one virtual
/// draw is added to every pairing that played, so that a player who lost or
/// won every game still has a finite rating. Elo is `400·log10(γ)` with
/// `anchor` at 0; standard errors come from the inverse of the observed
/// Fisher information with the anchor held fixed.
///
/// # Errors
/// A player with no games, or players not connected by games.
pub fn bradley_terry(
    score: &[Vec<f64>],
    games: &[Vec<f64>],
    anchor: usize,
) -> Result<Ratings, String> {
    fit_bradley_terry(score, games, anchor, 1.0)
}

/// [`bradley_terry`] with `prior` virtual draws per pairing that played
/// (0: the plain maximum-likelihood fit, finite only where every pairing
/// between groups was won and lost at least once).
fn fit_bradley_terry(
    score: &[Vec<f64>],
    games: &[Vec<f64>],
    anchor: usize,
    prior: f64,
) -> Result<Ratings, String> {
    let k = score.len();
    let mut w = vec![vec![0.0; k]; k];
    let mut n = vec![vec![0.0; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i != j && games[i][j] > 0.0 {
                w[i][j] = score[i][j] + prior / 2.0;
                n[i][j] = games[i][j] + prior;
            }
        }
    }
    // Connectivity from the anchor.
    let mut start = vec![false; k];
    start[anchor] = true;
    let seen = reached(&n, start);
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(format!(
            "player {i} is not connected to the anchor by any games"
        ));
    }
    let total: Vec<f64> = (0..k).map(|i| w[i].iter().sum()).collect();
    let mut g = vec![1.0; k];
    for _ in 0..100_000 {
        let mut next = g.clone();
        for i in 0..k {
            let d: f64 = (0..k)
                .filter(|&j| n[i][j] > 0.0)
                .map(|j| n[i][j] / (g[i] + g[j]))
                .sum();
            next[i] = total[i] / d;
        }
        let norm = next[anchor];
        let mut change: f64 = 0.0;
        for i in 0..k {
            next[i] /= norm;
            change = change.max((next[i].ln() - g[i].ln()).abs());
        }
        g = next;
        if change < 1e-12 {
            break;
        }
    }
    // Observed information in θ = ln γ, anchor removed.
    let others: Vec<usize> = (0..k).filter(|&i| i != anchor).collect();
    let m = others.len();
    let mut info = vec![vec![0.0; m]; m];
    for (a, &i) in others.iter().enumerate() {
        for j in 0..k {
            if n[i][j] > 0.0 {
                let p = g[i] / (g[i] + g[j]);
                let h = n[i][j] * p * (1.0 - p);
                info[a][a] += h;
                if let Some(b) = others.iter().position(|&o| o == j) {
                    info[a][b] -= h;
                }
            }
        }
    }
    let inv = invert(info).ok_or("the information matrix is singular")?;
    let scale = 400.0 / std::f64::consts::LN_10;
    let mut cov = vec![vec![0.0; k]; k];
    for (a, &i) in others.iter().enumerate() {
        for (b, &j) in others.iter().enumerate() {
            cov[i][j] = inv[a][b] * scale * scale;
        }
    }
    let ratings = (0..k)
        .map(|i| Rating {
            elo: scale * g[i].ln(),
            se: cov[i][i].max(0.0).sqrt(),
        })
        .collect();
    Ok(Ratings { ratings, cov })
}

/// A rating that says what the games show: a point with its 95 % interval
/// where the player is linked to the anchor by pairings both sides won
/// games in, else only the bounds that sweeps give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkedRating {
    /// The fitted Elo (anchor 0), `None` for a player placed by sweeps only.
    pub elo: Option<f64>,
    /// Lower end: of the interval, or the bound `≥` a sweep gives
    /// (`-inf` when nothing bounds it).
    pub lower: f64,
    /// Upper end: of the interval, or the bound `≤` a sweep gives (`inf`
    /// when nothing bounds it).
    pub upper: f64,
}

impl LinkedRating {
    /// `+120 [80, 160]`, `≥ +406`, `≤ -406`, `+406 … +800` or `unrated`.
    pub fn text(&self) -> String {
        match self.elo {
            Some(e) => format!("{e:+.0} [{:+.0}, {:+.0}]", self.lower, self.upper),
            None => match (self.lower.is_finite(), self.upper.is_finite()) {
                (true, false) => format!("≥ {:+.0}", self.lower),
                (false, true) => format!("≤ {:+.0}", self.upper),
                (true, true) => format!("{:+.0} … {:+.0}", self.lower, self.upper),
                (false, false) => "unrated".to_string(),
            },
        }
    }
}

/// Ratings without artefacts of the prior: `wins[i][j]` and `draws[i][j]`
/// count the games `i` won against and drew with `j`. A pairing in which
/// exactly one side lost no game is a **sweep**: its maximum-likelihood gap
/// is infinite, so it gives only the one-sided exact bound of
/// [`sweep_bound`]. The players linked to the anchor by pairings that are
/// not sweeps get the maximum-likelihood Bradley–Terry fit among
/// themselves (no virtual games) with 95 % intervals; every other group of
/// linked players is placed by the bounds its sweeps give against groups
/// already placed (treating those players' ratings as known), and reports
/// those bounds only.
///
/// # Errors
/// A player with no games.
#[allow(clippy::needless_range_loop)] // square matrices read best with indices
pub fn linked_ratings(
    wins: &[Vec<u64>],
    draws: &[Vec<u64>],
    anchor: usize,
) -> Result<Vec<LinkedRating>, String> {
    let k = wins.len();
    let games = |i: usize, j: usize| wins[i][j] + wins[j][i] + draws[i][j];
    let sweep = |i: usize, j: usize| games(i, j) > 0 && ((wins[i][j] == 0) != (wins[j][i] == 0));
    // Groups: components of the pairings that are not sweeps.
    let mut group = vec![usize::MAX; k];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for start in 0..k {
        if group[start] != usize::MAX {
            continue;
        }
        let g = groups.len();
        let mut members = vec![start];
        group[start] = g;
        let mut at = 0;
        while at < members.len() {
            let i = members[at];
            at += 1;
            for j in 0..k {
                if j != i && games(i, j) > 0 && !sweep(i, j) && group[j] == usize::MAX {
                    group[j] = g;
                    members.push(j);
                }
            }
        }
        groups.push(members);
    }
    if let Some(i) = (0..k).find(|&i| (0..k).all(|j| games(i, j) == 0)) {
        return Err(format!("player {i} has no games"));
    }
    // Each group's own fit, relative to its first member.
    let mut rel = vec![0.0; k];
    let mut se = vec![0.0; k];
    for members in &groups {
        if members.len() < 2 {
            continue;
        }
        let m = members.len();
        let mut score = vec![vec![0.0; m]; m];
        let mut n = vec![vec![0.0; m]; m];
        for (a, &i) in members.iter().enumerate() {
            for (b, &j) in members.iter().enumerate() {
                if a != b && !sweep(i, j) {
                    score[a][b] = wins[i][j] as f64 + 0.5 * draws[i][j] as f64;
                    n[a][b] = games(i, j) as f64;
                }
            }
        }
        let local_anchor = members.iter().position(|&i| i == anchor).unwrap_or(0);
        let r = fit_bradley_terry(&score, &n, local_anchor, 0.0)?;
        for (a, &i) in members.iter().enumerate() {
            rel[i] = r.ratings[a].elo;
            se[i] = r.ratings[a].se;
        }
    }
    let mut out = vec![
        LinkedRating {
            elo: None,
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
        };
        k
    ];
    // The anchor's group: points with intervals.
    let home = group[anchor];
    let mut placed = vec![false; groups.len()];
    placed[home] = true;
    for &i in &groups[home] {
        out[i] = LinkedRating {
            elo: Some(rel[i]),
            lower: rel[i] - crate::stats::Z95 * se[i],
            upper: rel[i] + crate::stats::Z95 * se[i],
        };
    }
    // Other groups: bounds from sweeps against placed groups, nearest first.
    loop {
        let mut progress = false;
        for g in 0..groups.len() {
            if placed[g] {
                continue;
            }
            let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
            for &j in &groups[g] {
                for i in 0..k {
                    if !placed[group[i]] || !sweep(i, j) {
                        continue;
                    }
                    let known = out[i].elo.unwrap_or(f64::NAN);
                    let (i_lo, i_hi) = if known.is_nan() {
                        (out[i].lower, out[i].upper)
                    } else {
                        (known, known)
                    };
                    if wins[i][j] == 0 {
                        // j never lost to i: j ≥ i + bound.
                        if let Some(b) = sweep_bound(wins[j][i], draws[i][j], 0) {
                            lo = lo.max(i_lo + b - rel[j]);
                        }
                    } else if let Some(b) = sweep_bound(wins[i][j], draws[i][j], 0) {
                        hi = hi.min(i_hi - b - rel[j]);
                    }
                }
            }
            if lo.is_finite() || hi.is_finite() {
                placed[g] = true;
                progress = true;
                for &j in &groups[g] {
                    out[j] = LinkedRating {
                        elo: None,
                        lower: lo + rel[j],
                        upper: hi + rel[j],
                    };
                }
            }
        }
        if !progress {
            break;
        }
    }
    Ok(out)
}

/// Bradley–Terry ratings on a fixed outside scale: players with
/// `fixed[i] = Some(elo)` keep that Elo (an engine's stated strength, such
/// as Stockfish's `UCI_Elo` levels), the others are fitted by maximum
/// likelihood against them. `score` and `games` are as in
/// [`bradley_terry`], with the same prior (one virtual draw per pairing
/// that played), so a player who won or lost every game still has a finite
/// rating. The fit is Newton's method on the free Elos (steps capped at
/// 200 Elo); standard errors come from the inverse of the observed Fisher
/// information over the free players (0 for the fixed ones). With several
/// fixed players the fit does not check that their games agree with their
/// stated gaps; it takes the gaps as given.
///
/// # Errors
/// No fixed player, or a free player not connected to a fixed one by
/// games.
#[allow(clippy::needless_range_loop)] // square matrices read best with indices
pub fn anchored_ratings(
    score: &[Vec<f64>],
    games: &[Vec<f64>],
    fixed: &[Option<f64>],
) -> Result<Ratings, String> {
    let k = score.len();
    if fixed.len() != k || fixed.iter().all(Option::is_none) {
        return Err("no player has a fixed rating".into());
    }
    let prior = 1.0;
    let mut w = vec![vec![0.0; k]; k];
    let mut n = vec![vec![0.0; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i != j && games[i][j] > 0.0 {
                w[i][j] = score[i][j] + prior / 2.0;
                n[i][j] = games[i][j] + prior;
            }
        }
    }
    // Every free player must reach a fixed one.
    let seen = reached(&n, fixed.iter().map(Option::is_some).collect());
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(format!(
            "player {i} is not connected to a fixed player by any games"
        ));
    }
    let free: Vec<usize> = (0..k).filter(|&i| fixed[i].is_none()).collect();
    let known: Vec<f64> = fixed.iter().filter_map(|f| *f).collect::<Vec<_>>();
    let start = known.iter().sum::<f64>() / known.len() as f64;
    let mut elo: Vec<f64> = fixed.iter().map(|f| f.unwrap_or(start)).collect();
    let c = std::f64::consts::LN_10 / 400.0;
    let p = |a: f64, b: f64| 1.0 / (1.0 + (-c * (a - b)).exp());
    // Gradient and information (in Elo units) over the free players.
    let derivatives = |elo: &[f64]| {
        let m = free.len();
        let mut grad = vec![0.0; m];
        let mut info = vec![vec![0.0; m]; m];
        for (a, &i) in free.iter().enumerate() {
            for j in 0..k {
                if n[i][j] > 0.0 {
                    let q = p(elo[i], elo[j]);
                    grad[a] += c * (w[i][j] - n[i][j] * q);
                    let h = c * c * n[i][j] * q * (1.0 - q);
                    info[a][a] += h;
                    if let Some(b) = free.iter().position(|&f| f == j) {
                        info[a][b] -= h;
                    }
                }
            }
        }
        (grad, info)
    };
    for _ in 0..200 {
        let (grad, info) = derivatives(&elo);
        let inv = invert(info).ok_or("the information matrix is singular")?;
        let mut change: f64 = 0.0;
        for (a, &i) in free.iter().enumerate() {
            let step: f64 = (0..free.len()).map(|b| inv[a][b] * grad[b]).sum();
            let step = step.clamp(-200.0, 200.0);
            elo[i] += step;
            change = change.max(step.abs());
        }
        if change < 1e-9 {
            break;
        }
    }
    let (_, info) = derivatives(&elo);
    let inv = invert(info).ok_or("the information matrix is singular")?;
    let mut cov = vec![vec![0.0; k]; k];
    for (a, &i) in free.iter().enumerate() {
        for (b, &j) in free.iter().enumerate() {
            cov[i][j] = inv[a][b];
        }
    }
    let ratings = (0..k)
        .map(|i| Rating {
            elo: elo[i],
            se: cov[i][i].max(0.0).sqrt(),
        })
        .collect();
    Ok(Ratings { ratings, cov })
}

/// Inverts a small symmetric positive definite matrix by Gauss–Jordan
/// elimination with partial pivoting (a handful of players: a linear
/// algebra crate would cost more build time than it saves).
pub fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| (i == j) as u8 as f64).collect())
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = a[c][c];
        for j in 0..n {
            a[c][j] /= d;
            inv[c][j] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    for j in 0..n {
                        a[r][j] -= f * a[c][j];
                        inv[r][j] -= f * inv[c][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// The players joined by games (`n[i][j] > 0`) to any player marked in
/// `start`, those included.
fn reached(n: &[Vec<f64>], mut seen: Vec<bool>) -> Vec<bool> {
    let mut stack: Vec<usize> = (0..seen.len()).filter(|&i| seen[i]).collect();
    while let Some(i) = stack.pop() {
        for j in 0..seen.len() {
            if n[i][j] > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}
