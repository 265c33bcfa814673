//! Line Up solved a second way (issue 33's calibration): depth-bounded
//! proof-number search ([`agents::proof`]) on the game's own rules, with
//! none of the retrograde solver's code (`engine/src/line_up/solve.rs`)
//! or its table.
//!
//! ```sh
//! cargo run --release -p boardlab-agents --example prove_line_up -- [PLIES] [MB]
//! ```
//! Defaults: a bound of 40 plies, a table of 2048 MiB. Prints, with nodes
//! and seconds:
//! * the start: the shortest forced win of the second player (the smallest
//!   bound within which it is proven, and the proof that it is not forced
//!   one ply sooner);
//! * after each first placement 2B (a corner), 2E (an edge) and 5E (an
//!   inner cell), every reply: which player is proven to win within the
//!   bound (the other side's proof is searched only when the second player's
//!   fails), to compare with the retrograde solve's list of winning replies
//!   (`results/line-up-solved/solution.txt`).

use std::time::Instant;

use agents::proof::{Proven, Prover};
use engine::line_up::LineUpGame;
use engine::{Game, State};

fn main() {
    let mut args = std::env::args().skip(1);
    let bound: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let mb: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2048);
    let game = LineUpGame::new(Default::default()).expect("default rules");
    let start = game.initial_state(0);
    let t0 = Instant::now();
    let mut prover = Prover::new(mb, 0);
    let mut prove = |s: &engine::line_up::LineUpState, seat: usize, plies: u32| {
        let before = prover.nodes();
        let t = Instant::now();
        let (r, _) = prover.prove(s, seat, plies);
        (r, prover.nodes() - before, t.elapsed().as_secs_f64())
    };
    println!("# prove_line_up: bound {bound} plies, table {mb} MiB");
    // The start: the smallest bound within which the second player's win
    // is proven, stepping up one ply at a time.
    let mut shortest = None;
    for plies in 1..=bound {
        let (r, n, s) = prove(&start, 1, plies);
        if r == Proven::Win {
            println!("start: the second player wins within {plies} plies ({n} nodes, {s:.1} s)");
            shortest = Some(plies);
            break;
        }
        if plies + 1 == bound || (plies >= 20 && plies % 2 == 1) {
            println!(
                "start: no forced win of the second player within {plies} plies ({r:?}, {n} nodes, {s:.1} s)"
            );
        }
    }
    if shortest.is_none() {
        println!("start: no win of the second player proven within {bound} plies");
    }
    for first in ["2B", "2E", "5E"] {
        let mut after = start.clone();
        after.apply(after.parse_move(first).expect("a placement"));
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        let mut second_wins = Vec::new();
        let mut first_wins = Vec::new();
        let mut open = Vec::new();
        let (mut nodes, mut secs) = (0, 0.0);
        for m in replies {
            let text = after.move_to_text(m);
            let mut s = after.clone();
            s.apply(m);
            let (r, n, t) = prove(&s, 1, bound - 2);
            nodes += n;
            secs += t;
            if r == Proven::Win {
                second_wins.push(text);
                continue;
            }
            let (r, n, t) = prove(&s, 0, bound - 2);
            nodes += n;
            secs += t;
            if r == Proven::Win {
                first_wins.push(text);
            } else {
                open.push(text);
            }
        }
        println!(
            "after 1. {first}: the second player wins within {bound} plies with {} replies: {}; the first player wins within {bound} plies after {}: {}; neither proven: {} ({nodes} nodes, {secs:.0} s)",
            second_wins.len(),
            second_wins.join(" "),
            first_wins.len(),
            first_wins.join(" "),
            if open.is_empty() {
                "none".to_string()
            } else {
                open.join(" ")
            },
        );
    }
    println!(
        "total: {} nodes, {:.0} s",
        prover.nodes(),
        t0.elapsed().as_secs_f64()
    );
}
