//! Search throughput for every game, one criterion group per game (so the
//! output reads as one table), one core, from the initial position (chance
//! set-ups drawn with seed 1):
//!
//! * MCTS iterations per second: plain `uct` (random playouts to the end)
//!   against `mcts` with its default evaluation cut-off after 4 random
//!   plies, 1000 iterations (a fresh tree each search: `reuse=false`);
//! * alpha-beta nodes per second: `alphabeta(depth=D)` with its other
//!   defaults (transposition table, quiescence, PVS, aspiration), a fresh
//!   agent (empty table, seed 1) each search, so that every search visits
//!   the same nodes; the throughput is that node count (`last_nodes`,
//!   quiescence nodes included), counted once before timing. `D` per game
//!   ([`ab_depth`]) makes one search take roughly 1–20 ms.
//!
//! `cargo bench -p boardlab-bench --bench mcts` (one game:
//! `cargo bench -p boardlab-bench --bench mcts -- kings_colour/`)

use std::hint::black_box;

use agents::{AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, Uct, UctConfig};
use boardlab_bench::bench_alphabeta;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::registry::GAMES;
use engine::{Game, GameVisitor, State, ToMove, visit_game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const ITERATIONS: u32 = 1000;

/// The alpha-beta depth of game `name` (its registry name): one search
/// from the initial position takes roughly 1–20 ms on the project's
/// machine.
fn ab_depth(name: &str) -> u32 {
    match name {
        "slingshot" | "sly_solitaire" => 2,
        "spinner" | "kings_colour" | "empire" => 3,
        "catapult" | "bagel" | "gateway" | "blockade" => 4,
        "royal_guard" | "andalusia" => 5,
        "line_up" => 6,
        "sniggle" => 10,
        _ => 3,
    }
}

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
        let mut grp = self.0.benchmark_group(format!("{short}/search"));
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
        let ab_config = AlphaBetaConfig {
            depth: ab_depth(&short),
            ..AlphaBetaConfig::default()
        };
        bench_alphabeta(
            &mut grp,
            &format!("alphabeta depth={}", ab_config.depth),
            &start,
            || AlphaBeta::<G::State>::new(ab_config.clone(), 1),
        );
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
