//! Internal speedup (BookSim2 `internal_speedup`): a router runs its
//! internal pipeline — route computation, VC allocation, switch allocation, switch traversal
//! — `S` times per cycle while its channels still carry one flit per cycle, so flits leave
//! the crossbar into per-output queues that drain one flit per cycle onto the channel.
//!
//! BookSim2 (`Router::Evaluate`) adds `S` to an accumulator every cycle and runs one internal
//! step per whole unit, so after cycle `c` it has run `⌊(c+1)·S⌋` steps: cycle `c` runs steps
//! `⌊c·S⌋ .. ⌊(c+1)·S⌋`. Its pipeline stages keep their delays in cycles: a stage of `d`
//! cycles evaluated in step `k` of cycle `c` completes in the first step `≥ k` of cycle
//! `c + d - 1`, and the next stage is evaluated one step later. [`Speedup`] holds `S` as an
//! exact fraction `num/den` (decimal values with up to three decimals), so these step
//! numbers are exact integers on every machine.

use core::fmt;

use serde::{Serialize, Serializer};

/// Largest speedup accepted.
pub const MAX: u32 = 255;

/// An internal speedup `num/den ≥ 1` in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speedup {
    num: u32,
    den: u32,
    /// `log2 S` when `S` is a power of two (1, 2, 4, …), else [`NOT_POW2`]: the step
    /// arithmetic of these speedups, BookSim2's usual 1 and 2, is shifts instead of
    /// divisions (derived from `num/den`, so equality stays that of the fraction).
    shift: u8,
}

/// [`Speedup::shift`] of a speedup that is not a power of two.
const NOT_POW2: u8 = u8::MAX;

const fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Speedup {
    /// No speedup: one internal step per cycle.
    pub const ONE: Speedup = Speedup::new(1, 1);

    /// What [`Speedup::parse`] accepts.
    pub const ALLOWED: &'static str = "a number 1..=255 with at most 3 decimals (e.g. 2 or 1.5)";

    /// An integral speedup `n` (`1..=255`).
    pub fn integral(n: u32) -> Option<Self> {
        (1..=MAX).contains(&n).then_some(Speedup::new(n, 1))
    }

    /// `num/den`, already in lowest terms.
    const fn new(num: u32, den: u32) -> Self {
        let shift = if den == 1 && num.is_power_of_two() {
            num.trailing_zeros() as u8
        } else {
            NOT_POW2
        };
        Speedup { num, den, shift }
    }

    /// Parses a decimal number `1 ≤ S ≤ 255` with at most three decimals (`2`, `2.0`, `1.5`,
    /// `1.25`); anything else is `None`.
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        let (int, frac) = match s.split_once('.') {
            Some((_, "")) => return None,
            Some(parts) => parts,
            None => (s, ""),
        };
        if int.is_empty()
            || frac.len() > 3
            || !int.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
            || int.len() > 4
        {
            return None;
        }
        let i: u32 = int.parse().ok()?;
        let f: u32 = if frac.is_empty() {
            0
        } else {
            frac.parse().ok()?
        };
        let den = 10u32.pow(frac.len() as u32);
        let num = i.checked_mul(den)?.checked_add(f)?;
        if num < den || num > MAX * den {
            return None;
        }
        let g = gcd(num, den);
        Some(Speedup::new(num / g, den / g))
    }

    /// Whether this is 1 (one internal step per cycle).
    pub fn is_one(self) -> bool {
        self.num == self.den
    }

    /// The value as a number.
    pub fn value(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }

    /// First internal step of cycle `c`: `⌊c·S⌋`.
    #[inline]
    pub fn first_step(self, c: u64) -> u64 {
        if self.shift != NOT_POW2 {
            // No speedup or a power of two: skips the division (most runs).
            return c << self.shift;
        }
        c * u64::from(self.num) / u64::from(self.den)
    }

    /// Internal steps run in cycle `c` (at least 1).
    #[inline]
    pub fn steps_in(self, c: u64) -> u64 {
        self.first_step(c + 1) - self.first_step(c)
    }

    /// Cycle of internal step `k`: the largest `c` with `⌊c·S⌋ ≤ k`.
    #[inline]
    pub fn cycle_of(self, k: u64) -> u64 {
        if self.shift != NOT_POW2 {
            // `((k + 1)·1 − 1) / 2^shift`.
            return k >> self.shift;
        }
        ((k + 1) * u64::from(self.den) - 1) / u64::from(self.num)
    }

    /// The step after a pipeline stage of `d` cycles evaluated in step `k` (BookSim2's rule
    /// above); a stage of 0 cycles is skipped (BookSim2's lookahead routing with
    /// `routing_delay = 0`).
    #[inline]
    pub fn after_stage(self, k: u64, d: u64) -> u64 {
        if d == 0 {
            k
        } else {
            k.max(self.first_step(self.cycle_of(k) + d - 1)) + 1
        }
    }

    /// The cycle after the one whose step `e - 1` finished a result (`0` for `e = 0`): when
    /// a flit that left the switch in step `e - 1` can be on its way (BookSim2 sends an
    /// output queue's front flit at the end of the cycle).
    #[inline]
    pub fn cycle_after(self, e: u64) -> u64 {
        match e.checked_sub(1) {
            Some(k) => self.cycle_of(k) + 1,
            None => 0,
        }
    }
}

