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

    /// The number of legal jumps, without building a list, from the
    /// jumpers kept in the state ([`SlySolitaireState::jumps`]).
    #[inline]
    pub(crate) fn count_jumps(&self) -> usize {
        self.kept_jumpers().iter().map(|l| l.count()).sum::<u32>() as usize
    }

    /// Writes the legal jumps to `out` (cleared first), in the order of
    /// [`Self::for_each_jump`].
    #[inline]
    pub(crate) fn write_jumps(&self, out: &mut Vec<SlySolitaireMove>) {
        out.clear();
        let j = self.kept_jumpers();
        self.for_each_in(&j, |from, to| {
            out.push(SlySolitaireMove {
                from: from as u8,
                to: to as u8,
            })
        });
    }
}

/// A whole board as sixteen 16-bit lanes: lane `r` is row `r`'s line (bit
/// `c` = column `c`); lanes 12..16 and bits 12..16 are always 0. Every
/// operation works lane by lane, so the compiler keeps a board in one
/// vector register and the jumps of all pieces are found at once.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lanes(pub(crate) [u16; 16]);

impl Lanes {
    pub(crate) const ZERO: Lanes = Lanes([0; 16]);

    /// Twelve row lines, zero-padded.
    #[inline(always)]
    pub(crate) fn from_rows(rows: &[u16; 12]) -> Lanes {
        let mut l = [0u16; 16];
        l[..12].copy_from_slice(rows);
        Lanes(l)
    }

