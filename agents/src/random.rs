//! The uniformly random agent: the baseline every result is read against.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use engine::State;

use crate::Agent;

/// Plays a legal move drawn uniformly at random (seeded, reproducible).
pub struct RandomAgent<M> {
    rng: ChaCha8Rng,
    buf: Vec<M>,
}

impl<M> RandomAgent<M> {
    /// A random agent whose draws follow `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            buf: Vec::new(),
        }
    }
}

impl<S: State> Agent<S> for RandomAgent<S::Move> {
    fn select(&mut self, state: &S) -> S::Move {
        state
            .sample_legal_move(&mut self.rng, &mut self.buf)
            .expect("select is called only where a seat is to move")
    }

    fn spec(&self) -> String {
        "random".into()
    }
}
