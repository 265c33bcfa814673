//! Shared set-up for the criterion benches in `benches/`: named positions
//! and a seeded random playout.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use criterion::measurement::Measurement;
use criterion::{BenchmarkGroup, Throughput};
use engine::{Game, State, ToMove, apply_moves};
use std::hint::black_box;

/// The state after `record` from the initial state of `game`.
///
/// # Panics
/// If the record is illegal (a bench set-up error).
pub fn after<G: Game>(game: &G, record: &str) -> G::State {
    let mut s = game.initial_state(0);
    apply_moves(&mut s, record).expect("bench record is legal");
    s
}

/// The state reached after `plies` uniformly random plies from `start`
/// (stopping early at the end of the game), drawn with `seed`.
pub fn random_position<S: State>(start: &S, plies: u32, seed: u64) -> S {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut outs = Vec::new();
    let mut s = start.clone();
    for _ in 0..plies {
        let mv = match s.to_move() {
            ToMove::Terminal => break,
            ToMove::Chance => s.sample_chance(&mut rng, &mut outs),
            ToMove::Seat(_) => s.sample_legal_move(&mut rng, &mut buf),
        };
        let next = {
            let mut t = s.clone();
            t.apply(mv.expect("a move"));
            t
        };
        if next.is_terminal() {
            break;
        }
        s = next;
    }
    s
}

/// Plays one uniformly random game from `start` to the end; returns the plies.
#[inline]
pub fn random_playout<S: State, R: rand::Rng>(
    start: &S,
    rng: &mut R,
    buf: &mut Vec<S::Move>,
) -> u32 {
    let mut s = start.clone();
    let mut outs = Vec::new();
    loop {
        let mv = match s.to_move() {
            ToMove::Terminal => return s.ply(),
            ToMove::Chance => s.sample_chance(rng, &mut outs),
            ToMove::Seat(_) => s.sample_legal_move(rng, buf),
        };
        s.apply(mv.expect("a move"));
    }
}

/// Benches `legal_moves` and `count_legal_moves` at `start` (one position
/// per iteration) and over the positions `mid` (all of them per iteration)
/// into `grp`; `buf` is the reused move list.
pub fn bench_movegen<S: State, M: Measurement>(
    grp: &mut BenchmarkGroup<'_, M>,
    start: &S,
    mid: &[S],
    buf: &mut Vec<S::Move>,
) {
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("legal_moves initial", |b| {
        b.iter(|| {
            black_box(start).legal_moves(buf);
            buf.len()
        })
    });
    grp.bench_function("count_legal_moves initial", |b| {
        b.iter(|| black_box(start).count_legal_moves())
    });
    grp.throughput(Throughput::Elements(mid.len() as u64));
    grp.bench_function(format!("legal_moves mid-game x{}", mid.len()), |b| {
        b.iter(|| {
            let mut t = 0;
            for s in mid {
                black_box(s).legal_moves(buf);
                t += buf.len();
            }
            t
        })
    });
    grp.bench_function(format!("count_legal_moves mid-game x{}", mid.len()), |b| {
        b.iter(|| {
            mid.iter()
                .map(|s| black_box(s).count_legal_moves())
                .sum::<usize>()
        })
    });
}

/// The bench set of a game with several seat-count variants (Empire,
/// Gateway): for the first variant, move generation at the start and over
/// 16 mid-game positions ([`bench_movegen`]); for each variant, perft(3)
/// from the start and one uniformly random game to the end. Groups are
/// named `<name>/movegen`, `<name>/perft`, `<name>/playout`.
pub fn bench_variants<G: Game>(c: &mut criterion::Criterion, name: &str, variants: &[(&str, G)]) {
    let (_, first) = &variants[0];
    let start = first.initial_state(0);
    let mid: Vec<_> = (0..16).map(|i| random_position(&start, 80, i)).collect();
    let mut buf = Vec::with_capacity(256);
    let mut grp = c.benchmark_group(format!("{name}/movegen"));
    bench_movegen(&mut grp, &start, &mid, &mut buf);
    grp.finish();
    let mut grp = c.benchmark_group(format!("{name}/perft"));
    grp.sample_size(10);
    for (label, g) in variants {
        let s = g.initial_state(0);
        let n = engine::perft(&s, 3);
        grp.throughput(Throughput::Elements(n));
        grp.bench_function(criterion::BenchmarkId::new("perft(3)", label), |b| {
            b.iter(|| engine::perft(black_box(&s), 3))
        });
    }
    grp.finish();
    let mut grp = c.benchmark_group(format!("{name}/playout"));
    grp.throughput(Throughput::Elements(1));
    for (label, g) in variants {
        let s = g.initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        grp.bench_function(criterion::BenchmarkId::new("random game", label), |b| {
            b.iter(|| random_playout(black_box(&s), &mut rng, &mut buf))
        });
    }
    grp.finish();
}

/// One alpha-beta search of `start` per iteration, each by a fresh agent
/// from `fresh` (empty table, same seed), so that every search visits the
/// same nodes: the group's throughput is that node count (quiescence nodes
/// included), counted once before timing; the agent is dropped (its table
/// freed) outside the timing. The function's name says the depth and the
/// node count after `label`.
pub fn bench_alphabeta<S: State + engine::Search, M: Measurement>(
    grp: &mut BenchmarkGroup<'_, M>,
    label: &str,
    start: &S,
    fresh: impl Fn() -> agents::AlphaBeta<S>,
) {
    let mut ab = fresh();
    ab.search(start);
    let nodes = ab.last_nodes;
    grp.throughput(Throughput::Elements(nodes));
    grp.bench_function(format!("{label} ({nodes} nodes)"), |b| {
        b.iter_batched(
            &fresh,
            |mut ab| {
                ab.search(black_box(start));
                ab
            },
            criterion::BatchSize::PerIteration,
        )
    });
}
