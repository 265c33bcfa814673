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

/// The deterministic job list of a run.
///
/// # Errors
/// A seat count the agent list cannot fill.
pub fn jobs(config: &TournamentConfig, num_seats: usize) -> Result<Vec<Job>> {
    let k = config.agents.len();
    let mut out = Vec::new();
    let paired = config.paired;
    let openings = config.openings.as_ref().map(|o| o.count.max(1));
    let rotation = num_seats.max(1) as u32;
    let mut push = |seats: Vec<usize>, game_in_pairing: u32| {
        let index = out.len() as u64;
        // Paired: both games of a pair take the seed of the pair's first.
        let seed_index = if paired {
            index - (game_in_pairing % 2) as u64
        } else {
            index
        };
        out.push(Job {
            index,
            seed: mix(config.seed, seed_index),
            seats,
            opening: openings.map(|k| (game_in_pairing / rotation) % k),
        });
    };
    match num_seats {
        1 => {
            for a in 0..k {
                for g in 0..config.games {
                    push(vec![a], g);
                }
            }
        }
        2 => {
            if k < 2 {
                bail!(
                    "a two-seat game needs at least two agents (give --agents A B; the same spec twice is fine)"
                );
            }
            let pairings: Vec<(usize, usize)> = match config.schedule {
                Schedule::RoundRobin => (0..k)
                    .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
                    .collect(),
                Schedule::Gauntlet => (1..k).map(|j| (0, j)).collect(),
            };
            for (i, j) in pairings {
                for g in 0..config.games {
                    push(if g % 2 == 0 { vec![i, j] } else { vec![j, i] }, g);
                }
            }
        }
        n => {
            if k != n {
                bail!(
                    "this game has {n} seats: give exactly {n} agents (seats rotate between games)"
                );
            }
            for g in 0..config.games {
                push((0..n).map(|s| (s + g as usize) % n).collect(), g);
            }
        }
    }
    if let Some((k, n)) = config.shard {
        // Slices keep game pairs together: pair p goes to slice p mod n.
        out.retain(|j| (j.index / 2) % n as u64 == (k - 1) as u64);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_alternate_seats_and_rotate() {
        let mut config = TournamentConfig {
            game: "g".into(),
            agents: vec!["a".into(), "b".into(), "c".into()],
            games: 2,
            seed: 9,
            schedule: Schedule::RoundRobin,
            paired: false,
            shard: None,
            ..Default::default()
        };
        let j = jobs(&config, 2).unwrap();
        let seats: Vec<Vec<usize>> = j.iter().map(|j| j.seats.clone()).collect();
        assert_eq!(
            seats,
            vec![
                vec![0, 1],
                vec![1, 0],
                vec![0, 2],
                vec![2, 0],
                vec![1, 2],
                vec![2, 1]
            ]
        );
        assert!(
            j.iter()
                .enumerate()
                .all(|(i, j)| j.index == i as u64 && j.seed == mix(9, i as u64))
        );
        let j = jobs(&config, 3).unwrap();
        assert_eq!(j[1].seats, vec![1, 2, 0]);
        assert!(jobs(&config, 4).is_err());
        // Pairs share a seed; a gauntlet plays only the baseline's pairings.
        config.paired = true;
        config.schedule = Schedule::Gauntlet;
        let j = jobs(&config, 2).unwrap();
        let seats: Vec<Vec<usize>> = j.iter().map(|j| j.seats.clone()).collect();
        assert_eq!(seats, vec![vec![0, 1], vec![1, 0], vec![0, 2], vec![2, 0]]);
        assert_eq!((j[0].seed, j[2].seed), (j[1].seed, j[3].seed));
        assert_ne!(j[0].seed, j[2].seed);
        // Shards partition the jobs and keep pairs together.
        config.games = 6;
        let all: Vec<u64> = jobs(&config, 2).unwrap().iter().map(|j| j.index).collect();
        let mut union = Vec::new();
        for k in 1..=3 {
            config.shard = Some((k, 3));
            let part: Vec<u64> = jobs(&config, 2).unwrap().iter().map(|j| j.index).collect();
            assert!(part.chunks(2).all(|c| c.len() == 2 && c[0] / 2 == c[1] / 2));
            union.extend(part);
        }
        union.sort();
        assert_eq!(union, all);
        assert!(
            parse_shard("2/8").is_ok()
                && parse_shard("0/8").is_err()
                && parse_shard("9/8").is_err()
        );
        assert!(parse_shard("x").is_err() && parse_shard("1/0").is_err());
    }
}
