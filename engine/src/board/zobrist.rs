//! Zobrist key tables: pseudo-random 64-bit keys from a fixed seed, so that
//! keys are the same in every run and on every machine.

/// SplitMix64 (Steele, Lea and Flood 2014): a fast, well-mixed 64-bit
/// generator; used for fixed tables, not for play.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64-bit output.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// `n` keys drawn from `seed` (pick a distinct seed per game and size).
pub fn keys(seed: u64, n: usize) -> Vec<u64> {
    let mut g = SplitMix64(seed);
    (0..n).map(|_| g.next()).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_fixed_and_distinct() {
        let a = super::keys(7, 1000);
        assert_eq!(a, super::keys(7, 1000));
        let mut s = a.clone();
        s.sort();
        s.dedup();
        assert_eq!(s.len(), 1000);
        // SplitMix64's published first output for seed 0.
        assert_eq!(super::keys(0, 1)[0], 0xE220_A839_7B1D_CDAF);
    }
}
