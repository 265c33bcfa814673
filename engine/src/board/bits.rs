//! Fixed-width bit sets as board occupancy masks.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A bit set used as a bitboard: bit `i` is square `i`. Implemented for
/// `u64` and `u128`.
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
}
