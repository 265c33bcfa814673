//! The one perft runner: every vector of every file under
//! `engine/data/perft/` (format in `engine::testkit::parse_perft_vectors`), counted
//! with the generic `engine::perft` in the game's `perft_game()`. Vectors
//! over the node budget are listed for the record and checked with
//! `boardlab perft` (see `boardlab evidence`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use engine::testkit::{PERFT_FILES, parse_perft_vectors, run_perft_vector};

/// The largest count checked in the test run (CI time).
const BUDGET: u64 = 5_000_000;

#[test]
fn every_perft_file_is_built_into_the_library() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/perft");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let listed: BTreeSet<String> = PERFT_FILES
        .iter()
        .map(|(g, _)| format!("{g}.txt"))
        .collect();
    assert_eq!(
        on_disk, listed,
        "engine::testkit::PERFT_FILES must list every file"
    );
    for (name, text) in PERFT_FILES {
        let on_disk = std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap();
        assert_eq!(&on_disk, text, "{name}");
    }
}

#[test]
fn perft_vectors_from_data_files() {
    let (mut checked, mut skipped) = (0, 0);
    for (name, text) in PERFT_FILES {
        let vectors = parse_perft_vectors(text).unwrap_or_else(|e| panic!("{name}.txt {e}"));
        assert!(!vectors.is_empty(), "{name}.txt has no vector");
        for v in vectors {
            if v.count > BUDGET {
                skipped += 1;
                continue;
            }
            let got =
                run_perft_vector(&v).unwrap_or_else(|e| panic!("{name}.txt line {}: {e}", v.line));
            assert_eq!(
                got, v.count,
                "{name}.txt line {}: {} at {} depth {} ({})",
                v.line, v.game, v.position, v.depth, v.source
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 70,
        "{checked} checked, {skipped} over the budget"
    );
}

#[test]
fn bad_vector_lines_are_errors() {
    for bad in [
        "catapult | start | 1 | 30",
        "catapult | start | x | 30 | src",
        "catapult | start | 1 | 30 | src | plies",
    ] {
        assert!(
            parse_perft_vectors(bad).unwrap_err().contains("line 1"),
            "{bad}"
        );
    }
}
