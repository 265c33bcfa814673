//! Single-move generation on bitboards (§1.6, §1.7, §1.14), for all pieces
//! of one range class and one direction at once.
//!
//! `S` is the mover's side index (0 Light, 1 Dark) and `D` a direction index
//! ([`Dir`] order); both are constants, so the direction `match` of
//! [`SquareGrid::step`](crate::board::SquareGrid::step) and the forward test
//! fold away. No function here allocates.

use rand::Rng;

use super::{CatapultBits, Geometry, Step};
use crate::board::Dir;

/// Whether direction `d` is forward for side `s` (C-F1): Light N, NE, E
/// (indices 0–2), Dark S, SW, W (4–6).
#[inline(always)]
pub(super) const fn is_forward(s: usize, d: usize) -> bool {
    (d ^ (s * 4)) < 3
}

/// The pieces of `own` by range (C-R-def): `[range 1, 2, 4, 8]`. A forward
/// direction is blocked when the adjacent square that way is off the board
/// (`edge`) or holds a friendly piece (`own` shifted back one square).
#[inline(always)]
pub(super) fn range_classes<B: CatapultBits, const S: usize>(geo: &Geometry<B>, own: B) -> [B; 4] {
    square_ranges::<B, S>(geo, own).map(|class| class & own)
}

/// The number of single moves of `own` in direction `D` (C-M1, C-M2).
///
/// Fronts of different range classes are merged as their remaining budgets
/// meet: range-8 pieces walk 4 squares alone, then range-4 pieces join (4
/// steps left each), 2 more, range-2 pieces join, 1 more, range-1 pieces
/// join, 1 more. Fronts of two pieces never share a square: on one line the
/// rear piece's ray stops before the front piece (C-M3).
#[inline(always)]
fn count_dir<B: CatapultBits, const S: usize, const D: usize>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    empty: B,
    classes: &[B; 4],
) -> u32 {
    let d = Dir::from_index(D);
    let fwd = is_forward(S, D);
    let not_own = !own;
    let (mut pre, mut post) = (B::ZERO, B::ZERO);
    let mut n = 0;
    for (class, steps) in [(3, 4), (2, 2), (1, 1), (0, 1)] {
        pre |= classes[class];
        for _ in 0..steps {
            if (pre | post).is_zero() {
                break;
            }
            let sp = geo.grid.step(pre, d);
            let so = geo.grid.step(post, d);
            pre = sp & empty;
            post = (sp & opp) | (so & not_own);
            n += post.count();
            if fwd {
                n += pre.count();
            }
        }
    }
    n
}

/// The number of single moves of `own` against `opp`.
#[inline(always)]
pub(super) fn count_singles<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
) -> u32 {
    let classes = range_classes::<B, S>(geo, own);
    let empty = geo.grid.full & !(own | opp);
    count_dir::<B, S, 0>(geo, own, opp, empty, &classes)
        + count_dir::<B, S, 1>(geo, own, opp, empty, &classes)
        + count_dir::<B, S, 2>(geo, own, opp, empty, &classes)
        + count_dir::<B, S, 3>(geo, own, opp, empty, &classes)
        + count_dir::<B, S, 4>(geo, own, opp, empty, &classes)
        + count_dir::<B, S, 5>(geo, own, opp, empty, &classes)
        + count_dir::<B, S, 6>(geo, own, opp, empty, &classes)
        + count_dir::<B, S, 7>(geo, own, opp, empty, &classes)
}

/// Boards counted at once by [`count_singles_batch`]: eight 64-bit boards
/// fill one 512-bit vector register.
pub(super) const LANES: usize = 8;

