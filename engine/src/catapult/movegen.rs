//! Single-move generation on bitboards (§1.6, §1.7, §1.14), for all pieces
//! of one range class and one direction at once.
//!
//! `S` is the mover's side index (0 Light, 1 Dark) and `D` a direction index
//! ([`Dir`] order); both are constants, so the direction `match` of
//! [`SquareGrid::step`](crate::board::SquareGrid::step) and the forward test
//! fold away. No function here allocates.
//!
//! On top of them, the side to move's whole actions (C-M1, C-M2, C-P1 and
//! the dagger's double turns, C-D2–C-D6): listing, counting, and the dagger
//! holder's exact rejection sampler.

use rand::Rng;

use super::state::CatapultState;
use super::{CatapultBits, CatapultMove, Geometry, Step};
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

/// A position after one move of the side to move, for look-ahead inside a
/// dagger turn: the mover's and the opponent's pieces, and whether the move
/// won (C-E1, C-K4).
#[derive(Copy, Clone)]
struct After<B> {
    own: B,
    opp: B,
    won: bool,
}

/// Bounds for the dagger holder's sampler ([`CatapultState::sample`]),
/// over every first move: `w_fwd` (piece, steps) pairs for a forward second
/// move, and `nf_max[j]` pairs of pieces in `onto[j]` (on a line onto an
/// enemy) for a second move in the j-th non-forward direction.
struct SecondSlots<B> {
    w_fwd: u32,
    onto: [B; 5],
    nf_max: [u32; 5],
}

/// The j-th (0..5) direction that is not forward for side `S` (C-F1).
#[inline(always)]
fn non_forward<const S: usize>(j: usize) -> Dir {
    Dir::from_index((j + 3) ^ (S * 4))
}

/// The side to move's actions with the dagger rules (C-M1, C-M2, C-P1,
/// C-D2–C-D6): listing, counting and the holder's uniform sampler, built on
/// the single-move generators above.
impl<B: CatapultBits> CatapultState<B> {
    /// The boards after `step` by the side `S` to move, and whether it won:
    /// the opponent has no piece left (C-E1), or in Royal its king was
    /// captured (C-K4).
    #[inline(always)]
    fn after<const S: usize>(&self, step: Step) -> After<B> {
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        let moved = own ^ B::bit(step.from()) ^ B::bit(step.to());
        if !step.is_capture() {
            return After {
                own: moved,
                opp,
                won: false,
            };
        }
        let path =
            self.geo.rays.ray(step.dir(), step.from()) ^ self.geo.rays.ray(step.dir(), step.to());
        let opp = opp & !path;
        let won = if self.rules.royal {
            !(path & self.kings & self.pieces[1 - S]).is_zero()
        } else {
            opp.is_zero()
        };
        After {
            own: moved,
            opp,
            won,
        }
    }

    /// The enemy pieces the single move `step` of the side to move removes
    /// (C-M2: every enemy piece on its path); empty for a non-capture.
    pub(super) fn captured(&self, step: Step) -> B {
        if !step.is_capture() {
            return B::ZERO;
        }
        let path =
            self.geo.rays.ray(step.dir(), step.from()) ^ self.geo.rays.ray(step.dir(), step.to());
        path & self.pieces(self.side.other())
    }

    /// The single captures of side `S` (to move) into `out`: one move each
    /// (C-M2), also for the dagger's holder, whose single move keeps the
    /// dagger (C-D2); no double turn.
    pub(super) fn single_captures<const S: usize>(&self, out: &mut Vec<CatapultMove>) {
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        gen_singles::<B, S>(self.geo, own, opp, &mut |s| {
            if s.is_capture() {
                out.push(CatapultMove::Move(s));
            }
        });
    }

