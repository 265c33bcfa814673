//! `balance`, `pie` and `report` as a user runs them, and the
//! measures they print checked against hand-worked values.

use crate::common::{dir, fails, ok, p};
use experiments::research::balance::{Replay, read_balance, summarise_block};
use experiments::research::swapmap::{SwapRow, pie_values, read_swapmap};
use experiments::run::GameRecord;

fn record(first_mover: usize, winners: &[usize], setter: Option<usize>) -> GameRecord {
    GameRecord {
        index: 0,
        seed: 0,
        seats: vec![0, 1],
        winners: winners.to_vec(),
        returns: vec![0.0, 0.0],
        roles: vec![String::new(), String::new()],
        first_mover: Some(first_mover),
        setter,
        plies: 10,
        turns: Some(10),
        wall_ms: 0,
        moves: String::new(),
        ..Default::default()
    }
}

/// Four games worked by hand: the first mover wins, loses, draws, wins.
/// First-mover scores 1, 0, ½, 1 → AdvantageP1 0.625; the second in turn
/// order scores 0, 1, ½, 0 → 0.375, so Balance = 1 − 0.25. The setter
/// (seat 0) wins games 1 and 2; the chooser holds the first move in games 2
/// and 4. Decisions 10, 20, 30, 40 with 100, 100, 300, 800 legal moves:
/// pooled 1300/100 = 13, per-game means 10, 5, 10, 20 → 11.25.
#[test]
fn balance_measures_match_a_hand_count() {
    let recs = [
        record(0, &[0], Some(0)),
        record(1, &[0], Some(0)),
        record(0, &[], Some(0)),
        record(1, &[1], Some(0)),
    ];
    // Turns 8, 16, 24, 32 (some decisions continue a turn): mean 20.
    let replays =
        [(10, 100), (20, 100), (30, 300), (40, 800)].map(|(decisions, legal_sum)| Replay {
            decisions,
            turns: decisions * 4 / 5,
            legal_sum,
        });
    let r = summarise_block("g", "a", 2, 5, "x.csv", &recs, &replays).unwrap();
    assert_eq!(r.n, 4);
    assert_eq!(r.first_mover_wins, 2.0);
    assert!((r.advantage_p1 - 0.625).abs() < 1e-12);
    assert!((r.balance - 0.75).abs() < 1e-12);
    assert!((r.drawishness - 0.25).abs() < 1e-12);
    assert_eq!(r.setter_rate, Some(0.5));
    assert_eq!(r.chooser_took_first, Some(0.5));
    assert!((r.branching_mean - 13.0).abs() < 1e-12);
    assert!((r.branching_factor_average - 11.25).abs() < 1e-12);
    assert!((r.duration_turns - 20.0).abs() < 1e-12);
    // Wilson 2 of 4 (from the formula by hand: 0.150, 0.850).
    assert!(
        (r.first_mover_lower - 0.1500).abs() < 5e-4,
        "{}",
        r.first_mover_lower
    );
    assert!((r.first_mover_upper - 0.8500).abs() < 5e-4);
    assert!(summarise_block("g", "a", 2, 5, "x.csv", &recs, &replays[..3]).is_err());
}

fn swap_row(opening: &str, n: u64, q: f64, lower: f64, upper: f64) -> SwapRow {
    SwapRow {
        game: "g".into(),
        start_seed: 0,
        opening: opening.into(),
        orbit_size: 1,
        n,
        wins: 0,
        draws: 0,
        q,
        lower,
        upper,
        agent: "a".into(),
        seed: 1,
        games_csv: String::new(),
        n_even: None,
        score_even: None,
    }
}

/// A synthetic map: openings with known first-mover win rates `qs`, `n`
/// games each (no draws), drawn from a seeded generator; rows carry the
/// even/odd halves as `pie` records them.
fn synthetic_map(qs: &[f64], n: u64, rng: &mut rand_chacha::ChaCha8Rng) -> Vec<SwapRow> {
    use rand::Rng;
    qs.iter()
        .enumerate()
        .map(|(i, &q)| {
            let wins: Vec<bool> = (0..n).map(|_| rng.random_bool(q)).collect();
            let w = wins.iter().filter(|&&x| x).count() as u64;
            let even: Vec<bool> = wins.iter().step_by(2).copied().collect();
            let qh = w as f64 / n as f64;
            let mut r = swap_row(&format!("o{i:02}"), n, qh, qh - 0.2, qh + 0.2);
            r.wins = w;
            r.n_even = Some(even.len() as u64);
            r.score_even = Some(even.iter().filter(|&&x| x).count() as f64);
            r
        })
        .collect()
}

