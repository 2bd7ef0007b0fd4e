//! Injection processes: Bernoulli with the rate in fixed point, so host and MCU
//! decide the same cycles from the same seed.

use fixed::types::U1F31;

use crate::rng::Rng;

/// Injection probability per cycle in fixed point, `0 ..= 1` (`U1F31`: 31 fraction bits).
pub type Rate = U1F31;

/// Bernoulli injection: each call to [`Bernoulli::fire`] is true with probability `rate`.
///
/// The draw takes the top 31 bits `u` of one [`Rng::next`] and fires iff
/// `u < rate.to_bits()`, so the probability is exactly `rate.to_bits() / 2^31` and a rate
/// of 1 always fires, 0 never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bernoulli {
    threshold: u32,
}

impl Bernoulli {
    /// A process with probability `rate` per trial.
    pub fn new(rate: Rate) -> Self {
        Bernoulli {
            threshold: rate.to_bits(),
        }
    }

    /// Rate from a packet rate `packets` per cycle given as the ratio `flits_rate /
    /// packet_size` in floating point, rounded to the nearest representable value and clamped
    /// to `0..=1` (host-side helper; devices receive the fixed-point value).
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::rng::Rng;
    /// use jumpnet_core::traffic::Bernoulli;
    ///
    /// // A quarter is 2^29 in the 31 fraction bits; host and MCU compare the same integer.
    /// assert_eq!(Bernoulli::from_f64(0.25).threshold(), 1 << 29);
    /// let mut rng = Rng::new(42);
    /// assert!((0..100).all(|_| Bernoulli::from_f64(1.0).fire(&mut rng)));
    /// assert!((0..100).all(|_| !Bernoulli::from_f64(0.0).fire(&mut rng)));
    /// // Out-of-range rates are clamped.
    /// assert_eq!(Bernoulli::from_f64(7.0).threshold(), 1 << 31);
    /// ```
    pub fn from_f64(p: f64) -> Self {
        let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
        Bernoulli::new(Rate::from_num(p))
    }

    /// Fixed-point threshold (`rate · 2^31`).
    pub fn threshold(&self) -> u32 {
        self.threshold
    }

    /// One trial: draws one `u64` from `rng`.
    #[inline]
    pub fn fire(&self, rng: &mut Rng) -> bool {
        ((rng.next() >> 33) as u32) < self.threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extremes_and_exact_threshold() {
        let mut rng = Rng::new(1);
        let always = Bernoulli::new(Rate::ONE);
        let never = Bernoulli::new(Rate::ZERO);
        assert!((0..1000).all(|_| always.fire(&mut rng)));
        assert!((0..1000).all(|_| !never.fire(&mut rng)));
        assert_eq!(Bernoulli::from_f64(0.25).threshold(), 1 << 29);
        assert_eq!(Bernoulli::from_f64(2.0).threshold(), 1 << 31);
    }

    #[test]
    fn rate_is_met_within_sampling_error() {
        // 100 000 trials at p = 0.1: σ ≈ 95, accept ±5σ.
        let mut rng = Rng::new(7);
        let b = Bernoulli::from_f64(0.1);
        let hits = (0..100_000).filter(|_| b.fire(&mut rng)).count();
        assert!((9_525..=10_475).contains(&hits), "{hits}");
    }

    #[test]
    fn same_seed_same_draws() {
        let b = Bernoulli::from_f64(0.3);
        let (mut a, mut c) = (Rng::new(3), Rng::new(3));
        for _ in 0..1000 {
            assert_eq!(b.fire(&mut a), b.fire(&mut c));
        }
    }
}