    #[inline(always)]
    pub(crate) fn zip(self, o: Lanes, f: impl Fn(u16, u16) -> u16) -> Lanes {
        Lanes(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }

    #[inline(always)]
    pub(crate) fn and(self, o: Lanes) -> Lanes {
        self.zip(o, |a, b| a & b)
    }

    #[inline(always)]
    pub(crate) fn or(self, o: Lanes) -> Lanes {
        self.zip(o, |a, b| a | b)
    }

    /// `self` without the bits of `o`.
    #[inline(always)]
    pub(crate) fn and_not(self, o: Lanes) -> Lanes {
        self.zip(o, |a, b| a & !b)
    }

    /// Lane-wise sum (no lane carries into the next).
    #[inline(always)]
    pub(crate) fn add(self, o: Lanes) -> Lanes {
        self.zip(o, |a, b| a.wrapping_add(b))
    }

    /// One column to the right (towards column L).
    #[inline(always)]
    pub(crate) fn shl(self, n: u32) -> Lanes {
        self.zip(self, |a, _| a << n)
    }

    /// One column to the left (towards column A).
    #[inline(always)]
    pub(crate) fn shr(self, n: u32) -> Lanes {
        self.zip(self, |a, _| a >> n)
    }

    /// `n` rows down the board (towards row 12): lane `r` takes lane `r - n`.
    #[inline(always)]
    pub(crate) fn down(self, n: usize) -> Lanes {
        let mut l = [0u16; 16];
        l[n..].copy_from_slice(&self.0[..16 - n]);
        Lanes(l)
    }

    /// `n` rows up the board (towards row 1): lane `r` takes lane `r + n`.
    #[inline(always)]
    pub(crate) fn up(self, n: usize) -> Lanes {
        let mut l = [0u16; 16];
        l[..16 - n].copy_from_slice(&self.0[n..]);
        Lanes(l)
    }

    /// The bits set, over all lanes.
    #[inline(always)]
    pub(crate) fn count(self) -> u32 {
        let mut n = 0;
        for w in self.0.chunks_exact(4) {
            let x = w[0] as u64 | (w[1] as u64) << 16 | (w[2] as u64) << 32 | (w[3] as u64) << 48;
            n += x.count_ones();
        }
        n
    }

    /// The occluded fill of `seeds` through `through`, one step being
    /// `step` (Kogge–Stone: runs of up to 15 squares; a line has 12).
    #[inline(always)]
    pub(crate) fn fill(self, through: Lanes, step: impl Fn(Lanes, u32) -> Lanes) -> Lanes {
        let (mut g, mut p) = (self, through);
        g = g.or(p.and(step(g, 1)));
        p = p.and(step(p, 1));
        g = g.or(p.and(step(g, 2)));
        p = p.and(step(p, 2));
        g = g.or(p.and(step(g, 4)));
        p = p.and(step(p, 4));
        g.or(p.and(step(g, 8)))
    }
}

/// The directions of a jump in move order (per piece: up, down, left,
/// right), indices into [`Jumpers`].
const UP: usize = 0;
const DOWN: usize = 1;
const LEFT: usize = 2;
const RIGHT: usize = 3;

/// The pieces that have a jump, by direction (`UP`, `DOWN`, `LEFT`,
/// `RIGHT`), as row lanes: bit `c` of lane `r` of `[d]` = the piece on
/// `(r, c)` jumps in direction `d` (S-1…S-3). A piece has at most one jump a
/// direction, so the move count is the bit count.
pub(crate) type Jumpers = [Lanes; 4];

impl SlySolitaireState {
    /// The jumpers of colour `k` (S-2, S-3), all pieces at once: in
    /// direction `d` a piece jumps when the next space is held by another
    /// colour and the run of other colours from there ends on an empty
    /// space of the area. The spaces of such runs are filled back from
    /// their ends against `d`; a piece of colour `k` just behind one jumps.
    #[inline(always)]
    pub(crate) fn colour_jumpers(&self, k: usize, occ: Lanes, good: Lanes) -> Jumpers {
        let own = Lanes::from_rows(&self.rows[k]);
        let others = occ.and_not(own);
        // Up: the run goes to lower rows; fill back down the board.
        let down = |x: Lanes, n: u32| x.down(n as usize);
        let up = |x: Lanes, n: u32| x.up(n as usize);
        let f_up = others.and(good.down(1)).fill(others, down);
        let f_down = others.and(good.up(1)).fill(others, up);
        // Left: seeds are the lowest bits of their runs, so one carry
        // fills each run upwards and clears it; the cleared bits are the run.
        let seeds_left = others.and(good.shl(1));
        let f_left = others.and_not(others.add(seeds_left));
        let f_right = others
            .and(good.shr(1))
            .fill(others, |x: Lanes, n: u32| x.shr(n));
        [
            own.and(f_up.down(1)),
            own.and(f_down.up(1)),
            own.and(f_left.shl(1)),
            own.and(f_right.shr(1)),
        ]
    }

    /// The board's pieces and the empty spaces of the area, as lanes.
    #[inline(always)]
    pub(crate) fn occ_and_good(&self) -> (Lanes, Lanes) {
        let occ = Lanes::from_rows(&self.occ_rows);
        let good = Lanes::from_rows(&self.geo.row_area).and_not(occ);
        (occ, good)
    }

    /// The jumpers kept in the state by `apply` and `finish_setup`
    /// ([`SlySolitaireState::jumps`]), as lanes.
    #[inline(always)]
    pub(crate) fn kept_jumpers(&self) -> Jumpers {
        self.jumps.map(|d| Lanes::from_rows(&d))
    }

    /// Computes the jumpers, keeps them in the state and sets the end flag
    /// (S-6), after a set-up or a jump.
    #[inline]
    pub(crate) fn refresh_jumps(&mut self) {
        let j = self.jumpers();
        let mut any = 0;
        for (kept, l) in self.jumps.iter_mut().zip(&j) {
            kept.copy_from_slice(&l.0[..12]);
            any |= l.0.iter().fold(0, |a, &x| a | x);
        }
        self.over = any == 0;
    }

