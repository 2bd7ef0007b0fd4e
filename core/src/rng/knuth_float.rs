//! Knuth's floating-point lagged-Fibonacci generator `ranf_array` (TAOCP Vol. 2, 3rd
//! edition, §3.6, the companion of [`super::knuth`]), the generator behind BookSim2's
//! `RandomFloat()`. jumpnet uses it for one thing: the fair coin by which BookSim2's batch
//! source makes a request a read or a write (docs/booksim.md §3.6), so that a batch run with
//! read/write traffic and no other random draw gives BookSim2's packets exactly.
//!
//! The sequence is `U_j = (U_{j−100} + U_{j−37}) mod 1`, every value a multiple of 2^−52 in
//! `[0, 1)`. Knuth computes it in `double`, where the sums are exact; jumpnet keeps each value
//! as the integer `U · 2^52` and adds modulo 2^52, so every target gives the same bits
//! without relying on floating-point rounding. [`RanfArray::new`] is `ranf_start`: the seed's
//! polynomial power (as in `ran_start`, with 52-bit terms and sums instead of differences),
//! then ten warm-up blocks of 199 values. [`RanfStream`] hands out values one at a time as
//! Knuth's `ranf_arr_next` does (blocks of [`QUALITY`], first [`KK`] of each), which is
//! BookSim2's `RandomFloat()`.
//!
//! Knuth's own check (the test program of his `rng-double.c`): after `ranf_start(310952)`
//! and 2009 calls of `ranf_array(a, 1009)`, the state's first value is
//! 0.36410514377569680455 (unit test below).

use super::knuth::{lagged_run, seeded_state, KK, QUALITY};

/// Values are integers below 2^52 (the value times 2^52).
const BITS: u32 = 52;
/// The modulus 2^52 (1.0 in units of 2^−52).
const ONE: u64 = 1 << BITS;

/// `x + y` modulo 1 in units of 2^−52 (Knuth's `mod_sum`).
#[inline]
fn mod_sum(x: u64, y: u64) -> u64 {
    (x + y) & (ONE - 1)
}

/// The state of Knuth's floating-point generator: the last [`KK`] values of its sequence
/// (his `ran_u`), in units of 2^−52.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RanfArray {
    u: [u64; KK],
}

impl RanfArray {
    /// Knuth's `ranf_start(seed)`: the state for `seed` (only its low 30 bits matter, as in
    /// Knuth's code), warmed up.
    pub fn new(seed: i64) -> Self {
        let low = (seed & ((1 << 30) - 1)) as u64;
        let mut u = [0u64; KK + KK - 1];
        // Bootstrap: 2·(seed + 2) ulps, doubled per entry with a cyclic shift of 51 bits.
        let mut ss = 2 * (low + 2);
        for v in u.iter_mut().take(KK) {
            *v = ss;
            ss += ss;
            if ss >= ONE {
                ss -= ONE - 2;
            }
        }
        // Exactly one "odd" value: u[1].
        u[1] += 1;
        let mut g = RanfArray {
            u: seeded_state(&mut u, low, mod_sum),
        };
        // Warm up: ten blocks of 2·KK − 1 values, thrown away.
        for _ in 0..10 {
            g.run(&mut u);
        }
        g
    }

    /// The state as Knuth's `ran_u`: the [`KK`] values the next ones are computed from.
    pub fn state(&self) -> [f64; KK] {
        self.u.map(to_unit)
    }

    /// Knuth's `ranf_array(aa, aa.len())` in units of 2^−52: writes the next `aa.len()`
    /// values and advances the state past them. Buffers shorter than [`KK`] are left
    /// unchanged (Knuth requires at least [`KK`]).
    fn run(&mut self, aa: &mut [u64]) {
        lagged_run(&mut self.u, aa, mod_sum);
    }
}

/// A value in units of 2^−52 as the `f64` Knuth's code holds (exact: below 2^52).
#[inline]
fn to_unit(v: u64) -> f64 {
    v as f64 / ONE as f64
}

/// Knuth's floating-point generator one value at a time, as BookSim2 draws from it
/// (`RandomFloat()`, `ranf_next`, Knuth's `ranf_arr_next` / `ranf_arr_cycle`): a block of
/// [`QUALITY`] values is drawn, its first [`KK`] are handed out in order, then the next
/// block is drawn.
#[derive(Clone, Debug)]
pub struct RanfStream {
    gen: RanfArray,
    block: [u64; QUALITY],
    /// The next value of `block` to hand out; [`KK`]: the block is used up.
    next: usize,
}

impl RanfStream {
    /// The stream of seed `seed` (Knuth's `ranf_start(seed)`, BookSim2's `RandomSeed(seed)`
    /// for its `RandomFloat`); the first value starts a block.
    pub fn new(seed: i64) -> Self {
        RanfStream {
            gen: RanfArray::new(seed),
            block: [0; QUALITY],
            next: KK,
        }
    }

    /// The next value, in `[0, 1)` (BookSim2's `RandomFloat()`).
    pub fn next_f64(&mut self) -> f64 {
        to_unit(self.next_units())
    }

    /// The next value in units of 2^−52: [`RanfStream::next_f64`] times 2^52, an integer
    /// below 2^52 (so a comparison with a probability can be made on integers).
    #[inline]
    pub fn next_units(&mut self) -> u64 {
        if self.next >= KK {
            self.gen.run(&mut self.block);
            self.next = 0;
        }
        let v = self.block[self.next];
        self.next += 1;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's published check (the test program of `rng-double.c`): `ranf_start(310952)`,
    /// then `ranf_array(a, 1009)` 2009 times, and `ran_u[0]` is 0.36410514377569680455; the
    /// same after `ranf_array(a, 2009)` 1009 times.
    #[test]
    fn knuths_check_value() {
        // Knuth's printed digits, read as the nearest double.
        let expected: f64 = "0.36410514377569680455".parse().unwrap();
        let mut a = [0u64; 2009];
        let mut g = RanfArray::new(310_952);
        for _ in 0..2009 {
            g.run(&mut a[..1009]);
        }
        assert_eq!(g.state()[0], expected);
        let mut g = RanfArray::new(310_952);
        for _ in 0..1009 {
            g.run(&mut a);
        }
        assert_eq!(g.state()[0], expected);
    }

    #[test]
    fn stream_hands_out_the_first_kk_values_of_each_block_in_unit_interval() {
        let mut g = RanfArray::new(7);
        let mut block = [0u64; QUALITY];
        let mut s = RanfStream::new(7);
        for _ in 0..3 {
            g.run(&mut block);
            for &v in &block[..KK] {
                assert_eq!(s.next_f64(), to_unit(v));
            }
        }
        assert!((0..5000)
            .map(|_| s.next_f64())
            .all(|u| (0.0..1.0).contains(&u)));
        // Only the low 30 bits of the seed matter, negative seeds included.
        let mut a = RanfStream::new(-1);
        let mut b = RanfStream::new((1 << 30) - 1);
        assert!((0..500).all(|_| a.next_f64() == b.next_f64()));
        assert_ne!(RanfStream::new(0).next_f64(), RanfStream::new(1).next_f64());
        // A short buffer leaves the generator alone.
        let before = g.clone();
        g.run(&mut [0u64; KK - 1]);
        assert_eq!(g, before);
    }

    /// Half the draws fall below 0.5 (a fair coin, as BookSim2's batch source uses it).
    #[test]
    fn coin_is_fair() {
        let mut s = RanfStream::new(0);
        let heads = (0..100_000).filter(|_| s.next_f64() < 0.5).count();
        assert!((49_000..51_000).contains(&heads), "{heads}");
    }
}