    /// Writes the actions of side `S` (to move) into `out` (C-M1, C-M2,
    /// C-P1; with the dagger C-D2–C-D6).
    pub(super) fn actions<const S: usize>(&self, out: &mut Vec<CatapultMove>) {
        let geo = self.geo;
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        gen_singles::<B, S>(geo, own, opp, &mut |s| out.push(CatapultMove::Move(s)));
        if out.is_empty() {
            // C-P1 (and C-D6: a stuck holder cannot use the dagger).
            out.push(CatapultMove::Pass);
            return;
        }
        if !self.holds_dagger() {
            return;
        }
        let singles = out.len();
        for i in 0..singles {
            let CatapultMove::Move(m1) = out[i] else {
                unreachable!("singles come first")
            };
            let a = self.after::<S>(m1);
            if a.won {
                continue; // C-D4: the game ends after m1.
            }
            let before = out.len();
            gen_singles::<B, S>(geo, a.own, a.opp, &mut |m2| {
                out.push(CatapultMove::Double(m1, m2))
            });
            if out.len() == before && self.rules.dagger_move_then_pass {
                out.push(CatapultMove::MoveThenPass(m1)); // C-D5
            }
        }
    }

    /// The dagger actions that start with each of up to [`LANES`] first
    /// moves `m1s[..len]` (the rest of the result is 0): 0 if the move wins
    /// (C-D4), else the double turns, or 1 for `m1;pass` when there is no
    /// second move (C-D5).
    #[inline(always)]
    fn dagger_followers_batch<const S: usize>(
        &self,
        m1s: &[Step; LANES],
        len: usize,
    ) -> [u32; LANES] {
        let mut own = [B::ZERO; LANES];
        let mut opp = [B::ZERO; LANES];
        let mut won = [true; LANES];
        for l in 0..len {
            let a = self.after::<S>(m1s[l]);
            (own[l], opp[l], won[l]) = (a.own, a.opp, a.won);
        }
        let counts = count_singles_batch::<B, S>(self.geo, &own, &opp);
        let pass = self.rules.dagger_move_then_pass as u32;
        std::array::from_fn(|l| match (won[l], counts[l]) {
            (true, _) => 0,
            (false, 0) => pass,
            (false, c) => c,
        })
    }

    /// Calls `f(m1, followers)` for every single move `m1` of the dagger
    /// holder `S`, in [`gen_singles`] order, counting the followers eight
    /// first moves at a time ([`Self::dagger_followers_batch`]); returns the
    /// number of singles.
    #[inline(always)]
    fn for_each_dagger_weight<const S: usize>(&self, mut f: impl FnMut(Step, u32)) -> usize {
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        let mut chunk = [Step::new(0, 0, 0, false); LANES];
        let (mut k, mut singles) = (0, 0);
        gen_singles::<B, S>(self.geo, own, opp, &mut |m1| {
            chunk[k] = m1;
            k += 1;
            singles += 1;
            if k == LANES {
                let w = self.dagger_followers_batch::<S>(&chunk, LANES);
                for l in 0..LANES {
                    f(chunk[l], w[l]);
                }
                k = 0;
            }
        });
        if k > 0 {
            let w = self.dagger_followers_batch::<S>(&chunk, k);
            for l in 0..k {
                f(chunk[l], w[l]);
            }
        }
        singles
    }

    pub(super) fn count<const S: usize>(&self) -> usize {
        let geo = self.geo;
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        if !self.holds_dagger() {
            return match count_singles::<B, S>(geo, own, opp) {
                0 => 1, // the forced pass
                n => n as usize,
            };
        }
        let mut followers = 0usize;
        let singles = self.for_each_dagger_weight::<S>(|_, w| followers += w as usize);
        if singles == 0 {
            return 1; // the forced pass
        }
        singles + followers
    }

    /// The second-move slots of the holder `S`'s sampler (see
    /// [`Self::sample`]), for first moves landing in `landings`.
    #[inline(always)]
    fn second_slots<const S: usize>(&self, landings: B) -> SecondSlots<B> {
        let geo = self.geo;
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        let classes = range_classes::<B, S>(geo, own);
        let ranges = square_ranges::<B, S>(geo, own);
        let onto: [B; 5] = std::array::from_fn(|j| lines_onto(geo, opp, non_forward::<S>(j)));
        SecondSlots {
            w_fwd: weight_bound_after::<B, S>(geo, &classes, &ranges, landings) - 1,
            onto,
            nf_max: std::array::from_fn(|j| {
                masked_weight_bound_after::<B, S>(geo, &classes, &ranges, landings, onto[j])
            }),
        }
    }

