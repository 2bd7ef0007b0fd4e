//! The one deterministic PRNG of jumpnet (docs/architecture.md §3, docs/topologies.md §0).
//!
//! [`Rng`] is xoshiro256** (Blackman & Vigna) seeded through SplitMix64. It uses only `u64`
//! arithmetic, so the same seed yields bit-identical streams on x86_64 and Cortex-M. It
//! implements [`rand_core::RngCore`] and [`rand_core::SeedableRng`] so it can drive any
//! `rand`-ecosystem code on the host, while core algorithms use the inherent helpers
//! ([`Rng::below`], [`Rng::shuffle`], ...), whose outputs are part of jumpnet's reproducibility
//! contract and must never change.
//!
//! [`knuth`] is a second generator with a single purpose: Knuth's `ran_array`, the generator
//! BookSim2 draws from, so that `jumpnet sim --booksim` can draw BookSim2's `randperm`
//! permutation (docs/booksim.md §3.8). [`knuth_float`] is its floating-point twin
//! (`ranf_array`, BookSim2's `RandomFloat`), for the read/write coin of BookSim2's batch
//! source (docs/booksim.md §3.6). Nothing of jumpnet's own draws from either.

pub mod knuth;
pub mod knuth_float;

use rand_core::{RngCore, SeedableRng};

/// xoshiro256** generator; construct with [`Rng::new`] from a 64-bit seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// One SplitMix64 step: advances `state` and returns the next output.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A stateless 64-bit mixing hash of `(seed, value)`: used where a deterministic pseudo-random
/// choice must be recomputable anywhere without carrying generator state (e.g. the Valiant
/// intermediate of a destination).
pub fn hash64(seed: u64, value: u64) -> u64 {
    let mut st = seed ^ value.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    splitmix64(&mut st)
}

impl Rng {
    /// Creates a generator from a 64-bit seed (expanded with SplitMix64).
    pub fn new(seed: u64) -> Self {
        let mut st = seed;
        let s = [
            splitmix64(&mut st),
            splitmix64(&mut st),
            splitmix64(&mut st),
            splitmix64(&mut st),
        ];
        Rng { s }
    }

    /// Next 64 random bits.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform integer in `0..n` (Lemire's nearly-divisionless method, unbiased).
    /// Returns 0 when `n == 0`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut m = (self.next() as u128) * (n as u128);
        let mut lo = m as u64;
        if lo < n {
            let threshold = n.wrapping_neg() % n;
            while lo < threshold {
                m = (self.next() as u128) * (n as u128);
                lo = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// Uniform `usize` in `0..n` (see [`Rng::below`]).
    #[inline]
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Uniform float in `[0, 1)` with 53 random bits (IEEE-754 `f64`, identical on all targets).
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher–Yates shuffle (from the last element down, `j = below(i + 1)`).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        let mut i = items.len();
        while i > 1 {
            i -= 1;
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// Two distinct uniform indices in `0..n`; `None` when `n < 2`.
    pub fn distinct_pair(&mut self, n: usize) -> Option<(usize, usize)> {
        if n < 2 {
            return None;
        }
        let a = self.index(n);
        let mut b = self.index(n - 1);
        if b >= a {
            b += 1;
        }
        Some((a, b))
    }
}

impl RngCore for Rng {
    fn next_u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        self.next()
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        let mut chunks = dest.chunks_exact_mut(8);
        for chunk in &mut chunks {
            chunk.copy_from_slice(&self.next().to_le_bytes());
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let bytes = self.next().to_le_bytes();
            let n = rest.len();
            rest.copy_from_slice(&bytes[..n]);
        }
    }
}

impl SeedableRng for Rng {
    type Seed = [u8; 8];

    fn from_seed(seed: Self::Seed) -> Self {
        Rng::new(u64::from_le_bytes(seed))
    }

    fn seed_from_u64(state: u64) -> Self {
        Rng::new(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xoshiro_reference_stream() {
        // Reference values of xoshiro256** for state [1, 2, 3, 4] (Vigna's reference code).
        let mut r = Rng { s: [1, 2, 3, 4] };
        let expected: [u64; 4] = [11520, 0, 1509978240, 1215971899390074240];
        for e in expected {
            assert_eq!(r.next(), e);
        }
    }

    #[test]
    fn splitmix_reference() {
        // SplitMix64 with seed 0: first output 0xE220A8397B1DCDAF (Vigna's reference).
        let mut st = 0u64;
        assert_eq!(splitmix64(&mut st), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn below_is_in_range_and_covers() {
        let mut r = Rng::new(7);
        let mut seen = [false; 10];
        for _ in 0..1000 {
            let x = r.below(10) as usize;
            assert!(x < 10);
            seen[x] = true;
        }
        assert!(seen.iter().all(|&b| b));
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next(), b.next());
        }
        assert_ne!(Rng::new(1).next(), Rng::new(2).next());
    }

    #[test]
    fn shuffle_is_permutation() {
        let mut r = Rng::new(3);
        let mut v = [0u32; 50];
        for (i, x) in v.iter_mut().enumerate() {
            *x = i as u32;
        }
        r.shuffle(&mut v);
        let mut sorted = v;
        sorted.sort_unstable();
        for (i, x) in sorted.iter().enumerate() {
            assert_eq!(*x, i as u32);
        }
    }

    #[test]
    fn distinct_pair_distinct() {
        let mut r = Rng::new(9);
        for _ in 0..1000 {
            let (a, b) = r.distinct_pair(5).unwrap();
            assert!(a != b && a < 5 && b < 5);
        }
        assert!(r.distinct_pair(1).is_none());
    }
}
