//! Fixed-width bit sets as board occupancy masks.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A bit set used as a bitboard: bit `i` is square `i`. Implemented for
/// `u64` and `u128`.
///
/// Also implemented for [`B192`], three words for boards of up to 192
/// squares (the Sly board's 144).
pub trait Bits:
    Copy
    + Eq
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// Number of bits.
    const WIDTH: u32;
    /// The set `{i}`.
    fn bit(i: u32) -> Self;
    /// Number of members (popcount).
    fn count(self) -> u32;
    /// The lowest member; undefined for the empty set.
    fn lowest(self) -> u32;
    /// The highest member; undefined for the empty set.
    fn highest(self) -> u32;
    /// Whether bit `i` is set.
    #[inline]
    fn has(self, i: u32) -> bool {
        self & Self::bit(i) != Self::ZERO
    }
    /// Whether the set is empty.
    #[inline]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
    /// The set without its lowest member.
    fn clear_lowest(self) -> Self;
    /// The members in increasing order.
    #[inline]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
    /// The `k`-th lowest member (0-based); `k < count()`.
    fn nth(self, k: u32) -> u32;
}

/// The `k`-th lowest set bit of `x`: halve the word by popcount down to a
/// byte, then clear the bits below within it.
#[inline(always)]
fn nth64(mut x: u64, mut k: u32) -> u32 {
    let mut base = 0;
    for width in [32u32, 16, 8] {
        let low = x & ((1u64 << width) - 1);
        let c = low.count_ones();
        if k >= c {
            k -= c;
            x >>= width;
            base += width;
        } else {
            x = low;
        }
    }
    for _ in 0..k {
        x &= x - 1;
    }
    base + x.trailing_zeros()
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const WIDTH: u32 = <$t>::BITS;
            #[inline(always)]
            fn bit(i: u32) -> Self {
                1 << i
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn nth(self, k: u32) -> u32 {
                nth_impl(self, k)
            }
        }
    };
}
impl_bits!(u64);
impl_bits!(u128);

/// A 192-bit set in three 64-bit words: bit `i` is bit `i % 64` of word
/// `i / 64`. It behaves like a 192-bit unsigned integer: shifts carry bits
/// across words and drop what leaves either end, `!` flips all 192 bits.
/// Sized for boards of more than 128 squares, first the Sly board's 144
/// (12 × 12, [`crate::board::sly`]).
///
/// The `const fn` helpers build masks in constant tables.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct B192(pub [u64; 3]);

impl B192 {
    /// The set `{i}` (`i < 192`), usable in constants.
    #[inline(always)]
    pub const fn from_bit(i: u32) -> B192 {
        debug_assert!(i < 192);
        // Each word chosen by comparison, not an indexed store into an
        // array on the stack: read back as one wide load, that store
        // stalls (no store-to-load forwarding), and toggling a piece is
        // the hottest line of a Sly game's move.
        let (b, k) = (1u64 << (i % 64), i / 64);
        B192([
            if k == 0 { b } else { 0 },
            if k == 1 { b } else { 0 },
            if k == 2 { b } else { 0 },
        ])
    }

    /// This set with bit `i` added, usable in constants.
    #[inline(always)]
    pub const fn with(self, i: u32) -> B192 {
        let mut w = self.0;
        w[(i / 64) as usize] |= 1u64 << (i % 64);
        B192(w)
    }

    /// The union, usable in constants.
    #[inline(always)]
    pub const fn union(self, o: B192) -> B192 {
        B192([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }

    /// The `len` bits (`1..=64`) starting at bit `offset`, as the low bits
    /// of a word: bit `k` of the result is bit `offset + k` of the set
    /// (`offset + len <= 192`). A board row of a `w`-wide grid is
    /// `bits_at(r * w, w)`.
    #[inline(always)]
    pub const fn bits_at(self, offset: u32, len: u32) -> u64 {
        let w = (offset / 64) as usize;
        let s = offset % 64;
        let mut v = self.0[w] >> s;
        if s + len > 64 && w + 1 < 3 {
            v |= self.0[w + 1] << (64 - s);
        }
        if len >= 64 {
            v
        } else {
            v & ((1u64 << len) - 1)
        }
    }
}

impl From<u128> for B192 {
    /// The low 128 bits; bits 128..192 empty.
    #[inline(always)]
    fn from(x: u128) -> B192 {
        B192([x as u64, (x >> 64) as u64, 0])
    }
}

impl Debug for B192 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "B192(0x{:016x}_{:016x}_{:016x})",
            self.0[2], self.0[1], self.0[0]
        )
    }
}

