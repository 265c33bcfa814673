//! `tune --texel`: Texel tuning of chess's tapered piece-square tables to
//! recorded games: the start values are the hand-made formulas, the
//! descent lowers the held-out error, and bad input is a one-line error.

use crate::common::{boardlab, dir, fails};
use std::path::Path;

/// A committed file of 200 chess games (alpha-beta against itself at 50
/// ms a move, results/search-switches).
fn games() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/search-switches/king-games.csv.gz")
        .display()
        .to_string()
}

/// The held-out error falls in 20 epochs, and the start column is the
/// hand-made evaluation as docs/cli.md and the engine's comments state
/// it: chess's material weights (knight 311, queen 980) and the
/// piece-square formulas at 89 %: a knight 18 − 6 × its distance from the
/// centre (d4: 0, so 18 × 89 / 100 = 16), a King in the endgame 20 − 6 ×
/// that distance (a1: 6, so −16 × 89 / 100 = −14, rounded toward 0), a
/// pawn in the middlegame 6 a rank above its second plus 4 a rank (at
/// most 2) on files c–f (e4: 12 + 8 = 20, so 17); then the chess terms'
/// weights (the second model, `texel` 2).
#[test]
fn texel_lowers_the_held_out_error_from_the_hand_made_start() {
    let d = dir("texel");
    let out = d.join("texel.csv");
    let run = boardlab(&[
        "tune",
        "--game",
        "royal_guard(royal_powers=false)",
        "--texel",
        &games(),
        "--epochs",
        "20",
        "--tune",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        text.contains("200 used (180 tuned on, 20 held out)"),
        "{text}"
    );
    let held = text
        .lines()
        .find_map(|l| l.split("held out: ").nth(1))
        .unwrap();
    let (before, after) = held.split_once(" -> ").unwrap();
    let (before, after): (f64, f64) = (before.parse().unwrap(), after.parse().unwrap());
    assert!(after < before, "{text}");
    let csv = std::fs::read_to_string(&out).unwrap();
    let start = |name: &str| -> i32 {
        csv.lines()
            .find_map(|l| l.strip_prefix(&format!("{name},")))
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(csv.lines().count(), 1 + 778 + 36);
    assert_eq!(start("mg_knight"), 311);
    assert_eq!(start("eg_queen"), 980);
    assert_eq!(start("mg_knight_d4"), 16);
    assert_eq!(start("eg_king_a1"), -14);
    assert_eq!(start("mg_pawn_e4"), 17);
    // The chess terms' weights start at chess's: knight mobility 6; the
    // passed-pawn table at 96 %, a pawn on its seventh rank 130 in the
    // endgame (124); the shield (10 per two counts) and the King attack
    // (8 per 64 squared units: 2 per 16) in the middlegame only.
    assert_eq!(start("mg_mob_knight"), 6);
    assert_eq!(start("eg_passed_r7"), 124);
    assert_eq!(start("mg_shield"), 5);
    assert_eq!(start("eg_shield"), 0);
    assert_eq!(start("mg_king_attack"), 2);
}

/// A game without linear parameters, a missing file, and no position of
/// the game in the files are one-line errors.
#[test]
fn texel_bad_input_is_a_one_line_error() {
    fails(
        &["tune", "--game", "catapult", "--texel", &games()],
        "no linear parameters to tune",
    );
    fails(
        &[
            "tune",
            "--game",
            "royal_guard(royal_powers=false)",
            "--texel",
            "no-such-file.csv.gz",
        ],
        "cannot read no-such-file.csv.gz",
    );
    let catapult = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/search-switches/catapult-mvv-games.csv.gz");
    fails(
        &[
            "tune",
            "--game",
            "royal_guard(royal_powers=false)",
            "--texel",
            catapult.to_str().unwrap(),
        ],
        "no quiet positions to tune on",
    );
    fails(
        &[
            "tune",
            "--game",
            "royal_guard(royal_powers=false)",
            "--texel",
            &games(),
            "--rate",
            "0",
        ],
        "--rate 0: expected a positive step size",
    );
}