    /// Every piece's jumps, by direction ([`Jumpers`]), computed.
    #[inline(always)]
    pub(crate) fn jumpers(&self) -> Jumpers {
        let (occ, good) = self.occ_and_good();
        let mut j = [Lanes::ZERO; 4];
        for k in 0..4 {
            let jk = self.colour_jumpers(k, occ, good);
            for d in 0..4 {
                j[d] = j[d].or(jk[d]);
            }
        }
        j
    }

    /// The landing space of the piece on `(r, c)` jumping in direction `d`
    /// (one of its jumps in `Jumpers`): the first empty space after the run.
    #[inline(always)]
    pub(crate) fn landing(&self, r: u32, c: u32, d: usize) -> u32 {
        let col = self.occ_cols[c as usize];
        let row = self.occ_rows[r as usize];
        match d {
            UP => sly::square(
                r - 1 - (((col as u32) << (16 - r)) as u16).leading_ones(),
                c,
            ),
            DOWN => sly::square(r + 1 + (col >> (r + 1)).trailing_ones(), c),
            LEFT => sly::square(
                r,
                c - 1 - (((row as u32) << (16 - c)) as u16).leading_ones(),
            ),
            _ => sly::square(r, c + 1 + (row >> (c + 1)).trailing_ones()),
        }
    }

    /// Calls `f(from, to)` for the jumps of `j` in move order (rows from
    /// the top, then colours B L D O, then pieces from the left; per piece
    /// up, down, left, right: the order of [`Self::for_each_jump`]).
    #[inline(always)]
    pub(crate) fn for_each_in(&self, j: &Jumpers, mut f: impl FnMut(u32, u32)) {
        for r in 0..12u32 {
            let ri = r as usize;
            let any = j[UP].0[ri] | j[DOWN].0[ri] | j[LEFT].0[ri] | j[RIGHT].0[ri];
            if any == 0 {
                continue;
            }
            for k in 0..4 {
                let mut bits = self.rows[k][ri] & any;
                while bits != 0 {
                    let c = bits.trailing_zeros();
                    bits &= bits - 1;
                    for (d, jd) in j.iter().enumerate() {
                        if jd.0[ri] >> c & 1 == 1 {
                            f(sly::square(r, c), self.landing(r, c, d));
                        }
                    }
                }
            }
        }
    }

    /// The jump number `i` (0-based, `i` < the count of `j`) in move order
    /// ([`Self::for_each_in`]), found by counting whole rows first.
    #[inline(always)]
    pub(crate) fn nth_in(&self, j: &Jumpers, mut i: u32) -> SlySolitaireMove {
        for r in 0..12u32 {
            let ri = r as usize;
            let packed = j[UP].0[ri] as u64
                | (j[DOWN].0[ri] as u64) << 16
                | (j[LEFT].0[ri] as u64) << 32
                | (j[RIGHT].0[ri] as u64) << 48;
            let n = packed.count_ones();
            if i >= n {
                i -= n;
                continue;
            }
            let any = j[UP].0[ri] | j[DOWN].0[ri] | j[LEFT].0[ri] | j[RIGHT].0[ri];
            for k in 0..4 {
                let mut bits = self.rows[k][ri] & any;
                while bits != 0 {
                    let c = bits.trailing_zeros();
                    bits &= bits - 1;
                    // This piece's directions, in order, as bits 0..4.
                    let x = (packed >> c) as u32;
                    let mut dirs = (x & 1)
                        | (x >> 15 & 2)
                        | ((packed >> (c + 30)) as u32 & 4)
                        | ((packed >> (c + 45)) as u32 & 8);
                    let m = dirs.count_ones();
                    if i >= m {
                        i -= m;
                        continue;
                    }
                    for _ in 0..i {
                        dirs &= dirs - 1;
                    }
                    let d = dirs.trailing_zeros() as usize;
                    return SlySolitaireMove {
                        from: sly::square(r, c) as u8,
                        to: self.landing(r, c, d) as u8,
                    };
                }
            }
            unreachable!("row {r} holds {n} jumps");
        }
        unreachable!("fewer jumps than the index");
    }

