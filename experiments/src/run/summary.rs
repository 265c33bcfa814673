//! The summary of a run's games: per agent, per pairing, per seat and team,
//! the first mover and the setter, draws and game length, each rate with
//! its Wilson interval.

use std::fmt::Write as _;

#[cfg(doc)]
use crate::stats::mean_sd;
use crate::stats::sequential::{
    ALPHA, ConfidenceSequence, DEFAULT_MARGIN, Until, Verdict, verdict,
};
use crate::stats::{Proportion, wilson};

use super::TournamentConfig;
use super::play::GameRecord;

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
    /// The first mover's score (win 1, draw ½, loss 0; with k seats, its
    /// share of the game's points: a draw 1/k) with its anytime-valid
    /// interval, in games of two or more seats that have a first mover.
    pub first_mover_score: Option<ScoreEstimate>,
    /// The verdict of [`Summary::first_mover_score`] at [`Summary::margin`].
    pub verdict: Option<Verdict>,
    /// The margin of a `balanced` verdict.
    pub margin: f64,
    /// Each game's first-mover share, sorted by game index: what the
    /// interval is computed from (24 bytes a game).
    pub first_mover_shares: Vec<Share>,
    /// The lines ([`line_key`]) of the games with a first mover: how many
    /// different openings and first [`LINE_PLIES`] moves they played.
    pub lines: usize,
    /// The effective number of those lines ([`effective_lines`]), over
    /// [`LINE_MIN_GAMES`] games or more: as many equally common lines would
    /// be as concentrated. Near the games' number for varied games; a few
    /// when deterministic searchers from one start follow few lines.
    pub effective_lines: Option<f64>,
    /// Games sharing a seed or an opening form one observation of the
    /// interval: 2 for game pairs, the seat count for k-seat openings, else 1.
    pub group: u64,
    /// Wins of the pie setter, over games that have one.
    pub setter: Proportion,
    /// The setter's wins, draws, losses and score (pie games).
    pub setter_wdl: Wdl,
    /// Each seat's wins, draws, losses and share of the points.
    pub seat_wdl: Vec<Wdl>,
    /// Wins per seat (seat order is itself an advantage to measure).
    pub seats: Vec<Proportion>,
    /// Wins shared by several seats (teams), per winning set of seats.
    pub coalitions: Vec<(Vec<usize>, Proportion)>,
    /// Draws over all games.
    pub draws: Proportion,
    /// Mean and standard deviation of plies.
    pub plies: (f64, f64),
    /// Mean and standard deviation of turns, over the games that record
    /// them (`None` if none does).
    pub turns: Option<(f64, f64)>,
    /// Per ordered pairing `(a, b)` with `a < b`: wins of a, wins of b, draws.
    pub pairings: Vec<(usize, usize, u64, u64, u64)>,
    /// One-seat games: per agent, the distribution of its return (score).
    pub scores: Vec<ScoreSummary>,
    /// Distinct games: different openings or move sequences (the effective
    /// sample size of deterministic agents; games of a seeded random set-up
    /// are compared by their moves alone).
    pub distinct: usize,
    /// The games `distinct` was counted over: all of them, or the first
    /// [`DISTINCT_CAP`] (then the run has at least `distinct` distinct games).
    pub distinct_of: usize,
    /// Per end reason (`None`: rows that record none): games, and draws
    /// among them, most frequent first.
    pub ends: Vec<(Option<String>, u64, u64)>,
}

/// Below this share of distinct games a summary warns that games repeat.
pub const DISTINCT_WARNING: f64 = 0.95;

/// A game's key for counting distinct games: a hash of its opening and its
/// moves (equal games have equal keys; two different games share one with
/// probability about 2^-64).
pub fn game_key(r: &GameRecord) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    r.opening_moves.hash(&mut h);
    r.moves.hash(&mut h);
    h.finish()
}

/// The plies of a game's line ([`line_key`]): games that agree on their
/// opening and this many first moves share a line.
pub const LINE_PLIES: usize = 8;

/// Below this many games a summary does not judge how its games cluster.
pub const LINE_MIN_GAMES: usize = 50;

/// A summary notes that its games follow few lines when their effective
/// number ([`Summary::effective_lines`]) is below this share of the games.
pub const LINE_NOTE_SHARE: f64 = 0.1;

