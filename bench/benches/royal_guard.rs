//! Royal Guard: perft with bulk counting from the start position and
//! Kiwipete, royal powers on and off, against the `cozy-chess` crate on the
//! same positions in the same run (the speed reference of the issue: with
//! powers off we aim for at least half its nodes per second).
//!
//! Run with `cargo bench -p boardlab-bench --bench royal_guard`.
//!
//! Ours is `engine::royal_guard::perft` (copy-make on the 80-byte `Board`,
//! bulk count at the last ply); the generic `engine::perft` over the full
//! state (with its repetition history) is measured too.
//!
//! Chess's alpha-beta search (`royal_guard/search`): `alphabeta(depth=8)`
//! with chess's defaults (the switches and evaluation of
//! `royal_guard(royal_powers=false)`) from a Queen's Gambit middlegame, a
//! fresh agent (empty table, seed 1) each search, so that every search
//! visits the same nodes; the throughput is that node count (quiescence
//! nodes included), counted once before timing.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::{AgentSpec, AlphaBeta};
use boardlab_bench::{bench_alphabeta, random_playout};

use engine::royal_guard::{RoyalGuardGame, Rules, perft};
use engine::{Game, State};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// cozy-chess perft with bulk counting (its README's pattern).
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut b = board.clone();
                b.play_unchecked(mv);
                nodes += cozy_perft(&b, depth - 1);
            }
            false
        });
    }
    nodes
}

fn game(powers: bool) -> RoyalGuardGame {
    RoyalGuardGame::new(Rules {
        royal_powers: powers,
        ..Rules::default()
    })
}

fn perfts(c: &mut Criterion) {
    for (name, fen, depth) in [("start", START, 5), ("kiwipete", KIWIPETE, 4)] {
        let mut grp = c.benchmark_group(format!("royal_guard/perft {name} d{depth}"));
        grp.sample_size(10);
        let cozy: cozy_chess::Board = fen.parse().expect("valid FEN");
        let fide = game(false).parse_position(fen).expect("valid FEN");
        let rg = game(true).parse_position(fen).expect("valid FEN");
        let n_fide = perft(fide.board(), depth);
        assert_eq!(n_fide, cozy_perft(&cozy, depth), "FIDE counts agree");
        grp.throughput(Throughput::Elements(n_fide));
        grp.bench_function("cozy-chess", |b| {
            b.iter(|| cozy_perft(black_box(&cozy), depth))
        });
        grp.bench_function("ours powers=false", |b| {
            b.iter(|| perft(black_box(fide.board()), depth))
        });
        grp.bench_function("ours powers=false, generic engine::perft", |b| {
            b.iter(|| engine::perft(black_box(&fide), depth))
        });
        let n_rg = perft(rg.board(), depth);
        grp.throughput(Throughput::Elements(n_rg));
        grp.bench_function("ours powers=true", |b| {
            b.iter(|| perft(black_box(rg.board()), depth))
        });
        grp.finish();
    }
}

fn movegen(c: &mut Criterion) {
    let mut grp = c.benchmark_group("royal_guard/movegen");
    grp.throughput(Throughput::Elements(1));
    let mut buf = Vec::with_capacity(256);
    for powers in [false, true] {
        let s = game(powers).parse_position(KIWIPETE).expect("valid FEN");
        grp.bench_function(format!("legal_moves kiwipete powers={powers}"), |b| {
            b.iter(|| {
                black_box(&s).legal_moves(&mut buf);
                buf.len()
            })
        });
        grp.bench_function(format!("count_legal_moves kiwipete powers={powers}"), |b| {
            b.iter(|| black_box(&s).count_legal_moves())
        });
    }
    grp.finish();
}

/// Uniformly random games to the end from the start position (default
/// rules: repetition, fifty-move and dead-position draws on), powers on and
/// off: the playout speed MCTS sees, state clones and repetition history
/// included.
fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("royal_guard/playout");
    grp.throughput(Throughput::Elements(1));
    let mut buf = Vec::with_capacity(256);
    for powers in [true, false] {
        let start = game(powers).initial_state(0);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        grp.bench_function(format!("random game powers={powers}"), |b| {
            b.iter(|| random_playout(black_box(&start), &mut rng, &mut buf))
        });
    }
    grp.finish();
}

/// The middlegame of the search bench: a Queen's Gambit Declined after
/// 14 plies, White to move.
const QGD: &str = "r1bq1rk1/pp3ppp/2n1pn2/2pp4/1bPP4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 8";

fn search(c: &mut Criterion) {
    const CHESS: &str = "royal_guard(royal_powers=false)";
    let Ok(AgentSpec::AlphaBeta(config)) = AgentSpec::parse_in("alphabeta(depth=8)", CHESS) else {
        panic!("alphabeta(depth=8) reads for chess");
    };
    let start = game(false)
        .parse_position(QGD)
        .expect("the bench FEN parses");
    let mut grp = c.benchmark_group("royal_guard/search");
    grp.sample_size(10);
    bench_alphabeta(
        &mut grp,
        "chess alphabeta depth=8, defaults",
        &start,
        || AlphaBeta::new(config.clone(), 1),
    );
    grp.finish();
}

criterion_group!(benches, perfts, movegen, playouts, search);
criterion_main!(benches);