    /// A uniformly random legal jump: the same draw, and so the same jump,
    /// as the default [`crate::State::sample_legal_move`] over
    /// [`Self::write_jumps`] (`random_range(0..count)`, then that index),
    /// without writing the list.
    #[inline]
    pub(crate) fn sample_jump<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Option<SlySolitaireMove> {
        let j = self.kept_jumpers();
        let n = j.iter().map(|l| l.count()).sum::<u32>() as usize;
        if n == 0 {
            return None;
        }
        let i = rng.random_range(0..n);
        Some(self.nth_in(&j, i as u32))
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::{Area, Layout, SlySolitaireGame};
    use super::*;
    use crate::api::{Game, State};

    /// The jumps by walking each piece's four lines ([`for_each_jump`]),
    /// the move order every search was recorded with.
    fn walked(s: &SlySolitaireState) -> Vec<SlySolitaireMove> {
        let mut v = Vec::new();
        s.for_each_jump(|from, to| {
            v.push(SlySolitaireMove {
                from: from as u8,
                to: to as u8,
            });
            false
        });
        v
    }

    /// The evaluation piece by piece, as every search was recorded with.
    fn walked_evaluate(s: &SlySolitaireState) -> i32 {
        let mut v = -100 * s.count as i32;
        for r in 0..12 {
            let occ = s.occ_rows[r] as u32;
            let mut b = occ;
            while b != 0 {
                let c = b.trailing_zeros();
                b &= b - 1;
                let near_row = occ & (0b11011 << c >> 2) != 0;
                let col = s.occ_cols[c as usize] as u32;
                let near_col = col & (0b11011 << r >> 2) != 0;
                if !near_row && !near_col {
                    v -= 30;
                }
            }
            for k in 0..4 {
                let own = s.rows[k][r];
                v -= 5 * (own & (own >> 1)).count_ones() as i32;
                if r + 1 < 12 {
                    v -= 5 * (own & s.rows[k][r + 1]).count_ones() as i32;
                }
            }
        }
        v
    }

    /// Along seeded random playouts of every layout and area: the lane
    /// generator lists the walked jumps in the same order, counts them,
    /// sees the end, scores the position as the piece-by-piece evaluation, and samples the jump the default sampler would (the
    /// same draw from the same generator).
    #[test]
    fn lanes_agree_with_the_walk() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut positions = 0;
        for layout in [Layout::Canonical, Layout::Random] {
            for area in [Area::Board, Area::Window] {
                let game = SlySolitaireGame::new(layout, area);
                for seed in 0..150 {
                    let mut s = game.initial_state(seed);
                    loop {
                        let want = walked(&s);
                        let mut got = Vec::new();
                        s.write_jumps(&mut got);
                        assert_eq!(got, want, "{}", s.to_text());
                        assert_eq!(s.count_jumps(), want.len());
                        assert_eq!(s.jumpers().iter().all(|l| l.count() == 0), want.is_empty());
                        assert_eq!(s.over, want.is_empty());
                        assert_eq!(
                            super::super::eval::evaluate(&s),
                            walked_evaluate(&s),
                            "{}",
                            s.to_text()
                        );
                        let (mut a, mut b) = (rng.clone(), rng.clone());
                        let fast = s.sample_jump(&mut a);
                        let slow = (!want.is_empty()).then(|| want[b.random_range(0..want.len())]);
                        assert_eq!(fast, slow, "{}", s.to_text());
                        assert_eq!(a.random::<u64>(), b.random::<u64>());
                        positions += 1;
                        if want.is_empty() {
                            break;
                        }
                        s.apply(want[rng.random_range(0..want.len())]);
                    }
                }
            }
        }
        assert!(positions > 10_000, "{positions}");
        // The size the module docs give.
        assert_eq!(std::mem::size_of::<SlySolitaireState>(), 360);
    }
}
