//! `sample_legal_move` is uniform over `legal_moves` in late Phase C, where
//! the sampler draws an open midpoint first (few empty squares are left)
//! rather than a target first. The early-game branch is covered by
//! `slingshot_reference.rs`.

use std::collections::HashMap;

use engine::slingshot::{Rules, Slingshot, SlingshotState};
use engine::{Game, State, ToMove};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The last Phase C position of a random game with at least 3 moves.
fn late_phase_c(size: u32, seed: u64) -> Option<SlingshotState> {
    let g = Slingshot::new(Rules {
        size,
        ..Rules::default()
    })
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut s = g.initial_state(0);
    let mut last = None;
    while let ToMove::Seat(_) = s.to_move() {
        if !s.in_phase_s() && s.colour_to_move().is_some() && s.count_legal_moves() >= 3 {
            last = Some(s);
        }
        let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
        s.apply(m);
    }
    last
}

#[test]
fn late_phase_c_samples_are_uniform() {
    let mut checked = 0;
    for (size, seed) in [(9, 1), (9, 2), (9, 3), (7, 4), (7, 5), (9, 6)] {
        let Some(s) = late_phase_c(size, seed) else {
            continue;
        };
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let k = moves.len();
        let draws = 4000 * k;
        let mut rng = ChaCha8Rng::seed_from_u64(seed + 100);
        let mut buf = Vec::new();
        let mut seen: HashMap<_, usize> = HashMap::new();
        for _ in 0..draws {
            let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
            assert!(
                moves.contains(&m),
                "unlisted sample {m:?} at {}",
                s.to_text()
            );
            *seen.entry(m).or_default() += 1;
        }
        assert_eq!(seen.len(), k, "every move is drawn at {}", s.to_text());
        // Chi-square against uniform; df = k - 1. The bound df + 6·sqrt(2·df)
        // fails a correct sampler with probability below about 1e-6.
        let e = draws as f64 / k as f64;
        let chi: f64 = seen.values().map(|&o| (o as f64 - e).powi(2) / e).sum();
        let df = (k - 1) as f64;
        assert!(
            chi < df + 6.0 * (2.0 * df).sqrt(),
            "chi-square {chi:.1} for {k} moves at {}",
            s.to_text()
        );
        checked += 1;
    }
    assert!(checked >= 5);
}