/// On maps whose true q values are known, the plug-in
/// `min max(q̂, 1 − q̂)` is pulled toward ½ (it keeps the luckiest of 30
/// noisy estimates), and the split-sample estimate is not.
#[test]
fn honest_pie_value_is_not_pulled_to_one_half() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let mean = |qs: &[f64], n: u64, reps: usize, rng: &mut rand_chacha::ChaCha8Rng| {
        let (mut old, mut new) = (0.0, 0.0);
        for _ in 0..reps {
            let rows = synthetic_map(qs, n, rng);
            let v = pie_values(&rows);
            let v = &v[&("g".to_string(), "a".to_string(), 0)];
            old += v.value;
            new += v.honest.as_ref().expect("halves recorded").value;
        }
        (old / reps as f64, new / reps as f64)
    };
    // 30 openings with q from 0.6 to 0.8: the true pie value is 0.6.
    let spread: Vec<f64> = (0..30).map(|k| 0.6 + 0.2 * k as f64 / 29.0).collect();
    let (old, new) = mean(&spread, 20, 300, &mut rng);
    assert!(old < 0.55, "the plug-in should show its pull to 1/2: {old}");
    assert!(
        new > 0.59,
        "the split estimate must not be pulled to 1/2: {new}"
    );
    // Every opening at 0.7, many games: the split estimate is close to the truth.
    let (old, new) = mean(&[0.7; 30], 100, 200, &mut rng);
    assert!(old < 0.65, "{old}");
    assert!((new - 0.7).abs() < 0.015, "{new}");
    // A fair game (q = 0.5 everywhere) never reads below 1/2.
    let (_, new) = mean(&[0.5; 30], 40, 100, &mut rng);
    assert!((0.5..0.6).contains(&new), "{new}");
}

/// min over openings of max(q, 1 − q): openings at q = 0.8, 0.35, 0.6 give
/// 0.8, 0.65, 0.6, so 0.6 at the third; fair are those whose interval holds ½.
#[test]
fn pie_value_is_the_min_max() {
    let rows = [
        swap_row("x", 20, 0.8, 0.58, 0.92),
        swap_row("y", 20, 0.35, 0.18, 0.57),
        swap_row("z", 20, 0.6, 0.39, 0.78),
    ];
    let v = pie_values(&rows);
    let v = &v[&("g".to_string(), "a".to_string(), 0)];
    assert!((v.value - 0.6).abs() < 1e-12);
    assert_eq!(v.opening, "z");
    assert_eq!(v.fair, ["y", "z"]);
}

#[test]
fn balance_runs_resume_and_do_not_depend_on_threads() {
    let d = dir("balance");
    let run = |out: &str, threads: &str| {
        ok(&[
            "balance",
            "--game",
            "catapult",
            "--game",
            "pie(slingshot(size=7))",
            "--agent",
            "mcts(iterations=20)",
            "--games",
            "6",
            "--seed",
            "9",
            "--threads",
            threads,
            "--out",
            out,
            "--quiet",
        ])
    };
    let a = p(&d, "a/balance.csv");
    let b = p(&d, "b/balance.csv");
    let text = run(&a, "1");
    assert!(text.contains("pie(slingshot"), "{text}");
    run(&b, "2");
    let (ra, rb) = (
        read_balance(a.as_ref()).unwrap(),
        read_balance(b.as_ref()).unwrap(),
    );
    assert_eq!(ra.len(), 4, "two games × (agent, random)");
    for (x, y) in ra.iter().zip(&rb) {
        let mut y = y.clone();
        y.games_csv = x.games_csv.clone();
        assert_eq!(x, &y);
    }
    // The pie form has a setter and a swap rate; plain Catapult none.
    assert!(
        ra.iter()
            .all(|r| r.game.starts_with("pie(") == r.setter_rate.is_some())
    );
    // Resuming plays nothing new and gives the same rows.
    run(&a, "2");
    assert_eq!(read_balance(a.as_ref()).unwrap(), ra);
    fails(
        &["balance", "--game", "chess", "--out", &a],
        "unknown game \"chess\"",
    );
    fails(&["balance", "--out", &a], "give --game G");
    fails(
        &[
            "balance",
            "--game",
            "catapult",
            "--agent",
            "alphabeta",
            "--game",
            "sniggle(players=3)",
            "--out",
            &a,
        ],
        "two-seat games only",
    );
}

