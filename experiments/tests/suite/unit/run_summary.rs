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
fn effective_lines_by_hand() {
    // One game a line: as many lines as games.
    let one = effective_lines([1, 2, 3, 4]).unwrap();
    assert!((one - 4.0).abs() < 1e-12, "{one}");
    // Two lines of four games: 8² / (4² + 4²) = 2.
    let two = (0..8u64).map(|i| i / 4);
    assert!((effective_lines(two).unwrap() - 2.0).abs() < 1e-12);
    // Lines of 2, 2 and 1 games: 5² / (4 + 4 + 1) = 25/9.
    let mixed = effective_lines([7, 7, 8, 8, 9]).unwrap();
    assert!((mixed - 25.0 / 9.0).abs() < 1e-12, "{mixed}");
    // One line of 99 games and one of 1: 100² / (99² + 1) = 1.0203.
    let skewed = effective_lines((0..100u64).map(|i| u64::from(i == 0))).unwrap();
    assert!((skewed - 10_000.0 / 9_802.0).abs() < 1e-12, "{skewed}");
    assert_eq!(effective_lines([]), None);
}

#[test]
fn games_that_share_their_first_plies_get_a_note_not_a_wider_interval() {
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
    // Three equally common lines: 60² / (3 × 20²) = 3, under 6 (a tenth
    // of the games).
    let e = s.effective_lines.unwrap();
    assert!((e - 3.0).abs() < 1e-9, "{e}");
    let w = s.line_note().expect("a note");
    assert!(
        w.starts_with("note: the games follow 3 lines of their first 8 plies")
            && w.contains("as concentrated as 3.0 equally common ones"),
        "{w}"
    );
    assert!(s.render(&config).contains(&w));
    let interval = |s: &Summary| {
        let e = s.first_mover_score.as_ref().expect("a score");
        (e.score, e.lower, e.upper)
    };
    let clustered_interval = interval(&s);
    let varied: Vec<GameRecord> = (0..60)
        .map(|i| {
            let mut r = game(i, i / 20);
            r.moves = format!("x{i} {}", r.moves);
            r
        })
        .collect();
    let s = summarise(&config, &varied);
    assert_eq!(s.lines, 60);
    assert!((s.effective_lines.unwrap() - 60.0).abs() < 1e-9);
    assert_eq!(s.line_note(), None);
    // The same results give the same interval: each game is an independent
    // draw, however its first plies group.
    assert_eq!(interval(&s), clustered_interval);
    // Below 50 games nothing is judged.
    let s = summarise(&config, &clustered[..40]);
    assert_eq!((s.lines, s.effective_lines, s.line_note()), (2, None, None));
}

#[test]
fn merged_batches_summarise_as_the_games_added_one_by_one() {
    // The workers of a run count their batches and the writer merges them:
    // the summary must read as if every game had been added in turn. Games
    // of every kind (wins either way, draws, three end reasons, a game
    // repeated across batches for the distinct count) split unevenly.
    let config = two_agents(12);
    let records: Vec<GameRecord> = (0..24u64)
        .map(|i| {
            let seats = if i % 2 == 0 { vec![0, 1] } else { vec![1, 0] };
            let winner = [Some(0), Some(1), None][(i % 3) as usize];
            let mut r = rec(i, seats, winner, (i % 2) as usize);
            r.plies = 7 + (i * i % 13) as u32;
            r.moves = format!("m{}", i % 10);
            r.end = Some(["capture", "blocked", "cap"][(i % 3) as usize].to_string());
            r
        })
        .collect();
    let mut one = SummaryBuilder::new();
    for r in &records {
        one.add(r);
    }
    let mut merged = SummaryBuilder::new();
    for part in [
        &records[..1],
        &records[1..10],
        &records[10..11],
        &records[11..],
    ] {
        let mut b = SummaryBuilder::new();
        for r in part {
            b.add(r);
        }
        merged.merge(b);
    }
    let (a, b) = (one.finish(&config), merged.finish(&config));
    assert_eq!(a.render(&config), b.render(&config));
    assert_eq!((a.distinct, b.distinct), (10, 10));
    assert_eq!(a.ends, b.ends);
    assert_eq!(a.first_mover_shares, b.first_mover_shares);
    assert!((a.plies.0 - b.plies.0).abs() < 1e-12 && (a.plies.1 - b.plies.1).abs() < 1e-12);
}
