//! Solves Line Up (`docs/rules/line_up.md` §5): the retrograde analysis of
//! the movement phase, then the placement phase from the empty board.
//!
//! ```sh
//! cargo run --release -p boardlab-engine --example solve_line_up -- [THREADS] [TABLE_PATH]
//! ```
//! Defaults: 2 threads, `target/line_up_table.bin` (1.43 GB, not
//! committed). Prints the table's size, the positions decided at each
//! distance, the draws, a Bellman consistency check on random entries, the
//! value of the start and the value of every first placement. The game
//! `line_up(table=target/line_up_table.bin)` then lets `Search::solved`
//! (and so the `solver` agent) use it.

use std::path::PathBuf;
use std::time::Instant;

use engine::line_up::solve::{self, Table};

fn main() {
    let mut args = std::env::args().skip(1);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let path = PathBuf::from(
        args.next()
            .unwrap_or_else(|| "target/line_up_table.bin".to_string()),
    );
    let t0 = Instant::now();
    let mut table = if path.exists() {
        println!("loading {}", path.display());
        Table::load(&path).expect("a table file")
    } else {
        let (table, stats) = Table::build(threads, |line| {
            println!("[{:>6.0} s] {line}", t0.elapsed().as_secs_f64());
        });
        let wins: u64 = stats.by_distance.iter().skip(1).step_by(2).sum();
        let losses: u64 = stats.by_distance.iter().step_by(2).sum();
        println!(
            "movement phase: {} positions (symmetry classes, all six phases): {wins} wins, {losses} losses, {} draws for the player to move; longest win {} plies",
            stats.positions,
            stats.draws,
            stats.by_distance.len().saturating_sub(1)
        );
        println!(
            "time: initial pass {:.0} s, waves {:.0} s, {threads} threads",
            stats.seconds.0, stats.seconds.1
        );
        table.save(&path).expect("writable table path");
        println!("wrote {}", path.display());
        table
    };
    // Waves past distance 238 (the byte's exact range), if any.
    let (more, draws) = table.extend_waves(|line| {
        println!("[{:>6.0} s] {line}", t0.elapsed().as_secs_f64());
    });
    if !more.is_empty() {
        println!(
            "extended: {} more distances ({} positions), {draws} draws left; distances from {} on are stored as 'at least {}'",
            more.len(),
            more.iter().sum::<u64>(),
            solve::SATURATED,
            solve::SATURATED
        );
        table.save(&path).expect("writable table path");
        println!("wrote {}", path.display());
    }
    check(&table, 200_000);
    let t1 = Instant::now();
    match solve::solve_start(&table, 2_000_000_000) {
        Some(v) => {
            let word = |x: i8| match x {
                1 => "win",
                0 => "draw",
                _ => "loss",
            };
            println!(
                "start: a {} for the first player ({} nodes, {:.0} s)",
                word(v.value),
                v.nodes,
                t1.elapsed().as_secs_f64()
            );
            for (cell, x) in v.first_moves {
                let name = engine::board::sly::square_name(engine::line_up::cell_square(cell));
                println!("  first placement {name}: {}", word(x));
            }
        }
        None => println!("placement search ran out of its node budget"),
    }
    // The second player's answers to one first placement of each symmetry
    // class: a corner, an edge cell, an inner cell.
    for first in [0usize, 1, 5] {
        let name = |c: usize| engine::board::sly::square_name(engine::line_up::cell_square(c));
        match solve::replies(&table, first, 2_000_000_000) {
            Some(r) => {
                let wins: Vec<String> = r.iter().filter(|x| x.1 == 1).map(|x| name(x.0)).collect();
                let draws: Vec<String> = r.iter().filter(|x| x.1 == 0).map(|x| name(x.0)).collect();
                println!(
                    "after 1. {}: the second player wins with {} of {} replies: {}; draws with: {}",
                    name(first),
                    wins.len(),
                    r.len(),
                    wins.join(" "),
                    if draws.is_empty() {
                        "none".to_string()
                    } else {
                        draws.join(" ")
                    }
                );
            }
            None => println!("after 1. {}: out of nodes", name(first)),
        }
    }
}

/// The Bellman check: for random used entries, the stored value equals the
/// best over the children (a win at d is a child lost at d − 1, a loss at d
/// has every child won, the deepest at d − 1; a draw has no lost child and
/// a drawn one).
#[allow(clippy::needless_range_loop)] // cells by index, as the rules number them
fn check(table: &Table, samples: usize) {
    let idx = table.index();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut checked = 0;
    while checked < samples {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let i = (x % idx.entries() as u64) as usize;
        let (b, phase) = idx.board(i);
        let Some((v, d)) = table.value(&b, phase) else {
            continue;
        };
        if idx.index(&b, phase) != i {
            continue;
        }
        let p = phase & 1;
        let line = |q: usize, b: &solve::Board| {
            let a = b[3 * q] | b[3 * q + 1] | b[3 * q + 2];
            engine::line_up::LINES.iter().any(|&l| l & !a == 0)
        };
        let mut kids = Vec::new();
        if !line(1 - p, &b) {
            let (t, k) = (phase % 3, 3 * p + phase % 3);
            let empty = !(b.iter().fold(0, |a, &m| a | m));
            let nb = if t == 2 {
                engine::line_up::KING
            } else {
                engine::line_up::ORTH
            };
            for from in 0..16 {
                if b[k] >> from & 1 == 0 {
                    continue;
                }
                for to in 0..16 {
                    if nb[from] >> to & 1 == 1 && empty >> to & 1 == 1 {
                        let mut c = b;
                        c[k] ^= (1 << from) | (1 << to);
                        kids.push(table.value(&c, (phase + 1) % 6).expect("a used child"));
                    }
                }
            }
        }
        let want = if kids.is_empty() {
            (-1, 0)
        } else if let Some(w) = kids.iter().filter(|c| c.0 == -1).map(|c| c.1).min() {
            (1, w + 1)
        } else if kids.iter().all(|c| c.0 == 1) {
            (-1, kids.iter().map(|c| c.1).max().unwrap() + 1)
        } else {
            (0, 0)
        };
        let sat = solve::SATURATED;
        let same = v == want.0 && (d == want.1 || (d >= sat && want.1 >= sat));
        assert!(
            same,
            "entry {i}: {b:?} phase {phase}: {:?} != {want:?}",
            (v, d)
        );
        checked += 1;
    }
    println!("Bellman check on {samples} random positions: consistent");
}
