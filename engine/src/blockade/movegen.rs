//! Blockade move generation: placements (B-3), guard slides (B-4) and the
//! pass (B-6). Counting and the k-th move build no list.

use super::BlockadeMove;
use super::state::BlockadeState;
use crate::board::sly::{self, Heading, slide_fill};
use crate::board::{B192, Bits};

/// Where the side to move may place a guard (B-3): empty, outside both
/// kings' fields, and for his first guard not a centre.
#[inline(always)]
pub(super) fn placements(s: &BlockadeState) -> B192 {
    let mut t = s.empty() & !s.king_fields;
    if s.guards(s.side()).is_zero() {
        t &= !sly::CENTRES;
    }
    t
}

/// Where the guard on `from` may slide (B-4): along its row and column
/// through empty spaces, passing no piece, ending outside both kings'
/// fields (passing over their empty spaces is allowed).
#[inline(always)]
pub(super) fn slides(s: &BlockadeState, from: u32, empty: B192) -> [B192; 4] {
    let b = B192::bit(from);
    Heading::ALL.map(|h| (slide_fill(h, b, empty) ^ b) & !s.king_fields)
}

/// Calls `f` with each legal move in a fixed order: placements by square;
/// or slides by guard square, heading (up, right, down, left), then
/// destination square; or the pass.
#[inline]
pub(super) fn generate(s: &BlockadeState, mut f: impl FnMut(BlockadeMove)) {
    if s.placing() {
        for sq in placements(s).iter() {
            f(BlockadeMove::Place(sq as u8));
        }
        return; // never empty: 144 spaces, at most 18 of them in king fields or taken
    }
    let empty = s.empty();
    let mut any = false;
    for g in s.guards(s.side()).iter() {
        for d in slides(s, g, empty) {
            for to in d.iter() {
                any = true;
                f(BlockadeMove::Slide {
                    from: g as u8,
                    to: to as u8,
                });
            }
        }
    }
    if !any {
        f(BlockadeMove::Pass);
    }
}

/// The number of legal moves (the game must not be over).
#[inline]
pub(super) fn count(s: &BlockadeState) -> u32 {
    if s.placing() {
        return placements(s).count();
    }
    let empty = s.empty();
    let n: u32 = s
        .guards(s.side())
        .iter()
        .map(|g| slides(s, g, empty).iter().map(|d| d.count()).sum::<u32>())
        .sum();
    n.max(1)
}

/// The `k`-th legal move in [`generate`]'s order (`k < count(s)`).
#[inline]
pub(super) fn nth(s: &BlockadeState, mut k: u32) -> BlockadeMove {
    if s.placing() {
        return BlockadeMove::Place(placements(s).nth(k) as u8);
    }
    let empty = s.empty();
    for g in s.guards(s.side()).iter() {
        for d in slides(s, g, empty) {
            let c = d.count();
            if k < c {
                return BlockadeMove::Slide {
                    from: g as u8,
                    to: d.nth(k) as u8,
                };
            }
            k -= c;
        }
    }
    BlockadeMove::Pass
}