/// An adaptive map (`pie --until`) stops on its rule with the pie value's
/// interval, resumes to the same rows, extends under a narrower rule by
/// replaying its stored games, and refuses bad rules in one line.
#[test]
fn adaptive_swap_maps_race_resume_and_extend() {
    let d = dir("swapmap-adaptive");
    let out = p(&d, "runs/swapmap.csv");
    let args = |rule: &'static str| {
        vec![
            "pie".to_string(),
            "--game".into(),
            "slingshot(size=7)".into(),
            "--agent".into(),
            "random".into(),
            "--games-per-opening".into(),
            "10".into(),
            "--openings".into(),
            "5".into(),
            "--seed".into(),
            "3".into(),
            "--until".into(),
            rule.into(),
            "--max-games".into(),
            "20000".into(),
            "--out".into(),
            out.clone(),
            "--quiet".into(),
        ]
    };
    let run = |rule: &'static str| {
        let a = args(rule);
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let text = run("halfwidth=0.2");
    assert!(
        text.contains("adaptive map, start seed 0: pie-rule value in [")
            && text.contains("--until halfwidth=0.2 met"),
        "{text}"
    );
    let rows = read_swapmap(out.as_ref()).unwrap();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r.n >= 10), "{rows:?}");
    // The same command replays the stored games to the same stop.
    assert_eq!(run("halfwidth=0.2"), text);
    assert_eq!(read_swapmap(out.as_ref()).unwrap(), rows);
    // A narrower rule extends the map from where it stopped.
    let wider = run("halfwidth=0.1");
    assert!(wider.contains("--until halfwidth=0.1 met"), "{wider}");
    let more = read_swapmap(out.as_ref()).unwrap();
    let games = |r: &[SwapRow]| r.iter().map(|x| x.n).sum::<u64>();
    assert!(games(&more) > games(&rows));
    // Bad rules and caps: one line each.
    for (rule, cap, needle) in [
        ("halfwidth=0", "1000", "--until \"halfwidth=0\""),
        ("width=0.1", "1000", "unknown rule"),
        ("decide=0.05", "30", "the first round alone is 50 games"),
    ] {
        let mut a = args("halfwidth=0.2");
        a[12] = rule.into();
        a[14] = cap.into();
        a[16] = p(&d, "other/swapmap.csv");
        fails(&a.iter().map(String::as_str).collect::<Vec<_>>(), needle);
    }
}

/// `pie` on Slingshot 7×7 with `random` in both seats: `games` games from
/// each of `openings` sampled openings, run seed `seed`, the summary to
/// `out`, quiet.
fn random_slingshot_map<'a>(
    games: &'a str,
    openings: &'a str,
    seed: &'a str,
    out: &'a str,
) -> Vec<&'a str> {
    vec![
        "pie",
        "--game",
        "slingshot(size=7)",
        "--agent",
        "random",
        "--games-per-opening",
        games,
        "--openings",
        openings,
        "--seed",
        seed,
        "--out",
        out,
        "--quiet",
    ]
}

