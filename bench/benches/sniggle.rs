//! Sniggle: move generation, random playouts (2, 3, 4 players and teams),
//! MCTS iterations.
//!
//! Run with `cargo bench -p boardlab-bench --bench sniggle`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::{Uct, UctConfig};
use boardlab_bench::{random_playout, random_position};
use engine::sniggle::{Rules, SniggleGame};
use engine::{Game, State};

fn game(players: u8, teams: bool) -> SniggleGame {
    SniggleGame::new(Rules {
        teams,
        ..Rules::for_players(players)
    })
    .expect("valid rules")
}

const VARIANTS: [(&str, u8, bool); 4] = [
    ("2 players", 2, false),
    ("3 players", 3, false),
    ("4 players", 4, false),
    ("4 in teams", 4, true),
];

fn movegen(c: &mut Criterion) {
    let g = game(4, false);
    let start = g.initial_state(0);
    let mid: Vec<_> = (0..16).map(|i| random_position(&start, 60, i)).collect();
    let mut buf = Vec::with_capacity(16);
    let mut grp = c.benchmark_group("sniggle4/movegen");
    grp.throughput(Throughput::Elements(mid.len() as u64));
    grp.bench_function("legal_moves mid-game x16", |b| {
        b.iter(|| {
            let mut t = 0;
            for s in &mid {
                black_box(s).legal_moves(&mut buf);
                t += buf.len();
            }
            t
        })
    });
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("sniggle/playout");
    grp.throughput(Throughput::Elements(1));
    for (label, players, teams) in VARIANTS {
        let start = game(players, teams).initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut buf = Vec::with_capacity(16);
        grp.bench_function(BenchmarkId::new("random game", label), |b| {
            b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
        });
    }
    grp.finish();
}

fn mcts(c: &mut Criterion) {
    let iterations = 1000;
    let mut grp = c.benchmark_group("sniggle/mcts");
    grp.throughput(Throughput::Elements(iterations as u64));
    grp.sample_size(20);
    for (label, players, teams) in VARIANTS {
        let start = game(players, teams).initial_state(0);
        let mut agent = Uct::new(
            UctConfig {
                iterations,
                c: 1.4,
                ms: 0,
            },
            3,
        );
        grp.bench_function(
            BenchmarkId::new("1000 iterations from the start", label),
            |b| b.iter(|| agent.search(black_box(&start))),
        );
    }
    grp.finish();
}

criterion_group!(benches, movegen, playouts, mcts);
criterion_main!(benches);
