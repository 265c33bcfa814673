//! The whole run loop: random games per second through `tournament`'s code
//! path (jobs, agents, the play loop, move text, the writer and its CSV),
//! beside the engine's own random playout of the same game, so that the
//! harness's overhead shows as the ratio of the two lines of a game and a
//! regression in the harness shows up where the engine benches cannot see
//! it (issue 32's target: the tournament at no less than half the playout).
//!
//! Run with `cargo bench -p boardlab-bench --bench run_loop`; one worker
//! thread (the writer has its own), 2,000 games an iteration (200 of the
//! four-seat games).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use boardlab_bench::random_playout;
use engine::{Game, GameVisitor, visit_game};
use experiments::run::{TournamentArgs, run};

/// The games of the table: game string, seats (as many `random`
/// agents), games an iteration.
const GAMES: [(&str, usize, u32); 5] = [
    ("catapult", 2, 2_000),
    ("slingshot(size=9)", 2, 2_000),
    ("catapult(dagger=true)", 2, 2_000),
    ("empire(players=4)", 4, 200),
    ("gateway(players=4)", 4, 200),
];

/// Plays this many random games of a game from its start (seeded) and
/// returns the time they took.
struct Playouts(u64);

impl GameVisitor for Playouts {
    type Output = std::time::Duration;
    fn visit<G: Game>(self, game: G) -> std::time::Duration {
        let start = game.initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut buf = Vec::with_capacity(4096);
        let t = std::time::Instant::now();
        for _ in 0..self.0 {
            black_box(random_playout(black_box(&start), &mut rng, &mut buf));
        }
        t.elapsed()
    }
}

fn run_loop(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("boardlab-bench-run-loop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for (g, seats, games) in GAMES {
        let mut grp = c.benchmark_group(format!("run_loop/{g}"));
        grp.sample_size(10);
        grp.throughput(Throughput::Elements(u64::from(games)));
        grp.bench_function("engine playout", |b| {
            b.iter_custom(|iters| {
                visit_game(g, Playouts(iters * u64::from(games))).expect("a known game")
            })
        });
        let mut args = TournamentArgs::new(
            g,
            &vec!["random".to_string(); seats],
            games,
            1,
            dir.join("games.csv"),
        );
        args.threads = 1;
        args.overwrite = true;
        args.keep_records = false;
        grp.bench_function("tournament 1 thread", |b| {
            b.iter(|| run(&args).expect("the run").played)
        });
        grp.finish();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, run_loop);
criterion_main!(benches);
