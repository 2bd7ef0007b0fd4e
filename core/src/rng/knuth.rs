//! Knuth's lagged-Fibonacci generator `ran_array` (TAOCP Vol. 2, 3rd edition, §3.6, with the
//! changes of its 9th printing, 2002), the generator BookSim2 draws every random number
//! from. jumpnet uses it for one thing: BookSim2's `randperm` permutation
//! (docs/booksim.md §3.8, [`crate::traffic::Traffic::draw_booksim_permutation`]); jumpnet's
//! own draws use [`super::Rng`].
//!
//! The generator keeps the last [`KK`] = 100 values of the sequence
//! `X_j = (X_{j−100} − X_{j−37}) mod 2^30` ([`RanArray`]). [`RanArray::new`] is Knuth's
//! `ran_start`: it derives the first 100 values from a seed (a polynomial power in the
//! generator's field, so that seeds below 2^30 give streams at least 2^70 apart) and warms
//! up with ten blocks of 199 values. [`RanArray::fill`] is `ran_array`: it writes the next
//! `aa.len()` values of the sequence. [`RanStream`] is Knuth's one-at-a-time interface
//! (`ran_arr_next` / `ran_arr_cycle`, TAOCP exercise 3.6–15) as BookSim2 uses it
//! (`ran_next`): it asks for blocks of [`QUALITY`] = 1009 values and hands out only the
//! first 100 of each, and [`RanStream::random_int`] is BookSim2's `RandomInt(max)`, the
//! next value modulo `max + 1`.
//!
//! All values are below 2^30 and the arithmetic is modulo 2^30 on `u32`, so every target
//! gives the same numbers. Knuth's own check (his test program): after `ran_start(310952)`
//! and 2010 calls of `ran_array(a, 1009)`, `a[0]` is 995235265 (unit test below).

use crate::error::CapacityError;

/// The long lag (Knuth's `KK`): the state holds this many values.
pub const KK: usize = 100;
/// The short lag (Knuth's `LL`).
pub const LL: usize = 37;
/// The modulus 2^30 (Knuth's `MM`).
const MM: u32 = 1 << 30;
/// The block length of [`RanStream`] (Knuth's `QUALITY`): each block of this many values
/// hands out its first [`KK`].
pub const QUALITY: usize = 1009;
/// Knuth's `TT`: streams of different seeds are at least `2^TT` values apart.
const TT: u32 = 70;

/// `x − y` modulo 2^30 (Knuth's `mod_diff`).
#[inline]
fn mod_diff(x: u32, y: u32) -> u32 {
    x.wrapping_sub(y) & (MM - 1)
}

/// The state of Knuth's generator: the last [`KK`] values of its sequence (his `ran_x`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RanArray {
    x: [u32; KK],
}

impl RanArray {
    /// Knuth's `ran_start(seed)`: the state for `seed` (every `i64`; only its low 30 bits
    /// matter, as with Knuth's `long`), warmed up.
    pub fn new(seed: i64) -> Self {
        const MASK: i64 = MM as i64 - 1;
        // The preparation buffer: a polynomial of degree < 2·KK − 1 over GF(2^30) terms.
        let mut x = [0u32; KK + KK - 1];
        // Bootstrap: an even value shifted cyclically by one bit per entry (29 bits).
        let mut ss = (seed.wrapping_add(2) & (MASK - 1)) as u32;
        for v in x.iter_mut().take(KK) {
            *v = ss;
            ss <<= 1;
            if ss >= MM {
                ss -= MM - 2;
            }
        }
        // Exactly one odd value: x[1].
        x[1] += 1;
        let mut g = RanArray {
            x: seeded_state(&mut x, (seed & MASK) as u64, mod_diff),
        };
        // Warm up: ten blocks of 2·KK − 1 values, thrown away.
        for _ in 0..10 {
            g.run(&mut x);
        }
        g
    }

