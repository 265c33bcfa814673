//! Gateway (Sly §8): move generation (4 players), perft(3) and random games
//! to the end for 2, 3, 4 players and teams.
//!
//! Run with `cargo bench -p boardlab-bench --bench gateway`.

use criterion::{Criterion, criterion_group, criterion_main};

use boardlab_bench::bench_variants;
use engine::gateway::{GatewayGame, Rules};

fn game(players: u8, teams: bool) -> GatewayGame {
    GatewayGame::new(Rules {
        teams,
        ..Rules::for_players(players)
    })
    .expect("valid rules")
}

fn benches(c: &mut Criterion) {
    bench_variants(
        c,
        "gateway",
        &[
            ("4 players", game(4, false)),
            ("2 players", game(2, false)),
            ("3 players", game(3, false)),
            ("4 in teams", game(4, true)),
        ],
    );
}

criterion_group!(gateway, benches);
criterion_main!(gateway);
