//! Catapult: move generation, perft and random playouts.
//!
//! Run with `cargo bench -p boardlab-bench --bench catapult`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use boardlab_bench::{bench_movegen, random_playout, random_position};
use engine::catapult::{CatapultGame, Rules};
use engine::{Game, State, perft};

fn rules(size: u32, royal: bool, dagger: bool) -> Rules {
    Rules {
        size,
        royal,
        dagger,
        ..Rules::default()
    }
}

fn g8() -> CatapultGame<u64> {
    CatapultGame::new(Rules::default()).expect("valid rules")
}

/// 16 middle-game positions: 30 random plies from the start (seeded).
fn middle_games<G: Game>(g: &G) -> Vec<G::State> {
    let start = g.initial_state(0);
    (0..16).map(|i| random_position(&start, 30, i)).collect()
}

fn movegen(c: &mut Criterion) {
    let g = g8();
    let start = g.initial_state(0);
    let mid = middle_games(&g);
    let mut buf = Vec::with_capacity(4096);
    let mut grp = c.benchmark_group("catapult8/movegen");
    bench_movegen(&mut grp, &start, &mid, &mut buf);
    grp.finish();

    let g9 = CatapultGame::<u128>::new(rules(9, false, false)).expect("valid rules");
    let start9 = g9.initial_state(0);
    let mid9 = middle_games(&g9);
    let mut buf9 = Vec::with_capacity(4096);
    let mut grp = c.benchmark_group("catapult9/movegen");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("legal_moves initial", |b| {
        b.iter(|| {
            black_box(&start9).legal_moves(&mut buf9);
            buf9.len()
        })
    });
    grp.throughput(Throughput::Elements(mid9.len() as u64));
    grp.bench_function("count_legal_moves mid-game x16", |b| {
        b.iter(|| {
            mid9.iter()
                .map(|s| black_box(s).count_legal_moves())
                .sum::<usize>()
        })
    });
    grp.finish();
}

fn perfts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("catapult/perft");
    grp.sample_size(20);
    let g = g8();
    let start = g.initial_state(0);
    let nodes = perft(&start, 4);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("8x8 perft 4 initial", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
    let mid = random_position(&start, 30, 3);
    let nodes = perft(&mid, 4);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("8x8 perft 4 mid-game", |b| {
        b.iter(|| perft(black_box(&mid), 4))
    });
    let g9 = CatapultGame::<u128>::new(rules(9, false, false)).expect("valid rules");
    let start9 = g9.initial_state(0);
    let nodes = perft(&start9, 4);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("9x9 perft 4 initial", |b| {
        b.iter(|| perft(black_box(&start9), 4))
    });
    let gd = CatapultGame::<u64>::new(rules(8, false, true)).expect("valid rules");
    let startd = gd.initial_state(0);
    let nodes = perft(&startd, 3);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("8x8 dagger perft 3 initial", |b| {
        b.iter(|| perft(black_box(&startd), 3))
    });
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("catapult/playout");
    grp.throughput(Throughput::Elements(1));
    let mut buf = Vec::with_capacity(4096);
    {
        let start = g8().initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        grp.bench_function(BenchmarkId::new("random game", "8x8"), |b| {
            b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
        });
    }
    {
        let g = CatapultGame::<u128>::new(rules(9, false, false)).expect("valid rules");
        let start = g.initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        grp.bench_function(BenchmarkId::new("random game", "9x9"), |b| {
            b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
        });
    }
    {
        let g = CatapultGame::<u64>::new(rules(8, true, false)).expect("valid rules");
        let start = g.initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        grp.bench_function(BenchmarkId::new("random game", "8x8 royal"), |b| {
            b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
        });
    }
    {
        let g = CatapultGame::<u64>::new(rules(8, false, true)).expect("valid rules");
        let start = g.initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(10);
        grp.bench_function(BenchmarkId::new("random game", "8x8 dagger"), |b| {
            b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
        });
    }
    grp.finish();
}

criterion_group!(benches, playouts, movegen, perfts);
criterion_main!(benches);
