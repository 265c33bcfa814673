//! Unit tests of `experiments::run::summary`.

use experiments::run::summary::*;
use experiments::run::{GameRecord, Schedule, TournamentConfig};

fn rec(index: u64, seats: Vec<usize>, winner: Option<usize>, first: usize) -> GameRecord {
    GameRecord {
        index,
        seed: index,
        returns: (0..seats.len())
            .map(|s| if winner == Some(s) { 1.0 } else { 0.0 })
            .collect(),
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
    // Seat 0 won two and drew one: score 5/6; the setter (seat 0) alike.
    assert_eq!(s.seat_wdl[0].text(2), "+2 =1 -0  score 0.833");
    assert_eq!(s.seat_wdl[1].text(2), "+0 =1 -2  score 0.167");
    assert_eq!(s.setter_wdl, s.seat_wdl[0]);
    assert!(
        s.render(&config)
            .contains("\nseat 1:           +0 =1 -2  score 0.167\n")
    );
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
