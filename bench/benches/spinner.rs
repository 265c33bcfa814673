//! The spinner connection game (SPINPATH-8): move generation, random
//! playouts (chance nodes sampled by their probabilities), MCTS iterations.
//!
//! Run with `cargo bench -p boardlab-bench --bench spinner`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::{Uct, UctConfig};
use boardlab_bench::{after, random_playout, random_position};
use engine::spinner::{Rules, SpinnerGame};
use engine::{Game, State, ToMove};

fn game(size: u32, crossed: bool) -> SpinnerGame {
    SpinnerGame::new(Rules {
        size,
        stars: Rules::auto_stars(size).expect("size 7..=11"),
        crossed,
    })
    .expect("valid rules")
}

fn movegen(c: &mut Criterion) {
    let g = game(8, false);
    let start = g.initial_state(0);
    // Mid-game decision nodes (placements or switches).
    let mid: Vec<_> = (0..64)
        .map(|i| random_position(&start, 40, i))
        .filter(|s| matches!(s.to_move(), ToMove::Seat(_)))
        .take(16)
        .collect();
    let mut buf = Vec::with_capacity(1024);
    let mut grp = c.benchmark_group("spinner8/movegen");
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
    grp.bench_function("has_path both players mid-game x16", |b| {
        b.iter(|| {
            mid.iter()
                .filter(|s| black_box(s).has_path(0) || s.has_path(1))
                .count()
        })
    });
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("spinner/playout");
    grp.throughput(Throughput::Elements(1));
    for (label, size, crossed) in [
        ("8x8", 8, false),
        ("8x8 crossed", 8, true),
        ("11x11", 11, false),
    ] {
        let start = game(size, crossed).initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut buf = Vec::with_capacity(256);
        grp.bench_function(BenchmarkId::new("random game", label), |b| {
            b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
        });
    }
    grp.finish();
}

fn mcts(c: &mut Criterion) {
    let g = game(8, false);
    let iterations = 1000;
    let mut grp = c.benchmark_group("spinner8/mcts");
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
    // Decision nodes: the first placement of a 2 at the opening, and a
    // switch in the middle game (the root of a search is a seat node; chance
    // nodes inside the tree are expanded with their probabilities).
    let opening = after(&g, "spin=2");
    grp.bench_function("1000 iterations, opening spin=2", |b| {
        b.iter(|| agent.search(black_box(&opening)))
    });
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut buf = Vec::new();
    let mut outs = Vec::new();
    let mut s = g.initial_state(0);
    // Play random turns until a switch decision with a few pieces each.
    while !(s.is_switching() && s.pieces(0).count_ones() >= 6) {
        let mv = match s.to_move() {
            ToMove::Chance => s.sample_chance(&mut rng, &mut outs),
            ToMove::Seat(_) => s.sample_legal_move(&mut rng, &mut buf),
            ToMove::Terminal => {
                s = g.initial_state(0);
                continue;
            }
        };
        s.apply(mv.expect("a move"));
    }
    grp.bench_function("1000 iterations, mid-game switch", |b| {
        b.iter(|| agent.search(black_box(&s)))
    });
    grp.finish();
}

criterion_group!(benches, movegen, playouts, mcts);
criterion_main!(benches);