/// [`range_classes`] of [`LANES`] boards at once, lane by lane, written so
/// that the compiler vectorises it (the same operations as the scalar one).
#[inline(always)]
fn range_classes_batch<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    own: &[B; LANES],
) -> [[B; LANES]; 4] {
    let blocked = |i: usize| -> [B; LANES] {
        let d = Dir::from_index(i ^ (S * 4));
        let edge = geo.edge[d.index()];
        let back = d.opposite();
        std::array::from_fn(|l| own[l] & (edge | geo.grid.step(own[l], back)))
    };
    let (a, b, c) = (blocked(0), blocked(1), blocked(2));
    let mut out = [[B::ZERO; LANES]; 4];
    for l in 0..LANES {
        let s0 = a[l] ^ b[l] ^ c[l];
        let s1 = (a[l] & b[l]) | (c[l] & (a[l] ^ b[l]));
        out[0][l] = own[l] & !(s0 | s1);
        out[1][l] = s0 & !s1;
        out[2][l] = s1 & !s0;
        out[3][l] = s0 & s1;
    }
    out
}

/// [`count_dir`] of [`LANES`] boards at once, added to `n` lane by lane.
#[inline(always)]
fn count_dir_batch<B: CatapultBits, const S: usize, const D: usize>(
    geo: &Geometry<B>,
    own: &[B; LANES],
    opp: &[B; LANES],
    empty: &[B; LANES],
    classes: &[[B; LANES]; 4],
    n: &mut [u32; LANES],
) {
    let d = Dir::from_index(D);
    let fwd = is_forward(S, D);
    let mut pre = [B::ZERO; LANES];
    let mut post = [B::ZERO; LANES];
    for (class, steps) in [(3, 4), (2, 2), (1, 1), (0, 1)] {
        for l in 0..LANES {
            pre[l] |= classes[class][l];
        }
        for _ in 0..steps {
            let mut any = B::ZERO;
            for l in 0..LANES {
                any |= pre[l] | post[l];
            }
            if any.is_zero() {
                break;
            }
            for l in 0..LANES {
                let sp = geo.grid.step(pre[l], d);
                let so = geo.grid.step(post[l], d);
                pre[l] = sp & empty[l];
                post[l] = (sp & opp[l]) | (so & !own[l]);
                n[l] += post[l].count();
                if fwd {
                    n[l] += pre[l].count();
                }
            }
        }
    }
}

/// [`count_singles`] of [`LANES`] positions at once (lane `l`: `own[l]`
/// against `opp[l]`; an empty lane counts 0): the dagger holder's follower
/// counts, one batch per eight first moves.
#[inline]
pub(super) fn count_singles_batch<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    own: &[B; LANES],
    opp: &[B; LANES],
) -> [u32; LANES] {
    let classes = range_classes_batch::<B, S>(geo, own);
    let empty: [B; LANES] = std::array::from_fn(|l| geo.grid.full & !(own[l] | opp[l]));
    let mut n = [0u32; LANES];
    count_dir_batch::<B, S, 0>(geo, own, opp, &empty, &classes, &mut n);
    count_dir_batch::<B, S, 1>(geo, own, opp, &empty, &classes, &mut n);
    count_dir_batch::<B, S, 2>(geo, own, opp, &empty, &classes, &mut n);
    count_dir_batch::<B, S, 3>(geo, own, opp, &empty, &classes, &mut n);
    count_dir_batch::<B, S, 4>(geo, own, opp, &empty, &classes, &mut n);
    count_dir_batch::<B, S, 5>(geo, own, opp, &empty, &classes, &mut n);
    count_dir_batch::<B, S, 6>(geo, own, opp, &empty, &classes, &mut n);
    count_dir_batch::<B, S, 7>(geo, own, opp, &empty, &classes, &mut n);
    n
}

