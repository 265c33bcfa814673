//! `sample_legal_move` is uniform over `legal_moves` in late Phase C, where
//! the sampler draws an open midpoint first (few empty squares are left)
//! rather than a target first. The early-game branch is covered by
//! `slingshot_reference.rs`.

use engine::slingshot::{Rules, SlingshotGame, SlingshotState};
use engine::testkit::check_uniform;
use engine::{Game, State, ToMove};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The last Phase C position of a random game with at least 3 moves.
fn late_phase_c(size: u32, seed: u64) -> Option<SlingshotState> {
    let g = SlingshotGame::new(Rules {
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
        check_uniform(&s, 4000 * k, seed + 100).unwrap();
        checked += 1;
    }
    assert!(checked >= 5);
}
