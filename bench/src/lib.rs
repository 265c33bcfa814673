//! Shared set-up for the criterion benches in `benches/`: named positions
//! and a seeded random playout.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use engine::{Game, State, ToMove, apply_moves};

/// The state after `record` from the initial state of `game`.
///
/// # Panics
/// If the record is illegal (a bench set-up error).
pub fn after<G: Game>(game: &G, record: &str) -> G::State {
    let mut s = game.initial_state(0);
    apply_moves(&mut s, record).expect("bench record is legal");
    s
}

/// The state reached after `plies` uniformly random plies from `start`
/// (stopping early at the end of the game), drawn with `seed`.
pub fn random_position<S: State>(start: &S, plies: u32, seed: u64) -> S {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut outs = Vec::new();
    let mut s = start.clone();
    for _ in 0..plies {
        let mv = match s.to_move() {
            ToMove::Terminal => break,
            ToMove::Chance => s.sample_chance(&mut rng, &mut outs),
            ToMove::Seat(_) => s.sample_legal_move(&mut rng, &mut buf),
        };
        let next = {
            let mut t = s.clone();
            t.apply(mv.expect("a move"));
            t
        };
        if next.is_terminal() {
            break;
        }
        s = next;
    }
    s
}

/// Plays one uniformly random game from `start` to the end; returns the plies.
#[inline]
pub fn random_playout<S: State, R: rand::Rng>(
    start: &S,
    rng: &mut R,
    buf: &mut Vec<S::Move>,
) -> u32 {
    let mut s = start.clone();
    let mut outs = Vec::new();
    loop {
        let mv = match s.to_move() {
            ToMove::Terminal => return s.ply(),
            ToMove::Chance => s.sample_chance(rng, &mut outs),
            ToMove::Seat(_) => s.sample_legal_move(rng, buf),
        };
        s.apply(mv.expect("a move"));
    }
}