/// Calls `f` with every single move of `own` in direction `D`: per range
/// class, per step `k`, the non-capturing landings (forward only) then the
/// capturing ones, each in increasing square order; the origin is `k` steps
/// back.
#[inline(always)]
fn gen_dir<B: CatapultBits, const S: usize, const D: usize>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    empty: B,
    classes: &[B; 4],
    f: &mut impl FnMut(Step),
) {
    let d = Dir::from_index(D);
    let fwd = is_forward(S, D);
    let off = geo.rays.offset(d);
    let not_own = !own;
    for (class, &pieces) in classes.iter().enumerate() {
        let (mut pre, mut post) = (pieces, B::ZERO);
        for k in 1..=(1i32 << class) {
            if (pre | post).is_zero() {
                break;
            }
            let sp = geo.grid.step(pre, d);
            let so = geo.grid.step(post, d);
            pre = sp & empty;
            post = (sp & opp) | (so & not_own);
            let back = k * off;
            if fwd {
                for t in pre.iter() {
                    f(Step::new((t as i32 - back) as u32, t, D, false));
                }
            }
            for t in post.iter() {
                f(Step::new((t as i32 - back) as u32, t, D, true));
            }
        }
    }
}

/// Calls `f` with every single move of `own` against `opp`, in the fixed
/// order direction (N, NE, … NW), range class, step, landing square.
#[inline(always)]
pub(super) fn gen_singles<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    f: &mut impl FnMut(Step),
) {
    let classes = range_classes::<B, S>(geo, own);
    let empty = geo.grid.full & !(own | opp);
    gen_dir::<B, S, 0>(geo, own, opp, empty, &classes, f);
    gen_dir::<B, S, 1>(geo, own, opp, empty, &classes, f);
    gen_dir::<B, S, 2>(geo, own, opp, empty, &classes, f);
    gen_dir::<B, S, 3>(geo, own, opp, empty, &classes, f);
    gen_dir::<B, S, 4>(geo, own, opp, empty, &classes, f);
    gen_dir::<B, S, 5>(geo, own, opp, empty, &classes, f);
    gen_dir::<B, S, 6>(geo, own, opp, empty, &classes, f);
    gen_dir::<B, S, 7>(geo, own, opp, empty, &classes, f);
}

/// Rejection draws [`sample_single`] makes before it counts. Between 4 and
/// 16 random 8×8 and 9×9 playouts ran fastest (noisy: a shared machine);
/// counting alone was slower by a quarter on 8×8 and a third on 9×9, and so
/// were 24 draws.
pub(super) const SAMPLE_TRIES: u32 = 12;

/// A single move of `own` drawn uniformly at random, `None` if there is
/// none.
///
/// First up to [`SAMPLE_TRIES`] rejection draws: a piece `p` and a step
/// count `k` in `1..=range(p)` (jointly uniform over `Σ range`) and one of
/// the 8 directions, accepted if that is a legal move (C-M1, C-M2: the `k`
/// squares are on the board, none is friendly, and one is an enemy or the
/// direction is forward). Every legal move is exactly one such triple, so an
/// accepted draw is uniform. About a fifth of the draws succeed in random
/// play. Then, exactly: count the moves per direction ([`count_dir`]), draw
/// an index below the total, and walk only the chosen direction
/// ([`gen_dir`]) to it. Both stages are uniform, so their mixture is; no
/// list is built.
#[inline]
pub(super) fn sample_single<B: CatapultBits, const S: usize, R: Rng + ?Sized>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    rng: &mut R,
) -> Option<Step> {
    let classes = range_classes::<B, S>(geo, own);
    sample_by_rejection::<B, S, R>(geo, own, opp, &classes, rng)
        .or_else(|| sample_by_count::<B, S, R>(geo, own, opp, &classes, rng))
}

/// The rejection stage of [`sample_single`]: `None` if all draws fail.
#[inline(always)]
fn sample_by_rejection<B: CatapultBits, const S: usize, R: Rng + ?Sized>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    classes: &[B; 4],
    rng: &mut R,
) -> Option<Step> {
    let weights = draw_weights(classes);
    let total = weights.iter().sum();
    if total == 0 {
        return None;
    }
    for _ in 0..SAMPLE_TRIES {
        let r = rng.next_u64();
        let Some(x) = lemire(r as u32, total) else {
            continue;
        };
        let d = ((r >> 32) & 7) as usize;
        if let Some(s) = drawn_move::<B, S>(geo, own, opp, classes, &weights, x, d) {
            return Some(s);
        }
    }
    None
}

