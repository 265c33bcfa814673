//! `tune --spsa`: the update rule finds a known optimum of a synthetic
//! noisy objective, and the command on a cheap game gives one trajectory
//! at any thread count, resumes to the uninterrupted file, keeps θ within
//! its bounds and refuses bad specs with one line.

use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use experiments::research::spsa::{Gains, Pair, Param, run_spsa};
use experiments::run::mix;

use crate::common::{boardlab, dir, fails, ok, p};

const G: &str = "slingshot(size=7)";
const AGENT: &str = "mcts(iterations=16,c=1.0:0.4:0.1..3.0,cutoff=4:2:0..20)";

/// A game pair between θ+ and θ− on a synthetic objective: each game is won
/// by θ+ with probability logistic(f(θ+) − f(θ−)), where
/// f(θ) = −3 |θ − θ*|², so the optimum θ* is known by construction.
fn noisy_pair(optimum: &[f64], pair: &Pair, seed: u64) -> f64 {
    let f = |t: &[f64]| -> f64 {
        -3.0 * t
            .iter()
            .zip(optimum)
            .map(|(x, o)| (x - o) * (x - o))
            .sum::<f64>()
    };
    let p = 1.0 / (1.0 + (f(&pair.minus) - f(&pair.plus)).exp());
    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed, pair.k));
    (0..2)
        .map(|_| if rng.random::<f64>() < p { 1.0 } else { -1.0 })
        .sum()
}

