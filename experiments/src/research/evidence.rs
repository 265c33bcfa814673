//! `boardlab evidence`: what every engine is checked against, per game, as
//! a Markdown page (`results/EVIDENCE.md`): the perft vectors with their
//! sources (the data files the tests run, `engine::testkit::PERFT_FILES`),
//! the reference-generator diffs the tests run, and agreement with other
//! engines.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{Result, anyhow};

use engine::testkit::{PERFT_FILES, parse_perft_vectors};

/// The node budget of the test run's perft runner
/// (`engine/tests/suite/perft.rs`): larger vectors are listed here and
/// checked with `boardlab perft`.
pub const TEST_BUDGET: u64 = 5_000_000;

/// The reference-generator diffs of the test suite: game, test module,
/// what is compared, and the number of random-playout positions each test
/// asserts it reached (the tests fail below it).
pub const REFERENCE_DIFFS: &[(&str, &str, &str)] = &[
    (
        "andalusia",
        "andalusia_reference",
        "legal move sets, endings and keys at ≥ 7,000 positions (default rules) + 3,000 (short draw rules) + endgames",
    ),
    (
        "bagel",
        "bagel_reference",
        "legal move sets and scores at ≥ 10,000 positions over three variants (≥ 5,000 each)",
    ),
    (
        "catapult",
        "catapult_reference",
        "legal move sets at ≥ 10,000 positions each for 8×8, 9×9, Royal and Dagger, plus 6,000 over their combinations; the reference reproduces the dossier's perft",
    ),
    (
        "blockade",
        "blockade_reference",
        "legal move sets and escapes (a queue walk of the dossier's B-5 pseudo-code) at ≥ 10,000 positions with the default rulings and 1,500 per alternative ruling",
    ),
    (
        "empire",
        "empire_reference",
        "move sets, position texts and returns at ≥ 10,000 positions for each player count and for teams; every perft vector also counted by the reference",
    ),
    (
        "gateway",
        "gateway_reference",
        "move sets, position texts and returns at ≥ 10,000 positions for each player count and for teams; every perft vector also counted by the reference",
    ),
    (
        "line_up",
        "line_up_reference",
        "legal move sets and endings at ≥ 12,000 positions",
    ),
    (
        "kings_colour",
        "kings_colour_reference",
        "legal move sets at ≥ 10,000 positions for each capture rule",
    ),
    (
        "royal_guard",
        "royal_guard_reference",
        "legal move sets at ≥ 10,000 positions with royal powers on and ≥ 10,000 off; the reference reproduces the dossier's perft",
    ),
    (
        "slingshot",
        "slingshot_reference",
        "legal move sets at ≥ 12,000 positions on each of 7×7 and 9×9, plus the ruling options; the reference reproduces the dossier's perft",
    ),
    (
        "sly_solitaire",
        "sly_solitaire_reference",
        "legal move sets at ≥ 12,000 random-playout positions over random layouts and the window area; the 23-move published solution and the solver's 13-move line replay on it",
    ),
    (
        "sniggle",
        "sniggle_reference",
        "legal move sets at ≥ 10,000 positions for each player count and teams",
    ),
    (
        "spinner",
        "spinner_reference",
        "legal moves and chance outcomes at the default rules plus > 5,000 positions over five variants",
    ),
];

/// Agreement with engines written elsewhere.
pub const CROSS_ENGINE: &[(&str, &str)] = &[(
    "royal_guard",
    "with royal_powers=false the move generator reproduces the Chess Programming Wiki's published FIDE perft results (the `royal_guard` vectors marked CPW below), and the criterion bench `royal_guard` asserts equal counts with the cozy-chess crate on the same positions before timing both",
)];

fn thousands(n: u64) -> String {
    crate::output::table::thousands(&n.to_string())
}

/// The evidence page.
///
/// # Errors
/// A malformed built-in perft file.
pub fn evidence_page() -> Result<String> {
    let mut games: BTreeMap<&str, String> = BTreeMap::new();
    for (name, text) in PERFT_FILES {
        let vectors = parse_perft_vectors(text).map_err(|e| anyhow!("{name}.txt {e}"))?;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Perft vectors (`engine/data/perft/{name}.txt`):\n\n| game | position | depth | count | source | checked |\n|---|---|---|---|---|---|"
        );
        for v in vectors {
            let unit = if v.turns { " turns" } else { "" };
            let checked = if v.count <= TEST_BUDGET {
                "every test run"
            } else if *name == "royal_guard" && v.count <= 20_000_000 {
                "every test run (module perft)"
            } else {
                "over the test budget: `boardlab perft`"
            };
            let _ = writeln!(
                s,
                "| `{}` | `{}` | {}{unit} | {} | {} | {checked} |",
                v.game,
                v.position,
                v.depth,
                thousands(v.count),
                v.source
            );
        }
        games.insert(name, s);
    }
    let mut out = String::from(
        "# Evidence: what each engine is checked against\n\nGenerated by `boardlab evidence --out results/EVIDENCE.md` from the data the tests run. Perft counts the move-generation tree (automatic draws by rule off, `Game::perft_game`); every vector within the test budget (5,000,000 nodes) is checked by `cargo test --workspace` with the generic `engine::perft`. Every game also passes the generic consistency kit (`engine/tests/suite/kit.rs`) and replays a golden playthrough (`engine/tests/suite/golden.rs` and the reference modules).\n\n",
    );
    for (name, perfts) in &games {
        let _ = writeln!(out, "## {name}\n\n{perfts}");
        for (g, test, what) in REFERENCE_DIFFS {
            if g == name {
                let _ = writeln!(
                    out,
                    "Reference-generator diff (`engine/tests/suite/{test}.rs`, a plain-array generator written from the dossier alone): {what}.\n"
                );
            }
        }
        for (g, what) in CROSS_ENGINE {
            if g == name {
                let _ = writeln!(out, "Other engines: {what}.\n");
            }
        }
    }
    Ok(out)
}