    /// Knuth's `ran_array(aa, aa.len())`: writes the next `aa.len()` values of the sequence
    /// into `aa` and advances the state past them.
    ///
    /// Errors: `aa` shorter than [`KK`] (Knuth's requirement), with nothing changed.
    pub fn fill(&mut self, aa: &mut [u32]) -> Result<(), CapacityError> {
        CapacityError::check("ran_array buffer", KK, aa.len())?;
        self.run(aa);
        Ok(())
    }

    /// The state: the [`KK`] values that the next values are computed from (Knuth's
    /// `ran_x`).
    pub fn state(&self) -> &[u32; KK] {
        &self.x
    }

    /// [`RanArray::fill`] on a buffer of at least [`KK`] values (shorter buffers are left
    /// unchanged).
    fn run(&mut self, aa: &mut [u32]) {
        lagged_run(&mut self.x, aa, mod_diff);
    }
}

/// The polynomial power at the heart of Knuth's `ran_start` and `ranf_start`, shared by
/// [`RanArray`] and [`super::knuth_float::RanfArray`]: `x` holds the bootstrap polynomial
/// (its first [`KK`] terms); it is squared and reduced modulo the generator's
/// characteristic polynomial, and multiplied by `z` for each 1 bit of `seed` (low bit
/// first), then squared [`TT`] − 1 more times once the bits are used up. `combine` is the
/// generator's coefficient arithmetic (a difference modulo 2^30 for `ran_array`, a sum
/// modulo 1 for `ranf_array`). Returns the first state, in Knuth's order.
pub(super) fn seeded_state<T: Copy + Default>(
    x: &mut [T; KK + KK - 1],
    seed: u64,
    combine: impl Fn(T, T) -> T,
) -> [T; KK] {
    let mut ss = seed;
    let mut t = TT - 1;
    while t > 0 {
        // "Square": spread the coefficients to the even positions.
        for j in (1..KK).rev() {
            x[j + j] = x[j];
            x[j + j - 1] = T::default();
        }
        // Reduce the terms of degree ≥ KK.
        for j in (KK..=KK + KK - 2).rev() {
            x[j - (KK - LL)] = combine(x[j - (KK - LL)], x[j]);
            x[j - KK] = combine(x[j - KK], x[j]);
        }
        if ss & 1 == 1 {
            // "Multiply by z": shift the buffer cyclically by one.
            for j in (1..=KK).rev() {
                x[j] = x[j - 1];
            }
            x[0] = x[KK];
            x[LL] = combine(x[LL], x[KK]);
        }
        if ss != 0 {
            ss >>= 1;
        } else {
            t -= 1;
        }
    }
    let mut state = [T::default(); KK];
    state[KK - LL..].copy_from_slice(&x[..LL]);
    state[..KK - LL].copy_from_slice(&x[LL..KK]);
    state
}

/// Knuth's `ran_array` / `ranf_array` step, shared by both generators: writes the next
/// `aa.len()` values of the sequence `X_j = combine(X_{j−100}, X_{j−37})` into `aa` and
/// makes the [`KK`] values after them the new `state`. Buffers shorter than [`KK`] are
/// left unchanged (Knuth requires at least [`KK`]).
pub(super) fn lagged_run<T: Copy>(state: &mut [T; KK], aa: &mut [T], combine: impl Fn(T, T) -> T) {
    let n = aa.len();
    if n < KK {
        return;
    }
    aa[..KK].copy_from_slice(state);
    // `X_j` depends on values at least LL positions back, so LL of them at a time are
    // computed from slices of finished values (the compiler vectorises the chunk).
    let mut j = KK;
    while j < n {
        let len = LL.min(n - j);
        let (done, rest) = aa.split_at_mut(j);
        let far = &done[j - KK..j - KK + len];
        let near = &done[j - LL..j - LL + len];
        for ((x, &a), &b) in rest[..len].iter_mut().zip(far).zip(near) {
            *x = combine(a, b);
        }
        j += len;
    }
    // The next KK values (sequence positions n + i) become the state: the first LL from
    // the buffer's tail, the rest from the state's own first values.
    for (i, v) in state[..LL].iter_mut().enumerate() {
        *v = combine(aa[n + i - KK], aa[n + i - LL]);
    }
    for i in LL..KK {
        state[i] = combine(aa[n + i - KK], state[i - LL]);
    }
}