/// The draw weights of the pieces by range class, `[range 1, 2, 4, 8]`: a
/// piece of range `r` owns `r` draw indices, one per step count `k`. Their
/// sum is the number of (piece, `k`) pairs.
#[inline(always)]
pub(super) fn draw_weights<B: CatapultBits>(classes: &[B; 4]) -> [u32; 4] {
    [
        classes[0].count(),
        classes[1].count() << 1,
        classes[2].count() << 2,
        classes[3].count() << 3,
    ]
}

/// The range a piece of side `S` would have on each square, given `own`
/// (C-R-def): `[range 1, 2, 4, 8]`, over the whole board.
#[inline(always)]
pub(super) fn square_ranges<B: CatapultBits, const S: usize>(geo: &Geometry<B>, own: B) -> [B; 4] {
    let blocked = |i: usize| {
        let d = Dir::from_index(i ^ (S * 4));
        geo.edge[d.index()] | geo.grid.step(own, d.opposite())
    };
    let (a, b, c) = (blocked(0), blocked(1), blocked(2));
    let s0 = a ^ b ^ c;
    let s1 = (a & b) | (c & (a ^ b));
    [!(s0 | s1), s0 & !s1, s1 & !s0, s0 & s1]
}

/// An upper bound on the draw weight ([`draw_weights`] summed) of `own`
/// (by range `classes`) after any single move that lands in `landings`,
/// plus 1: the moved piece leaves with at least range 1, so callers
/// subtract 1. `ranges` is [`square_ranges`] of `own`.
///
/// Moving a piece from `a` to `b` doubles no range but those of the pieces
/// one forward step behind `b` (each gains its range, 1, 2 or 4: a range-8
/// piece has no free forward neighbour), and the piece on `b` gets at most
/// the range `R(b)` a piece there has now. So the weight after is at most
/// `W + max (R(b) + G(b))` over the landings, `G(b)` the gains. `R` and `G`
/// are added for all squares at once, as five-bit numbers in bit planes.
#[inline(always)]
pub(super) fn weight_bound_after<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    classes: &[B; 4],
    ranges: &[B; 4],
    landings: B,
) -> u32 {
    // R(b) is 1, 2, 4 or 8: one plane each, so the planes are its bits.
    let mut v = [ranges[0], ranges[1], ranges[2], ranges[3], B::ZERO];
    for i in 0..3 {
        let d = Dir::from_index(i ^ (S * 4));
        let mut carry = B::ZERO;
        for (k, plane) in v.iter_mut().enumerate() {
            let g = if k < 3 {
                geo.grid.step(classes[k], d)
            } else {
                B::ZERO
            };
            let sum = *plane ^ g ^ carry;
            carry = (*plane & g) | (carry & (*plane ^ g));
            *plane = sum;
        }
    }
    let (mut cand, mut max) = (landings, 0);
    for k in (0..5).rev() {
        let t = cand & v[k];
        if !t.is_zero() {
            cand = t;
            max |= 1 << k;
        }
    }
    draw_weights(classes).iter().sum::<u32>() + max
}