    pub(super) fn sample<const S: usize, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<CatapultMove>,
    ) -> CatapultMove {
        let geo = self.geo;
        let (own, opp) = (self.pieces[S], self.pieces[1 - S]);
        if !self.holds_dagger() {
            return match sample_single::<B, S, R>(geo, own, opp, rng) {
                Some(s) => CatapultMove::Move(s),
                None => CatapultMove::Pass,
            };
        }
        // The holder: an exact rejection sampler over the actions, which
        // never counts them (there are hundreds). Every single m1 owns the
        // same number of slots:
        // - one for m1 alone, one for `m1;pass` (C-D5, if on);
        // - 3 · w_fwd for a second move forward: slot (x, d) is the move
        //   `drawn_move` names in the position after m1, if legal, where x
        //   counts (piece, steps) pairs; w_fwd bounds their number after any
        //   m1 (`weight_bound_after`);
        // - nf_max[j] for a second move in the j-th other direction, which
        //   must capture (C-M2): x counts only the pairs of pieces on a line
        //   onto an enemy (`lines_onto`; m1 only removes enemies, so the set
        //   before m1 holds every such piece after it).
        // Each action is exactly one slot and the slot is drawn uniformly,
        // so an accepted draw is uniform over the actions (C-D2–C-D5).
        //
        // The singles go to the stack; past FIRST_CAP of them (never seen in
        // play) they are listed again in `buf`.
        const FIRST_CAP: usize = 128;
        let mut firsts = [Step::new(0, 0, 0, false); FIRST_CAP];
        let (mut n1, mut landings) = (0usize, B::ZERO);
        gen_singles::<B, S>(geo, own, opp, &mut |s| {
            landings |= B::bit(s.to());
            if n1 < FIRST_CAP {
                firsts[n1] = s;
            }
            n1 += 1;
        });
        if n1 == 0 {
            return CatapultMove::Pass;
        }
        if n1 > FIRST_CAP {
            buf.clear();
            gen_singles::<B, S>(geo, own, opp, &mut |s| buf.push(CatapultMove::Move(s)));
        }
        let first = |i: usize| {
            if n1 <= FIRST_CAP {
                return firsts[i];
            }
            match buf[i] {
                CatapultMove::Move(s) => s,
                _ => unreachable!("singles only"),
            }
        };
        let SecondSlots {
            w_fwd,
            onto,
            nf_max,
        } = self.second_slots::<S>(landings);
        let full = geo.grid.full;
        let pass = self.rules.dagger_move_then_pass as u32;
        let slots = 1 + pass + 3 * w_fwd + nf_max.iter().sum::<u32>();
        loop {
            let r = rng.next_u64();
            let (Some(i), Some(y)) = (lemire(r as u32, n1 as u32), lemire((r >> 32) as u32, slots))
            else {
                continue;
            };
            let m1 = first(i as usize);
            if y == 0 {
                return CatapultMove::Move(m1);
            }
            let a = self.after::<S>(m1);
            if a.won {
                continue; // C-D4: m1 wins, nothing follows it.
            }
            if y <= pass {
                if count_singles::<B, S>(geo, a.own, a.opp) == 0 {
                    return CatapultMove::MoveThenPass(m1);
                }
                continue;
            }
            let mut t = y - 1 - pass;
            let (pieces, bound, x, d) = if t < 3 * w_fwd {
                let d = Dir::from_index((t % 3) as usize ^ (S * 4));
                (full, w_fwd, t / 3, d)
            } else {
                t -= 3 * w_fwd;
                let mut j = 0;
                while t >= nf_max[j] {
                    t -= nf_max[j];
                    j += 1;
                }
                (onto[j], nf_max[j], t, non_forward::<S>(j))
            };
            let all = range_classes::<B, S>(geo, a.own);
            let classes: [B; 4] = std::array::from_fn(|k| all[k] & pieces);
            let weights = draw_weights(&classes);
            let w = weights.iter().sum::<u32>();
            debug_assert!(w <= bound, "weight {w} after {m1:?} over its bound {bound}");
            if x >= w {
                continue;
            }
            let drawn = drawn_move::<B, S>(geo, a.own, a.opp, &classes, &weights, x, d.index());
            if let Some(m2) = drawn {
                return CatapultMove::Double(m1, m2);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CatapultGame, Rules, Side};
    use super::*;
    use crate::api::{Game, State};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The holder sampler's bounds hold for every first move of every
    /// holder position of seeded random games: the (piece, steps) pairs
    /// after the move, all of them and those on a line onto an enemy in each
    /// non-forward direction, never exceed `second_slots`; and each bound is
    /// met or nearly met somewhere (so they are not vacuous).
    fn bounds_hold<B: CatapultBits>(rules: Rules, seed: u64) {
        let g = CatapultGame::<B>::new(rules).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut buf, mut firsts) = (Vec::new(), Vec::new());
        let (mut positions, mut slack_fwd) = (0, u32::MAX);
        for _ in 0..40 {
            let mut s = g.initial_state(0);
            while s.ongoing() {
                if s.holds_dagger() {
                    match s.side {
                        Side::Light => check::<B, 0>(&s, &mut firsts, &mut slack_fwd),
                        Side::Dark => check::<B, 1>(&s, &mut firsts, &mut slack_fwd),
                    }
                    positions += 1;
                }
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                s.apply(m);
            }
        }
        assert!(positions > 500, "{positions} holder positions");
        assert!(slack_fwd <= 1, "the forward bound is never within 1");
    }

    fn check<B: CatapultBits, const S: usize>(
        s: &CatapultState<B>,
        firsts: &mut Vec<Step>,
        slack_fwd: &mut u32,
    ) {
        let (own, opp) = (s.pieces[S], s.pieces[1 - S]);
        firsts.clear();
        gen_singles::<B, S>(s.geo, own, opp, &mut |m| firsts.push(m));
        let landings = firsts.iter().fold(B::ZERO, |l, m| l | B::bit(m.to()));
        let slots = s.second_slots::<S>(landings);
        let mut widest = 0;
        for &m1 in firsts.iter() {
            let a = s.after::<S>(m1);
            let classes = range_classes::<B, S>(s.geo, a.own);
            let w = draw_weights(&classes).iter().sum::<u32>();
            assert!(
                w <= slots.w_fwd,
                "{w} > {} after {m1:?} at {s:?}",
                slots.w_fwd
            );
            widest = widest.max(w);
            for j in 0..5 {
                let within = classes.map(|c| c & slots.onto[j]);
                let w = draw_weights(&within).iter().sum::<u32>();
                assert!(w <= slots.nf_max[j], "direction {j} after {m1:?} at {s:?}");
                // Every capture in that direction starts inside onto[j].
                let d = non_forward::<S>(j);
                gen_singles::<B, S>(s.geo, a.own, a.opp, &mut |m2| {
                    if m2.dir() == d {
                        assert!(slots.onto[j].has(m2.from()), "{m2:?} after {m1:?} at {s:?}");
                    }
                });
            }
        }
        if !firsts.is_empty() {
            *slack_fwd = (*slack_fwd).min(slots.w_fwd - widest);
        }
    }

    #[test]
    fn holder_sampler_bounds_hold() {
        let dagger = |size, royal| Rules {
            size,
            royal,
            dagger: true,
            ..Rules::default()
        };
        bounds_hold::<u64>(dagger(8, false), 1);
        bounds_hold::<u128>(dagger(9, false), 2);
        bounds_hold::<u64>(dagger(8, true), 3);
    }
}
