//! Legal move generation (§3.4): pins and check evasions are computed, not
//! made and tested, except for en passant (rare; tested by recomputing the
//! attacks on the king after the capture).
//!
//! One generator writes into a [`Sink`]: [`MoveList`] builds the moves,
//! [`Counter`] only counts them (popcounts per piece, promotions × 4), which
//! is perft's bulk count and [`crate::State::count_legal_moves`].
//! The generator is monomorphised on `R` (royal powers on/off), so FIDE
//! chess pays nothing for the powers.

use super::attacks::{BETWEEN, KING, KNIGHT, LINE, PAWN_ATTACKS, sliders};
use super::position::{BK, BQ, Board, NO_EP, WK, WQ};
use super::{MoveKind, Piece, RoyalGuardMove, Side};

const RANK_1: u64 = 0xFF;
const RANK_3: u64 = 0xFF << 16;
const RANK_6: u64 = 0xFF << 40;
const RANK_8: u64 = 0xFF << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Where the generator writes moves.
pub trait Sink {
    /// Ordinary moves (and captures) of a non-pawn piece from `from` to each
    /// square of `to`.
    fn piece(&mut self, from: usize, to: u64);
    /// Pawn moves to each square of `to` from `to − delta` (a single step,
    /// forward capture or diagonal capture); those on the last rank are
    /// promotions (four each).
    fn pawns(&mut self, to: u64, delta: i32);
    /// Pawn double steps to each square of `to` from `to − delta`.
    fn doubles(&mut self, to: u64, delta: i32);
    /// One special move (castling, en passant).
    fn one(&mut self, m: RoyalGuardMove);
}

/// Counts moves without building a list.
#[derive(Default)]
pub struct Counter(pub usize);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: usize, to: u64) {
        self.0 += to.count_ones() as usize;
    }
    #[inline(always)]
    fn pawns(&mut self, to: u64, _delta: i32) {
        let promo = RANK_1 | RANK_8;
        self.0 += (to & !promo).count_ones() as usize + 4 * (to & promo).count_ones() as usize;
    }
    #[inline(always)]
    fn doubles(&mut self, to: u64, _delta: i32) {
        self.0 += to.count_ones() as usize;
    }
    #[inline(always)]
    fn one(&mut self, _m: RoyalGuardMove) {
        self.0 += 1;
    }
}

