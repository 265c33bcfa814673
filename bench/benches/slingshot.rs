//! Slingshot: move generation, perft, random playouts, MCTS iterations.
//!
//! Run with `cargo bench -p boardlab-bench --bench slingshot`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::{Uct, UctConfig};
use boardlab_bench::{after, random_playout, random_position};
use engine::slingshot::{Rules, SlingshotGame};
use engine::{Game, State, perft};

fn game(size: u32) -> SlingshotGame {
    SlingshotGame::new(Rules {
        size,
        ..Rules::default()
    })
    .expect("valid size")
}

fn movegen(c: &mut Criterion) {
    let g9 = game(9);
    let a71 = after(&g9, "e5,a1 chooser=B");
    let mid: Vec<_> = (0..16).map(|i| random_position(&a71, 20, i)).collect();
    let mut buf = Vec::with_capacity(512);
    let mut grp = c.benchmark_group("slingshot9/movegen");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("legal_moves A.7.1", |b| {
        b.iter(|| {
            black_box(&a71).legal_moves(&mut buf);
            buf.len()
        })
    });
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
    grp.bench_function("count_legal_moves mid-game x16", |b| {
        b.iter(|| {
            mid.iter()
                .map(|s| black_box(s).count_legal_moves())
                .sum::<usize>()
        })
    });
    grp.finish();

    let mut grp = c.benchmark_group("slingshot9/perft");
    let nodes = perft(&a71, 3);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 3 from A.7.1", |b| {
        b.iter(|| perft(black_box(&a71), 3))
    });
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("slingshot/playout");
    grp.throughput(Throughput::Elements(1));
    for size in [9, 7] {
        let g = game(size);
        let start = g.initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut buf = Vec::with_capacity(4096);
        grp.bench_function(
            BenchmarkId::new("random game", format!("{size}x{size}")),
            |b| b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf)),
        );
    }
    // From A.7.1, the start of the MCTS bench below: the fair comparison
    // for MCTS iterations per second.
    let a71 = after(&game(9), "e5,a1 chooser=B");
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut buf = Vec::with_capacity(4096);
    grp.bench_function("random game from A.7.1/9x9", |b| {
        b.iter(|| random_playout(black_box(&a71), &mut rng, &mut buf))
    });
    grp.finish();
}

fn mcts(c: &mut Criterion) {
    let g9 = game(9);
    let a71 = after(&g9, "e5,a1 chooser=B");
    let iterations = 1000;
    let mut grp = c.benchmark_group("slingshot9/mcts");
    grp.throughput(Throughput::Elements(iterations as u64));
    grp.sample_size(20);
    let mut agent = Uct::new(
        UctConfig {
            iterations,
            c: 1.4,
            ms: 0,
        },
        3,
    );
    grp.bench_function("1000 iterations from A.7.1", |b| {
        b.iter(|| agent.search(black_box(&a71)))
    });
    grp.finish();
}

criterion_group!(benches, movegen, playouts, mcts);
criterion_main!(benches);
