//! Move generation (S-1…S-5): a jump along a row or a column is read off one
//! 12-bit line of the union of the colours.

use super::state::{SlySolitaireMove, SlySolitaireState};
use crate::board::sly;

/// A jump towards higher indices (right along a row, down a column) by the
/// piece at `i` of a line (S-2, S-3): `occ` the line's pieces, `own` those
/// of the jumper's colour, `area` the line's playable spaces. Returns the
/// landing index and the run's mask, or `None`: no neighbour, a run that
/// reaches the edge of the area, or a piece of the jumper's colour in it.
#[inline(always)]
pub(crate) fn jump_up(occ: u16, own: u16, area: u16, i: u32) -> Option<(u32, u16)> {
    let run = (occ >> (i + 1)).trailing_ones();
    let land = i + 1 + run;
    if run == 0 || land >= 12 || area >> land & 1 == 0 {
        return None;
    }
    let mask = (((1u32 << run) - 1) << (i + 1)) as u16;
    (own & mask == 0).then_some((land, mask))
}

/// A jump towards lower indices (left along a row, up a column); see
/// [`jump_up`].
#[inline(always)]
pub(crate) fn jump_down(occ: u16, own: u16, area: u16, i: u32) -> Option<(u32, u16)> {
    if i == 0 {
        return None;
    }
    // Bit i-1 of the line to bit 15, lower bits below it.
    let run = (((occ as u32) << (16 - i)) as u16).leading_ones();
    if run == 0 || run >= i {
        return None;
    }
    let land = i - 1 - run;
    if area >> land & 1 == 0 {
        return None;
    }
    let mask = (((1u32 << run) - 1) << (land + 1)) as u16;
    (own & mask == 0).then_some((land, mask))
}

impl SlySolitaireState {
    /// Calls `f(from, to)` for every legal jump: rows from the top, then
    /// colours B L D O, then columns from the left; per piece up, down,
    /// left, right. Stops early when `f` returns `true`; returns whether it
    /// did.
    #[inline(always)]
    pub(crate) fn for_each_jump(&self, mut f: impl FnMut(u32, u32) -> bool) -> bool {
        let g = self.geo;
        for r in 0..12u32 {
            let occ_r = self.occ_rows[r as usize];
            if occ_r == 0 {
                continue;
            }
            for k in 0..4 {
                let own_r = self.rows[k][r as usize];
                let mut bits = own_r;
                while bits != 0 {
                    let c = bits.trailing_zeros();
                    bits &= bits - 1;
                    let from = sly::square(r, c);
                    let occ_c = self.occ_cols[c as usize];
                    let own_c = self.cols[k][c as usize];
                    let ca = g.col_area[c as usize];
                    if let Some((l, _)) = jump_down(occ_c, own_c, ca, r)
                        && f(from, sly::square(l, c))
                    {
                        return true;
                    }
                    if let Some((l, _)) = jump_up(occ_c, own_c, ca, r)
                        && f(from, sly::square(l, c))
                    {
                        return true;
                    }
                    let ra = g.row_area[r as usize];
                    if let Some((l, _)) = jump_down(occ_r, own_r, ra, c)
                        && f(from, sly::square(r, l))
                    {
                        return true;
                    }
                    if let Some((l, _)) = jump_up(occ_r, own_r, ra, c)
                        && f(from, sly::square(r, l))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether any jump exists (S-6: the game goes on).
    #[inline]
    pub(crate) fn has_jump(&self) -> bool {
        self.for_each_jump(|_, _| true)
    }

    /// The number of legal jumps, without building a list.
    #[inline]
    pub(crate) fn count_jumps(&self) -> usize {
        let mut n = 0;
        self.for_each_jump(|_, _| {
            n += 1;
            false
        });
        n
    }

    /// Writes the legal jumps to `out` (cleared first).
    #[inline]
    pub(crate) fn write_jumps(&self, out: &mut Vec<SlySolitaireMove>) {
        out.clear();
        self.for_each_jump(|from, to| {
            out.push(SlySolitaireMove {
                from: from as u8,
                to: to as u8,
            });
            false
        });
    }
}