/// The most moves a position can have, with room to spare (nine queens
/// and royal R/B/N stay well under it).
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity move list on the stack.
pub struct MoveList {
    moves: [RoyalGuardMove; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [RoyalGuardMove::NULL; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[RoyalGuardMove] {
        &self.moves[..self.len]
    }
    #[inline(always)]
    fn push(&mut self, m: RoyalGuardMove) {
        self.moves[self.len] = m;
        self.len += 1;
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: usize, mut to: u64) {
        while to != 0 {
            let t = to.trailing_zeros() as usize;
            self.push(RoyalGuardMove::new(from, t, MoveKind::Normal));
            to &= to - 1;
        }
    }
    #[inline(always)]
    fn pawns(&mut self, mut to: u64, delta: i32) {
        while to != 0 {
            let t = to.trailing_zeros() as usize;
            let f = (t as i32 - delta) as usize;
            if (1u64 << t) & (RANK_1 | RANK_8) != 0 {
                for k in [
                    MoveKind::PromoQueen,
                    MoveKind::PromoRook,
                    MoveKind::PromoBishop,
                    MoveKind::PromoKnight,
                ] {
                    self.push(RoyalGuardMove::new(f, t, k));
                }
            } else {
                self.push(RoyalGuardMove::new(f, t, MoveKind::Normal));
            }
            to &= to - 1;
        }
    }
    #[inline(always)]
    fn doubles(&mut self, mut to: u64, delta: i32) {
        while to != 0 {
            let t = to.trailing_zeros() as usize;
            self.push(RoyalGuardMove::new(
                (t as i32 - delta) as usize,
                t,
                MoveKind::DoublePush,
            ));
            to &= to - 1;
        }
    }
    #[inline(always)]
    fn one(&mut self, m: RoyalGuardMove) {
        self.push(m);
    }
}

/// Writes the legal moves of `b` into `sink`.
#[inline]
pub fn generate<S: Sink>(b: &Board, sink: &mut S) {
    if b.royal {
        gen_impl::<S, true>(b, sink)
    } else {
        gen_impl::<S, false>(b, sink)
    }
}

/// Our pieces pinned to our King on `ksq`: each alone between it and an
/// enemy slider on the line (`own` ours, `opp` theirs).
#[inline(always)]
fn pinned(b: &Board, ksq: usize, own: u64, opp: u64) -> u64 {
    let sl = sliders();
    let p = &b.by_piece;
    let occ = own | opp;
    let diag = (p[Piece::Bishop as usize] | p[Piece::Queen as usize]) & opp;
    let orth = (p[Piece::Rook as usize] | p[Piece::Queen as usize]) & opp;
    let mut snipers = (sl.bishop(ksq, opp) & diag) | (sl.rook(ksq, opp) & orth);
    let mut pinned = 0;
    while snipers != 0 {
        let s = snipers.trailing_zeros() as usize;
        let between = BETWEEN[ksq][s] & occ;
        if between & (between.wrapping_sub(1)) == 0 {
            pinned |= between & own;
        }
        snipers &= snipers - 1;
    }
    pinned
}

/// Whether the side to move has a legal move: in FIDE chess (powers off)
/// and out of check, any step of an unpinned knight or single push of an
/// unpinned pawn is one (no pin, no check to answer), found without the
/// King's steps, whose squares each need an attack test; otherwise the
/// full [`count`].
pub fn has_legal(b: &Board) -> bool {
    if !b.royal {
        let us = b.side;
        let own = b.by_color[us as usize];
        let opp = b.by_color[us.other() as usize];
        let occ = own | opp;
        let p = &b.by_piece;
        let ksq = b.king_sq(us);
        if b.checkers() == 0 {
            let pinned = pinned(b, ksq, own, opp);
            let mut n = p[Piece::Knight as usize] & own & !pinned;
            while n != 0 {
                if KNIGHT[n.trailing_zeros() as usize] & !own != 0 {
                    return true;
                }
                n &= n - 1;
            }
            let free = p[Piece::Pawn as usize] & own & !pinned;
            if forward(us, free) & !occ != 0 {
                return true;
            }
        }
    }
    count(b) > 0
}

/// The number of legal moves of `b`.
#[inline]
pub fn count(b: &Board) -> usize {
    let mut c = Counter(0);
    generate(b, &mut c);
    c.0
}

#[inline(always)]
fn forward(c: Side, b: u64) -> u64 {
    match c {
        Side::White => b << 8,
        Side::Black => b >> 8,
    }
}

#[inline(always)]
fn gen_impl<S: Sink, const R: bool>(b: &Board, sink: &mut S) {
    let sl = sliders();
    let us = b.side;
    let them = us.other();
    let own = b.by_color[us as usize];
    let opp = b.by_color[them as usize];
    let occ = own | opp;
    let p = &b.by_piece;
    let ksq = b.king_sq(us);
    let (royal_us, royal_them) = if R {
        (b.royal_set(us), b.royal_set(them))
    } else {
        (0, 0)
    };
    let checkers = b.attackers_to(ksq, them, occ, royal_them);

    // King steps: to squares no enemy piece attacks once the king has left
    // (RG-5: royal steps and royal pawns' forward squares count, RG-R2).
    let occ_nok = occ ^ (1u64 << ksq);
    let mut kt = KING[ksq] & !own;
    let mut legal_k = 0;
    while kt != 0 {
        let t = kt.trailing_zeros() as usize;
        if b.attackers_to(t, them, occ_nok, royal_them) == 0 {
            legal_k |= 1u64 << t;
        }
        kt &= kt - 1;
    }
    sink.piece(ksq, legal_k);
    if checkers & (checkers.wrapping_sub(1)) != 0 {
        return; // double check: king moves only
    }
    let target = if checkers != 0 {
        checkers | BETWEEN[ksq][checkers.trailing_zeros() as usize]
    } else {
        // Castling (RG-6: FIDE conditions, attacks per RG-5/RG-R3).
        let (ks, qs) = match us {
            Side::White => (WK, WQ),
            Side::Black => (BK, BQ),
        };
        let base = match us {
            Side::White => 0,
            Side::Black => 56,
        };
        if b.castling & ks != 0
            && occ & (0x60u64 << base) == 0
            && b.attackers_to(base + 5, them, occ, royal_them) == 0
            && b.attackers_to(base + 6, them, occ, royal_them) == 0
        {
            sink.one(RoyalGuardMove::new(base + 4, base + 6, MoveKind::Castle));
        }
        if b.castling & qs != 0
            && occ & (0x0Eu64 << base) == 0
            && b.attackers_to(base + 3, them, occ, royal_them) == 0
            && b.attackers_to(base + 2, them, occ, royal_them) == 0
        {
            sink.one(RoyalGuardMove::new(base + 4, base + 2, MoveKind::Castle));
        }
        !0
    } & !own;

    let pinned = pinned(b, ksq, own, opp);

    // Knights (RG-3: a royal knight adds the 8 king steps; a pinned one
    // keeps only the steps along its pin line).
    let mut n = p[Piece::Knight as usize] & own;
    while n != 0 {
        let s = n.trailing_zeros() as usize;
        let bit = 1u64 << s;
        let mut t = if pinned & bit != 0 { 0 } else { KNIGHT[s] };
        if R && royal_us & bit != 0 {
            t |= KING[s];
            if pinned & bit != 0 {
                t &= LINE[ksq][s];
            }
        }
        sink.piece(s, t & target);
        n &= n - 1;
    }
    // Bishops, rooks, queens.
    let mut bq = (p[Piece::Bishop as usize] | p[Piece::Queen as usize]) & own;
    while bq != 0 {
        let s = bq.trailing_zeros() as usize;
        let bit = 1u64 << s;
        let mut t = sl.bishop(s, occ);
        if p[Piece::Queen as usize] & bit != 0 {
            t |= sl.rook(s, occ);
        } else if R && royal_us & bit != 0 {
            t |= KING[s];
        }
        if pinned & bit != 0 {
            t &= LINE[ksq][s];
        }
        sink.piece(s, t & target);
        bq &= bq - 1;
    }
    let mut r = p[Piece::Rook as usize] & own;
    while r != 0 {
        let s = r.trailing_zeros() as usize;
        let bit = 1u64 << s;
        let mut t = sl.rook(s, occ);
        if R && royal_us & bit != 0 {
            t |= KING[s];
        }
        if pinned & bit != 0 {
            t &= LINE[ksq][s];
        }
        sink.piece(s, t & target);
        r &= r - 1;
    }

    // Pawns: the unpinned ones in bulk, the pinned ones one by one.
    let pawns = p[Piece::Pawn as usize] & own;
    let free = pawns & !pinned;
    let empty = !occ;
    let (up, third) = match us {
        Side::White => (8, RANK_3),
        Side::Black => (-8, RANK_6),
    };
    let single = forward(us, free) & empty;
    // RG-4: a royal pawn also captures the enemy piece straight ahead.
    let fwd_cap = if R {
        forward(us, free & royal_us) & opp
    } else {
        0
    };
    sink.pawns((single | fwd_cap) & target, up);
    sink.doubles(forward(us, single & third) & empty & target, 2 * up);
    let (west, east) = match us {
        Side::White => ((free & !FILE_A) << 7, (free & !FILE_H) << 9),
        Side::Black => ((free & !FILE_A) >> 9, (free & !FILE_H) >> 7),
    };
    sink.pawns(west & opp & target, up - 1);
    sink.pawns(east & opp & target, up + 1);
    let mut pp = pawns & pinned;
    while pp != 0 {
        let s = pp.trailing_zeros() as usize;
        let bit = 1u64 << s;
        let line = LINE[ksq][s] & target;
        let one = forward(us, bit) & empty;
        let mut fwd = one;
        if R && royal_us & bit != 0 {
            fwd |= forward(us, bit) & opp;
        }
        let mut all = (fwd | (PAWN_ATTACKS[us as usize][s] & opp)) & line;
        while all != 0 {
            let t = all.trailing_zeros() as usize;
            sink.pawns(1u64 << t, t as i32 - s as i32);
            all &= all - 1;
        }
        sink.doubles(forward(us, one & third) & empty & line, 2 * up);
        pp &= pp - 1;
    }

    // En passant (RG-6: the ordinary diagonal capture only): made and tested.
    if b.ep != NO_EP {
        let ep = b.ep as usize;
        let cap = ep ^ 8;
        let mut from = PAWN_ATTACKS[them as usize][ep] & pawns;
        while from != 0 {
            let f = from.trailing_zeros() as usize;
            let occ2 = occ ^ (1u64 << f) ^ (1u64 << cap) ^ (1u64 << ep);
            if b.attackers_to(ksq, them, occ2, royal_them) == 0 {
                sink.one(RoyalGuardMove::new(f, ep, MoveKind::EnPassant));
            }
            from &= from - 1;
        }
    }
}

/// Perft with bulk counting at the last ply, on copied boards (no game-end
/// rules: fifty-move and repetition draws do not stop it, as in the
/// published suites). Faster than the generic [`crate::perft`], which
/// clones whole states with their repetition history.
pub fn perft(b: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count(b) as u64,
        _ => {
            let mut list = MoveList::default();
            generate(b, &mut list);
            let mut total = 0;
            for &m in list.as_slice() {
                let mut c = *b;
                c.make(m);
                total += perft(&c, depth - 1);
            }
            total
        }
    }
}
