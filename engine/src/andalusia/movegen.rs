//! Legal move generation on bitboards (§2.4, §2.5, §2.8).
//!
//! One generator, [`generate`], feeds a [`Sink`]: a counter (perft's bulk
//! count, no list), a list writer, or an "is there any move" probe that
//! stops at the first. `ME` is the mover's side index (0 White, 1 Black), a
//! constant, so Soldier directions and shifts fold away. Nothing here
//! allocates.
//!
//! Legality (A-K1) without make-and-test: the eight rays from the mover's
//! King give the checking Chariots and the pinned pieces (a lone own piece
//! between the King and an enemy Chariot *or the enemy King*, A-K2); a
//! single check restricts non-King moves to the checker and the points
//! between (a Soldier check has none between); a double check leaves King
//! steps only; a pinned piece keeps to its pin line. Two straight lines
//! cross at most once, at the King, so a pinned piece never answers a check
//! from another line and the masks combine by intersection. King steps are
//! tested one by one against every attack with the King lifted off.

use super::state::AndalusiaState;
use super::{AndalusiaMove, Geometry};

/// The low 81 bits: every point.
pub(super) const BOARD: u128 = (1u128 << 81) - 1;

/// Direction indices in [`crate::board::Dir`] order.
const N: usize = 0;
const NE: usize = 1;
const E: usize = 2;
const SE: usize = 3;
const S: usize = 4;
const SW: usize = 5;
const W: usize = 6;
const NW: usize = 7;

/// The index offset of one step in direction `d` (`9y + x` numbering).
#[inline(always)]
pub(super) const fn offset(d: usize) -> i32 {
    match d {
        N => 9,
        NE => 10,
        E => 1,
        SE => -8,
        S => -9,
        SW => -10,
        W => -1,
        _ => 8, // NW
    }
}

/// Whether direction `d` runs to higher indices (the nearest point of a
/// ray is its lowest member).
#[inline(always)]
const fn positive(d: usize) -> bool {
    offset(d) > 0
}

/// The nearest member of the non-empty ray subset `hits` in direction `d`.
#[inline(always)]
fn nearest(d: usize, hits: u128) -> u32 {
    if positive(d) {
        hits.trailing_zeros()
    } else {
        127 - hits.leading_zeros()
    }
}

/// Each member of `b` moved one link in direction `d` (members without a
/// link that way drop out, A-B1). The link sources never step off the
/// board, so no edge mask is needed.
#[inline(always)]
pub(super) fn step(geo: &Geometry, b: u128, d: usize) -> u128 {
    let b = b & geo.link_src[d];
    let o = offset(d);
    if o > 0 {
        b << o as u32
    } else {
        b >> (-o) as u32
    }
}

/// The Soldier directions of side `me` (A-M3): forward, the two forward
/// diagonals, then E and W.
#[inline(always)]
const fn soldier_dirs(me: usize) -> [usize; 5] {
    if me == 0 {
        [N, NE, NW, E, W]
    } else {
        [S, SE, SW, E, W]
    }
}

/// The points a Chariot on `c` reaches (A-M2): along each line through it,
/// up to and including the first occupied point.
///
/// Per line, the obstruction difference (Gerd Isenberg's): with `lower`
/// the occupied points of the line below `c` and `upper` those above, the
/// nearest blocker below is the highest bit of `lower` (`m`), and
/// `upper ^ (upper − m)` sets every point from `m` up to the nearest blocker
/// above; masked by the line it is exactly the two casts. An empty `lower`
/// gives `m = 1` (bit 0), which the mask removes unless it is on the line,
/// where it is the true end point.
#[inline(always)]
pub(super) fn chariot_targets(geo: &Geometry, c: u32, occ: u128) -> u128 {
    let mut t = 0;
    for &(lower_mask, line) in &geo.line_masks[c as usize] {
        let lower = occ & lower_mask;
        let upper = occ & line & !lower_mask;
        let m = 1u128 << (127 - (lower | 1).leading_zeros());
        t |= line & (upper ^ upper.wrapping_sub(m));
    }
    t
}

