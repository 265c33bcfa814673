//! Small statistics used in every summary.

pub mod elo;
pub mod race;
pub mod sequential;

/// The 97.5 % quantile of the standard normal distribution (two-sided 95 %).
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its Wilson 95 % score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    /// Successes (may be fractional when draws count a half).
    pub successes: f64,
    /// Trials.
    pub n: u64,
    /// `successes / n` (0 when `n = 0`).
    pub rate: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

/// The Wilson score interval (E. B. Wilson, "Probable inference, the law of
/// succession, and statistical inference", JASA 22, 1927) for `successes`
/// out of `n` at the 95 % level:
/// `(p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)`.
/// With `n = 0` the interval is `[0, 1]`. Draws counted as half a success
/// make this an approximation; it is the convention of match summaries.
pub fn wilson(successes: f64, n: u64) -> Proportion {
    if n == 0 {
        return Proportion {
            successes,
            n,
            rate: 0.0,
            lower: 0.0,
            upper: 1.0,
        };
    }
    let nf = n as f64;
    let p = successes / nf;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = Z95 * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    Proportion {
        successes,
        n,
        rate: p,
        lower: (centre - half).max(0.0),
        upper: (centre + half).min(1.0),
    }
}

impl std::fmt::Display for Proportion {
    /// `52.0% [48.9%, 55.1%] n=1000`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1}% [{:.1}%, {:.1}%] n={}",
            100.0 * self.rate,
            100.0 * self.lower,
            100.0 * self.upper,
            self.n
        )
    }
}

/// Mean and sample standard deviation (0 for fewer than two values).
pub fn mean_sd(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}
