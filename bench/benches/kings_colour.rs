//! King's Colour: move generation, perft (generic and the module's own) and
//! random playouts.
//!
//! Run with `cargo bench -p boardlab-bench --bench kings_colour`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use boardlab_bench::{bench_movegen, random_playout, random_position};
use engine::kings_colour::KingsColourGame;
use engine::{Game, perft};

fn movegen(c: &mut Criterion) {
    let g = KingsColourGame::default();
    let start = g.initial_state(0);
    let mid: Vec<_> = (0..16).map(|i| random_position(&start, 20, i)).collect();
    let mut buf = Vec::with_capacity(512);
    let mut grp = c.benchmark_group("kings_colour/movegen");
    bench_movegen(&mut grp, &start, &mid, &mut buf);
    grp.finish();
}

fn perfts(c: &mut Criterion) {
    let g = KingsColourGame::default();
    let start = g.initial_state(0);
    let mut grp = c.benchmark_group("kings_colour/perft");
    grp.sample_size(10);
    let nodes = start.perft_fast(3);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 3 initial (generic engine::perft)", |b| {
        b.iter(|| perft(black_box(&start), 3))
    });
    grp.bench_function("perft 3 initial (KcState::perft_fast)", |b| {
        b.iter(|| black_box(&start).perft_fast(3))
    });
    let mid = random_position(&start, 20, 3);
    let nodes = mid.perft_fast(3);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 3 mid-game (KcState::perft_fast)", |b| {
        b.iter(|| black_box(&mid).perft_fast(3))
    });
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let start = KingsColourGame::default().initial_state(0);
    let mut grp = c.benchmark_group("kings_colour/playout");
    grp.throughput(Throughput::Elements(1));
    let mut buf = Vec::with_capacity(512);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    grp.bench_function("random game", |b| {
        b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
    });
    grp.finish();
}

criterion_group!(benches, movegen, perfts, playouts);
criterion_main!(benches);