/// A swap map made before its games kept their moves (`X.csv`: a row of
/// scores a game, no moves) still summarises without playing a game, is
/// refused when it lacks games, and `--overwrite` plays it again into the
/// games file `X.csv.gz`.
#[test]
fn an_old_swap_map_summarises_and_cannot_grow() {
    let d = dir("swapmap-old");
    let out = p(&d, "runs/swapmap.csv");
    let args = |overwrite: bool| {
        let mut a = random_slingshot_map("2", "3", "5", &out);
        if overwrite {
            a.push("--overwrite");
        }
        a
    };
    ok(&args(false));
    let rows = read_swapmap(out.as_ref()).unwrap();
    assert_eq!(rows.len(), 3);
    let gz: Vec<_> = std::fs::read_dir(d.join("runs/swapmap"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".csv.gz"))
        .collect();
    assert_eq!(gz.len(), 1);
    // The same map in the old form, every first mover a winner.
    let games = experiments::run::records::read_records(&gz[0]).unwrap();
    assert_eq!(games.len(), 6);
    let legacy = gz[0].with_extension("");
    let mut text = String::from("start_seed,class,opening,game,seed,first_mover_score,plies\n");
    for (_, r) in &games {
        text += &format!(
            "0,{},\"{}\",{},{:#018x},1,{}\n",
            (r.index >> 32) & 0xffff,
            r.moves[0],
            r.index & 0xffff_ffff,
            r.seed,
            r.plies
        );
    }
    std::fs::remove_file(&gz[0]).unwrap();
    // One game short: refused in one line, nothing played.
    let short: String = text.lines().take(6).map(|l| format!("{l}\n")).collect();
    std::fs::write(&legacy, short).unwrap();
    fails(
        &args(false),
        "made before a map's games kept their moves and cannot grow (1 game to play)",
    );
    assert!(!gz[0].exists());
    // Whole: summarised as it stands.
    std::fs::write(&legacy, &text).unwrap();
    ok(&args(false));
    let old = read_swapmap(out.as_ref()).unwrap();
    assert_eq!(old.len(), 3);
    for r in &old {
        assert_eq!((r.n, r.wins, r.draws), (2, 2, 0), "{old:?}");
        assert!(r.games_csv.ends_with("__random.csv"), "{}", r.games_csv);
    }
    assert!(!gz[0].exists());
    // --overwrite plays it again, the same games, into the games file.
    ok(&args(true));
    assert_eq!(read_swapmap(out.as_ref()).unwrap(), rows);
    assert!(gz[0].exists() && !legacy.exists());
}

#[test]
fn swap_maps_and_the_report() {
    let d = dir("swapmap");
    let out = p(&d, "results/swapmap.csv");
    let args = random_slingshot_map("6", "5", "3", &out);
    let text = ok(&args);
    assert!(text.contains("pie-rule value"), "{text}");
    let rows = read_swapmap(out.as_ref()).unwrap();
    assert_eq!(rows.len(), 5);
    for r in &rows {
        assert_eq!(r.n, 6);
        assert!(r.lower <= r.q && r.q <= r.upper);
        assert!((1..=4).contains(&r.orbit_size));
        // Written at 4 decimals.
        assert!((r.q - (r.wins as f64 + 0.5 * r.draws as f64) / 6.0).abs() < 0.5e-4);
    }
    // Same seed, same map; a rerun resumes to the same rows.
    ok(&args);
    assert_eq!(read_swapmap(out.as_ref()).unwrap(), rows);
    // Every game of the map is stored once, in a games file, and replays
    // in the game.
    let files: Vec<_> = std::fs::read_dir(d.join("results/swapmap"))
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().to_string())
        .filter(|p| !p.ends_with(".config.json") && !p.ends_with(".lock"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].ends_with(".csv.gz"), "{files:?}");
    let v = ok(&["replay", &files[0], "--verify"]);
    assert!(v.contains("30 games"), "{v}");
    // A one-cell map on a hex-free square board: pie(catapult) has from-to
    // openings, so it gets a table and no heat map.
    ok(&[
        "balance",
        "--game",
        "pie(catapult)",
        "--agent",
        "random",
        "--games",
        "4",
        "--out",
        &p(&d, "results/balance.csv"),
        "--quiet",
    ]);
    let results = p(&d, "results");
    ok(&["report", "--results", &results]);
    let report = std::fs::read_to_string(d.join("results/REPORT.md")).unwrap();
    assert!(report.contains("## Swap maps") && report.contains("## Balancing mechanisms compared"));
    assert!(
        report.contains("![swap map](plots/swapmap-slingshot"),
        "{report}"
    );
    // Regenerated from the same CSVs, byte for byte.
    let first: Vec<(String, Vec<u8>)> = snapshot(&d.join("results"));
    ok(&["report", "--results", &results]);
    assert_eq!(snapshot(&d.join("results")), first);
    // Bad input.
    fails(
        &["pie", "--game", "sniggle(players=3)", "--out", &out],
        "two-seat game",
    );
    fails(&["pie", "--game", "spinner", "--out", &out], "chance node");
    fails(
        &[
            "pie",
            "--game",
            "slingshot",
            "--openings",
            "0",
            "--out",
            &out,
        ],
        "--openings",
    );
    fails(&["pie", "--game", "nope", "--out", &out], "unknown game");
    let empty = d.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    fails(
        &["report", "--results", empty.to_str().unwrap()],
        "neither balance.csv nor swapmap.csv",
    );
    std::fs::write(empty.join("balance.csv"), "").unwrap();
    fails(
        &["report", "--results", empty.to_str().unwrap()],
        "is empty",
    );
    std::fs::write(empty.join("balance.csv"), "game,agent\nx,y,z\n").unwrap();
    fails(
        &["report", "--results", empty.to_str().unwrap()],
        "malformed row 2",
    );
    // A header and no row (or another table's header) is no balance table.
    std::fs::write(empty.join("balance.csv"), "some,other,table\n").unwrap();
    fails(
        &["report", "--results", empty.to_str().unwrap()],
        "holds no rows",
    );
}

