//! Unit tests of `experiments::research::pool`.

use experiments::research::pool::*;

/// Worked by hand: X beats the anchor 3 games to 1, so the maximum-
/// likelihood gap is 400·log10(3) = +190.8 Elo; Y, linked to the
/// anchor only through X, wins one, loses one and draws two against X:
/// the same rating as X. Z sweeps Y 4–0: a bound, ≥ Y + the exact
/// one-sided bound of 4 wins in 4, never a point.
#[test]
fn pooled_fit_matches_a_hand_count() {
    let mut t = Tally::default();
    let (r, x, y, z) = (t.index("random"), t.index("x"), t.index("y"), t.index("z"));
    for p in [1.0, 1.0, 1.0, 0.0] {
        t.add(x, r, p);
    }
    for p in [1.0, 0.0, 0.5, 0.5] {
        t.add(y, x, p);
    }
    for _ in 0..4 {
        t.add(z, y, 1.0);
    }
    let fit = t.fit(r).unwrap();
    let gap = 400.0 * 3f64.log10();
    assert!((fit[x].elo.unwrap() - gap).abs() < 0.5, "{:?}", fit[x]);
    assert!((fit[y].elo.unwrap() - gap).abs() < 0.5, "{:?}", fit[y]);
    assert_eq!(fit[z].elo, None);
    let sweep = experiments::stats::elo::sweep_bound(4, 0, 0).unwrap();
    assert!((fit[z].lower - (gap + sweep)).abs() < 1.0, "{:?}", fit[z]);
    assert_eq!(t.played[&y], 8);
}
