//! Unit tests of `experiments::stats::elo`.

#![allow(clippy::needless_range_loop)] // matrix tests read best with indices

use experiments::stats::Z95;
use experiments::stats::elo::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn elo_from_score_matches_the_table() {
    // 75 % is +191 (the logistic Elo table), 50 % is 0, 90 % is +382.
    assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
    assert_eq!(elo_from_score(0.5), 0.0);
    assert!((elo_from_score(0.9) - 381.7).abs() < 0.1);
    assert!((score_from_elo(190.85) - 0.75).abs() < 1e-4);
}

#[test]
fn sweep_bounds_are_exact_one_sided_bounds() {
    // 40–0: 0.025^(1/40) = 0.91185 → 400·log10(0.91185/0.08815) = 405.9.
    let b = sweep_bound(40, 0, 0).unwrap();
    assert!((b - 405.9).abs() < 0.1, "{b}");
    // 10–0: 0.025^(1/10) = 0.69150 → 400·log10(0.69150/0.30850) = 140.2.
    let b = sweep_bound(10, 0, 0).unwrap();
    assert!((b - 140.2).abs() < 0.1, "{b}");
    assert_eq!(sweep_bound(39, 0, 1), None);
    // Draws weaken the bound: 33–0–7 is at most what 40–0 shows.
    let d = sweep_bound(33, 7, 0).unwrap();
    assert!(d > 100.0 && d < 405.9, "{d}");
    // Clopper–Pearson for 81 of 263 at 2.5 %: the p with
    // P(X ≥ 81 | n = 263, p) = 0.025, found by bisection on the exact
    // binomial tail outside this code: 0.25274.
    let lo = clopper_pearson_lower(81, 263, 0.025);
    assert!((lo - 0.2527).abs() < 5e-4, "{lo}");
}

#[test]
fn sweeps_give_bounds_and_linked_players_points() {
    // Players 0 and 1 trade wins (12–8), player 2 beats both 40–0.
    let mut wins = vec![vec![0u64; 3]; 3];
    let draws = vec![vec![0u64; 3]; 3];
    wins[1][0] = 12;
    wins[0][1] = 8;
    wins[2][0] = 40;
    wins[2][1] = 40;
    let r = linked_ratings(&wins, &draws, 0).unwrap();
    // 0 v 1 alone: the MLE gap is 400·log10(12/8) = +70.4, no prior.
    assert_eq!(r[0].elo, Some(0.0));
    assert!((r[1].elo.unwrap() - 70.4).abs() < 0.1, "{:?}", r[1]);
    // 2: only bounds, the larger of 0 + 405.9 and 70.4 + 405.9.
    assert_eq!(r[2].elo, None);
    assert!((r[2].lower - 476.3).abs() < 0.2, "{:?}", r[2]);
    assert!(r[2].upper.is_infinite());
    assert!(r[2].text().starts_with("≥ +476"), "{}", r[2].text());
    // Swept the other way, the group lies below: ≤ −405.9.
    let mut w2 = vec![vec![0u64; 2]; 2];
    w2[0][1] = 40;
    let r = linked_ratings(&w2, &vec![vec![0; 2]; 2], 0).unwrap();
    assert!((r[1].upper + 405.9).abs() < 0.1 && r[1].text().starts_with("≤ -406"));
}

#[test]
fn sprt_llr_by_hand() {
    // Counts 2, 5, 20, 9, 4 pairs at 0, ½, 1, 1½, 2 points: N = 40,
    // μ = (5·0.25 + 20·0.5 + 9·0.75 + 4·1)/40 = 22/40 = 0.55,
    // σ² = (2·0.3025 + 5·0.09 + 20·0.0025 + 9·0.04 + 4·0.2025)/40
    //    = 2.275/40 = 0.056875; s0 = 0.5, s1 = 1/(1+10^(−5/400)) =
    // 0.5071955; LLR = 40·0.0071955·(1.1 − 1.0071955)/(2·0.056875)
    //    = 0.23481.
    let p = Pentanomial([2, 5, 20, 9, 4]);
    assert!(
        (p.llr(0.0, 5.0) - 0.23481).abs() < 1e-4,
        "{}",
        p.llr(0.0, 5.0)
    );
    let (lo, hi) = sprt_bounds(0.05, 0.05);
    assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
    // A score of exactly 50 %: LOS one half.
    assert!((Pentanomial([1, 2, 4, 2, 1]).los() - 0.5).abs() < 1e-12);
}

