//! Racing openings for the pie value: successive elimination with
//! anytime-valid intervals (`boardlab pie --until`).
//!
//! **The question.** A swap map has K openings with first-mover scores
//! `q_1 … q_K`. Under the pie rule the chooser swaps when `q > ½`, so the
//! opener's best is the **pie value** `v = min_i f_i`, `f_i = max(q_i,
//! 1 − q_i)`. Only the openings that can still be the fairest matter to
//! `v`; a uniform map spends most of its games on openings that plainly
//! are not.
//!
//! **The method.** Rounds of games. Every opening still in the race plays
//! up to the same count of games each round ([`round_sizes`]: the first
//! round's count, then about 10 % more each round). Each opening's scores,
//! in game-number order, feed a confidence sequence at level α/K
//! ([`ConfidenceSequence`], empirical Bernstein, anytime-valid), whose
//! interval `[L_i, U_i]` of `q_i` folds to an interval `[l_i, u_i]` of
//! `f_i` ([`fold`]). After each round, an opening whose `l_i` exceeds
//! `min_{j≠i} u_j` can no longer be the fairest and leaves the race (it
//! plays no more games; its interval stays as it was). The pie value's
//! interval is
//!
//! `[ min over the openings still in the race of l_i , min over all openings of u_i ]`.
//!
//! **Why it is valid, simultaneously.** By the union bound over the K
//! sequences, each at α/K, with probability at least 1 − α every `q_i` lies
//! in its interval at every game count at once (event E). The game counts
//! and the eliminations depend only on games already played, and each
//! opening's games are independent draws of its own score whatever the
//! schedule, so each sequence stays valid at the data-dependent times it is
//! read (Ville's inequality holds at stopping times). On E:
//! * the upper end holds: `v ≤ f_i ≤ u_i` for every `i`;
//! * no fairest opening is ever eliminated: if `i` left because
//!   `l_i > u_j` for some `j`, then `f_i ≥ l_i > u_j ≥ f_j ≥ v`, so `f_i > v`;
//!   hence `v = min over the openings in the race of f_i ≥` their least `l_i`.
//!
//! So the interval covers `v` with probability at least 1 − α at every
//! round, and a run may stop on its own data (`--until`), be resumed or be
//! extended. An opening once eliminated stays out even if later intervals
//! would no longer separate it (the argument holds at the time it left).
//!
//! **Stopping.** `halfwidth=H`: the pie value's interval has half-width at
//! most H. `decide=D`: the interval lies inside [½, ½ + D] (the pie rule
//! balances the game within D) or above ½ + D (it leaves the first mover
//! more than D); the pie value is never below ½, so those are the two
//! answers. `--max-games` caps the games of a map: a round that would pass
//! it is not started.
//!
//! The race knows no game: [`Race::run`] asks a callback to play the games
//! of each round, so the tests drive it with simulated scores of known `q`
//! and the swap maps with real games.

use std::ops::Range;

use anyhow::{Result, bail};

use super::sequential::{ConfidenceSequence, Interval, Until};

/// `max(q, 1 − q)` of an interval `[lo, hi]` of `q`: the interval of the
/// better side's score.
pub fn fold(lo: f64, hi: f64) -> Interval {
    if lo <= 0.5 && 0.5 <= hi {
        (0.5, hi.max(1.0 - lo))
    } else if hi < 0.5 {
        (1.0 - hi, 1.0 - lo)
    } else {
        (lo, hi)
    }
}

/// The per-opening game counts at which a race checks: `first`, then about
/// 10 % more each round (at least one game more).
pub fn round_sizes(first: u32) -> impl Iterator<Item = u32> {
    let first = first.max(1);
    std::iter::successors(Some(first), |&n| n.checked_add((n / 10).max(1)))
}

/// How a race allocates its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// Eliminated openings play no more games (the race proper).
    Adaptive,
    /// Every opening plays every round; eliminations narrow the interval
    /// only. The baseline the race's saving is measured against.
    Uniform,
}

/// A race's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceConfig {
    /// Family-wise level (each opening's sequence runs at `alpha / K`).
    pub alpha: f64,
    /// The stopping rule on the pie value's interval.
    pub until: Until,
    /// Cap on the games of the whole map.
    pub max_games: u64,
    /// Games per opening in the first round.
    pub first_round: u32,
    /// Adaptive or uniform allocation.
    pub allocation: Allocation,
}

/// One opening in a race.
#[derive(Clone, Debug)]
pub struct Arm {
    cs: ConfidenceSequence,
    /// The sequence's interval after the last round it played (computed
    /// once a round: each costs a few thousand exponentials).
    interval: Interval,
    /// Sum of its scores.
    pub score: f64,
    /// The round (1-based) after which it left the race; `None` while in it.
    pub eliminated: Option<u32>,
}

impl Arm {
    /// Games played.
    pub fn n(&self) -> u64 {
        self.cs.len()
    }

    /// Its anytime-valid interval of `q` (at level α/K).
    pub fn interval(&self) -> Interval {
        self.interval
    }

    /// That interval folded: of `max(q, 1 − q)`.
    pub fn folded(&self) -> Interval {
        let (lo, hi) = self.interval();
        fold(lo, hi)
    }
}

/// Why a race stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The rule was met.
    Met,
    /// The next round would pass `--max-games`.
    Cap,
}

/// A race over K openings (see the module documentation).
#[derive(Clone, Debug)]
pub struct Race {
    config: RaceConfig,
    /// The openings, in the caller's order.
    pub arms: Vec<Arm>,
    /// Rounds played.
    pub rounds: u32,
}

