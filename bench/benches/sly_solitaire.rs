//! Solitaire Sly: move generation, perft (bulk counting; target ≥ 50
//! million nodes per second on one core), random playouts, and the exact
//! solver on a mid-game position.
//!
//! Run with `cargo bench -p boardlab-bench --bench sly_solitaire`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::{Solver, SolverConfig};
use boardlab_bench::{bench_movegen, random_playout, random_position};
use engine::sly_solitaire::{Area, Layout, SlySolitaireGame};
use engine::{Game, perft};

fn game() -> SlySolitaireGame {
    SlySolitaireGame::new(Layout::Canonical, Area::Board)
}

fn movegen(c: &mut Criterion) {
    let start = game().initial_state(0);
    let mid: Vec<_> = (0..16).map(|i| random_position(&start, 8, i)).collect();
    let mut buf = Vec::with_capacity(160);
    let mut grp = c.benchmark_group("sly_solitaire/movegen");
    bench_movegen(&mut grp, &start, &mid, &mut buf);
    grp.finish();
}

/// The generic `engine::perft` with bulk counting at the last ply;
/// throughput in leaf nodes (perft 3 = 301,716, perft 4 from the start).
fn perfts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("sly_solitaire/perft");
    grp.sample_size(10);
    let start = game().initial_state(0);
    for depth in [3, 4] {
        let nodes = perft(&start, depth);
        grp.throughput(Throughput::Elements(nodes));
        grp.bench_function(format!("perft {depth} initial"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("sly_solitaire/playout");
    grp.throughput(Throughput::Elements(1));
    let mut buf = Vec::with_capacity(160);
    let start = game().initial_state(0);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    grp.bench_function(BenchmarkId::new("random game", "canonical"), |b| {
        b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
    });
    grp.finish();
}

/// The solver on positions 16 random plies into random layouts (small
/// enough to solve in milliseconds).
fn solver(c: &mut Criterion) {
    let g = SlySolitaireGame::new(Layout::Random, Area::Board);
    let pos: Vec<_> = (0..8)
        .map(|i| random_position(&g.initial_state(i), 16, i))
        .collect();
    let mut grp = c.benchmark_group("sly_solitaire/solver");
    grp.sample_size(10);
    grp.throughput(Throughput::Elements(pos.len() as u64));
    // The game's dedicated solver (what `solver(...)` runs) and the
    // generic branch and bound through the State API, for the ratio.
    for (name, generic) in [("dedicated", false), ("generic", true)] {
        grp.bench_function(
            BenchmarkId::new("solve 8 positions after 16 random plies", name),
            |b| {
                b.iter(|| {
                    let mut total = 0.0;
                    for p in &pos {
                        let mut s = Solver::new(SolverConfig {
                            mb: 4,
                            nodes: 0,
                            fewest: false,
                            generic,
                        });
                        total += s.solve(black_box(p)).value;
                    }
                    total
                })
            },
        );
    }
    grp.finish();
}

criterion_group!(benches, movegen, perfts, playouts, solver);
criterion_main!(benches);
