//! The summary of a run's games: per agent, per pairing, per seat and team,
//! the first mover and the setter, draws and game length, each rate with
//! its Wilson interval.

use std::fmt::Write as _;

use crate::stats::{Proportion, mean_sd, wilson};

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
    /// Wins of the pie setter, over games that have one.
    pub setter: Proportion,
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
    /// Per end reason (`None`: rows that record none): games, and draws
    /// among them, most frequent first.
    pub ends: Vec<(Option<String>, u64, u64)>,
}

/// Below this share of distinct games a summary warns that games repeat.
pub const DISTINCT_WARNING: f64 = 0.95;

fn game_key(r: &GameRecord) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    r.opening_moves.hash(&mut h);
    r.moves.hash(&mut h);
    h.finish()
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

/// Summarises the games of a run.
pub fn summarise(config: &TournamentConfig, records: &[GameRecord]) -> Summary {
    let k = config.agents.len();
    let mut w = vec![0u64; k];
    let mut d = vec![0u64; k];
    let mut l = vec![0u64; k];
    let (mut fm_n, mut fm_w, mut st_n, mut st_w, mut draws) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut pair = std::collections::BTreeMap::<(usize, usize), (u64, u64, u64)>::new();
    let num_seats = records.iter().map(|r| r.seats.len()).max().unwrap_or(0);
    let mut seat_wins = vec![0u64; num_seats];
    let mut coalitions = std::collections::BTreeMap::<Vec<usize>, u64>::new();
    let mut distinct = std::collections::HashSet::new();
    let mut ends = std::collections::BTreeMap::<Option<String>, (u64, u64)>::new();
    for r in records {
        distinct.insert(game_key(r));
        let e = ends.entry(r.end.clone()).or_default();
        e.0 += 1;
        e.1 += u64::from(r.winners.is_empty());
        for &s in &r.winners {
            seat_wins[s] += 1;
        }
        if r.winners.len() > 1 {
            *coalitions.entry(r.winners.clone()).or_default() += 1;
        }
        for (seat, &a) in r.seats.iter().enumerate() {
            if r.winners.is_empty() {
                d[a] += 1;
            } else if r.winners.contains(&seat) {
                w[a] += 1;
            } else {
                l[a] += 1;
            }
        }
        if r.winners.is_empty() {
            draws += 1;
        }
        if let Some(f) = r.first_mover {
            fm_n += 1;
            fm_w += r.winners.contains(&f) as u64;
        }
        if let Some(s) = r.setter {
            st_n += 1;
            st_w += r.winners.contains(&s) as u64;
        }
        if r.seats.len() == 2 {
            let (a, b) = (r.seats[0].min(r.seats[1]), r.seats[0].max(r.seats[1]));
            let e = pair.entry((a, b)).or_default();
            match r.winners.first().map(|&s| r.seats[s]) {
                Some(x) if x == a => e.0 += 1,
                Some(_) => e.1 += 1,
                None => e.2 += 1,
            }
        }
    }
    let agents = (0..k)
        .map(|a| {
            let n = w[a] + d[a] + l[a];
            AgentSummary {
                agent: a,
                spec: config.agents[a].clone(),
                wins: w[a],
                draws: d[a],
                losses: l[a],
                score: wilson(w[a] as f64 + 0.5 * d[a] as f64, n),
            }
        })
        .collect();
    let plies: Vec<f64> = records.iter().map(|r| r.plies as f64).collect();
    let scores = if num_seats == 1 {
        (0..k)
            .filter_map(|a| {
                let mine: Vec<&GameRecord> = records.iter().filter(|r| r.seats[0] == a).collect();
                if mine.is_empty() {
                    return None;
                }
                let n = mine.len() as u64;
                let rets: Vec<f64> = mine.iter().map(|r| r.returns[0]).collect();
                let mut distinct = rets.clone();
                distinct.sort_by(|x, y| y.total_cmp(x));
                distinct.dedup();
                let values = distinct
                    .into_iter()
                    .map(|v| {
                        let c = rets.iter().filter(|&&x| x == v).count();
                        (v, wilson(c as f64, n))
                    })
                    .collect();
                let ms: u64 = mine.iter().map(|r| r.wall_ms).sum();
                let max_ms = mine.iter().map(|r| r.wall_ms).max().unwrap_or(0);
                Some(ScoreSummary {
                    agent: a,
                    games: n,
                    mean_sd: mean_sd(&rets),
                    values,
                    wall_ms: (ms as f64 / n as f64, max_ms),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let turns: Vec<f64> = records
        .iter()
        .filter_map(|r| r.turns.map(f64::from))
        .collect();
    let mut ends: Vec<(Option<String>, u64, u64)> =
        ends.into_iter().map(|(e, (n, d))| (e, n, d)).collect();
    ends.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Summary {
        scores,
        distinct: distinct.len(),
        ends,
        games: records.len(),
        agents,
        first_mover: wilson(fm_w as f64, fm_n),
        setter: wilson(st_w as f64, st_n),
        seats: seat_wins
            .iter()
            .map(|&w| wilson(w as f64, records.len() as u64))
            .collect(),
        coalitions: coalitions
            .into_iter()
            .map(|(c, x)| (c, wilson(x as f64, records.len() as u64)))
            .collect(),
        draws: wilson(draws as f64, records.len() as u64),
        plies: mean_sd(&plies),
        turns: (!turns.is_empty()).then(|| mean_sd(&turns)),
        pairings: pair
            .into_iter()
            .map(|((a, b), (x, y, z))| (a, b, x, y, z))
            .collect(),
    }
}

impl Summary {
    /// A warning when fewer than 95 % of the games are distinct: the
    /// effective sample size is below n, and intervals are too narrow.
    pub fn distinct_warning(&self) -> Option<String> {
        (self.games > 0 && (self.distinct as f64) < DISTINCT_WARNING * self.games as f64).then(|| {
            format!(
                "warning: only {} of {} games are distinct ({:.1} %): games repeat, so the intervals are too narrow; use --openings K --opening-plies P",
                self.distinct,
                self.games,
                100.0 * self.distinct as f64 / self.games as f64
            )
        })
    }

    /// The summary as printed at the end of a run.
    pub fn render(&self, config: &TournamentConfig) -> String {
        let mut s = String::new();
        let _ = writeln!(
            &mut s,
            "game {}  seed {}  games {}  distinct {}",
            config.game, config.seed, self.games, self.distinct
        );
        if let Some(w) = self.distinct_warning() {
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
        let _ = writeln!(&mut s, "first mover wins: {}", self.first_mover);
        if self.setter.n > 0 {
            let _ = writeln!(&mut s, "setter wins:      {}", self.setter);
        }
        for (seat, p) in self.seats.iter().enumerate() {
            let _ = writeln!(&mut s, "seat {seat} wins:      {p}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Schedule;

    fn rec(index: u64, seats: Vec<usize>, winner: Option<usize>, first: usize) -> GameRecord {
        GameRecord {
            index,
            seed: index,
            returns: (0..seats.len())
                .map(|s| if winner == Some(s) { 1.0 } else { 0.0 })
                .collect(),
            roles: vec![String::new(); seats.len()],
            seats,
            winners: winner.into_iter().collect(),
            first_mover: Some(first),
            setter: Some(0),
            plies: 10 + index as u32,
            turns: Some(10 + index as u32),
            wall_ms: 0,
            moves: String::new(),
            ..Default::default()
        }
    }

    #[test]
    fn summary_counts_by_hand() {
        let config = TournamentConfig {
            game: "g".into(),
            agents: vec!["a".into(), "b".into()],
            games: 2,
            seed: 0,
            schedule: Schedule::RoundRobin,
            paired: false,
            shard: None,
            ..Default::default()
        };
        // Game 0: A0 in seat 0 wins as first mover. Game 1: A1 in seat 0
        // wins as second mover (seat 1 moved first). Game 2: draw.
        let records = vec![
            rec(0, vec![0, 1], Some(0), 0),
            rec(1, vec![1, 0], Some(0), 1),
            rec(2, vec![0, 1], None, 0),
        ];
        let s = summarise(&config, &records);
        assert_eq!(
            (s.agents[0].wins, s.agents[0].draws, s.agents[0].losses),
            (1, 1, 1)
        );
        assert_eq!(
            (s.agents[1].wins, s.agents[1].draws, s.agents[1].losses),
            (1, 1, 1)
        );
        assert_eq!(s.agents[0].score.rate, 0.5);
        assert_eq!((s.first_mover.successes, s.first_mover.n), (1.0, 3));
        assert_eq!((s.setter.successes, s.setter.n), (2.0, 3));
        assert_eq!((s.seats[0].successes, s.seats[1].successes), (2.0, 0.0));
        assert_eq!((s.draws.successes, s.draws.n), (1.0, 3));
        assert_eq!(s.pairings, vec![(0, 1, 1, 1, 1)]);
        assert_eq!(s.plies.0, 11.0);
        assert!(s.coalitions.is_empty());
        // A team game: seats 0 and 2 win together (partners share returns).
        let mut team = rec(3, vec![0, 1, 0, 1], None, 0);
        team.winners = vec![0, 2];
        let config4 = TournamentConfig {
            agents: vec!["a".into(), "b".into()],
            ..config.clone()
        };
        let s = summarise(&config4, &[team]);
        assert_eq!((s.agents[0].wins, s.agents[1].losses), (2, 2));
        assert_eq!(s.coalitions.len(), 1);
        assert_eq!(s.coalitions[0].0, vec![0, 2]);
        assert_eq!(
            (
                s.seats[0].successes,
                s.seats[1].successes,
                s.seats[2].successes
            ),
            (1.0, 0.0, 1.0)
        );
    }
}
