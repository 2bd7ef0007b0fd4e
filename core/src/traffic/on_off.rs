//! BookSim2's on/off injection process (`injection_process = on_off`, docs/booksim.md §2):
//! every source is a two-state Markov chain, advanced once per cycle — an "off" source turns
//! on with probability `alpha`, an "on" source turns off with probability `beta` — and an
//! "on" source then starts a packet with probability `r1`. Given two of `alpha`, `beta`,
//! `r1`, the third follows from the mean rate `rate = r1 · alpha / (alpha + beta)` (the
//! chain is on for a share `alpha / (alpha + beta)` of the cycles). Probabilities are kept
//! in the same fixed point as [`Bernoulli`]'s, so host and MCU draw alike.

use super::{Bernoulli, TrafficError};
use crate::rng::Rng;

/// The on/off process of one run; each source keeps its own state (a `bool`, caller's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnOff {
    alpha: Bernoulli,
    beta: Bernoulli,
    r1: Bernoulli,
}

impl OnOff {
    /// The process with mean `rate` packets per cycle and two of `alpha`, `beta`, `r1`; the
    /// one given as a negative number is derived (BookSim2's `burst_alpha`, `burst_beta`,
    /// `burst_r1`, whose defaults 0.5, 0.5, −1 give `r1 = 2·rate`):
    /// `alpha = beta·rate / (r1 − rate)`, `beta = alpha·(r1 − rate) / rate`,
    /// `r1 = rate·(alpha + beta) / alpha`. A derived probability outside `0..=1` is clamped,
    /// as BookSim2's comparisons with a uniform draw clamp it.
    ///
    /// Errors ([`TrafficError::OnOffParams`]): not exactly one negative parameter, or a
    /// given one above 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::traffic::OnOff;
    /// // BookSim2's defaults at 0.2 packets per cycle: on half the time, r1 = 0.4.
    /// let p = OnOff::new(0.2, 0.5, 0.5, -1.0).unwrap();
    /// assert_eq!(p, OnOff::new(0.2, 0.5, -1.0, 0.4).unwrap());
    /// assert!(OnOff::new(0.2, 0.5, 0.5, 0.4).is_err());
    /// ```
    pub fn new(rate: f64, alpha: f64, beta: f64, r1: f64) -> Result<Self, TrafficError> {
        let (alpha, beta, r1) = Self::derived(rate, alpha, beta, r1)?;
        Ok(OnOff {
            alpha: Bernoulli::from_f64(alpha),
            beta: Bernoulli::from_f64(beta),
            r1: Bernoulli::from_f64(r1),
        })
    }

    /// The three probabilities `(alpha, beta, r1)` for the mean rate `rate`: exactly one of
    /// the given three is negative and is derived from the other two and the rate, in
    /// BookSim2's arithmetic (`OnOffInjectionProcess`, so the same `f64` values).
    ///
    /// # Errors
    ///
    /// [`TrafficError::OnOffParams`] unless exactly one is negative and none above 1.
    pub fn derived(
        rate: f64,
        alpha: f64,
        beta: f64,
        r1: f64,
    ) -> Result<(f64, f64, f64), TrafficError> {
        let negative = [alpha, beta, r1].iter().filter(|&&x| x < 0.0).count();
        if negative != 1 || alpha > 1.0 || beta > 1.0 || r1 > 1.0 {
            return Err(TrafficError::OnOffParams);
        }
        Ok(if alpha < 0.0 {
            (beta * rate / (r1 - rate), beta, r1)
        } else if beta < 0.0 {
            (alpha, alpha * (r1 - rate) / rate, r1)
        } else {
            (alpha, beta, rate * (alpha + beta) / alpha)
        })
    }

    /// One cycle of a source whose state is `on`: advances the chain (one draw), then, if
    /// on, draws whether a packet starts.
    #[inline]
    pub fn fire(&self, on: &mut bool, rng: &mut Rng) -> bool {
        *on = if *on {
            !self.beta.fire(rng)
        } else {
            self.alpha.fire(rng)
        };
        *on && self.r1.fire(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_parameter_and_errors() {
        // alpha from beta, r1: 0.1·0.2 / (0.5 − 0.2) = 1/15.
        let p = OnOff::new(0.2, -1.0, 0.1, 0.5).unwrap();
        assert_eq!(p.alpha, Bernoulli::from_f64(0.1 * 0.2 / 0.3));
        // beta from alpha, r1: 0.05·(0.5 − 0.2) / 0.2 = 0.075.
        let p = OnOff::new(0.2, 0.05, -1.0, 0.5).unwrap();
        assert_eq!(p.beta, Bernoulli::from_f64(0.05 * 0.3 / 0.2));
        for bad in [
            (0.5, 0.5, 0.5),
            (-1.0, -1.0, 0.5),
            (1.5, 0.5, -1.0),
            (-1.0, 0.5, 2.0),
        ] {
            assert_eq!(
                OnOff::new(0.2, bad.0, bad.1, bad.2),
                Err(TrafficError::OnOffParams)
            );
        }
    }

    #[test]
    fn mean_rate_and_bursts() {
        // alpha = 0.05, beta = 0.2: on 1/5 of the time, r1 = 5·0.1 = 0.5; mean 0.1.
        let p = OnOff::new(0.1, 0.05, 0.2, -1.0).unwrap();
        let mut rng = Rng::new(8);
        let mut on = false;
        let (mut fired, mut on_cycles) = (0u32, 0u32);
        for _ in 0..200_000 {
            fired += u32::from(p.fire(&mut on, &mut rng));
            on_cycles += u32::from(on);
        }
        // 20 000 expected; the chain's correlation widens the spread well beyond √n.
        assert!((19_000..=21_000).contains(&fired), "{fired}");
        assert!((38_000..=42_000).contains(&on_cycles), "{on_cycles}");
    }
}