/// Whether side `by` attacks point `t` (A-K1): an enemy Soldier steps onto
/// it, or the first piece along a line from `t` in `occ` is one of
/// `sliders` (`by`'s Chariots and King: the King attacks at any distance,
/// the flying King).
#[inline(always)]
pub(super) fn attacked(
    geo: &Geometry,
    by: usize,
    t: u32,
    occ: u128,
    by_soldiers: u128,
    sliders: u128,
) -> bool {
    if geo.soldier_attackers[by][t as usize] & by_soldiers != 0 {
        return true;
    }
    if geo.lines_through[t as usize] & sliders == 0 {
        return false;
    }
    for d in 0..8 {
        let r = geo.rays[d][t as usize];
        if r & sliders == 0 {
            continue;
        }
        if sliders >> nearest(d, r & occ) & 1 != 0 {
            return true;
        }
    }
    false
}

/// Receives generated moves.
pub(super) trait Sink {
    /// The moves of the piece on `from` to each member of `to`; `soldier`
    /// marks a Soldier (for the promotion flag).
    fn piece(&mut self, from: u32, to: u128, soldier: bool);
    /// Soldier moves to each member `t` of `to` from `t - off`.
    fn shifted(&mut self, to: u128, off: i32);
    /// Whether to stop (the probe has found a move).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

/// Counts moves by popcount (perft's bulk count).
pub(super) struct Counter(pub u32);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: u32, to: u128, _soldier: bool) {
        self.0 += to.count_ones();
    }
    #[inline(always)]
    fn shifted(&mut self, to: u128, _off: i32) {
        self.0 += to.count_ones();
    }
}

/// Finds whether any move exists, stopping at the first.
pub(super) struct Probe(pub bool);

impl Sink for Probe {
    #[inline(always)]
    fn piece(&mut self, _from: u32, to: u128, _soldier: bool) {
        self.0 |= to != 0;
    }
    #[inline(always)]
    fn shifted(&mut self, to: u128, _off: i32) {
        self.0 |= to != 0;
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// Writes moves with their capture and promotion flags.
pub(super) struct Lister<'a> {
    /// The list.
    pub out: &'a mut Vec<AndalusiaMove>,
    /// The enemy pieces (a move onto one captures).
    pub opp: u128,
    /// The mover's promotion rank (A-M5).
    pub promo: u128,
}

impl Sink for Lister<'_> {
    #[inline(always)]
    fn piece(&mut self, from: u32, to: u128, soldier: bool) {
        let mut t = to;
        while t != 0 {
            let sq = t.trailing_zeros();
            t &= t - 1;
            self.out.push(AndalusiaMove::new(
                from,
                sq,
                self.opp >> sq & 1 != 0,
                soldier && self.promo >> sq & 1 != 0,
            ));
        }
    }
    #[inline(always)]
    fn shifted(&mut self, to: u128, off: i32) {
        let mut t = to;
        while t != 0 {
            let sq = t.trailing_zeros();
            t &= t - 1;
            self.out.push(AndalusiaMove::new(
                (sq as i32 - off) as u32,
                sq,
                self.opp >> sq & 1 != 0,
                self.promo >> sq & 1 != 0,
            ));
        }
    }
}

/// Soldier moves of the Soldiers `fs` (A-M3, A-M4): single steps onto
/// `single_dest` (empty or enemy points, already masked), double steps in
/// a forward direction from the start rank through an empty point onto
/// `double_dest` (empty points only).
#[inline(always)]
fn soldiers<K: Sink, const ME: usize>(
    geo: &Geometry,
    fs: u128,
    single_dest: u128,
    empty: u128,
    double_dest: u128,
    sink: &mut K,
) {
    let dirs = soldier_dirs(ME);
    for d in dirs {
        sink.shifted(step(geo, fs, d) & single_dest, offset(d));
    }
    let st = fs & geo.start_rank[ME];
    if st != 0 {
        for &d in &dirs[..3] {
            let mid = step(geo, st, d) & empty;
            sink.shifted(step(geo, mid, d) & double_dest, 2 * offset(d));
        }
    }
}

