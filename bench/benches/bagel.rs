//! Bagel and Big Bagel: move generation, the scoring update (apply with its
//! incremental window count), random playouts (with the winner decided).
//!
//! Run with `cargo bench -p boardlab-bench --bench bagel`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use boardlab_bench::{random_playout, random_position};
use engine::bagel::{BAGEL_L1, BagelGame};
use engine::spec::Spec;
use engine::{Game, State, ToMove};

fn game(spec: &str) -> BagelGame {
    BagelGame::from_spec(&Spec::parse(spec).expect("spec")).expect("game")
}

/// 16 middle-game positions: 8 random plies from the start of random
/// layouts (seeded).
fn middle_games(g: &BagelGame) -> Vec<<BagelGame as Game>::State> {
    (0..16)
        .map(|i| random_position(&g.initial_state(i), 8, i))
        .collect()
}

fn movegen(c: &mut Criterion) {
    for (label, spec) in [("bagel", "bagel"), ("bigbagel", "bagel(base=5)")] {
        let g = game(spec);
        let mid = middle_games(&g);
        let mut buf = Vec::with_capacity(4096);
        let mut grp = c.benchmark_group(format!("{label}/movegen"));
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
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        grp.bench_function("sample_legal_move mid-game x16", |b| {
            b.iter(|| {
                let mut t = 0;
                for s in &mid {
                    t += black_box(s).sample_legal_move(&mut rng, &mut buf).is_some() as usize;
                }
                t
            })
        });
        grp.finish();

        // Scoring update: apply every legal move of each position (clone +
        // placement(s) + window count + pair counts + key).
        let mut grp = c.benchmark_group(format!("{label}/apply"));
        let moves: Vec<_> = mid
            .iter()
            .map(|s| {
                let mut v = Vec::new();
                s.legal_moves(&mut v);
                v
            })
            .collect();
        let n: usize = moves.iter().map(Vec::len).sum();
        grp.throughput(Throughput::Elements(n as u64));
        grp.bench_function("apply every move, mid-game x16", |b| {
            b.iter(|| {
                let mut t = 0u64;
                for (s, ms) in mid.iter().zip(&moves) {
                    for &m in ms {
                        let mut x = black_box(s).clone();
                        x.apply(m);
                        t ^= x.zobrist();
                    }
                }
                t
            })
        });
        grp.finish();
    }
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("bagel/playout");
    grp.throughput(Throughput::Elements(1));
    let mut buf = Vec::with_capacity(4096);
    for (label, spec) in [
        ("bagel L1", format!("bagel(layout={BAGEL_L1})")),
        ("big bagel", "bagel(base=5)".to_string()),
    ] {
        let g = game(&spec);
        let start = g.initial_state(1);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        grp.bench_function(BenchmarkId::new("random game", label), |b| {
            b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
        });
        // The same with the result (scores and tie-breaks) read at the end.
        grp.bench_function(BenchmarkId::new("random game + returns", label), |b| {
            b.iter(|| {
                let mut s = black_box(&start).clone();
                while let ToMove::Seat(_) = s.to_move() {
                    let m = s.sample_legal_move(&mut rng, &mut buf).expect("a move");
                    s.apply(m);
                }
                s.returns()[0]
            })
        });
    }
    grp.finish();
}

criterion_group!(benches, playouts, movegen);
criterion_main!(benches);