/// `report` resolves the game CSVs a results folder names against that
/// folder, never the working directory: the same bytes from anywhere.
#[test]
fn report_is_the_same_from_any_working_directory() {
    let d = dir("report-cwd");
    let run = |cwd: &std::path::Path, args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .args(args)
            .current_dir(cwd)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // Made from inside `d`, so balance.csv names its games `results/balance/...`.
    run(
        &d,
        &[
            "balance",
            "--game",
            "catapult",
            "--agent",
            "random",
            "--games",
            "4",
            "--no-baseline",
            "--out",
            "results/balance.csv",
            "--quiet",
        ],
    );
    let results = d.join("results");
    run(&d, &["report", "--results", results.to_str().unwrap()]);
    let here = snapshot(&results);
    run(
        std::path::Path::new("/"),
        &["report", "--results", results.to_str().unwrap()],
    );
    assert_eq!(snapshot(&results), here);
    let md = String::from_utf8(here[0].1.clone()).unwrap();
    assert!(md.contains("games in `balance/catapult"), "{md}");
}

fn snapshot(results: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut v = vec![(
        "REPORT.md".to_string(),
        std::fs::read(results.join("REPORT.md")).unwrap(),
    )];
    let mut plots: Vec<_> = std::fs::read_dir(results.join("plots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    plots.sort();
    for pth in plots {
        v.push((pth.display().to_string(), std::fs::read(&pth).unwrap()));
    }
    v
}

/// `balance --compare`: the reference block is played beside the game's,
/// compare.csv holds the difference of the two first-mover scores (the
/// game's minus the reference's, as the two rows of balance.csv give them)
/// inside its interval, with a verdict; a reference alone is refused.
#[test]
fn compare_writes_the_difference_of_two_blocks() {
    let d = dir("balance-compare");
    let out = p(&d, "balance.csv");
    let text = ok(&[
        "balance",
        "--compare",
        "slingshot(size=7)",
        "--game",
        "slingshot(size=9)",
        "--agent",
        "random",
        "--games",
        "60",
        "--seed",
        "4",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(text.contains("comparisons written to"), "{text}");
    let rows = read_balance(std::path::Path::new(&out)).unwrap();
    let score = |g: &str| rows.iter().find(|r| r.game.contains(g)).unwrap().score;
    let mut rd = csv::Reader::from_path(d.join("compare.csv")).unwrap();
    let head = rd.headers().unwrap().clone();
    let recs: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    assert_eq!(recs.len(), 1);
    let get = |k: &str| recs[0][head.iter().position(|h| h == k).unwrap()].to_string();
    let f = |k: &str| get(k).parse::<f64>().unwrap();
    assert!(get("game").starts_with("slingshot(size=9"), "{:?}", recs[0]);
    assert!(get("reference").starts_with("slingshot(size=7"));
    let want = score("size=9") - score("size=7");
    assert!(
        (f("difference") - want).abs() < 2e-4,
        "{} vs {want}",
        f("difference")
    );
    assert!(f("lower") <= want && want <= f("upper"));
    assert!(
        ["higher", "lower", "undecided"].contains(&get("verdict").as_str())
            || get("verdict").starts_with("equal within")
    );
    assert_eq!(f("alpha"), 0.05);
    fails(
        &[
            "balance",
            "--compare",
            "catapult",
            "--agent",
            "random",
            "--out",
            &out,
        ],
        "--compare \"catapult\": give the games to compare with it",
    );
}

/// `balance --rate`: an agent that is not a rung of the game's ladder is
/// placed in its pool by a gauntlet against every rung (rating games per
/// rung), and its balance row carries that Elo; without a ladder, a
/// one-line error.
#[test]
fn rate_places_a_balance_agent_on_the_ladder_scale() {
    let d = dir("balance-rate");
    let out = p(&d, "balance.csv");
    let common = [
        "--game",
        "slingshot(size=7)",
        "--seed",
        "2",
        "--quiet",
        "--out",
        &out,
    ];
    fails(
        &[
            &[
                "balance",
                "--agent",
                "uct(iterations=20)",
                "--games",
                "10",
                "--rate",
                "--rating-games",
                "6",
            ][..],
            &common,
        ]
        .concat(),
        "no ladder for slingshot(size=7",
    );
    let mut a = vec![
        "balance",
        "--ladder",
        "random,uct(iterations=5)",
        "--games",
        "10",
        "--rating-games",
        "6",
    ];
    a.extend_from_slice(&common);
    ok(&a);
    let mut a = vec![
        "balance",
        "--agent",
        "uct(iterations=20)",
        "--games",
        "10",
        "--rate",
        "--rating-games",
        "6",
        "--no-baseline",
    ];
    a.extend_from_slice(&common);
    let text = ok(&a);
    assert!(text.contains("Elo on each game's scale"), "{text}");
    let pool = experiments::research::pool::read_pool(&d.join("pool.csv")).unwrap();
    assert_eq!(pool.len(), 3, "{pool:?}");
    let placed = pool.iter().find(|r| r.source == "placed").unwrap();
    assert!(placed.agent.starts_with("uct(iterations=20"));
    // 6 games against each of the 2 rungs.
    assert_eq!(placed.games, 12);
    let random = pool.iter().find(|r| r.agent == "random").unwrap();
    assert_eq!((random.elo, random.source.as_str()), (0.0, "rung"));
    let rows = read_balance(std::path::Path::new(&out)).unwrap();
    let row = rows.iter().find(|r| r.agent == placed.agent).unwrap();
    assert_eq!(row.elo, Some(placed.elo));
    assert_eq!(row.elo_rating, placed.rating);
}

/// An agent naming its game's evaluation weights (`w_<term>`, which only a
/// game names: Catapult's `attack`, default 20) is read in each game by
/// `balance --agent` and `balance --ladder`; in a game without that weight
/// the run is refused before anything is played.
#[test]
fn balance_and_ladder_read_their_agents_in_each_game() {
    let d = dir("balance-weights");
    let agent = "alphabeta(depth=1,w_attack=16)";
    let out = p(&d, "balance.csv");
    let text = ok(&[
        "balance", "--game", "catapult", "--agent", agent, "--games", "2", "--seed", "1", "--out",
        &out, "--quiet",
    ]);
    assert!(text.contains("w_attack=16"), "{text}");
    let rows = read_balance(out.as_ref()).unwrap();
    // The agent's block and its random baseline.
    assert_eq!(rows.len(), 2);
    assert!(rows[0].agent.contains("w_attack=16"), "{}", rows[0].agent);
    fails(
        &[
            "balance",
            "--game",
            "catapult",
            "--game",
            "slingshot(size=7)",
            "--agent",
            agent,
            "--games",
            "2",
            "--out",
            &p(&d, "two.csv"),
            "--quiet",
        ],
        "w_attack: this game's evaluation has no named weights",
    );
    assert!(
        !std::path::Path::new(&p(&d, "two.csv")).exists(),
        "nothing played"
    );
    ok(&[
        "balance",
        "--game",
        "catapult",
        "--ladder",
        &format!("random,{agent}"),
        "--games",
        "2",
        "--rating-games",
        "2",
        "--seed",
        "1",
        "--out",
        &p(&d, "ladder/balance.csv"),
        "--quiet",
    ]);
    let ladder = std::fs::read_to_string(p(&d, "ladder/ladder.csv")).unwrap();
    assert!(ladder.contains("w_attack=16"), "{ladder}");
}