/// Generates the legal moves of side `ME` (to move) in `s` into `sink`, in
/// a fixed order: free Soldiers (by direction, then double steps), free
/// Chariots, the King, pinned pieces.
#[inline(always)]
pub(super) fn generate<K: Sink, const ME: usize>(s: &AndalusiaState, sink: &mut K) {
    let geo = s.geo;
    let op = 1 - ME;
    let own = s.colour[ME];
    let opp = s.colour[op];
    let occ = own | opp;
    let k = s.kings[ME] as u32;
    let ek = s.kings[op] as u32;
    let opp_soldiers = s.soldiers & opp;
    let opp_chariots = s.chariots & opp;
    let opp_sliders = opp_chariots | (1u128 << ek);

    // Checkers and pins from the eight rays of the King (A-K1, A-K2).
    let mut checkers = geo.soldier_attackers[op][k as usize] & opp_soldiers;
    let mut pinned = 0u128;
    let mut pins = [(0u32, 0u128); 8];
    let mut npins = 0;
    if geo.lines_through[k as usize] & opp_sliders != 0 {
        for d in 0..8 {
            let ray = geo.rays[d][k as usize];
            if ray & opp_sliders == 0 {
                continue;
            }
            let b1 = nearest(d, ray & occ);
            if opp >> b1 & 1 != 0 {
                // An enemy Chariot checks; the enemy King first on the line
                // cannot happen in a legal position.
                checkers |= opp_chariots & (1u128 << b1);
                continue;
            }
            let rest = geo.rays[d][b1 as usize] & occ;
            if rest == 0 {
                continue;
            }
            let b2 = nearest(d, rest);
            if opp_sliders >> b2 & 1 != 0 {
                pinned |= 1u128 << b1;
                pins[npins] = (b1, ray ^ geo.rays[d][b2 as usize]);
                npins += 1;
            }
        }
    }

    let empty = BOARD & !occ;
    // Never onto an own piece or the enemy King (Kings are never captured).
    let targetable = BOARD & !own & !(1u128 << ek);
    let mask = match checkers.count_ones() {
        0 => BOARD,
        1 => checkers | geo.graph.between(k, checkers.trailing_zeros()),
        _ => 0,
    };

    if mask != 0 {
        let free = own & !pinned;
        soldiers::<K, ME>(
            geo,
            free & s.soldiers,
            targetable & mask,
            empty,
            empty & mask,
            sink,
        );
        if sink.done() {
            return;
        }
        let mut cs = free & s.chariots;
        while cs != 0 {
            let c = cs.trailing_zeros();
            cs &= cs - 1;
            sink.piece(c, chariot_targets(geo, c, occ) & targetable & mask, false);
            if sink.done() {
                return;
            }
        }
    }

    // King steps (A-M1), each tested with the King lifted off (E-A5: the
    // point behind it on a checking line is attacked too).
    let occ_nk = occ ^ (1u128 << k);
    let mut kt = 0u128;
    let mut cand = geo.king_steps[k as usize] & targetable;
    while cand != 0 {
        let t = cand.trailing_zeros();
        cand &= cand - 1;
        if !attacked(geo, op, t, occ_nk, opp_soldiers, opp_sliders) {
            kt |= 1u128 << t;
        }
    }
    sink.piece(k, kt, false);
    if sink.done() || mask == 0 {
        return;
    }

    // Pinned pieces keep to their pin line (A-K2, E-A2, E-A3).
    for &(p, line) in &pins[..npins] {
        let allowed = line & mask;
        let pb = 1u128 << p;
        if s.chariots & pb != 0 {
            sink.piece(
                p,
                chariot_targets(geo, p, occ) & targetable & allowed,
                false,
            );
        } else {
            soldiers::<K, ME>(geo, pb, targetable & allowed, empty, empty & allowed, sink);
        }
        if sink.done() {
            return;
        }
    }
}