macro_rules! b192_binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for B192 {
            type Output = B192;
            #[inline(always)]
            fn $f(self, o: B192) -> B192 {
                B192([self.0[0] $op o.0[0], self.0[1] $op o.0[1], self.0[2] $op o.0[2]])
            }
        }
        impl $tra for B192 {
            #[inline(always)]
            fn $fa(&mut self, o: B192) {
                *self = *self $op o;
            }
        }
    };
}
b192_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
b192_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
b192_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for B192 {
    type Output = B192;
    #[inline(always)]
    fn not(self) -> B192 {
        B192([!self.0[0], !self.0[1], !self.0[2]])
    }
}

impl Shl<u32> for B192 {
    type Output = B192;
    /// Towards higher bits; bits past 191 are dropped, `n >= 192` empties.
    #[inline(always)]
    fn shl(self, n: u32) -> B192 {
        if n >= 192 {
            return B192([0; 3]);
        }
        let q = (n / 64) as usize;
        let r = n % 64;
        let mut out = [0u64; 3];
        for (i, o) in out.iter_mut().enumerate().skip(q) {
            let src = i - q;
            *o = self.0[src] << r;
            if r > 0 && src > 0 {
                *o |= self.0[src - 1] >> (64 - r);
            }
        }
        B192(out)
    }
}

impl Shr<u32> for B192 {
    type Output = B192;
    /// Towards lower bits; bits below 0 are dropped, `n >= 192` empties.
    #[inline(always)]
    fn shr(self, n: u32) -> B192 {
        if n >= 192 {
            return B192([0; 3]);
        }
        let q = (n / 64) as usize;
        let r = n % 64;
        let mut out = [0u64; 3];
        for (i, o) in out.iter_mut().enumerate().take(3 - q) {
            let src = i + q;
            *o = self.0[src] >> r;
            if r > 0 && src + 1 < 3 {
                *o |= self.0[src + 1] << (64 - r);
            }
        }
        B192(out)
    }
}

impl Bits for B192 {
    const ZERO: Self = B192([0; 3]);
    const WIDTH: u32 = 192;
    #[inline(always)]
    fn bit(i: u32) -> Self {
        B192::from_bit(i)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        if self.0[0] != 0 {
            self.0[0].trailing_zeros()
        } else if self.0[1] != 0 {
            64 + self.0[1].trailing_zeros()
        } else {
            128 + self.0[2].trailing_zeros()
        }
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        if self.0[2] != 0 {
            191 - self.0[2].leading_zeros()
        } else if self.0[1] != 0 {
            127 - self.0[1].leading_zeros()
        } else {
            63 - self.0[0].leading_zeros()
        }
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }
    #[inline(always)]
    fn has(self, i: u32) -> bool {
        (self.0[(i / 64) as usize] >> (i % 64)) & 1 != 0
    }
    #[inline(always)]
    fn clear_lowest(self) -> Self {
        let mut w = self.0;
        if w[0] != 0 {
            w[0] &= w[0] - 1;
        } else if w[1] != 0 {
            w[1] &= w[1] - 1;
        } else {
            w[2] &= w[2].wrapping_sub(1);
        }
        B192(w)
    }
    #[inline(always)]
    fn nth(self, mut k: u32) -> u32 {
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if k < c {
                return 64 * i as u32 + nth64(w, k);
            }
            k -= c;
        }
        192
    }
}

trait NthImpl {
    fn nth_bit(self, k: u32) -> u32;
}

#[inline(always)]
fn nth_impl<T: NthImpl>(x: T, k: u32) -> u32 {
    x.nth_bit(k)
}

impl NthImpl for u64 {
    #[inline(always)]
    fn nth_bit(self, k: u32) -> u32 {
        nth64(self, k)
    }
}

impl NthImpl for u128 {
    #[inline(always)]
    fn nth_bit(self, k: u32) -> u32 {
        let low = self as u64;
        let c = low.count_ones();
        if k < c {
            nth64(low, k)
        } else {
            64 + nth64((self >> 64) as u64, k - c)
        }
    }
}