#[test]
fn anchored_ratings_place_a_player_on_the_fixed_scale() {
    // One player scores as a 1200 would against fixed 1000 and 1400.
    let k = 3;
    let mut score = vec![vec![0.0; k]; k];
    let mut games = vec![vec![0.0; k]; k];
    for (j, elo) in [(1, 1000.0), (2, 1400.0)] {
        let s = 1000.0 * score_from_elo(1200.0 - elo);
        score[0][j] = s;
        score[j][0] = 1000.0 - s;
        games[0][j] = 1000.0;
        games[j][0] = 1000.0;
    }
    let fixed = [None, Some(1000.0), Some(1400.0)];
    let r = anchored_ratings(&score, &games, &fixed).unwrap();
    assert!(
        (r.ratings[0].elo - 1200.0).abs() < 0.5,
        "{:?}",
        r.ratings[0]
    );
    assert!(r.ratings[0].se > 5.0 && r.ratings[0].se < 20.0);
    assert_eq!(
        r.ratings[1],
        Rating {
            elo: 1000.0,
            se: 0.0
        }
    );
    // A sweep stays finite (the virtual draw), above the top anchor.
    let mut s2 = score.clone();
    s2[0][2] = 1000.0;
    s2[2][0] = 0.0;
    s2[0][1] = 1000.0;
    s2[1][0] = 0.0;
    let r = anchored_ratings(&s2, &games, &fixed).unwrap();
    assert!(r.ratings[0].elo.is_finite() && r.ratings[0].elo > 1400.0);
    // One anchor: the plain fit shifted to its Elo.
    let bt = bradley_terry(&score, &games, 1).unwrap();
    let one = anchored_ratings(&score, &games, &[None, Some(500.0), None]).unwrap();
    for i in 0..k {
        assert!((one.ratings[i].elo - (bt.ratings[i].elo + 500.0)).abs() < 1e-6);
        assert!((one.ratings[i].se - bt.ratings[i].se).abs() < 1e-6);
    }
    assert!(anchored_ratings(&score, &games, &[None, None, None]).is_err());
    let lone = vec![vec![0.0; k]; k];
    assert!(anchored_ratings(&lone, &lone, &fixed).is_err());
}

#[test]
fn bradley_terry_recovers_known_ratings() {
    // Simulate a round robin between players of known Elo and check the
    // fit lands within its 95 % intervals (relative to player 0).
    let truth = [0.0, 100.0, -150.0, 250.0, 40.0];
    let k = truth.len();
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut score = vec![vec![0.0; k]; k];
    let mut games = vec![vec![0.0; k]; k];
    for i in 0..k {
        for j in i + 1..k {
            let p = score_from_elo(truth[i] - truth[j]);
            for _ in 0..600 {
                let x: f64 = rng.random();
                let s = if x < p { 1.0 } else { 0.0 };
                score[i][j] += s;
                score[j][i] += 1.0 - s;
                games[i][j] += 1.0;
                games[j][i] += 1.0;
            }
        }
    }
    let r = bradley_terry(&score, &games, 0).unwrap();
    assert_eq!(r.ratings[0], Rating { elo: 0.0, se: 0.0 });
    for i in 1..k {
        let e = r.ratings[i];
        assert!(
            (e.elo - truth[i]).abs() < Z95 * e.se + 1.0,
            "player {i}: {e:?} vs {}",
            truth[i]
        );
        assert!(e.se > 5.0 && e.se < 30.0, "{e:?}");
    }
    assert!(r.los(3, 1) > 0.99 && r.los(2, 0) < 0.01);
    // A player nobody played is an error, not a guess.
    let mut g2 = games.clone();
    for j in 0..k {
        g2[4][j] = 0.0;
        g2[j][4] = 0.0;
    }
    assert!(bradley_terry(&score, &g2, 0).is_err());
}

#[test]
fn inverse_times_matrix_is_identity() {
    let a = vec![
        vec![4.0, 1.0, 0.5],
        vec![1.0, 3.0, 0.2],
        vec![0.5, 0.2, 2.0],
    ];
    let inv = invert(a.clone()).unwrap();
    for i in 0..3 {
        for j in 0..3 {
            let x: f64 = (0..3).map(|k| a[i][k] * inv[k][j]).sum();
            assert!((x - (i == j) as u8 as f64).abs() < 1e-12);
        }
    }
}
