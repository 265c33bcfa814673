//! Andalusia: move generation, perft (bulk counting) and random playouts.
//!
//! Run with `cargo bench -p boardlab-bench --bench andalusia`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use boardlab_bench::{bench_movegen, random_playout, random_position};
use engine::andalusia::AndalusiaGame;
use engine::{Game, perft};

/// E-A3 of the dossier (pins, promotion, stop points), White to move.
const E_A3: &str = "4k4/9/6S2/9/4S4/9/4K4/2S6/cC6c w";

/// 16 middle-game positions: 30 random plies from the start (seeded).
fn middle_games(g: &AndalusiaGame) -> Vec<<AndalusiaGame as Game>::State> {
    let start = g.initial_state(0);
    (0..16).map(|i| random_position(&start, 30, i)).collect()
}

fn movegen(c: &mut Criterion) {
    let g = AndalusiaGame::default();
    let start = g.initial_state(0);
    let mid = middle_games(&g);
    let mut buf = Vec::with_capacity(256);
    let mut grp = c.benchmark_group("andalusia/movegen");
    bench_movegen(&mut grp, &start, &mid, &mut buf);
    grp.finish();
}

/// The generic `engine::perft` (clone + apply per node, bulk counting with
/// `count_legal_moves` at the last ply) and the module's specialised
/// `AndalusiaState::perft`; throughput is in leaf nodes.
fn perfts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("andalusia/perft");
    grp.sample_size(10);
    let g = AndalusiaGame::default();
    let start = g.initial_state(0);
    for depth in [4, 5] {
        let nodes = perft(&start, depth);
        grp.throughput(Throughput::Elements(nodes));
        grp.bench_function(format!("perft {depth} initial"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    // The module's own perft (`AndalusiaState::perft`): the same counts
    // without the no-move probe when a child is made.
    for depth in [4, 5] {
        let nodes = start.perft(depth);
        grp.throughput(Throughput::Elements(nodes));
        grp.bench_function(format!("module perft {depth} initial"), |b| {
            b.iter(|| black_box(&start).perft(depth))
        });
    }
    let e_a3 = g.parse_position(E_A3).expect("E-A3 parses");
    let nodes = perft(&e_a3, 4);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 4 E-A3", |b| b.iter(|| perft(black_box(&e_a3), 4)));
    let mid = random_position(&start, 30, 3);
    let nodes = perft(&mid, 4);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 4 mid-game", |b| b.iter(|| perft(black_box(&mid), 4)));
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("andalusia/playout");
    grp.throughput(Throughput::Elements(1));
    let mut buf = Vec::with_capacity(256);
    let start = AndalusiaGame::default().initial_state(0);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    grp.bench_function(BenchmarkId::new("random game", "default"), |b| {
        b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
    });
    grp.finish();
}

criterion_group!(benches, movegen, perfts, playouts);
criterion_main!(benches);