/// Knuth's generator one value at a time, as BookSim2 draws from it (`ran_next`, Knuth's
/// `ran_arr_next` / `ran_arr_cycle`): a block of [`QUALITY`] values is drawn, its first
/// [`KK`] are handed out in order, then the next block is drawn.
#[derive(Clone, Debug)]
pub struct RanStream {
    gen: RanArray,
    block: [u32; QUALITY],
    /// The next value of `block` to hand out; [`KK`]: the block is used up.
    next: usize,
}

impl RanStream {
    /// The stream of seed `seed` (Knuth's `ran_start(seed)`, BookSim2's
    /// `RandomSeed(seed)`); the first value starts a block.
    pub fn new(seed: i64) -> Self {
        RanStream {
            gen: RanArray::new(seed),
            block: [0; QUALITY],
            next: KK,
        }
    }

    /// The next value, below 2^30 (Knuth's `ran_arr_next()`, BookSim2's `ran_next()`).
    pub fn next_value(&mut self) -> u32 {
        if self.next >= KK {
            self.gen.run(&mut self.block);
            self.next = 0;
        }
        let v = self.block[self.next];
        self.next += 1;
        v
    }

    /// BookSim2's `RandomInt(max)` (`random_utils.hpp`): the next value modulo `max + 1`,
    /// in `0..=max`.
    pub fn random_int(&mut self, max: u32) -> u32 {
        (u64::from(self.next_value()) % (u64::from(max) + 1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's published check (the test program of his `rng.c`, TAOCP Vol. 2 §3.6):
    /// `ran_start(310952)`, then `ran_array(a, 1009)` for `m = 0..=2009` (2010 calls), and
    /// `a[0]` is 995235265; the same with `ran_array(a, 2009)` for `m = 0..=1009`.
    #[test]
    fn knuths_check_value() {
        let mut a = [0u32; 2009];
        let mut g = RanArray::new(310_952);
        for _ in 0..=2009 {
            g.fill(&mut a[..1009]).unwrap();
        }
        assert_eq!(a[0], 995_235_265);
        let mut g = RanArray::new(310_952);
        for _ in 0..=1009 {
            g.fill(&mut a).unwrap();
        }
        assert_eq!(a[0], 995_235_265);
    }

    #[test]
    fn fill_refuses_short_buffers_and_values_stay_below_the_modulus() {
        let mut g = RanArray::new(0);
        let before = g.clone();
        let mut short = [0u32; KK - 1];
        let e = g.fill(&mut short).unwrap_err();
        assert_eq!((e.needed, e.available), (KK as u64, KK as u64 - 1));
        assert_eq!(g, before);
        let mut a = [0u32; 300];
        g.fill(&mut a).unwrap();
        assert!(a.iter().chain(g.state()).all(|&v| v < MM));
    }

    #[test]
    fn stream_hands_out_the_first_kk_values_of_each_block() {
        let mut g = RanArray::new(42);
        let mut block = [0u32; QUALITY];
        let mut s = RanStream::new(42);
        for _ in 0..3 {
            g.fill(&mut block).unwrap();
            for &v in &block[..KK] {
                assert_eq!(s.next_value(), v);
            }
        }
        // Only the low 30 bits of the seed matter, negative seeds included.
        let mut a = RanStream::new(-1);
        let mut b = RanStream::new((1 << 30) - 1);
        assert!((0..500).all(|_| a.next_value() == b.next_value()));
        assert_ne!(
            RanStream::new(0).next_value(),
            RanStream::new(1).next_value()
        );
        assert!((0..1000).all(|_| s.random_int(6) <= 6));
        assert_eq!(s.random_int(0), 0);
        let _ = s.random_int(u32::MAX);
    }
}
