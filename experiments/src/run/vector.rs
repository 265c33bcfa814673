//! Many games of one kind stepped at once ([`new_vector`]), in parallel
//! under rayon: the core of the Python `VectorGames`.

use engine::api::Decisions;
use engine::{Game, GameError, GameVisitor, Learning, State, ToMove, visit_game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Games per rayon task at least: a step of one game is a microsecond or
/// so, too little to schedule alone.
const MIN_TASK: usize = 16;

/// `n` games of one kind, each a seat's decision away (chance outcomes
/// are drawn inside); a finished game is replaced by a new one.
pub trait DynVector: Send + Sync {
    /// The number of games.
    fn len(&self) -> usize;
    /// Whether there are no games.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Seats per game.
    fn num_seats(&self) -> usize;
    /// The size of the action space.
    fn num_actions(&self) -> usize;
    /// The observation's `[planes, height, width]`.
    fn observation_shape(&self) -> [usize; 3];
    /// The canonical game string.
    fn game_string(&self) -> String;
    /// Writes every game's observation, `len × planes × height × width`.
    fn observe_all(&self, out: &mut [f32]);
    /// Writes every game's legal-action mask, `len × num_actions`.
    fn mask(&self, out: &mut [bool]);
    /// Writes one uniformly random legal action per game.
    fn sample(&mut self, out: &mut [i64]);
    /// Writes the seat to move of every game.
    fn to_play(&self, out: &mut [i64]);
    /// Takes one action per game; writes the new observations, each seat's
    /// reward (the game's returns on the step that ends it, else 0) and
    /// whether the game ended (it is then replaced by a new game, whose
    /// observation is written).
    ///
    /// # Errors
    /// A wrong number of actions, or an illegal action (the message names
    /// the game); no game moves then.
    fn step(
        &mut self,
        actions: &[i64],
        obs: &mut [f32],
        rewards: &mut [f32],
        dones: &mut [bool],
    ) -> Result<(), GameError>;
}

struct Slot<S: Learning> {
    d: Decisions<S>,
    rng: ChaCha8Rng,
    ids: Vec<u32>,
}

struct Vector<G: Game> {
    game: G,
    slots: Vec<Slot<G::State>>,
    seats: usize,
    actions: usize,
    shape: [usize; 3],
}

impl<G: Game> Vector<G> {
    fn new(game: G, n: usize, seed: u64) -> Self {
        let mut slots: Vec<Slot<G::State>> = (0..n)
            .map(|i| {
                let mut rng = ChaCha8Rng::seed_from_u64(
                    seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
                let d = Decisions::new(game.initial_state(rng.random()));
                Slot {
                    d,
                    rng,
                    ids: Vec::new(),
                }
            })
            .collect();
        for s in &mut slots {
            settle(&game, s);
        }
        let first = game.initial_state(seed);
        Vector {
            seats: game.num_seats(),
            actions: first.num_actions(),
            shape: first.observation_shape(),
            game,
            slots,
        }
    }

    fn obs_len(&self) -> usize {
        self.shape.iter().product()
    }
}

/// Draws chance outcomes until a seat is to move or the game is over; a
/// game over is replaced by a new one.
fn settle<G: Game>(game: &G, s: &mut Slot<G::State>) {
    let mut buf = Vec::new();
    loop {
        match s.d.state.to_move() {
            ToMove::Seat(_) => return,
            ToMove::Chance => {
                let Some(m) = s.d.state.sample_chance(&mut s.rng, &mut buf) else {
                    return;
                };
                s.d.apply_move(m);
            }
            ToMove::Terminal => s.d = Decisions::new(game.initial_state(s.rng.random())),
        }
    }
}

impl<G: Game> DynVector for Vector<G> {
    fn len(&self) -> usize {
        self.slots.len()
    }
    fn num_seats(&self) -> usize {
        self.seats
    }
    fn num_actions(&self) -> usize {
        self.actions
    }
    fn observation_shape(&self) -> [usize; 3] {
        self.shape
    }
    fn game_string(&self) -> String {
        self.game.game_string()
    }
    fn observe_all(&self, out: &mut [f32]) {
        let len = self.obs_len();
        self.slots
            .par_iter()
            .zip(out.par_chunks_mut(len))
            .with_min_len(MIN_TASK)
            .for_each(|(s, o)| s.d.observe(o));
    }
    fn mask(&self, out: &mut [bool]) {
        let a = self.actions;
        out.fill(false);
        self.slots
            .par_iter()
            .zip(out.par_chunks_mut(a))
            .with_min_len(MIN_TASK)
            .for_each(|(s, m)| {
                engine::api::with_scratch(|ids: &mut Vec<u32>| {
                    s.d.legal_actions(ids);
                    for &i in ids.iter() {
                        m[i as usize] = true;
                    }
                })
            });
    }
    fn sample(&mut self, out: &mut [i64]) {
        self.slots
            .par_iter_mut()
            .zip(out.par_iter_mut())
            .with_min_len(MIN_TASK)
            .for_each(|(s, o)| {
                s.d.legal_actions(&mut s.ids);
                *o = if s.ids.is_empty() {
                    -1
                } else {
                    i64::from(s.ids[s.rng.random_range(0..s.ids.len())])
                };
            });
    }
    fn to_play(&self, out: &mut [i64]) {
        for (s, o) in self.slots.iter().zip(out.iter_mut()) {
            *o = match s.d.state.to_move() {
                ToMove::Seat(k) => k as i64,
                ToMove::Chance => super::node::CHANCE,
                ToMove::Terminal => super::node::TERMINAL,
            };
        }
    }
    fn step(
        &mut self,
        actions: &[i64],
        obs: &mut [f32],
        rewards: &mut [f32],
        dones: &mut [bool],
    ) -> Result<(), GameError> {
        if actions.len() != self.slots.len() {
            engine::bail!(
                "step: {} actions for {} games (one per game expected)",
                actions.len(),
                self.slots.len()
            );
        }
        let found: Vec<Result<_, GameError>> = self
            .slots
            .par_iter()
            .zip(actions.par_iter())
            .with_min_len(MIN_TASK)
            .map(|(s, &a)| match u32::try_from(a) {
                Ok(id) => s.d.find_action(id).map(|m| (id, m)),
                Err(_) => Err(GameError::new(format!(
                    "action {a} is outside the action space 0..{}",
                    self.actions
                ))),
            })
            .collect();
        if let Some((i, Err(e))) = found.iter().enumerate().find(|(_, r)| r.is_err()) {
            engine::bail!("step: game {i}: {e}");
        }
        let (seats, len, game) = (self.seats, self.obs_len(), &self.game);
        self.slots
            .par_iter_mut()
            .zip(found.into_par_iter())
            .zip(obs.par_chunks_mut(len))
            .zip(rewards.par_chunks_mut(seats))
            .zip(dones.par_iter_mut())
            .with_min_len(MIN_TASK)
            .for_each(|((((s, f), o), r), done)| {
                let Ok((id, m)) = f else { return };
                s.d.commit(id, m);
                r.fill(0.0);
                *done = false;
                if s.d.state.is_terminal() {
                    let ret = s.d.state.returns();
                    for (k, x) in r.iter_mut().enumerate() {
                        *x = ret[k] as f32;
                    }
                    *done = true;
                }
                settle(game, s);
                s.d.observe(o);
            });
        Ok(())
    }
}

struct Build(usize, u64);

impl GameVisitor for Build {
    type Output = Box<dyn DynVector>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        Box::new(Vector::new(game, self.0, self.1))
    }
}

/// `n` games of `game_string` from `seed`.
///
/// # Errors
/// A bad game string (the command line's message), or `n` of 0.
pub fn new_vector(game_string: &str, n: usize, seed: u64) -> Result<Box<dyn DynVector>, GameError> {
    if n == 0 {
        engine::bail!("VectorGames: n must be at least 1");
    }
    if n > 1 << 20 {
        engine::bail!("VectorGames: n={n} is more than 1048576 games");
    }
    visit_game(game_string, Build(n, seed))
}
