//! Unit tests of `experiments::run::jobs`.

use experiments::run::jobs::*;
use experiments::run::{Schedule, TournamentConfig};

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
        parse_shard("2/8").is_ok() && parse_shard("0/8").is_err() && parse_shard("9/8").is_err()
    );
    assert!(parse_shard("x").is_err() && parse_shard("1/0").is_err());
}

#[test]
fn a_table_says_which_jobs_it_has_as_its_jobs_do() {
    // Interleaved blocks leave holes in the index range, shards take
    // slices, and a seat count too large for the agents has no jobs: `has`
    // must agree with the listed jobs on every index and past the end.
    for interleaved in [false, true] {
        for shard in [None, Some((1, 3)), Some((3, 3))] {
            for (seats, games) in [(2, 5), (2, 0), (3, 4), (1, 3)] {
                let config = TournamentConfig {
                    game: "g".into(),
                    agents: vec!["a".into(), "b".into(), "c".into()],
                    games,
                    seed: 9,
                    shard,
                    interleaved,
                    ..Default::default()
                };
                let listed: Vec<u64> = jobs(&config, seats)
                    .unwrap()
                    .iter()
                    .map(|j| j.index)
                    .collect();
                let table = JobTable::new(&config, seats).unwrap();
                let has: Vec<u64> = (0..table.count() + 4).filter(|&i| table.has(i)).collect();
                assert_eq!(has, listed, "{interleaved} {shard:?} {seats} {games}");
            }
        }
    }
}
