//! Admissible lower bounds on the moves a line needs to leave at most
//! `keep` pieces (`docs/rules/sly_solitaire.md` §3.2, S-1…S-4): the
//! fewest-moves search ([`super::solve`]) cuts a position when a bound
//! exceeds the moves it has left.
//!
//! ## The line cover bound
//! Call a piece *involved* in a move when it is the jumper or in the run
//! it removes (S-2, S-4). Take any line of `d ≥ 1` moves from `s` that
//! ends with at most `keep` pieces (`keep ≥ 1`: a jump never removes its
//! jumper, so no line ends with none), and any piece `p` on the board now.
//!
//! * If no move involves `p`, `p` never moves and is never removed: it is
//!   on the board at the end. So is the last move's jumper, which is
//!   involved. So at most `keep − 1` pieces are never involved.
//! * Otherwise look at the **first** move that involves `p`. Before it `p`
//!   has not moved, so it still stands on its square of now. A jump is
//!   along one row or one column (S-1, S-2), and both the jumper's square
//!   and the run lie on that line: so the line of that move passes through
//!   `p`'s square of now.
//!
//! Hence all pieces but at most `keep − 1` lie on the union of the (at
//! most `d`) lines the moves jump along. Read the pieces as the edges of a
//! bipartite graph between the 12 rows and the 12 columns (a piece on
//! `(r, c)` joins row `r` and column `c`): a set of lines holding every
//! piece is a *vertex cover* of that graph, and by König's theorem the
//! smallest vertex cover of a bipartite graph has the size ν of its
//! largest *matching*. Dropping `keep − 1` edges (the pieces never
//! involved) lowers ν by at most `keep − 1`, so
//!
//! ```text
//! d ≥ ν − (keep − 1)        (a win, keep = 1: d ≥ ν, every piece covered)
//! ```
//!
//! Nothing in the argument depends on the colours or on where pieces land,
//! so it holds on either playing area (S-5). At the canonical start (rows
//! 4–9 × D–I full) ν = 6; after the four moves that empty rows 4–7 (the
//! 11-move win's start) it is 4.
//!
//! ## The removal bound
//! Every move removes its run, all pieces of one line but the jumper at
//! most; a landing adds one piece to one row and one column, so a line's
//! count grows by at most one a move. With at most `m` pieces in any line
//! now, move `j` (0-based) removes at most `m − 1 + j`
//! ([`super::solve::removable_within`]); the moves needed are at least the
//! fewest `d` whose sum reaches `pieces − keep`.
//!
//! ## The isolation bound
//! A piece is *isolated* when none of its four orthogonal neighbours holds
//! a piece. When a move first involves a piece it has a neighbour: as the
//! jumper, the first piece of the run (S-2); in the run, the jumper or the
//! run piece before it. The neighbour of an isolated piece is empty now,
//! and a space fills only by a landing (S-2); that landing is part of an
//! **earlier** move, so the last move's landing serves none. A landing
//! space neighbours at most `w` isolated pieces, `w` the most any empty
//! space neighbours now (at most 4). With `i` isolated pieces, at least
//! `i − (keep − 1)` of them involved (the line cover argument), a line of
//! `d` moves needs `d − 1 ≥ ⌈(i − keep + 1) / w⌉`.
//!
//! [`moves_lower_bound`] is the largest of the three.

use super::state::SlySolitaireState;

/// No row matched to a column.
const FREE: u8 = u8::MAX;

/// Kuhn's augmenting path from row `r` over `adj` (`adj[r]`: the columns
/// of row `r`'s pieces, bit c), skipping the columns in `seen`; on success
/// `mate[c]` is the row matched to column `c`.
fn augment(r: usize, adj: &[u16; 12], seen: &mut u16, mate: &mut [u8; 12]) -> bool {
    let mut cand = adj[r] & !*seen;
    while cand != 0 {
        let c = cand.trailing_zeros() as usize;
        cand &= cand - 1;
        *seen |= 1 << c;
        if mate[c] == FREE || augment(mate[c] as usize, adj, seen, mate) {
            mate[c] = r as u8;
            return true;
        }
    }
    false
}