#[test]
fn spsa_update_rule_converges_to_a_known_optimum() {
    let optimum = [1.3, -0.7];
    let param = |name: &str| Param {
        name: name.into(),
        start: 0.0,
        c_end: 0.3,
        lo: -3.0,
        hi: 3.0,
        integer: false,
    };
    let params = [param("x"), param("y")];
    let gains = Gains {
        r_end: 0.01,
        ..Gains::new(8000)
    };
    for batch in [1, 8] {
        let mut rows = 0;
        let theta = run_spsa(
            &params,
            &gains,
            7,
            batch,
            &[vec![0.0, 0.0]],
            |pairs| Ok(pairs.iter().map(|q| noisy_pair(&optimum, q, 99)).collect()),
            |done| {
                rows += done.len();
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(rows, 8000);
        // From 1.3 away to within 0.15 of the optimum in each coordinate.
        for (t, o) in theta.iter().zip(optimum) {
            assert!(
                (t - o).abs() < 0.15,
                "batch {batch}: θ {theta:?}, optimum {optimum:?}"
            );
        }
    }
}

/// The trajectory rows (iteration, θ..., result, games).
fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect()
}

fn spsa_run(d: &Path, name: &str, threads: &str, extra: &[&str]) -> String {
    let (tune, plot) = (p(d, &format!("{name}.csv")), p(d, &format!("{name}.svg")));
    let mut args = vec![
        "tune",
        "--spsa",
        "--game",
        G,
        "--agent",
        AGENT,
        "--iterations",
        "20",
        "--batch",
        "4",
        "--r-end",
        "0.5",
        "--openings",
        "4",
        "--opening-plies",
        "2",
        "--seed",
        "5",
        "--threads",
        threads,
        "--tune",
        &tune,
        "--plot",
        &plot,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn spsa_trajectory_is_deterministic_and_resumes_to_the_same_file() {
    let d = dir("spsa-resume");
    let report = spsa_run(&d, "one", "1", &[]);
    spsa_run(&d, "two", "2", &[]);
    let one = std::fs::read_to_string(d.join("one.csv")).unwrap();
    assert_eq!(one, std::fs::read_to_string(d.join("two.csv")).unwrap());
    let r = rows(&d.join("one.csv"));
    assert_eq!(r.len(), 21);
    assert_eq!(r[0][..3], ["0", "1", "4"]);
    assert_eq!(r[20][0], "20");
    assert_eq!(r[20][4], "40");
    // θ moved, and the pairs did not all end alike.
    assert!(r[20][1] != "1" || r[20][2] != "4", "{r:?}");
    let results: std::collections::BTreeSet<&str> = r[1..].iter().map(|x| x[3].as_str()).collect();
    assert!(results.len() > 1, "{results:?}");
    assert!(
        report.contains("20 iterations, 40 games")
            && report.contains("boardlab sprt --game")
            && report.contains("ms=100"),
        "{report}"
    );
    // A run killed after iteration 10 (mid-batch), with half a line
    // written: resumed, it gives the uninterrupted file.
    let lines: Vec<&str> = one.split_inclusive('\n').collect();
    let cut = lines[..12].concat() + &lines[12][..5];
    std::fs::write(d.join("cut.csv"), cut).unwrap();
    std::fs::copy(d.join("one.csv.config.json"), d.join("cut.csv.config.json")).unwrap();
    spsa_run(&d, "cut", "2", &[]);
    assert_eq!(one, std::fs::read_to_string(d.join("cut.csv")).unwrap());
    // A finished run run again plays nothing and changes nothing.
    spsa_run(&d, "one", "2", &[]);
    assert_eq!(one, std::fs::read_to_string(d.join("one.csv")).unwrap());
    // Another configuration is refused, naming what differs.
    let out = boardlab(&[
        "tune",
        "--spsa",
        "--game",
        G,
        "--agent",
        AGENT,
        "--iterations",
        "20",
        "--batch",
        "4",
        "--r-end",
        "0.5",
        "--openings",
        "4",
        "--opening-plies",
        "2",
        "--seed",
        "6",
        "--tune",
        &p(&d, "one.csv"),
        "--quiet",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("seed: 5 -> 6"),
        "{err}"
    );
    let svg = std::fs::read_to_string(d.join("one.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("within its bounds"));
    assert!(svg.contains("cutoff (0..20"), "legend names each parameter");
}

#[test]
fn spsa_keeps_theta_within_its_bounds() {
    let d = dir("spsa-bounds");
    // Huge steps: every update overshoots, so θ sits on its bounds.
    let report = ok(&[
        "tune",
        "--spsa",
        "--game",
        G,
        "--agent",
        "mcts(iterations=16,c=2.5:0.4:0.5..3.0,cutoff=18:2:2..20)",
        "--iterations",
        "12",
        "--r-end",
        "1000",
        "--tune",
        &p(&d, "b.csv"),
        "--quiet",
    ]);
    let r = rows(&d.join("b.csv"));
    let mut on_bound = 0;
    for row in &r {
        let c: f64 = row[1].parse().unwrap();
        let cutoff: f64 = row[2].parse().unwrap();
        assert!(
            (0.5..=3.0).contains(&c) && (2.0..=20.0).contains(&cutoff),
            "{row:?}"
        );
        on_bound +=
            usize::from(c == 0.5 || c == 3.0) + usize::from(cutoff == 2.0 || cutoff == 20.0);
    }
    // Every decisive pair pushes both parameters onto a bound.
    let decisive = r[1..].iter().filter(|x| x[3] != "0").count();
    assert!(decisive > 0 && on_bound >= decisive, "{r:?}");
    // The integer parameter is rounded in the final agent string.
    let last = report.lines().find(|l| l.starts_with("final")).unwrap();
    let cutoff = last
        .split("cutoff=")
        .nth(1)
        .unwrap()
        .split([',', ')'])
        .next()
        .unwrap();
    assert!(cutoff.parse::<u32>().is_ok(), "{last}");
}

#[test]
fn spsa_bad_specs_are_refused_with_one_line() {
    let d = dir("spsa-bad");
    let t = p(&d, "t.csv");
    let run = |agent: &str, extra: &[&str], needle: &str| {
        let mut args = vec![
            "tune",
            "--spsa",
            "--game",
            G,
            "--agent",
            agent,
            "--iterations",
            "4",
            "--tune",
            &t,
            "--quiet",
        ];
        args.extend_from_slice(extra);
        fails(&args, needle);
        let err = String::from_utf8_lossy(&boardlab(&args).stderr).to_string();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    };
    run("mcts(c=1.0:0.2)", &[], "parameter c=1.0:0.2");
    run("mcts(c=1.0:0.2:3.0..0.1)", &[], "parameter c=");
    run("mcts(c=9:0.2:0.1..3.0)", &[], "outside the bounds");
    run("mcts(c=1.0:0.2:-1..3.0)", &[], "parameter c at -1");
    run("mcts(cutoff=4:x:0..20)", &[], "parameter cutoff");
    run(
        "mcts(solver=1:1:0..1)",
        &[],
        "parameter solver is not numeric",
    );
    run("mcts(depth=3:1:1..9)", &[], "parameter depth");
    run("mcts(c=1.0)", &[], "START:STEP:LO..HI");
    run(AGENT, &["--shard", "1/2"], "cannot be sharded");
    run(AGENT, &["--batch", "0"], "--batch");
    run(AGENT, &["--r-end", "-1"], "--r-end");
    fails(
        &[
            "tune", "--spsa", "--game", G, "--agent", AGENT, "--tune", &t,
        ],
        "--iterations",
    );
    fails(
        &[
            "tune",
            "--spsa",
            "--game",
            G,
            "--agent",
            AGENT,
            "--iterations",
            "4",
            "--baseline",
            "random",
        ],
        "--baseline",
    );
    fails(
        &[
            "tune",
            "--spsa",
            "--game",
            "empire(players=3)",
            "--agent",
            AGENT,
            "--iterations",
            "4",
            "--tune",
            &t,
        ],
        "two-seat",
    );
    assert!(
        !Path::new(&t).exists(),
        "no trajectory is written for bad input"
    );
}