impl Default for Speedup {
    fn default() -> Self {
        Speedup::ONE
    }
}

impl fmt::Display for Speedup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}", self.value())
        }
    }
}

/// An integral speedup as an integer (as before fractions were accepted), any other as a
/// number.
impl Serialize for Speedup {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.den == 1 {
            s.serialize_u32(self.num)
        } else {
            s.serialize_f64(self.value())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_accepts_decimals_and_refuses_the_rest() {
        for (s, v) in [
            ("1", 1.0),
            ("2", 2.0),
            ("2.0", 2.0),
            ("1.5", 1.5),
            (" 1.25 ", 1.25),
            ("255", 255.0),
            ("3.333", 3.333),
        ] {
            assert_eq!(Speedup::parse(s).map(Speedup::value), Some(v), "{s}");
        }
        for s in [
            "0", "0.5", "0.999", "256", "255.001", "1.2345", "-2", "x", "", "1.", ".5", "1e2",
            "99999999",
        ] {
            assert_eq!(Speedup::parse(s), None, "{s}");
        }
        assert_eq!(Speedup::parse("2.50"), Speedup::parse("2.5"));
        assert!(Speedup::parse("1.000").unwrap().is_one());
    }

    /// BookSim2's accumulator, run cycle by cycle: the steps of every cycle.
    fn accumulator(s: f64, cycles: u64) -> Vec<(u64, u64)> {
        let (mut partial, mut step, mut out) = (0.0f64, 0u64, Vec::new());
        for _ in 0..cycles {
            partial += s;
            let first = step;
            while partial >= 1.0 {
                step += 1;
                partial -= 1.0;
            }
            out.push((first, step));
        }
        out
    }

    #[test]
    fn steps_of_each_cycle_equal_booksims_accumulator() {
        for s in ["1", "2", "3", "4", "8", "1.5", "1.25", "2.75"] {
            let sp = Speedup::parse(s).unwrap();
            for (c, &(first, end)) in accumulator(sp.value(), 500).iter().enumerate() {
                let c = c as u64;
                assert_eq!(sp.first_step(c), first, "S={s} cycle {c}");
                assert_eq!(sp.steps_in(c), end - first, "S={s} cycle {c}");
                for k in first..end {
                    assert_eq!(sp.cycle_of(k), c, "S={s} step {k}");
                }
            }
        }
    }

    #[test]
    fn stages_follow_booksims_cycle_timestamps() {
        // S = 2: cycle c runs steps 2c and 2c+1.
        let s = Speedup::integral(2).unwrap();
        // One-cycle stages take one step each.
        assert_eq!(s.after_stage(4, 1), 5);
        assert_eq!(s.after_stage(5, 1), 6);
        // A two-cycle stage evaluated in step 5 (cycle 2) completes in cycle 3's first step.
        assert_eq!(s.after_stage(5, 2), 7);
        assert_eq!(s.after_stage(4, 2), 7);
        assert_eq!(s.after_stage(4, 0), 4);
        // Without speedup a stage of d cycles takes d steps.
        for k in 0..20 {
            for d in 0..4 {
                assert_eq!(Speedup::ONE.after_stage(k, d), k + d);
            }
            assert_eq!(Speedup::ONE.cycle_after(k), k);
        }
        assert_eq!(s.cycle_after(0), 0);
        assert_eq!(s.cycle_after(5), 3);
        assert_eq!(s.cycle_after(6), 3);
    }

    #[test]
    fn powers_of_two_shift_as_the_fraction_divides() {
        for n in [1u32, 2, 4, 8, 16, 32, 64, 128] {
            let fast = Speedup::integral(n).unwrap();
            assert_eq!(u32::from(fast.shift), n.trailing_zeros(), "S={n}");
            let divided = Speedup {
                shift: NOT_POW2,
                ..fast
            };
            for k in 0..1000 {
                assert_eq!(fast.first_step(k), divided.first_step(k), "S={n} c={k}");
                assert_eq!(fast.cycle_of(k), divided.cycle_of(k), "S={n} k={k}");
            }
        }
        for s in ["3", "1.5", "2.5", "6"] {
            assert_eq!(Speedup::parse(s).unwrap().shift, NOT_POW2, "{s}");
        }
        assert_eq!(Speedup::parse("4.000"), Speedup::integral(4));
    }
}
