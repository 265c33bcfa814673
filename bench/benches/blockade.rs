//! Blockade: the escape search (the hot path), move generation, perft and
//! random playouts (target: at least 100,000 random games a second on one
//! core).
//!
//! Run with `cargo bench -p boardlab-bench --bench blockade`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use boardlab_bench::{bench_movegen, random_playout, random_position};
use engine::blockade::{BlockadeGame, Rules, Side};
use engine::{Game, State, perft};

fn game() -> BlockadeGame {
    BlockadeGame::new(Rules::default()).expect("valid rules")
}

/// The position after all 12 guards are placed used by the rule tests.
const MOVEMENT: &str = "g1G8g/4k7/12/g3G6g/12/1G8G1/g2G4G3/12/7g4/12/7K4/12 S 12";

/// 16 positions from random play that avoids handing the opponent an
/// escape, past the placement phase where possible.
fn middle_games() -> Vec<engine::blockade::BlockadeState> {
    let g = game();
    let start = g.initial_state(0);
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < 16 {
        let s = random_position(&start, 20, seed);
        seed += 1;
        if !s.is_terminal() {
            out.push(s);
        }
    }
    out.push(g.parse_position(MOVEMENT).expect("valid position"));
    out
}

fn escape(c: &mut Criterion) {
    let g = game();
    let mut grp = c.benchmark_group("blockade/escape");
    // The §6.3 example position after 4E 9H 10L: South has the three-turn
    // path, North none (a full flood).
    let mut s = g.initial_state(0);
    engine::apply_moves(&mut s, "4E 9H 10L").expect("legal");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("escape South (3-segment path)", |b| {
        b.iter(|| black_box(&s).escapes(Side::South))
    });
    grp.bench_function("escape North (none: full flood)", |b| {
        b.iter(|| black_box(&s).escapes(Side::North))
    });
    let m = g.parse_position(MOVEMENT).expect("valid position");
    grp.bench_function("escape South, 12 guards (none: full flood)", |b| {
        b.iter(|| black_box(&m).escapes(Side::South))
    });
    grp.bench_function("escape North, 12 guards", |b| {
        b.iter(|| black_box(&m).escapes(Side::North))
    });
    grp.finish();
}

fn movegen(c: &mut Criterion) {
    let start = game().initial_state(0);
    let mid = middle_games();
    let mut buf = Vec::with_capacity(256);
    let mut grp = c.benchmark_group("blockade/movegen");
    bench_movegen(&mut grp, &start, &mid, &mut buf);
    grp.finish();
}

fn perfts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("blockade/perft");
    grp.sample_size(10);
    let start = game().initial_state(0);
    let nodes = perft(&start, 4);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 4 initial", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
    let m = game().parse_position(MOVEMENT).expect("valid position");
    let nodes = perft(&m, 3);
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function("perft 3 movement phase", |b| {
        b.iter(|| perft(black_box(&m), 3))
    });
    grp.finish();
}

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("blockade/playout");
    grp.throughput(Throughput::Elements(1));
    let start = game().initial_state(0);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut buf = Vec::with_capacity(256);
    grp.bench_function("random game", |b| {
        b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
    });
    let m = game().parse_position(MOVEMENT).expect("valid position");
    grp.bench_function("random game from the movement phase", |b| {
        b.iter(|| random_playout(black_box(&m), &mut rng, &mut buf))
    });
    grp.finish();
}

criterion_group!(benches, escape, movegen, perfts, playouts);
criterion_main!(benches);