/// A game's line: a hash of its opening and its first [`LINE_PLIES`] moves
/// (the move text's first words). Games of deterministic searchers from one
/// start differ late, if at all: they follow few lines, which the summary
/// measures ([`Summary::effective_lines`]).
pub fn line_key(r: &GameRecord) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    r.opening_moves.hash(&mut h);
    for m in r.moves.split_whitespace().take(LINE_PLIES) {
        m.hash(&mut h);
    }
    h.finish()
}

/// The effective number of lines of games with these line keys: the
/// inverse Simpson index `n² / Σ_c n_c²` over the lines `c` holding `n_c` of
/// the `n` games, the number of equally common lines that would be as
/// concentrated. `n` when every game has its own line, `k` for `k` equally
/// common lines; `None` for no games.
///
/// It measures what the score rests on, not its sampling error: each game
/// is an independent draw (its own seed), so the interval holds however
/// the games concentrate; but a score carried by a few lines says what
/// those lines give, and another budget may choose others.
pub fn effective_lines(keys: impl IntoIterator<Item = u64>) -> Option<f64> {
    inverse_simpson(&line_counts(keys))
}

/// Games per line key. The keys are hashes already ([`line_key`]), so the
/// map does not hash them again.
fn line_counts(
    keys: impl IntoIterator<Item = u64>,
) -> std::collections::HashMap<u64, u64, std::hash::BuildHasherDefault<KeyHasher>> {
    let mut counts = std::collections::HashMap::default();
    for k in keys {
        *counts.entry(k).or_default() += 1;
    }
    counts
}