impl Race {
    /// A race over `k` openings.
    ///
    /// # Errors
    /// No openings, or a first round that alone passes the cap.
    pub fn new(k: usize, config: RaceConfig) -> Result<Race> {
        if k == 0 {
            bail!("a race needs at least one opening");
        }
        let first = u64::from(config.first_round.max(1)) * k as u64;
        if first > config.max_games {
            bail!(
                "--max-games {}: the first round alone is {first} games ({} per opening × {k} openings); raise --max-games or lower --games-per-opening",
                config.max_games,
                config.first_round.max(1)
            );
        }
        let level = config.alpha / k as f64;
        Ok(Race {
            config,
            arms: (0..k)
                .map(|_| Arm {
                    cs: ConfidenceSequence::new(level, 0.5),
                    interval: (0.0, 1.0),
                    score: 0.0,
                    eliminated: None,
                })
                .collect(),
            rounds: 0,
        })
    }

    /// The per-opening count the next round brings openings to.
    fn next_size(&self) -> u32 {
        round_sizes(self.config.first_round)
            .nth(self.rounds as usize)
            .unwrap_or(u32::MAX)
    }

    /// The next round's games: for each opening that plays, the range of
    /// its game numbers (0-based, in order). Empty when the race has
    /// stopped.
    pub fn next_round(&self) -> Vec<(usize, Range<u32>)> {
        if self.stopped().is_some() {
            return Vec::new();
        }
        let to = self.next_size();
        self.playing()
            .map(|i| (i, self.arms[i].n() as u32..to))
            .filter(|(_, r)| !r.is_empty())
            .collect()
    }

    fn playing(&self) -> impl Iterator<Item = usize> + '_ {
        let uniform = self.config.allocation == Allocation::Uniform;
        (0..self.arms.len()).filter(move |&i| uniform || self.arms[i].eliminated.is_none())
    }

    /// Records a round's scores (each in [0, 1], per opening in game-number
    /// order, as [`Race::next_round`] asked), then eliminates the openings
    /// that can no longer be the fairest.
    ///
    /// # Errors
    /// Scores for a round other than the one asked.
    pub fn record(&mut self, round: &[(usize, Range<u32>)], scores: &[Vec<f64>]) -> Result<()> {
        if round != self.next_round().as_slice() || scores.len() != round.len() {
            bail!("race: scores for another round than the one asked");
        }
        for ((i, range), s) in round.iter().zip(scores) {
            if s.len() != range.len() {
                bail!(
                    "race: opening {i} got {} scores for {} games",
                    s.len(),
                    range.len()
                );
            }
            let arm = &mut self.arms[*i];
            for &x in s {
                arm.cs.push(x);
                arm.score += x.clamp(0.0, 1.0);
            }
            arm.interval = arm.cs.interval();
        }
        self.rounds += 1;
        let folded: Vec<Interval> = self.arms.iter().map(Arm::folded).collect();
        for i in 0..self.arms.len() {
            if self.arms[i].eliminated.is_some() {
                continue;
            }
            let best_other = (0..folded.len())
                .filter(|&j| j != i)
                .map(|j| folded[j].1)
                .fold(f64::INFINITY, f64::min);
            if folded[i].0 > best_other {
                self.arms[i].eliminated = Some(self.rounds);
            }
        }
        Ok(())
    }

    /// The pie value's interval: `[min over openings in the race of the
    /// lower end of max(q, 1 − q), min over all openings of its upper end]`.
    pub fn pie_interval(&self) -> Interval {
        let mut lower = f64::INFINITY;
        let mut upper = f64::INFINITY;
        for a in &self.arms {
            let (l, u) = a.folded();
            upper = upper.min(u);
            if a.eliminated.is_none() {
                lower = lower.min(l);
            }
        }
        (lower.min(upper), upper)
    }

    /// Games played over all openings.
    pub fn games(&self) -> u64 {
        self.arms.iter().map(Arm::n).sum()
    }

    /// The openings still in the race.
    pub fn active(&self) -> Vec<usize> {
        (0..self.arms.len())
            .filter(|&i| self.arms[i].eliminated.is_none())
            .collect()
    }

    /// Whether the rule is met on `interval` (see the module documentation).
    pub fn met(until: Until, (lower, upper): Interval) -> bool {
        match until {
            Until::HalfWidth(h) => (upper - lower) / 2.0 <= h,
            Until::Decide(d) => upper <= 0.5 + d || lower > 0.5 + d,
        }
    }

    /// Why the race stopped, or `None` while it goes on.
    pub fn stopped(&self) -> Option<Stop> {
        if self.rounds > 0 && Race::met(self.config.until, self.pie_interval()) {
            return Some(Stop::Met);
        }
        let to = u64::from(self.next_size());
        let more: u64 = self
            .playing()
            .map(|i| to.saturating_sub(self.arms[i].n()))
            .sum();
        (self.games() + more > self.config.max_games).then_some(Stop::Cap)
    }

    /// Runs the race to its stop: `play` gets each round's games (opening
    /// and game numbers) and returns their scores in the same shape.
    ///
    /// # Errors
    /// An error of `play`, or scores of the wrong shape.
    pub fn run(
        &mut self,
        mut play: impl FnMut(&[(usize, Range<u32>)]) -> Result<Vec<Vec<f64>>>,
    ) -> Result<Stop> {
        loop {
            if let Some(stop) = self.stopped() {
                return Ok(stop);
            }
            let round = self.next_round();
            let scores = play(&round)?;
            self.record(&round, &scores)?;
        }
    }
}
