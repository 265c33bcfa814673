//! The fewest moves that win Solitaire Sly (`docs/rules/sly_solitaire.md` §3,
//! S-7: the rule book's solution takes 23 and asks "Can you do better?").
//!
//! ```sh
//! cargo run --release -p boardlab-engine --example solve_sly_solitaire -- [POSITION] [MB] [NODES]
//! ```
//! Defaults: the canonical layout (S-SET-4), a 4096 MiB table, no node
//! budget. `POSITION` is `canonical` or a position text. Runs the dedicated
//! solver (`engine::sly_solitaire::solve`) with the fewest-moves pass and
//! prints each proven step as it finishes: the fewest pieces, then every
//! length that no line leaving them has, with the positions searched (and,
//! for pass two, the children scored by the bound), the time and the load
//! average of the machine (`/proc/loadavg`, 1 minute); then the result, a
//! shortest line (or, with the budget spent, the best line found and the
//! shortest length not ruled out) and the peak memory (`VmHWM`).

use std::time::Instant;

/// The 1-minute load average, or `?` where `/proc/loadavg` is missing.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

/// This process's peak resident memory (`VmHWM` of `/proc/self/status`).
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "?".to_string())
}

use engine::sly_solitaire::{Area, Layout, SlySolitaireGame, solve};
use engine::{Game, State};

fn main() {
    let mut args = std::env::args().skip(1);
    let position = args.next().unwrap_or_else(|| "canonical".to_string());
    let mb: usize = args
        .next()
        .map_or(4096, |a| a.parse().expect("MB: an integer"));
    let nodes: u64 = args
        .next()
        .map_or(0, |a| a.parse().expect("NODES: an integer"));
    let s = if position == "canonical" {
        SlySolitaireGame::new(Layout::Canonical, Area::Board).initial_state(0)
    } else {
        SlySolitaireGame::new(Layout::Random, Area::Board)
            .parse_position(&position)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    println!("position {}", s.to_text());
    println!("table {mb} MiB, node budget {nodes} (0 = none)");
    let t0 = Instant::now();
    let r = solve::solve_reporting(&s, mb, nodes, true, |p| {
        let t = t0.elapsed().as_secs_f64();
        match p.no_line_within {
            None => println!(
                "[{t:>8.1} s] fewest pieces: {} (proven), {} positions, load {}",
                p.pieces,
                p.nodes,
                load()
            ),
            Some(d) => println!(
                "[{t:>8.1} s] no line of at most {d} moves leaves {} (proven), {} positions, {} bounded, load {}",
                p.pieces,
                p.nodes,
                p.bounded,
                load()
            ),
        }
    });
    let mut cur = s;
    let line: Vec<String> = r
        .line
        .iter()
        .map(|&m| {
            let t = cur.move_to_text(m);
            cur.apply(m);
            t
        })
        .collect();
    println!(
        "result: {} pieces in {} moves; {}; {} positions, {:.1} s",
        r.pieces,
        r.line.len(),
        if r.proven {
            "proven shortest".to_string()
        } else {
            format!(
                "budget spent: lines of {} moves or more not ruled out",
                r.shortest_from
            )
        },
        r.nodes,
        t0.elapsed().as_secs_f64()
    );
    println!("line: {}", line.join(" "));
    println!("peak memory {}, load {}", peak_memory(), load());
}
