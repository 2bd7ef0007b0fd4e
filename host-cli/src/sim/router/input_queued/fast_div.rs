//! Division of `u32`s by a fixed divisor with a multiplication (Lemire, Kaser and Kurz,
//! "Faster remainder by direct computation", 2019): the router of a channel event's input or
//! output VC, once per delivered flit and credit.

/// Division of `u32`s by a fixed divisor: `⌊n/d⌋ = ⌊M·n / 2⁶⁴⌋` with `M = ⌈2⁶⁴/d⌉`, exact
/// for every 32-bit `n` and `d ≥ 2`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastDiv {
    m: u64,
    d: u32,
}

impl FastDiv {
    /// Divider by `d` (`d ≥ 1`).
    pub(crate) fn new(d: u32) -> Self {
        let d = d.max(1);
        FastDiv {
            m: if d == 1 {
                0
            } else {
                u64::MAX / u64::from(d) + 1
            },
            d,
        }
    }

    /// `n / d`.
    #[inline]
    pub(crate) fn div(self, n: u32) -> u32 {
        if self.d == 1 {
            n
        } else {
            ((u128::from(self.m) * u128::from(n)) >> 64) as u32
        }
    }
}
