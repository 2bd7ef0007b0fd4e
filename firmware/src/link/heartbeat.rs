//! A heartbeat: counts whole periods of elapsed time fed in microseconds.

/// Counts whole `period_us` periods of the time fed to [`Heartbeat::advance`]; the rest
/// carries over, so feeding `a` then `b` microseconds beats exactly as often as `a + b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heartbeat {
    period_us: u32,
    carry_us: u32,
}

impl Heartbeat {
    /// A heartbeat every `period_us` microseconds (0: never).
    pub const fn new(period_us: u32) -> Self {
        Heartbeat {
            period_us,
            carry_us: 0,
        }
    }

    /// Adds `us` microseconds; returns how many periods completed.
    pub fn advance(&mut self, us: u32) -> u32 {
        if self.period_us == 0 {
            return 0;
        }
        let total = u64::from(self.carry_us) + u64::from(us);
        let period = u64::from(self.period_us);
        // total < period + 2^32, so both results fit in u32.
        self.carry_us = (total % period) as u32;
        (total / period) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::Heartbeat;

    #[test]
    fn beats_once_per_whole_period_with_carry() {
        let mut h = Heartbeat::new(100);
        assert_eq!(h.advance(40), 0);
        assert_eq!(h.advance(40), 0);
        assert_eq!(h.advance(40), 1, "120 µs: one beat, 20 carried");
        assert_eq!(h.advance(80), 1, "20 + 80 = 100");
        assert_eq!(h.advance(350), 3);
        assert_eq!(h.advance(49), 0, "50 + 49 < 100");
        assert_eq!(h.advance(1), 1);
    }

    #[test]
    fn split_feeding_equals_one_sum() {
        for period in [1u32, 7, 100, 1_000_000] {
            let mut a = Heartbeat::new(period);
            let beats: u32 = [3u32, 999, 12_345, 1, 77]
                .iter()
                .map(|&u| a.advance(u))
                .sum();
            assert_eq!(beats, (3 + 999 + 12_345 + 1 + 77) / period);
        }
    }

    #[test]
    fn zero_period_never_beats_and_large_inputs_do_not_overflow() {
        assert_eq!(Heartbeat::new(0).advance(u32::MAX), 0);
        let mut h = Heartbeat::new(u32::MAX);
        assert_eq!(h.advance(u32::MAX - 1), 0);
        assert_eq!(h.advance(u32::MAX), 1);
        assert_eq!(h.advance(1), 1, "carry u32::MAX - 1, plus 1");
    }
}
