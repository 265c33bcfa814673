//! Line Up: move generation, perft and random playouts (target: at least
//! 500,000 random games a second on one core).
//!
//! Run with `cargo bench -p boardlab-bench --bench line_up`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use boardlab_bench::{bench_movegen, random_playout, random_position};
use engine::line_up::{LineUpGame, Rules};
use engine::{Game, perft};

fn game() -> LineUpGame {
    LineUpGame::new(Rules::default()).expect("valid rules")
}

fn movegen(c: &mut Criterion) {
    let start = game().initial_state(0);
    // 16 positions of the movement phase: 14 random plies (placement ends
    // at ply 11), games that ended earlier stop before their last ply.
    let mid: Vec<_> = (0..16).map(|i| random_position(&start, 14, i)).collect();
    let mut buf = Vec::with_capacity(32);
    let mut grp = c.benchmark_group("line_up/movegen");
    bench_movegen(&mut grp, &start, &mid, &mut buf);
    grp.finish();
}

fn perfts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("line_up/perft");
    grp.sample_size(10);
    let start = game().initial_state(0);
    let nodes = perft(&start, 6);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 6 initial", |b| {
        b.iter(|| perft(black_box(&start), 6))
    });
    let mid = game()
        .parse_position("S..c/s.C./Ts.t/St.T 14")
        .expect("valid position");
    let nodes = perft(&mid, 8);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 8 movement phase", |b| {
        b.iter(|| perft(black_box(&mid), 8))
    });
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("line_up/playout");
    grp.throughput(Throughput::Elements(1));
    let start = game().initial_state(0);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut buf = Vec::with_capacity(32);
    grp.bench_function("random game", |b| {
        b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
    });
    grp.finish();
}

criterion_group!(benches, movegen, perfts, playouts);
criterion_main!(benches);