/// An upper bound on the draw weight of the pieces of `own` inside `mask`
/// after any single move landing in `landings`: as
/// [`weight_bound_after`], with the largest `R(b)` over the landings inside
/// `mask` and, per forward direction, the largest gain of a piece inside
/// `mask` one step behind a landing, bounding each part on its own.
#[inline(always)]
pub(super) fn masked_weight_bound_after<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    classes: &[B; 4],
    ranges: &[B; 4],
    landings: B,
    mask: B,
) -> u32 {
    // The largest 2^k whose set `sets[k]` meets `at`, 0 if none.
    let largest = |sets: [B; 4], at: B| {
        (0..4)
            .rev()
            .find(|&k| !(sets[k] & at).is_zero())
            .map_or(0, |k| 1 << k)
    };
    let within: [B; 4] = std::array::from_fn(|k| classes[k] & mask);
    let mut bound = largest(*ranges, landings & mask);
    for i in 0..3 {
        // A range-8 piece gains nothing (no free forward neighbour).
        let d = Dir::from_index(i ^ (S * 4));
        let behind = [0, 1, 2].map(|k| geo.grid.step(within[k], d));
        bound += largest([behind[0], behind[1], behind[2], B::ZERO], landings);
    }
    draw_weights(&within).iter().sum::<u32>() + bound
}

/// The squares from which a line in direction `d` meets a piece of `opp`:
/// the only squares a move that way can capture from (C-M2).
#[inline(always)]
pub(super) fn lines_onto<B: CatapultBits>(geo: &Geometry<B>, opp: B, d: Dir) -> B {
    let back = d.opposite();
    let (mut front, mut all) = (opp, B::ZERO);
    for _ in 1..geo.n {
        front = geo.grid.step(front, back);
        all |= front;
    }
    all
}

/// The move of one rejection draw: index `x` (below the sum of `weights`)
/// names a piece and a step count `k`, `d` a direction ([`Dir`] order).
/// `Some` if that is a legal move (C-M1, C-M2: the `k` squares are on the
/// board, none is friendly, and one is an enemy or the direction is
/// forward). Every legal single move is exactly one (`x`, `d`).
#[inline(always)]
pub(super) fn drawn_move<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    classes: &[B; 4],
    weights: &[u32; 4],
    mut x: u32,
    d: usize,
) -> Option<Step> {
    // The class holding x, without branches: the number of class prefix
    // sums at or below x.
    let (p1, p2) = (weights[0], weights[0] + weights[1]);
    let p3 = p2 + weights[2];
    let class = (x >= p1) as usize + (x >= p2) as usize + (x >= p3) as usize;
    x -= [0, p1, p2, p3][class];
    let from = classes[class].nth(x >> class);
    let k = (x & ((1 << class) - 1)) + 1;
    let dir = Dir::from_index(d);
    let to = geo.rays.target(dir, from, k)?;
    let path = geo.rays.ray(dir, from) ^ geo.rays.ray(dir, to);
    if !(path & own).is_zero() {
        return None;
    }
    let capture = !(path & opp).is_zero();
    (capture || is_forward(S, d)).then(|| Step::new(from, to, d, capture))
}

/// The exact stage of [`sample_single`]: `None` only if there is no move.
#[inline(always)]
fn sample_by_count<B: CatapultBits, const S: usize, R: Rng + ?Sized>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    classes: &[B; 4],
    rng: &mut R,
) -> Option<Step> {
    let empty = geo.grid.full & !(own | opp);
    let counts = [
        count_dir::<B, S, 0>(geo, own, opp, empty, classes),
        count_dir::<B, S, 1>(geo, own, opp, empty, classes),
        count_dir::<B, S, 2>(geo, own, opp, empty, classes),
        count_dir::<B, S, 3>(geo, own, opp, empty, classes),
        count_dir::<B, S, 4>(geo, own, opp, empty, classes),
        count_dir::<B, S, 5>(geo, own, opp, empty, classes),
        count_dir::<B, S, 6>(geo, own, opp, empty, classes),
        count_dir::<B, S, 7>(geo, own, opp, empty, classes),
    ];
    let total: u32 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let mut x = uniform_below(rng, total);
    let mut d = 0;
    while x >= counts[d] {
        x -= counts[d];
        d += 1;
    }
    pick_in_dir::<B, S>(geo, own, opp, empty, classes, d, x)
}