/// Iterator over the members of a bit set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_zero() {
            None
        } else {
            let i = self.0.lowest();
            self.0 = self.0.clear_lowest();
            Some(i)
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> ExactSizeIterator for BitIter<B> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_and_counts() {
        let b: u128 = (1 << 3) | (1 << 70) | (1 << 127);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 70, 127]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.nth(1), 70);
        assert_eq!(b.lowest(), 3);
        assert_eq!(b.highest(), 127);
        assert_eq!(0b1011_0000u64.highest(), 7);
        assert_eq!(b.nth(2), 127);
        // nth agrees with iteration on many words.
        let mut x: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834;
        for _ in 0..200 {
            x = x.rotate_left(17) ^ (x >> 3) ^ 0xA5;
            for (k, i) in x.iter().enumerate() {
                assert_eq!(x.nth(k as u32), i);
            }
            let y = x as u64;
            for (k, i) in y.iter().enumerate() {
                assert_eq!(y.nth(k as u32), i);
            }
        }
        assert!(b.has(70) && !b.has(71));
        let c: u64 = 0b1011_0000;
        assert_eq!(c.iter().collect::<Vec<_>>(), vec![4, 5, 7]);
        assert_eq!(c.clear_lowest(), 0b1010_0000);
    }

    /// B192 against u128 on the low 128 bits and against a bit-by-bit
    /// model on all 192.
    #[test]
    fn b192_behaves_like_a_192_bit_integer() {
        // A model: a bool per bit.
        fn model(b: B192) -> Vec<bool> {
            (0..192)
                .map(|i| (b.0[i / 64] >> (i % 64)) & 1 == 1)
                .collect()
        }
        let mut x = [
            0x9E37_79B9_7F4A_7C15u64,
            0xF39C_C060_5CED_C834,
            0x1234_5678_9ABC_DEF0,
        ];
        for round in 0..300 {
            for w in x.iter_mut() {
                *w = w.rotate_left(23) ^ (*w >> 5) ^ 0xC3A5_C85C_97CB_3127;
            }
            // Sparse sets now and then, to reach empty words.
            let mut b = B192(x);
            if round % 3 == 1 {
                b = B192([x[0] & x[1] & x[2], 0, x[2] & 0xF0F0]);
            } else if round % 3 == 2 {
                b = B192([0, 0, x[1] & x[0]]);
            }
            let m = model(b);
            let n = round as u32 % 200;
            let l = model(b << n);
            let r = model(b >> n);
            for i in 0..192usize {
                let want_l = i >= n as usize && n < 192 && m[i - n as usize];
                let want_r = i + (n as usize) < 192 && m[i + n as usize];
                assert_eq!(l[i], want_l, "shl {n} bit {i}");
                assert_eq!(r[i], want_r, "shr {n} bit {i}");
            }
            let members: Vec<u32> = (0..192).filter(|&i| m[i as usize]).collect();
            assert_eq!(b.iter().collect::<Vec<_>>(), members);
            assert_eq!(b.count() as usize, members.len());
            for (k, &i) in members.iter().enumerate() {
                assert_eq!(b.nth(k as u32), i);
                assert!(b.has(i));
            }
            if let (Some(&lo), Some(&hi)) = (members.first(), members.last()) {
                assert_eq!(b.lowest(), lo);
                assert_eq!(b.highest(), hi);
                assert_eq!(b.clear_lowest(), b ^ B192::bit(lo));
            } else {
                assert!(b.is_zero());
            }
            assert_eq!(model(!b), m.iter().map(|v| !v).collect::<Vec<_>>());
            // The low 128 bits agree with u128.
            let u = (x[0] as u128) | ((x[1] as u128) << 64);
            let s = n % 128;
            assert_eq!(
                B192::from(u << s),
                (B192::from(u) << s) & B192::from(u128::MAX)
            );
            assert_eq!(B192::from(u >> s), B192::from(u) >> s);
            // bits_at reads any window, across word boundaries too.
            for off in [0u32, 12, 60, 62, 120, 132, 180] {
                let len = 12;
                let want: u64 = (0..len)
                    .filter(|&k| m[(off + k) as usize])
                    .map(|k| 1u64 << k)
                    .sum();
                assert_eq!(b.bits_at(off, len), want, "bits_at {off}");
            }
        }
        assert_eq!(B192::from_bit(130), B192([0, 0, 4]));
        assert_eq!(
            B192::ZERO.with(3).with(64).union(B192::from_bit(191)),
            B192([8, 1, 1 << 63])
        );
        assert_eq!(B192::bit(5) << 200, B192::ZERO);
    }
}
