//! Slingshot on the 5×5 research board solved a second way (issue 33's
//! calibration): depth-bounded proof-number search ([`agents::proof`]) on
//! the game's own rules, with none of the `solver` agent's code (its
//! negamax, move ordering or table) and without `Search::solved` (the
//! Phase S race), for every set-up class of the solver's swap map.
//!
//! ```sh
//! cargo run --release -p boardlab-agents --example prove_slingshot5 -- \
//!     results/slingshot-5x5-solved/swapmap.csv [PLIES] [MB]
//! ```
//! Defaults: a bound of 50 plies (a 5×5 game ends within 11 custodial
//! moves, at most 25 stacks and two passes), a table of 1024 MiB. For each
//! class (`opening` and `q` of the map's rows), after the set-up and
//! `chooser=T` (the setter plays Black), it proves Black's win within the
//! bound, else Teal's, and prints which, beside the map's `q`; then the
//! totals and the disagreements (none expected).

use std::time::Instant;

use agents::proof::{Proven, Prover};
use engine::spec::Spec;
use engine::{Game, apply_moves, slingshot::SlingshotGame};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(map) = args.next() else {
        eprintln!("usage: prove_slingshot5 SWAPMAP.csv [PLIES] [MB]");
        std::process::exit(2);
    };
    let bound: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let mb: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1024);
    let text = std::fs::read_to_string(&map).unwrap_or_else(|e| {
        eprintln!("error: cannot read {map}: {e}");
        std::process::exit(2);
    });
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let col = |name: &str| {
        header.iter().position(|h| *h == name).unwrap_or_else(|| {
            eprintln!("error: {map} has no column {name}");
            std::process::exit(2);
        })
    };
    let (c_opening, c_q, c_orbit) = (col("opening"), col("q"), col("orbit_size"));
    let game = SlingshotGame::from_spec(&Spec::parse("slingshot(size=5)").expect("a spec"))
        .expect("the 5x5 board");
    let mut prover = Prover::new(mb, 0);
    let t0 = Instant::now();
    println!("# prove_slingshot5: bound {bound} plies, table {mb} MiB, map {map}");
    let (mut black, mut teal, mut open, mut disagree) = (0, 0, 0, Vec::new());
    let (mut black_setups, mut setups) = (0, 0);
    for line in lines {
        // The game string is quoted and holds commas; the opening is the
        // quoted field after it. Split on `"` first.
        let parts: Vec<&str> = line.split('"').collect();
        let mut fields: Vec<String> = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            if i % 2 == 1 {
                fields.push(p.to_string());
            } else {
                fields.extend(p.split(',').filter(|f| !f.is_empty()).map(str::to_string));
            }
        }
        let opening = &fields[c_opening];
        let q: f64 = fields[c_q].parse().expect("q");
        let orbit: u32 = fields[c_orbit].parse().expect("orbit_size");
        let mut s = game.initial_state(0);
        apply_moves(&mut s, &format!("{opening} chooser=T")).expect("a set-up");
        let t = Instant::now();
        let before = prover.nodes();
        let verdict = if prover.prove(&s, 0, bound).0 == Proven::Win {
            black += 1;
            black_setups += orbit;
            1.0
        } else if prover.prove(&s, 1, bound).0 == Proven::Win {
            teal += 1;
            0.0
        } else {
            open += 1;
            0.5
        };
        setups += orbit;
        if verdict != q {
            disagree.push(opening.clone());
        }
        println!(
            "{opening}: {} (map q {q}; {} nodes, {:.1} s)",
            match verdict {
                1.0 => "Black wins",
                0.0 => "Teal wins",
                _ => "neither proven (a draw)",
            },
            prover.nodes() - before,
            t.elapsed().as_secs_f64()
        );
    }
    println!(
        "total: {} classes: Black wins {black}, Teal wins {teal}, neither {open}; \
         Black wins {black_setups} of {setups} set-ups; {} nodes, {:.0} s",
        black + teal + open,
        prover.nodes(),
        t0.elapsed().as_secs_f64()
    );
    if disagree.is_empty() {
        println!("every class agrees with the map");
    } else {
        println!("disagreements with the map: {}", disagree.join(" "));
    }
}
