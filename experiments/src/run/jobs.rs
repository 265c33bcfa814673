//! The deterministic job list of a run: which agents sit where in game `i`,
//! and its seed. Job `i` has the game seed `mix(run seed, i)` (in game pairs
//! both games take the pair's first seed); each agent is built from
//! `mix(game seed, seat + 1)`, so results depend neither on the thread count
//! nor on the order games finish in.

use anyhow::{Result, anyhow, bail};

use engine::board::zobrist::SplitMix64;

use super::{Schedule, TournamentConfig};

/// Parses `k/n` (1 <= k <= n).
///
/// # Errors
/// Anything else.
pub fn parse_shard(text: &str) -> Result<(u32, u32)> {
    let bad = || anyhow!("--shard {text:?}: expected k/n with 1 <= k <= n, e.g. 2/8");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u32, u32) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job {
    /// Game index within the run (0-based).
    pub index: u64,
    /// Seed of this game.
    pub seed: u64,
    /// Agent index (into the agents list) per seat.
    pub seats: Vec<usize>,
    /// Index of the opening the game starts from, if the run has openings:
    /// game `g` of a pairing plays opening `(g / r) mod K`, `r` the number
    /// of seatings that rotate (1, 2, or the seat count).
    pub opening: Option<u32>,
}

/// `SplitMix64` of `a` mixed with `b`: independent seeds for jobs and seats.
pub fn mix(a: u64, b: u64) -> u64 {
    let mut g = SplitMix64(a ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03));
    g.next();
    g.next()
}

/// The pairings of a two-seat run, in job order.
fn pairings(config: &TournamentConfig) -> Vec<(usize, usize)> {
    let k = config.agents.len();
    match config.schedule {
        Schedule::RoundRobin => (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .collect(),
        Schedule::Gauntlet => (1..k).map(|j| (0, j)).collect(),
    }
}

/// Checks that the agents list can fill a game of `num_seats` seats.
///
/// # Errors
/// A seat count the agent list cannot fill.
pub fn check_seats(config: &TournamentConfig, num_seats: usize) -> Result<()> {
    let k = config.agents.len();
    match num_seats {
        1 => {}
        2 => {
            if k < 2 {
                bail!(
                    "a two-seat game needs at least two agents (give --agents A B; the same spec twice is fine)"
                );
            }
        }
        n => {
            if k != n {
                bail!(
                    "this game has {n} seats: give exactly {n} agents (seats rotate between games)"
                );
            }
        }
    }
    Ok(())
}

/// The blocks of a run's jobs: one per pairing in two-seat games, one per
/// agent in one-seat games, one for games of more seats. In an interleaved
/// run (every run made since) the blocks take turns, a game pair (or game)
/// each, so raising `games` keeps every finished game's index and seed; in
/// runs made before, game `g` of block `b` has index `b × games + g`, which
/// allows that only with one block.
pub fn blocks(config: &TournamentConfig, num_seats: usize) -> u64 {
    let pairs = if num_seats == 2 {
        pairings(config).len()
    } else {
        0
    };
    blocks_with(config, num_seats, pairs)
}

/// [`blocks`] with the number of pairings given (a job table knows it), so
/// that no list of pairings is built per job.
fn blocks_with(config: &TournamentConfig, num_seats: usize, pairings: usize) -> u64 {
    match num_seats {
        1 => config.agents.len() as u64,
        2 => pairings as u64,
        _ => 1,
    }
}

/// Consecutive indices a block keeps together in an interleaved run: game
/// pairs (2) in two-seat games, single games otherwise.
fn unit(num_seats: usize) -> u64 {
    if num_seats == 2 { 2 } else { 1 }
}

/// The end of the run's job index range (every shard). An interleaved run
/// with an odd `games` has gaps: indices whose game would be past `games`.
pub fn job_count(config: &TournamentConfig, num_seats: usize) -> u64 {
    count_with(config, num_seats, blocks(config, num_seats))
}

/// [`job_count`] of a run of `b` blocks.
fn count_with(config: &TournamentConfig, num_seats: usize, b: u64) -> u64 {
    let games = u64::from(config.games);
    if config.interleaved {
        let u = unit(num_seats);
        games.div_ceil(u) * u * b
    } else {
        b * games
    }
}

/// Block and game within the block of job `index`. Interleaved: unit `u`
/// (a game pair or a game) `k` of every block comes before unit `k + 1` of
/// any, so index = `(g / u) × u × blocks + block × u + g mod u`.
fn block_and_game(config: &TournamentConfig, num_seats: usize, b: u64, index: u64) -> (u64, u64) {
    let games = u64::from(config.games);
    if config.interleaved {
        let u = unit(num_seats);
        let row = u * b;
        let (q, r) = (index / row, index % row);
        (r / u, q * u + r % u)
    } else {
        (index / games, index % games)
    }
}

/// Whether job `index` belongs to the run's shard (always, unsharded).
/// Slices keep game pairs together: pair `index / 2` goes to slice
/// `pair mod n`.
pub fn in_shard(config: &TournamentConfig, index: u64) -> bool {
    config
        .shard
        .is_none_or(|(k, n)| (index / 2) % u64::from(n) == u64::from(k - 1))
}

/// Job `index` of a run, computed from the index alone (no list is built);
/// `None` past the last job or outside the run's shard. The agents list
/// must fill the seats ([`check_seats`]).
pub fn job_at(config: &TournamentConfig, num_seats: usize, index: u64) -> Option<Job> {
    job_in(config, num_seats, &pairings(config), index)
}

/// The block and game within it of job `index`, if the run (its shard)
/// has that job: what [`job_in`] checks before it builds the job, without
/// building it. `pairings`: how many the run has.
fn block_and_game_in(
    config: &TournamentConfig,
    num_seats: usize,
    pairings: usize,
    index: u64,
) -> Option<(u64, u64)> {
    let games = u64::from(config.games);
    let b = blocks_with(config, num_seats, pairings);
    if games == 0 || index >= count_with(config, num_seats, b) || !in_shard(config, index) {
        return None;
    }
    let (block, g) = block_and_game(config, num_seats, b, index);
    (g < games).then_some((block, g))
}

fn job_in(
    config: &TournamentConfig,
    num_seats: usize,
    pairings: &[(usize, usize)],
    index: u64,
) -> Option<Job> {
    let (block, g) = block_and_game_in(config, num_seats, pairings.len(), index)?;
    let seats = match num_seats {
        1 => vec![block as usize],
        2 => {
            let (i, j) = pairings[block as usize];
            if g % 2 == 0 { vec![i, j] } else { vec![j, i] }
        }
        n => (0..n).map(|s| (s + g as usize) % n).collect(),
    };
    // Paired: both games of a pair take the seed of the pair's first.
    let seed_index = if config.paired { index - g % 2 } else { index };
    // Game `g` of a block plays opening `(g / r) mod K`, `r` the seatings.
    let rotation = num_seats.max(1) as u64;
    let opening = config
        .openings
        .as_ref()
        .map(|o| ((g / rotation) % u64::from(o.count.max(1))) as u32);
    Some(Job {
        index,
        seed: mix(config.seed, seed_index),
        seats,
        opening,
    })
}

/// A run's jobs, each computed from its index on demand.
#[derive(Clone, Debug)]
pub struct JobTable<'a> {
    config: &'a TournamentConfig,
    num_seats: usize,
    pairings: Vec<(usize, usize)>,
}

