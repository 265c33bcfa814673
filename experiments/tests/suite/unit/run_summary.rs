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

/// A round robin of two agents over `games` games of a game "g".
fn two_agents(games: u32) -> TournamentConfig {
    TournamentConfig {
        game: "g".into(),
        agents: vec!["a".into(), "b".into()],
        games,
        seed: 0,
        schedule: Schedule::RoundRobin,
        paired: false,
        shard: None,
        ..Default::default()
    }
}

#[test]
fn summary_counts_by_hand() {
    let config = two_agents(2);
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

#[test]
fn design_effect_by_hand() {
    // One game a cluster: the cluster-robust variance is the plain one.
    let one = design_effect([(1, 1.0), (2, 0.0), (3, 0.5), (4, 1.0)]).unwrap();
    assert!((one - 1.0).abs() < 1e-12, "{one}");
    // Two clusters of four equal values, 1 and 0: mean ½, plain sum of
    // squares 8 × ¼ = 2, clustered (4 − 2)² + (0 − 2)² = 8: 8 / 2 = 4, the
    // cluster size.
    let two = [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
        .iter()
        .enumerate()
        .map(|(i, &x)| (i as u64 / 4, x));
    assert!((design_effect(two).unwrap() - 4.0).abs() < 1e-12);
    // Clusters {1, 0}, {1, 1}, {0}: mean 0.6; plain 3 − 5 × 0.36 = 1.2;
    // clustered (1 − 1.2)² + (2 − 1.2)² + (0 − 0.6)² = 1.04.
    let mixed = design_effect([(7, 1.0), (7, 0.0), (8, 1.0), (8, 1.0), (9, 0.0)]).unwrap();
    assert!((mixed - 1.04 / 1.2).abs() < 1e-12, "{mixed}");
    // No spread, no ratio.
    assert_eq!(design_effect([(1, 1.0), (2, 1.0)]), None);
    assert_eq!(design_effect([]), None);
}

#[test]
fn games_that_share_their_first_plies_warn_that_the_interval_is_too_narrow() {
    let config = two_agents(60);
    // 60 games, the first mover (seat 0) winning: in three lines of 20
    // games that agree on their first 8 plies (and differ after), two
    // lines won by the first mover and one lost; then the same results
    // with every game its own line.
    let game = |i: u64, line: u64| {
        let mut r = rec(i, vec![0, 1], Some(usize::from(line == 2)), 0);
        r.moves = format!("a{line} b c d e f g h x{i}");
        r
    };
    let clustered: Vec<GameRecord> = (0..60).map(|i| game(i, i / 20)).collect();
    let s = summarise(&config, &clustered);
    assert_eq!((s.distinct, s.lines), (60, 3));
    // Plain: 40 × (1/3)² + 20 × (2/3)² = 13.33; clustered: 2 × (20/3)² +
    // (40/3)² = 266.67: a design effect of 20, the games a line.
    let d = s.design_effect.unwrap();
    assert!((d - 20.0).abs() < 1e-9, "{d}");
    let w = s.line_warning().expect("a warning");
    assert!(
        w.contains("3 lines of their first 8 plies") && w.contains("4.5× too narrow"),
        "{w}"
    );
    assert!(s.render(&config).contains(&w));
    let varied: Vec<GameRecord> = (0..60)
        .map(|i| {
            let mut r = game(i, i / 20);
            r.moves = format!("x{i} {}", r.moves);
            r
        })
        .collect();
    let s = summarise(&config, &varied);
    assert_eq!(s.lines, 60);
    assert!((s.design_effect.unwrap() - 1.0).abs() < 1e-9);
    assert_eq!(s.line_warning(), None);
    // Below 50 games nothing is judged.
    let s = summarise(&config, &clustered[..40]);
    assert_eq!(
        (s.lines, s.design_effect, s.line_warning()),
        (2, None, None)
    );
}
