//! `boardlab balance --compare REF`: does a mechanism move the first
//! mover's score? Each game of the request is compared with the reference
//! game `REF` at the same agent (the Dagger against plain Catapult,
//! `pie(G)` against G): the difference of the first mover's scores with an
//! anytime-valid interval and p-value, Holm-adjusted over the comparisons
//! of the file.
//!
//! The two blocks are independent runs, so the difference's interval is
//! the union bound of the two scores' confidence sequences, each at level
//! α/2: `[lower_B − upper_A, upper_B − lower_A]`. It covers the true
//! difference at every time with probability at least 1 − α, whether or
//! not either block stopped on its own data (each sequence covers its mean
//! at every time with probability 1 − α/2). The p-value of "no difference"
//! is the smallest α at which that interval excludes 0, found by
//! bisection: under the null the common mean lies outside one of the two
//! sequences whenever it does, so `P(p ≤ α) ≤ α`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use crate::research::balance::BalanceRow;
use crate::run::summary::{ScoreEstimate, Share};
use crate::run::{self, Summary};
use crate::stats::sequential::{ALPHA, holm};

/// One comparison: a row of `compare.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareRow {
    /// The game compared (canonical string).
    pub game: String,
    /// The reference game.
    pub reference: String,
    /// The agent in every seat of both blocks.
    pub agent: String,
    /// `higher`, `lower` (the game's first-mover score against the
    /// reference's), `equal within ±D` or `undecided`.
    pub verdict: String,
    /// The game's score minus the reference's.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub difference: f64,
    /// Lower end of the difference's anytime-valid interval at `alpha`.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub lower: f64,
    /// Upper end.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub upper: f64,
    /// Anytime-valid p-value of "no difference".
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub p_value: f64,
    /// `p_value` adjusted by Holm's method over the file's comparisons.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub p_holm: f64,
    /// The interval's level: 0.05/m for the file's m comparisons.
    #[serde(serialize_with = "crate::output::csvfmt::p6")]
    pub alpha: f64,
    /// The game's first-mover score and games.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub score: f64,
    /// Games of the game's block.
    pub n: u64,
    /// The reference's first-mover score.
    #[serde(serialize_with = "crate::output::csvfmt::p4")]
    pub score_reference: f64,
    /// Games of the reference's block.
    pub n_reference: u64,
    /// The agent's Elo on the game's scale, where rated (`+120 [80, 160]`).
    pub elo: String,
    /// The agent's Elo on the reference's scale, where rated.
    pub elo_reference: String,
    /// The game's block (games CSV).
    pub games_csv: String,
    /// The reference's block.
    pub reference_csv: String,
}

/// The difference `b − a` of two first-mover scores with its interval at
/// level `alpha` and its p-value (the module documentation gives the
/// method).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// `score_b − score_a`.
    pub difference: f64,
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
    /// Anytime-valid p-value of "no difference".
    pub p_value: f64,
}

/// A block's first-mover games as the interval reads them: the shares in
/// game order, the games per observation, the seats.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// The first mover's shares, sorted by game index.
    pub shares: &'a [Share],
    /// Games per observation (2 for game pairs).
    pub group: u64,
    /// Seats of the game.
    pub seats: usize,
}

impl<'a> Sample<'a> {
    /// The first-mover games of a run's summary.
    ///
    /// # Errors
    /// A one-seat game, or no games.
    pub fn of(s: &'a Summary) -> Result<Sample<'a>> {
        if s.seats.len() < 2 || s.first_mover_shares.is_empty() {
            bail!("no first-mover games to compare");
        }
        Ok(Sample {
            shares: &s.first_mover_shares,
            group: s.group,
            seats: s.seats.len(),
        })
    }

    fn estimate(&self, alpha: f64) -> ScoreEstimate {
        ScoreEstimate::of(self.shares, self.group, alpha, self.seats, None)
    }
}

/// The interval of `b − a` when each score's sequence runs at `alpha / 2`.
pub fn interval(a: &Sample, b: &Sample, alpha: f64) -> (f64, f64) {
    let (ea, eb) = (a.estimate(alpha / 2.0), b.estimate(alpha / 2.0));
    (eb.lower - ea.upper, eb.upper - ea.lower)
}

/// The difference of `b`'s first-mover score from `a`'s, at level `alpha`.
///
/// # Errors
/// Samples of different seat counts (their fair scores differ).
pub fn difference(a: &Sample, b: &Sample, alpha: f64) -> Result<Difference> {
    if a.seats != b.seats {
        bail!(
            "cannot compare a {}-seat game with a {}-seat game: their fair scores differ",
            b.seats,
            a.seats
        );
    }
    let (lower, upper) = interval(a, b, alpha);
    let excludes = |lvl: f64| {
        let (l, u) = interval(a, b, lvl);
        l > 0.0 || u < 0.0
    };
    // The smallest level at which 0 leaves the interval; the interval
    // widens as the level falls, so those levels form an interval [p, 1].
    let floor: f64 = 1e-12;
    let p_value = if !excludes(1.0) {
        1.0
    } else if excludes(floor) {
        floor
    } else {
        let (mut lo, mut hi) = (floor.ln(), 0.0f64);
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            if excludes(mid.exp()) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi.exp()
    };
    Ok(Difference {
        difference: b.estimate(alpha).score - a.estimate(alpha).score,
        lower,
        upper,
        p_value,
    })
}

/// The verdict of a difference's interval at a margin `d`.
pub fn verdict(lower: f64, upper: f64, d: f64) -> String {
    if lower > 0.0 {
        "higher".to_string()
    } else if upper < 0.0 {
        "lower".to_string()
    } else if lower >= -d && upper <= d {
        format!("equal within ±{d}")
    } else {
        "undecided".to_string()
    }
}

/// The path of `compare.csv` beside a balance output.
pub fn compare_path(balance_out: &Path) -> PathBuf {
    crate::output::table::beside(balance_out, "compare.csv")
}

/// The summary of a block's games (its games CSV, resolved against `base`
/// when relative).
///
/// # Errors
/// A missing or unreadable games file.
pub fn block_summary(games_csv: &str, base: &Path) -> Result<Summary> {
    let path = base.join(games_csv);
    let config = run::read_config(&path)?;
    let (records, _) = run::read_rows(&path, false, Some(&config))?;
    Ok(run::summarise(&config, &records))
}

/// One block of a comparison: a game, its agent, its games and the agent's
/// Elo on the game's scale (`+120 [80, 160]`, or empty).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Canonical game string.
    pub game: String,
    /// The agent in every seat.
    pub agent: String,
    /// The games CSV.
    pub games_csv: String,
    /// The agent's Elo where rated.
    pub elo: String,
}