/// The move of index `x` among the single moves of `own` in direction `d`,
/// in [`gen_dir`] order; `None` if there are `x` or fewer.
#[inline(always)]
fn pick_in_dir<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    empty: B,
    classes: &[B; 4],
    d: usize,
    mut x: u32,
) -> Option<Step> {
    let mut found = None;
    let mut pick = |s: Step| {
        if x == 0 {
            found = Some(s);
        }
        x = x.wrapping_sub(1);
    };
    let f = &mut pick;
    match d {
        0 => gen_dir::<B, S, 0>(geo, own, opp, empty, classes, f),
        1 => gen_dir::<B, S, 1>(geo, own, opp, empty, classes, f),
        2 => gen_dir::<B, S, 2>(geo, own, opp, empty, classes, f),
        3 => gen_dir::<B, S, 3>(geo, own, opp, empty, classes, f),
        4 => gen_dir::<B, S, 4>(geo, own, opp, empty, classes, f),
        5 => gen_dir::<B, S, 5>(geo, own, opp, empty, classes, f),
        6 => gen_dir::<B, S, 6>(geo, own, opp, empty, classes, f),
        _ => gen_dir::<B, S, 7>(geo, own, opp, empty, classes, f),
    }
    found
}

/// A uniform index in `0..m` from a uniform 32-bit `r` by Lemire's
/// multiply-shift, exact: `None` (draw again) on the rare biased low part.
#[inline(always)]
pub(super) fn lemire(r: u32, m: u32) -> Option<u32> {
    let p = r as u64 * m as u64;
    let low = p as u32;
    if low < m && low < (u32::MAX - m + 1) % m {
        return None;
    }
    Some((p >> 32) as u32)
}

/// A uniform integer in `0..m` (`m >= 1`) by Lemire's multiply-shift with
/// rejection ("Fast random integer generation in an interval", ACM TOMACS
/// 2019): one 32-bit draw almost always.
#[inline(always)]
fn uniform_below<R: Rng + ?Sized>(rng: &mut R, m: u32) -> u32 {
    loop {
        let p = rng.next_u32() as u64 * m as u64;
        let low = p as u32;
        if low >= m || low >= (u32::MAX - m + 1) % m {
            return (p >> 32) as u32;
        }
    }
}

/// Every square a capturing move of `own` can land on (the union of the
/// post fronts of C-M3): an enemy piece in this set can be captured now.
#[inline]
pub(super) fn capture_reach<B: CatapultBits, const S: usize>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
) -> B {
    let classes = range_classes::<B, S>(geo, own);
    let empty = geo.grid.full & !(own | opp);
    capture_reach_dir::<B, 0>(geo, own, opp, empty, &classes)
        | capture_reach_dir::<B, 1>(geo, own, opp, empty, &classes)
        | capture_reach_dir::<B, 2>(geo, own, opp, empty, &classes)
        | capture_reach_dir::<B, 3>(geo, own, opp, empty, &classes)
        | capture_reach_dir::<B, 4>(geo, own, opp, empty, &classes)
        | capture_reach_dir::<B, 5>(geo, own, opp, empty, &classes)
        | capture_reach_dir::<B, 6>(geo, own, opp, empty, &classes)
        | capture_reach_dir::<B, 7>(geo, own, opp, empty, &classes)
}

#[inline(always)]
fn capture_reach_dir<B: CatapultBits, const D: usize>(
    geo: &Geometry<B>,
    own: B,
    opp: B,
    empty: B,
    classes: &[B; 4],
) -> B {
    let d = Dir::from_index(D);
    let not_own = !own;
    let (mut pre, mut post, mut reach) = (B::ZERO, B::ZERO, B::ZERO);
    for (class, steps) in [(3, 4), (2, 2), (1, 1), (0, 1)] {
        pre |= classes[class];
        for _ in 0..steps {
            if (pre | post).is_zero() {
                break;
            }
            let sp = geo.grid.step(pre, d);
            let so = geo.grid.step(post, d);
            pre = sp & empty;
            post = (sp & opp) | (so & not_own);
            reach |= post;
        }
    }
    reach
}
