//! Line Up move generation (U-2, U-3): placements on empty centres, or one
//! step of a piece of the required type to an empty neighbour. Counting and
//! the k-th move build no list.

use super::state::LineUpState;
use super::{CELLS, LineUpMove};

/// Calls `f` with each legal move, in a fixed order: placements by cell; or
/// steps by piece cell, then destination cell.
#[inline(always)]
pub(super) fn generate(s: &LineUpState, mut f: impl FnMut(LineUpMove)) {
    let empty = s.empty();
    if s.must_place() {
        let mut e = empty;
        while e != 0 {
            f(LineUpMove::place(e.trailing_zeros() as usize));
            e &= e - 1;
        }
        return;
    }
    let t = s.piece_type();
    let nb = LineUpState::steps(t);
    let mut p = s.pieces(s.player())[t];
    while p != 0 {
        let from = p.trailing_zeros() as usize;
        let mut d = nb[from] & empty;
        while d != 0 {
            f(LineUpMove::step(from, d.trailing_zeros() as usize));
            d &= d - 1;
        }
        p &= p - 1;
    }
}

/// The number of legal moves (the game must not be over).
#[inline(always)]
pub(super) fn count(s: &LineUpState) -> u32 {
    let empty = s.empty();
    if s.must_place() {
        return empty.count_ones();
    }
    let t = s.piece_type();
    let nb = LineUpState::steps(t);
    let mut p = s.pieces(s.player())[t];
    let mut n = 0;
    while p != 0 {
        n += (nb[p.trailing_zeros() as usize] & empty).count_ones();
        p &= p - 1;
    }
    n
}

/// The `k`-th legal move in [`generate`]'s order (`k < count(s)`).
#[inline(always)]
pub(super) fn nth(s: &LineUpState, mut k: u32) -> LineUpMove {
    let empty = s.empty();
    if s.must_place() {
        return LineUpMove::place(nth_bit(empty, k));
    }
    let t = s.piece_type();
    let nb = LineUpState::steps(t);
    let mut p = s.pieces(s.player())[t];
    while p != 0 {
        let from = p.trailing_zeros() as usize;
        let d = nb[from] & empty;
        let c = d.count_ones();
        if k < c {
            return LineUpMove::step(from, nth_bit(d, k));
        }
        k -= c;
        p &= p - 1;
    }
    unreachable!("k is below the move count")
}

#[inline(always)]
fn nth_bit(mut m: u16, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    debug_assert!(m != 0 && (m.trailing_zeros() as usize) < CELLS);
    m.trailing_zeros() as usize
}