impl From<&BalanceRow> for Block {
    fn from(r: &BalanceRow) -> Block {
        Block {
            game: r.game.clone(),
            agent: r.agent.clone(),
            games_csv: r.games_csv.clone(),
            elo: r.elo_rating.clone(),
        }
    }
}

/// The comparison of `block`'s first-mover score with `reference`'s, at
/// level `alpha`, with a `balanced` margin `margin`.
///
/// # Errors
/// A block that cannot be read, or blocks of different seat counts.
pub fn compare(
    reference: &Block,
    block: &Block,
    base: &Path,
    alpha: f64,
    margin: f64,
) -> Result<CompareRow> {
    let a = block_summary(&reference.games_csv, base)?;
    let b = block_summary(&block.games_csv, base)?;
    let (sa, sb) = (Sample::of(&a)?, Sample::of(&b)?);
    let d = difference(&sa, &sb, alpha)?;
    let (ea, eb) = (sa.estimate(alpha), sb.estimate(alpha));
    Ok(CompareRow {
        game: block.game.clone(),
        reference: reference.game.clone(),
        agent: block.agent.clone(),
        verdict: verdict(d.lower, d.upper, margin),
        difference: d.difference,
        lower: d.lower,
        upper: d.upper,
        p_value: d.p_value,
        p_holm: d.p_value,
        alpha,
        score: eb.score,
        n: eb.games,
        score_reference: ea.score,
        n_reference: ea.games,
        elo: block.elo.clone(),
        elo_reference: reference.elo.clone(),
        games_csv: block.games_csv.clone(),
        reference_csv: reference.games_csv.clone(),
    })
}

/// Puts the comparisons `new` (reference, block) among `old`'s (replacing
/// those of the same game, reference and agent), recomputes every one at
/// level 0.05/m for the m comparisons of the file and Holm-adjusts their
/// p-values. Returns all rows.
///
/// # Errors
/// A block that cannot be read.
pub fn merge(
    old: &[CompareRow],
    new: &[(Block, Block)],
    base: &Path,
    margin: f64,
) -> Result<Vec<CompareRow>> {
    let mut pairs: Vec<(Block, Block)> = old
        .iter()
        .filter(|r| {
            !new.iter()
                .any(|(a, b)| b.game == r.game && a.game == r.reference && b.agent == r.agent)
        })
        .map(|r| {
            let block = |game: &str, csv: &str, elo: &str| Block {
                game: game.to_string(),
                agent: r.agent.clone(),
                games_csv: csv.to_string(),
                elo: elo.to_string(),
            };
            (
                block(&r.reference, &r.reference_csv, &r.elo_reference),
                block(&r.game, &r.games_csv, &r.elo),
            )
        })
        .collect();
    pairs.extend(new.iter().cloned());
    let alpha = ALPHA / pairs.len().max(1) as f64;
    let mut rows = pairs
        .iter()
        .map(|(a, b)| compare(a, b, base, alpha, margin))
        .collect::<Result<Vec<_>>>()?;
    let adjusted = holm(&rows.iter().map(|r| r.p_value).collect::<Vec<_>>());
    for (r, p) in rows.iter_mut().zip(adjusted) {
        r.p_holm = p;
    }
    rows.sort_by(|x, y| {
        (x.reference.as_str(), x.game.as_str(), x.agent.as_str()).cmp(&(
            y.reference.as_str(),
            y.game.as_str(),
            y.agent.as_str(),
        ))
    });
    Ok(rows)
}

/// The printed table of comparisons.
pub fn table(rows: &[CompareRow]) -> String {
    use crate::output::table::short;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<30} {:<30} {:<26} {:<18} {:<26} {:>7}  {:<28}",
        "game", "against", "agent", "verdict", "difference [interval]", "p Holm", "scores (n)"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<30} {:<30} {:<26} {:<18} {:<26} {:>7.4}  {:<28}",
            short(&r.game),
            short(&r.reference),
            short(&r.agent),
            r.verdict,
            format!("{:+.3} [{:+.3}, {:+.3}]", r.difference, r.lower, r.upper),
            r.p_holm,
            format!(
                "{:.3} ({}) vs {:.3} ({})",
                r.score, r.n, r.score_reference, r.n_reference
            ),
        );
    }
    if !rows.is_empty() {
        let _ = writeln!(
            s,
            "difference: the game's first-mover score minus the reference's (win 1, draw ½); interval anytime-valid at level 0.05/m for the file's m comparisons (union of the two scores' confidence sequences at half the level); p Holm-adjusted over them"
        );
    }
    s
}