impl<'a> JobTable<'a> {
    /// The jobs of `config` for a game of `num_seats` seats.
    ///
    /// # Errors
    /// A seat count the agent list cannot fill.
    pub fn new(config: &'a TournamentConfig, num_seats: usize) -> Result<Self> {
        check_seats(config, num_seats)?;
        Ok(JobTable {
            config,
            num_seats,
            pairings: pairings(config),
        })
    }

    /// The number of job indices of the whole run (every shard).
    pub fn count(&self) -> u64 {
        job_count(self.config, self.num_seats)
    }

    /// Whether the run (its shard) has job `index`: [`JobTable::get`]'s
    /// `is_some()` without building the job (no allocation), for listing
    /// the games to play.
    pub fn has(&self, index: u64) -> bool {
        block_and_game_in(self.config, self.num_seats, self.pairings.len(), index).is_some()
    }

    /// Job `index`; `None` past the end or outside the shard.
    pub fn get(&self, index: u64) -> Option<Job> {
        job_in(self.config, self.num_seats, &self.pairings, index)
    }
}

/// The jobs of a run (of its shard), in index order, without building a
/// list: what a run of millions of games iterates.
///
/// # Errors
/// A seat count the agent list cannot fill.
pub fn job_iter(
    config: &TournamentConfig,
    num_seats: usize,
) -> Result<impl Iterator<Item = Job> + '_> {
    check_seats(config, num_seats)?;
    let p = pairings(config);
    Ok((0..job_count(config, num_seats)).filter_map(move |i| job_in(config, num_seats, &p, i)))
}

/// The deterministic job list of a run.
///
/// # Errors
/// A seat count the agent list cannot fill.
pub fn jobs(config: &TournamentConfig, num_seats: usize) -> Result<Vec<Job>> {
    Ok(job_iter(config, num_seats)?.collect())
}
