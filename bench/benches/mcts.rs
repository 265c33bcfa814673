//! MCTS iterations per second for every game: plain `uct` (random playouts
//! to the end) against `mcts` with its default evaluation cut-off after 4
//! random plies, 1000 iterations from the initial position (a fresh tree
//! each search: `reuse=false`), one core.
//!
//! `cargo bench -p boardlab-bench --bench mcts`

use std::hint::black_box;

use agents::{Mcts, MctsConfig, Uct, UctConfig};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::registry::GAMES;
use engine::{Game, GameVisitor, State, ToMove, visit_game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const ITERATIONS: u32 = 1000;

struct Bench<'a>(&'a mut Criterion);

impl GameVisitor for Bench<'_> {
    type Output = ();
    fn visit<G: Game>(self, game: G) {
        let mut start = game.initial_state(1);
        let (mut rng, mut outs) = (ChaCha8Rng::seed_from_u64(1), Vec::new());
        while start.to_move() == ToMove::Chance {
            let outcome = start.sample_chance(&mut rng, &mut outs);
            start.apply(outcome.expect("a chance node has outcomes"));
        }
        let name = game.game_string();
        let short = name.split('(').next().unwrap_or(&name).to_string();
        let mut grp = self.0.benchmark_group(format!("{short}/mcts"));
        grp.throughput(Throughput::Elements(ITERATIONS as u64));
        grp.sample_size(10);
        let mut uct = Uct::<G::State>::new(
            UctConfig {
                iterations: ITERATIONS,
                ..UctConfig::default()
            },
            1,
        );
        grp.bench_function("uct 1000 iterations (playouts to the end)", |b| {
            b.iter(|| uct.search(black_box(&start)))
        });
        let mut mcts = Mcts::<G::State>::new(
            MctsConfig {
                iterations: ITERATIONS,
                reuse: false,
                ..MctsConfig::default()
            },
            1,
        );
        grp.bench_function("mcts 1000 iterations (cutoff=4)", |b| {
            b.iter(|| mcts.search(black_box(&start)))
        });
        grp.finish();
    }
}

fn mcts_all(c: &mut Criterion) {
    for g in GAMES {
        visit_game(g.name, Bench(c)).expect("every registered game builds with its defaults");
    }
}

criterion_group!(benches, mcts_all);
criterion_main!(benches);