/// `n² / Σ n_c²` of these counts; `None` for none.
fn inverse_simpson<S>(counts: &std::collections::HashMap<u64, u64, S>) -> Option<f64> {
    let n: f64 = counts.values().map(|&c| c as f64).sum();
    let squares: f64 = counts.values().map(|&c| (c as f64) * (c as f64)).sum();
    (n > 0.0).then(|| n * n / squares)
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

/// Mean and sample standard deviation kept as values stream in (Welford's
/// update), in constant memory.
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Adds the values counted in `o` (Chan et al.'s pairwise update; equal
    /// to adding them one by one up to rounding).
    fn merge(&mut self, o: &Moments) {
        if o.n == 0 {
            return;
        }
        let n = self.n + o.n;
        let d = o.mean - self.mean;
        self.mean += d * o.n as f64 / n as f64;
        self.m2 += o.m2 + d * d * self.n as f64 * o.n as f64 / n as f64;
        self.n = n;
    }

    /// As [`mean_sd`]: `(0, 0)` for none, sd 0 for one value.
    fn mean_sd(&self) -> (f64, f64) {
        match self.n {
            0 => (0.0, 0.0),
            1 => (self.mean, 0.0),
            n => (self.mean, (self.m2 / (n - 1) as f64).sqrt()),
        }
    }
}

/// A total order key of a float (for counting distinct returns).
fn float_key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

#[derive(Clone, Debug, Default)]
struct ScoreAcc {
    returns: Moments,
    values: std::collections::BTreeMap<i64, (f64, u64)>,
    wall_ms: u64,
    max_ms: u64,
}

/// A run's summary computed as its games stream in: counts and running
/// moments, plus each game's first-mover share (24 bytes a game), which the
/// anytime-valid interval reads in game order (and the distinct returns of
/// one-seat games: one counter per value).
#[derive(Clone, Debug, Default)]
pub struct SummaryBuilder {
    games: u64,
    w: Vec<u64>,
    d: Vec<u64>,
    l: Vec<u64>,
    fm: (u64, u64),
    fm_shares: Vec<Share>,
    st: (u64, u64),
    draws: u64,
    pair: std::collections::BTreeMap<(usize, usize), (u64, u64, u64)>,
    seat_wins: Vec<u64>,
    /// Per seat: wins, draws, losses and the sum of its shares.
    seat_wdl: Vec<Wdl>,
    /// The setter's wins, draws, losses and score sum.
    setter_wdl: Wdl,
    coalitions: std::collections::BTreeMap<Vec<usize>, u64>,
    plies: Moments,
    turns: Moments,
    one_seat: bool,
    scores: Vec<ScoreAcc>,
    /// The keys of the first [`DISTINCT_CAP`] games, counted (sorted and
    /// deduplicated) when the summary is made: a push a game costs the one
    /// writer less than a set insert's cache miss.
    distinct: Vec<u64>,
    ends: std::collections::BTreeMap<Option<String>, (u64, u64)>,
}

/// The hasher of maps keyed by game or line keys: they are already hashes
/// ([`game_key`]), so hashing them again would only cost time.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed; any other input still hashes correctly.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Distinct games are counted exactly over the first this many games of a
/// run (a list of 64-bit keys, 8 MB at the cap); past it the summary
/// says "at least", so memory does not grow with the games.
pub const DISTINCT_CAP: u64 = 1_000_000;

impl SummaryBuilder {
    /// An empty summary.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one finished game.
    pub fn add(&mut self, r: &GameRecord) {
        let line = line_key(r);
        if self.games < DISTINCT_CAP {
            self.distinct.push(game_key(r));
        }
        self.games += 1;
        // Looked up before inserting, so that a known end costs no copy.
        if !self.ends.contains_key(&r.end) {
            self.ends.insert(r.end.clone(), (0, 0));
        }
        let e = self.ends.get_mut(&r.end).expect("inserted above");
        e.0 += 1;
        e.1 += u64::from(r.winners.is_empty());
        let grow = |v: &mut Vec<u64>, n: usize| {
            if v.len() < n {
                v.resize(n, 0);
            }
        };
        let k = r.seats.iter().max().map_or(0, |&a| a + 1);
        grow(&mut self.w, k);
        grow(&mut self.d, k);
        grow(&mut self.l, k);
        grow(&mut self.seat_wins, r.seats.len());
        for &s in &r.winners {
            self.seat_wins[s] += 1;
        }
        if self.seat_wdl.len() < r.seats.len() {
            self.seat_wdl.resize(r.seats.len(), Wdl::default());
        }
        for seat in 0..r.seats.len() {
            self.seat_wdl[seat].add(r, seat);
        }
        if r.winners.len() > 1 {
            *self.coalitions.entry(r.winners.clone()).or_default() += 1;
        }
        for (seat, &a) in r.seats.iter().enumerate() {
            if r.winners.is_empty() {
                self.d[a] += 1;
            } else if r.winners.contains(&seat) {
                self.w[a] += 1;
            } else {
                self.l[a] += 1;
            }
        }
        if r.winners.is_empty() {
            self.draws += 1;
        }
        if let Some(f) = r.first_mover {
            self.fm.0 += 1;
            self.fm.1 += r.winners.contains(&f) as u64;
            if r.seats.len() >= 2 {
                self.fm_shares.push(Share {
                    index: r.index,
                    share: share_of(r, f),
                    outcome: if r.winners.is_empty() {
                        1
                    } else if r.winners.contains(&f) {
                        2
                    } else {
                        0
                    },
                    line,
                });
            }
        }
        if let Some(s) = r.setter {
            self.st.0 += 1;
            self.st.1 += r.winners.contains(&s) as u64;
            self.setter_wdl.add(r, s);
        }
        if r.seats.len() == 2 {
            let (a, b) = (r.seats[0].min(r.seats[1]), r.seats[0].max(r.seats[1]));
            let e = self.pair.entry((a, b)).or_default();
            match r.winners.first().map(|&s| r.seats[s]) {
                Some(x) if x == a => e.0 += 1,
                Some(_) => e.1 += 1,
                None => e.2 += 1,
            }
        }
        if r.seats.len() == 1 {
            self.one_seat = true;
            let a = r.seats[0];
            if self.scores.len() <= a {
                self.scores.resize_with(a + 1, ScoreAcc::default);
            }
            let acc = &mut self.scores[a];
            let x = r.returns[0];
            acc.returns.add(x);
            acc.values.entry(float_key(x)).or_insert((x, 0)).1 += 1;
            acc.wall_ms += r.wall_ms;
            acc.max_ms = acc.max_ms.max(r.wall_ms);
        }
        self.plies.add(f64::from(r.plies));
        if let Some(t) = r.turns {
            self.turns.add(f64::from(t));
        }
    }

    /// Counts the games counted in `o`, as if each were added here after
    /// the games counted so far (a worker's batch, counted on the worker):
    /// every count the same, the plies' and turns' moments up to rounding.
    pub fn merge(&mut self, o: SummaryBuilder) {
        fn add_vec(a: &mut Vec<u64>, b: &[u64]) {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        let room = DISTINCT_CAP.saturating_sub(self.games) as usize;
        self.distinct.extend(o.distinct.into_iter().take(room));
        self.games += o.games;
        add_vec(&mut self.w, &o.w);
        add_vec(&mut self.d, &o.d);
        add_vec(&mut self.l, &o.l);
        add_vec(&mut self.seat_wins, &o.seat_wins);
        self.fm = (self.fm.0 + o.fm.0, self.fm.1 + o.fm.1);
        self.fm_shares.extend(o.fm_shares);
        self.st = (self.st.0 + o.st.0, self.st.1 + o.st.1);
        self.draws += o.draws;
        for (k, (x, y, z)) in o.pair {
            let e = self.pair.entry(k).or_default();
            *e = (e.0 + x, e.1 + y, e.2 + z);
        }
        if self.seat_wdl.len() < o.seat_wdl.len() {
            self.seat_wdl.resize(o.seat_wdl.len(), Wdl::default());
        }
        for (a, b) in self.seat_wdl.iter_mut().zip(&o.seat_wdl) {
            a.merge(b);
        }
        self.setter_wdl.merge(&o.setter_wdl);
        for (k, x) in o.coalitions {
            *self.coalitions.entry(k).or_default() += x;
        }
        self.plies.merge(&o.plies);
        self.turns.merge(&o.turns);
        self.one_seat |= o.one_seat;
        if self.scores.len() < o.scores.len() {
            self.scores.resize_with(o.scores.len(), ScoreAcc::default);
        }
        for (a, b) in self.scores.iter_mut().zip(o.scores) {
            a.returns.merge(&b.returns);
            for (k, (x, n)) in b.values {
                a.values.entry(k).or_insert((x, 0)).1 += n;
            }
            a.wall_ms += b.wall_ms;
            a.max_ms = a.max_ms.max(b.max_ms);
        }
        for (k, (n, d)) in o.ends {
            let e = self.ends.entry(k).or_default();
            *e = (e.0 + n, e.1 + d);
        }
    }

    /// Games counted so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The summary of the games counted, for the agents of `config`.
    pub fn finish(&self, config: &TournamentConfig) -> Summary {
        let k = config.agents.len();
        let at = |v: &Vec<u64>, a: usize| v.get(a).copied().unwrap_or(0);
        let agents = (0..k)
            .map(|a| {
                let (w, d, l) = (at(&self.w, a), at(&self.d, a), at(&self.l, a));
                AgentSummary {
                    agent: a,
                    spec: config.agents[a].clone(),
                    wins: w,
                    draws: d,
                    losses: l,
                    score: wilson(w as f64 + 0.5 * d as f64, w + d + l),
                }
            })
            .collect();
        let scores = if self.one_seat {
            self.scores
                .iter()
                .enumerate()
                .filter(|(_, acc)| acc.returns.n > 0)
                .map(|(a, acc)| {
                    let n = acc.returns.n;
                    ScoreSummary {
                        agent: a,
                        games: n,
                        mean_sd: acc.returns.mean_sd(),
                        values: acc
                            .values
                            .values()
                            .rev()
                            .map(|&(v, c)| (v, wilson(c as f64, n)))
                            .collect(),
                        wall_ms: (acc.wall_ms as f64 / n as f64, acc.max_ms),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let n = self.games;
        let mut ends: Vec<(Option<String>, u64, u64)> = self
            .ends
            .iter()
            .map(|(e, &(n, d))| (e.clone(), n, d))
            .collect();
        ends.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut shares = self.fm_shares.clone();
        shares.sort_by_key(|x| x.index);
        let counts = line_counts(shares.iter().map(|x| x.line));
        let lines = counts.len();
        let effective_lines = (shares.len() >= LINE_MIN_GAMES)
            .then(|| inverse_simpson(&counts))
            .flatten();
        let seats = self.seat_wins.len();
        let group = observation_group(config, seats);
        let mut summary = Summary {
            scores,
            distinct: {
                let mut keys = self.distinct.clone();
                keys.sort_unstable();
                keys.dedup();
                keys.len()
            },
            distinct_of: n.min(DISTINCT_CAP) as usize,
            ends,
            games: n as usize,
            agents,
            first_mover: wilson(self.fm.1 as f64, self.fm.0),
            first_mover_score: None,
            verdict: None,
            margin: DEFAULT_MARGIN,
            first_mover_shares: shares,
            lines,
            effective_lines,
            group,
            setter: wilson(self.st.1 as f64, self.st.0),
            setter_wdl: self.setter_wdl,
            seat_wdl: self.seat_wdl.clone(),
            seats: self
                .seat_wins
                .iter()
                .map(|&w| wilson(w as f64, n))
                .collect(),
            coalitions: self
                .coalitions
                .iter()
                .map(|(c, &x)| (c.clone(), wilson(x as f64, n)))
                .collect(),
            draws: wilson(self.draws as f64, n),
            plies: self.plies.mean_sd(),
            turns: (self.turns.n > 0).then(|| self.turns.mean_sd()),
            pairings: self
                .pair
                .iter()
                .map(|(&(a, b), &(x, y, z))| (a, b, x, y, z))
                .collect(),
        };
        summary.set_level(ALPHA, None, None);
        summary
    }
}

/// A seat's wins, draws and losses with the sum of its shares of the
/// points ([`share_of`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wdl {
    /// Games won (alone or with partners).
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// The sum of the seat's shares.
    pub points: f64,
}

impl Wdl {
    /// Counts game `r` for `seat`.
    pub fn add(&mut self, r: &GameRecord, seat: usize) {
        if r.winners.is_empty() {
            self.draws += 1;
        } else if r.winners.contains(&seat) {
            self.wins += 1;
        } else {
            self.losses += 1;
        }
        self.points += share_of(r, seat);
    }

    /// Adds the games counted in `o`.
    pub fn merge(&mut self, o: &Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.points += o.points;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The mean share: the score for two seats (win 1, draw ½, loss 0).
    pub fn share(&self) -> f64 {
        self.points / self.games().max(1) as f64
    }

    /// `+W =D -L  score S` (two seats) or `share S (fair 1/k)`.
    pub fn text(&self, seats: usize) -> String {
        let what = if seats == 2 {
            "score".to_string()
        } else {
            format!("share (fair 1/{seats})")
        };
        format!(
            "+{} ={} -{}  {what} {:.3}",
            self.wins,
            self.draws,
            self.losses,
            self.share()
        )
    }
}

/// One game's first-mover share, as the interval reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    /// Game index.
    pub index: u64,
    /// The first mover's share of the points ([`share_of`]).
    pub share: f64,
    /// 2 won (alone or with partners), 1 drawn, 0 lost.
    pub outcome: u8,
    /// The game's line ([`line_key`]).
    pub line: u64,
}

/// A seat's share of a game's points: a win 1 (each winner of a team
/// alike) over the winners' count, a draw 1/k of k seats. For two seats
/// this is the score (win 1, draw ½, loss 0); for k seats the shares sum to
/// 1, so the fair share is 1/k.
pub fn share_of(r: &GameRecord, seat: usize) -> f64 {
    if r.winners.is_empty() {
        1.0 / r.seats.len() as f64
    } else if r.winners.contains(&seat) {
        1.0 / r.winners.len() as f64
    } else {
        0.0
    }
}

/// How many consecutive games form one observation of the first mover's
/// interval: games that share a seed (game pairs) or an opening are not
/// independent, so their mean is one observation (the pair-aware variance);
/// otherwise each game is one.
pub fn observation_group(config: &TournamentConfig, seats: usize) -> u64 {
    match seats {
        0 | 1 => 1,
        2 if config.paired || config.openings.is_some() => 2,
        k if config.openings.is_some() => k as u64,
        _ => 1,
    }
}

/// The first mover's score with its anytime-valid interval and p-value.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreEstimate {
    /// Games counted.
    pub games: u64,
    /// Games the first mover won (alone or with partners).
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the first mover lost.
    pub losses: u64,
    /// Mean share over the games (the score for two seats).
    pub score: f64,
    /// The fair value: 1/k for k seats.
    pub fair: f64,
    /// Lower end of the interval.
    pub lower: f64,
    /// Upper end of the interval.
    pub upper: f64,
    /// Anytime-valid p-value against the fair value.
    pub p_value: f64,
    /// The interval's level α (0.05, or 0.05/m in a table of m cells).
    pub alpha: f64,
    /// Games per observation.
    pub group: u64,
    /// Observations (complete groups) the interval is made of.
    pub units: u64,
    /// Sample variance of one observation.
    pub variance: f64,
}

impl ScoreEstimate {
    /// The estimate of `shares` (sorted by index), in groups of `group`
    /// consecutive indices, at level `alpha`, for a game of `seats` seats.
    /// Only games with an index below `below` count, when given (a
    /// sequential run's checkpoint); incomplete groups count in the wins,
    /// draws and losses, not in the interval.
    pub fn of(shares: &[Share], group: u64, alpha: f64, seats: usize, below: Option<u64>) -> Self {
        let fair = 1.0 / seats.max(1) as f64;
        let group = group.max(1);
        let mut cs = ConfidenceSequence::new(alpha, fair);
        let (mut wins, mut draws, mut losses, mut sum) = (0u64, 0u64, 0u64, 0.0);
        let (mut unit_sum, mut unit_sq) = (0.0, 0.0);
        let mut current: Option<(u64, f64, u64)> = None;
        let mut push = |(_, total, count): (u64, f64, u64), cs: &mut ConfidenceSequence| {
            if count == group {
                let x = total / group as f64;
                cs.push(x);
                unit_sum += x;
                unit_sq += x * x;
            }
        };
        let mut games = 0u64;
        for &Share {
            index,
            share: x,
            outcome,
            ..
        } in shares
        {
            if below.is_some_and(|b| index >= b) {
                break;
            }
            games += 1;
            sum += x;
            match outcome {
                2 => wins += 1,
                1 => draws += 1,
                _ => losses += 1,
            }
            let key = index / group;
            match &mut current {
                Some((k, total, count)) if *k == key => {
                    *total += x;
                    *count += 1;
                }
                _ => {
                    if let Some(c) = current.take() {
                        push(c, &mut cs);
                    }
                    current = Some((key, x, 1));
                }
            }
        }
        if let Some(c) = current.take() {
            push(c, &mut cs);
        }
        let units = cs.len();
        let (lower, upper) = cs.interval();
        let variance = if units > 1 {
            let m = unit_sum / units as f64;
            (unit_sq / units as f64 - m * m).max(0.0) * units as f64 / (units - 1) as f64
        } else {
            0.25
        };
        ScoreEstimate {
            games,
            wins,
            draws,
            losses,
            score: if games > 0 { sum / games as f64 } else { fair },
            fair,
            lower,
            upper,
            p_value: cs.p_value(),
            alpha,
            group,
            units,
            variance,
        }
    }

    /// The verdict at a `balanced` margin.
    pub fn verdict(&self, margin: f64, seats: usize) -> Verdict {
        verdict((self.lower, self.upper), self.fair, margin, seats)
    }

    /// About how many games in all would meet `rule` if the data go on as
    /// they are (the observed variance; for `decide`, the half-width that
    /// separates the score from the fair value or fits the margin, whichever
    /// is larger); `None` beyond 10^9 observations.
    pub fn games_needed(&self, rule: Until) -> Option<u64> {
        let target = match rule {
            Until::HalfWidth(h) => h,
            Until::Decide(d) => {
                let edge = (self.score - self.fair).abs();
                edge.max(d - edge)
            }
        };
        crate::stats::sequential::units_for_half_width(self.variance, target, self.alpha)
            .map(|u| u * self.group)
    }
}

impl std::fmt::Display for ScoreEstimate {
    /// `+210 =40 -150  score 0.530 [0.497, 0.563] n=400 p=0.21`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "+{} ={} -{}  score {:.3} [{:.3}, {:.3}] n={} p={:.3}",
            self.wins,
            self.draws,
            self.losses,
            self.score,
            self.lower,
            self.upper,
            self.games,
            self.p_value
        )
    }
}

/// Summarises the games of a run.
pub fn summarise(config: &TournamentConfig, records: &[GameRecord]) -> Summary {
    let mut b = SummaryBuilder::new();
    for r in records {
        b.add(r);
    }
    b.finish(config)
}

impl Summary {
    /// Recomputes the first mover's interval at level `alpha` (0.05/m in a
    /// table of m cells) over the games below `below` (all when `None`),
    /// and its verdict at the margin of `rule`.
    pub fn set_level(&mut self, alpha: f64, rule: Option<Until>, below: Option<u64>) {
        let seats = self.seats.len();
        self.margin = Until::margin(rule);
        self.first_mover_score = (seats >= 2 && !self.first_mover_shares.is_empty())
            .then(|| ScoreEstimate::of(&self.first_mover_shares, self.group, alpha, seats, below));
        self.verdict = self
            .first_mover_score
            .as_ref()
            .map(|e| e.verdict(self.margin, seats));
    }

    /// A warning when fewer than 95 % of the games are distinct: the agents
    /// replay the same games, so the score is those games' and says little
    /// beyond them (the interval still holds for the pairing).
    pub fn distinct_warning(&self) -> Option<String> {
        let of = self.distinct_of;
        (of > 0 && (self.distinct as f64) < DISTINCT_WARNING * of as f64).then(|| {
            format!(
                "warning: only {} of {} games are distinct ({:.1} %): the agents replay the same games, so the score is those games' and says little beyond them; use --openings K --opening-plies P",
                self.distinct,
                of,
                100.0 * self.distinct as f64 / of as f64
            )
        })
    }

    /// A note when the games follow few lines (fewer effective lines than
    /// [`LINE_NOTE_SHARE`] of the games): the interval holds for the
    /// pairing, but the score is what those lines give.
    pub fn line_note(&self) -> Option<String> {
        let e = self
            .effective_lines
            .filter(|&e| e < LINE_NOTE_SHARE * self.first_mover_shares.len() as f64)?;
        Some(format!(
            "note: the games follow {} lines of their first {LINE_PLIES} plies, as concentrated as {e:.1} equally common ones: the interval holds for this pairing from its start positions (each game is an independent draw), but the score is what these lines give; to see whether it holds beyond them, compare another budget or random openings (--openings K --opening-plies P)",
            self.lines
        ))
    }

    /// The summary as printed at the end of a run.
    pub fn render(&self, config: &TournamentConfig) -> String {
        let mut s = String::new();
        let _ = writeln!(
            &mut s,
            "game {}  seed {}  games {}  distinct {}",
            config.game,
            config.seed,
            self.games,
            if self.distinct_of < self.games {
                format!(
                    ">= {} (counted over the first {} games)",
                    self.distinct, self.distinct_of
                )
            } else {
                self.distinct.to_string()
            }
        );
        if let Some(w) = self.distinct_warning() {
            let _ = writeln!(&mut s, "{w}");
        }
        if let Some(w) = self.line_note() {
            let _ = writeln!(&mut s, "{w}");
        }
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
        if let Some(e) = &self.first_mover_score {
            let seats = self.seats.len();
            let what = if seats == 2 {
                "score".to_string()
            } else {
                format!("share (fair 1/{seats})")
            };
            let _ = writeln!(
                &mut s,
                "first mover: +{} ={} -{}  {what} {:.3} [{:.3}, {:.3}]  n={}{}  p={:.3}  ({:.0} % anytime-valid interval)",
                e.wins,
                e.draws,
                e.losses,
                e.score,
                e.lower,
                e.upper,
                e.games,
                if e.group > 1 {
                    format!(" in groups of {}", e.group)
                } else {
                    String::new()
                },
                e.p_value,
                100.0 * (1.0 - e.alpha)
            );
        }
        if let Some(v) = &self.verdict {
            let _ = writeln!(&mut s, "verdict: {v}");
        }
        if self.setter.n > 0 {
            let _ = writeln!(&mut s, "setter:           {}", self.setter_wdl.text(2));
        }
        let k = self.seat_wdl.len();
        for (seat, w) in self.seat_wdl.iter().enumerate() {
            let _ = writeln!(&mut s, "seat {seat}:           {}", w.text(k));
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
        if self.ends.iter().any(|e| e.0.is_some()) {
            let parts: Vec<String> = self
                .ends
                .iter()
                .map(|(e, n, d)| {
                    let name = e.as_deref().unwrap_or("unrecorded");
                    if *d > 0 {
                        format!("{name} {n} ({d} drawn)")
                    } else {
                        format!("{name} {n}")
                    }
                })
                .collect();
            let _ = writeln!(&mut s, "ends:             {}", parts.join(", "));
        }
        let _ = write!(
            &mut s,
            "plies: mean {:.1}, sd {:.1}",
            self.plies.0, self.plies.1
        );
        if let Some((m, sd)) = self.turns {
            let _ = write!(&mut s, "; turns: mean {m:.1}, sd {sd:.1}");
        }
        s
    }
}