/// The size ν of a maximum matching of the row–column graph of `adj`.
fn max_matching(adj: &[u16; 12]) -> u32 {
    let mut mate = [FREE; 12];
    let mut size = 0;
    for r in 0..12 {
        if adj[r] != 0 {
            let mut seen = 0u16;
            if augment(r, adj, &mut seen, &mut mate) {
                size += 1;
            }
        }
    }
    size
}

/// The row–column graph of `s`: `adj[r]` is row `r`'s pieces (bit c).
#[inline]
fn graph(s: &SlySolitaireState) -> [u16; 12] {
    s.occ_rows
}

/// The line cover bound (module docs): at least how many moves any line
/// leaving at most `keep` pieces takes, from the lines (rows, columns) that
/// must hold every piece but `keep`. Exact minimum cover for `keep ≤ 1`;
/// `ν − keep` beyond.
pub fn line_cover_bound(s: &SlySolitaireState, keep: u32) -> u32 {
    if s.count as u32 <= keep {
        return 0;
    }
    (max_matching(&graph(s)) + 1).saturating_sub(keep.max(1))
}

/// The removal bound (module docs): the fewest moves whose most pieces
/// removed reach `pieces − keep`; 0 when `keep` pieces are already left.
pub fn removal_bound(s: &SlySolitaireState, keep: u32) -> u32 {
    let n = s.count as u32;
    if n <= keep {
        return 0;
    }
    let need = n - keep;
    let m = s
        .occ_rows
        .iter()
        .chain(s.occ_cols.iter())
        .map(|x| x.count_ones())
        .max()
        .unwrap_or(0);
    let (mut removed, mut d) = (0u32, 0u32);
    while removed < need {
        // Move d removes at most m − 1 + d; with m ≥ 2 every term is ≥ 1
        // and the loop ends; with m ≤ 1 nothing can be jumped at once, but
        // a landing may make a line of two.
        removed += (m + d).saturating_sub(1);
        d += 1;
    }
    d
}

/// The isolation bound (module docs): `1 + ⌈(i − keep + 1) / w⌉` for `i`
/// isolated pieces when more than `keep − 1` are isolated, else 0.
pub fn isolation_bound(s: &SlySolitaireState, keep: u32) -> u32 {
    if s.count as u32 <= keep {
        return 0;
    }
    let occ = &s.occ_rows;
    let mut iso = [0u16; 12];
    let mut i = 0u32;
    for r in 0..12 {
        let near = occ[r] << 1
            | occ[r] >> 1
            | if r > 0 { occ[r - 1] } else { 0 }
            | if r < 11 { occ[r + 1] } else { 0 };
        iso[r] = occ[r] & !near;
        i += iso[r].count_ones();
    }
    let need = (i + 1).saturating_sub(keep.max(1));
    if need == 0 {
        return 0;
    }
    // w: the most isolated pieces one empty space neighbours.
    let mut w = 1u32;
    for r in 0..12 {
        let (up, down) = (
            if r > 0 { iso[r - 1] } else { 0 },
            if r < 11 { iso[r + 1] } else { 0 },
        );
        let sides = [iso[r] << 1, iso[r] >> 1, up, down];
        let mut empty = !occ[r] & 0x0FFF;
        while empty != 0 {
            let c = empty.trailing_zeros();
            empty &= empty - 1;
            let n: u32 = sides.iter().map(|x| (x >> c & 1) as u32).sum();
            w = w.max(n);
        }
    }
    1 + need.div_ceil(w)
}

/// An admissible lower bound on the moves of any line from `s` that ends
/// with at most `keep` pieces (module docs): the largest of
/// [`line_cover_bound`], [`removal_bound`] and [`isolation_bound`]. 0 when `s` has at most
/// `keep` pieces. A position from which no such line exists may get any
/// value.
pub fn moves_lower_bound(s: &SlySolitaireState, keep: u32) -> u32 {
    line_cover_bound(s, keep)
        .max(removal_bound(s, keep))
        .max(isolation_bound(s, keep))
}
