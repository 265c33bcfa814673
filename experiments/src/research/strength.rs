//! What the strength research shares: `rate` ([`crate::research::rate`],
//! a Bradley–Terry ladder), `sprt` ([`crate::research::sprt`], a sequential
//! test of an Elo hypothesis) and `tune` ([`crate::research::tune`], a
//! parameter against a baseline) all play through the tournament machinery
//! with paired games (same seed and opening, seats swapped), so they
//! resume, shard and merge like any tournament; this module reads their
//! game pairs.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::run::{self, GameRecord};
use crate::stats::elo::Pentanomial;

/// Game pairs of a paired run: `(agent in seat 0 of the first game, the
/// other agent, points of the first agent over both games)`.
pub fn pairs(records: &[GameRecord]) -> Vec<(usize, usize, f64)> {
    let mut by_pair = std::collections::BTreeMap::<u64, Vec<&GameRecord>>::new();
    for r in records {
        by_pair.entry(r.index / 2).or_default().push(r);
    }
    by_pair
        .values()
        .filter(|g| g.len() == 2)
        .map(|g| {
            let a = g[0].seats[0];
            let b = g[0].seats[1];
            let points: f64 = g.iter().map(|r| points_of(r, a)).sum();
            (a, b, points)
        })
        .collect()
}

/// What agent `a` scored in one game: 1 win, ½ draw, 0 loss.
pub fn points_of(r: &GameRecord, a: usize) -> f64 {
    if r.winners.is_empty() {
        0.5
    } else if r.winners.iter().any(|&s| r.seats[s] == a) {
        1.0
    } else {
        0.0
    }
}

/// Pentanomial counts of `a` against `b` over complete pairs.
pub fn pentanomial(records: &[GameRecord], a: usize, b: usize) -> Pentanomial {
    let mut p = Pentanomial::default();
    for (x, y, pts) in pairs(records) {
        if (x, y) == (a, b) {
            p.add(pts);
        } else if (x, y) == (b, a) {
            p.add(2.0 - pts);
        }
    }
    p
}

/// Wins, draws, losses of `a` against `b` over single games.
pub fn wdl(records: &[GameRecord], a: usize, b: usize) -> (u64, u64, u64) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for r in records {
        if r.seats.contains(&a) && r.seats.contains(&b) {
            let x = points_of(r, a);
            if x == 1.0 {
                w += 1;
            } else if x == 0.5 {
                d += 1;
            } else {
                l += 1;
            }
        }
    }
    (w, d, l)
}

/// A cutechess-style block for `a` against `b`: score line, Elo difference
/// with its 95 % interval (from the pair variance), LOS and draw ratio.
pub fn cutechess_lines(records: &[GameRecord], names: &[String], a: usize, b: usize) -> String {
    let (w, d, l) = wdl(records, a, b);
    let n = w + d + l;
    let p = pentanomial(records, a, b);
    let (elo, lo, hi) = p.elo_interval();
    format!(
        "Score of {} vs {}: {w} - {l} - {d}  [{:.3}] {n}\nElo difference: {elo:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %, pairs {:?}",
        names[a],
        names[b],
        (w as f64 + 0.5 * d as f64) / n.max(1) as f64,
        (hi - lo) / 2.0,
        100.0 * p.los(),
        100.0 * d as f64 / n.max(1) as f64,
        p.0
    )
}

/// Strength runs play two-seat games in pairs.
///
/// # Errors
/// A bad game string, or a game without exactly two seats.
pub fn two_seats(game: &str, what: &str) -> Result<()> {
    let n = run::num_seats(game)?;
    if n != 2 {
        bail!("{what} plays two-seat games in pairs; {game} has {n} seats (use tournament for it)");
    }
    Ok(())
}

/// The default games file for a derived output: `results/ratings.csv` →
/// `results/ratings-games.csv.gz` (`ratings-games.csv` where a run made
/// before compression left one).
pub fn games_csv_for(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let dir = out.parent().unwrap_or(Path::new(""));
    crate::run::storage::games_file(dir, &format!("{stem}-games"))
}
