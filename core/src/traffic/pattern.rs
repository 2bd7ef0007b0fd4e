//! Destination patterns: the bit patterns of docs/mapping.md §5 (with
//! `N = 2^b` nodes, node `s`, bit `i` = `s_i`), BookSim2's digit patterns tornado and
//! neighbour on a `k`-ary `n`-cube, \[GA\]'s tornado, uniform random, a random permutation in
//! a caller buffer, hotspot, and BookSim2's random patterns `diagonal`, `asymmetric`,
//! `taper64`, `bad_dragon` and its weighted `hotspot` list (docs/booksim.md §3,
//! [`super::random_patterns`]).
//!
//! Every deterministic formula is written once, in [`Traffic::dest`]; the GA's patterns
//! (`crate::mapping::ga::TrafficPattern`) compute their tables through it.
//!
//! Two patterns are called "tornado" in the literature this project follows, and they differ:
//! BookSim2's ([`DestPattern::BookSimTornado`]) moves every base-`k` digit by
//! `ceil(k/2) − 1`; \[GA\]'s `torn` ([`DestPattern::GaTornado`]) moves only `x` (digit 0),
//! by `floor(k/2)`. On an 8 × 8 torus node `(5, 1)` goes to `(0, 4)` under the first and to
//! `(1, 1)` under the second.

use super::{random_patterns, TrafficError};
use crate::rng::knuth::RanStream;
use crate::rng::Rng;

/// A destination pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DestPattern {
    /// Uniform over all nodes other than the source.
    Uniform,
    /// bcmp: `d = s XOR (N-1)` (docs/mapping.md §5).
    BitComplement,
    /// brev: `d_i = s_{b-1-i}` (docs/mapping.md §5).
    BitReversal,
    /// brot: `d_i = s_{(i+1) mod b}`, rotate right by one (docs/mapping.md §5).
    BitRotation,
    /// shfl: `d_i = s_{(i-1) mod b}`, rotate left by one (docs/mapping.md §5).
    Shuffle,
    /// trns: `d_i = s_{(i+b/2) mod b}`, `(x, y) ↦ (y, x)` (docs/mapping.md §5).
    Transpose,
    /// BookSim2's tornado (`traffic.cpp`, after Dally & Towles): every base-`k` digit
    /// `x ↦ (x + ceil(k/2) - 1) mod k`. Not \[GA\]'s `torn` ([`DestPattern::GaTornado`]).
    BookSimTornado,
    /// \[GA\]'s tornado `torn` (docs/mapping.md §5; project choice for "the node whose
    /// distance is n/2"): digit 0 only, `x ↦ (x + floor(k/2)) mod k`, the other digits
    /// unchanged — `(x, y) ↦ ((x + n/2) mod n, y)` on the GA's `n × n` grid. Not BookSim2's
    /// tornado ([`DestPattern::BookSimTornado`]).
    GaTornado,
    /// Neighbour (BookSim2 `traffic.cpp`): every base-`k` digit `x ↦ (x + 1) mod k`.
    Neighbour,
    /// Fixed random permutation in a caller buffer, drawn once: by jumpnet's
    /// [`Traffic::draw_permutation`] or BookSim2's [`Traffic::draw_booksim_permutation`].
    Permutation,
    /// Uniform, except that a fraction `permille / 1000` of the packets goes to `node`.
    Hotspot {
        /// The hotspot node.
        node: u32,
        /// Share of packets sent to the hotspot, in 1/1000.
        permille: u16,
    },
    /// BookSim2's `diagonal`: `(s + 1) mod N` with probability 1/3, else `s` itself.
    Diagonal,
    /// BookSim2's `asymmetric`: `s mod (N/2)`, plus `N/2` with probability 1/2.
    Asymmetric,
    /// BookSim2's `taper64` (exactly 64 nodes): with probability 1/2 one of the 3 × 3 nodes
    /// `(s + 8a + b) mod 64`, `a, b ∈ {-1, 0, 1}`, else uniform over all 64.
    Taper64,
    /// BookSim2's `bad_dragon` on a dragonfly with `k` terminals per router: uniform over the
    /// `2k²` nodes of the next group.
    BadDragon {
        /// Terminals per router (BookSim2's dragonfly `k`).
        k: u32,
    },
    /// BookSim2's `hotspot`: every packet to one of the hotspots of the caller's table,
    /// pairs `[node, weight, …]`, hotspot `i` with probability `weight_i / Σ weight`.
    Hotspots,
}

/// A pattern bound to a network size. `perm` holds the permutation of
/// [`DestPattern::Permutation`] (one entry per node) or the `[node, weight, …]` pairs of
/// [`DestPattern::Hotspots`]; it is empty otherwise.
#[derive(Debug)]
pub struct Traffic<'a> {
    pattern: DestPattern,
    nodes: u32,
    bits: u32,
    k: u32,
    n: u32,
    perm: &'a [u32],
}

impl<'a> Traffic<'a> {
    /// Binds `pattern` to `nodes` nodes; `k`, `n` are the radix and dimension of the digit
    /// patterns (`nodes = k^n`; pass `k = nodes, n = 1` for a ring or when unused).
    ///
    /// Errors: bit patterns on a non-power-of-two count, transpose on an odd bit count, digit
    /// patterns with `k^n ≠ nodes`, a permutation buffer of the wrong length, a hotspot node
    /// out of range or a hotspot table that is empty, odd or has a zero weight, `taper64` on
    /// other than 64 nodes, `bad_dragon` with `k = 0` or `2k²` beyond `u32`.
    pub fn new(
        pattern: DestPattern,
        nodes: u32,
        k: u32,
        n: u32,
        perm: &'a [u32],
    ) -> Result<Self, TrafficError> {
        if nodes < 2 {
            return Err(TrafficError::TooFewNodes);
        }
        let bits = nodes.trailing_zeros();
        match pattern {
            DestPattern::BitComplement
            | DestPattern::BitReversal
            | DestPattern::BitRotation
            | DestPattern::Shuffle
            | DestPattern::Transpose => {
                if !nodes.is_power_of_two() {
                    return Err(TrafficError::NotPowerOfTwo);
                }
                if pattern == DestPattern::Transpose && bits % 2 == 1 {
                    return Err(TrafficError::OddBits);
                }
            }
            DestPattern::BookSimTornado | DestPattern::GaTornado | DestPattern::Neighbour => {
                if k < 2 || k.checked_pow(n) != Some(nodes) {
                    return Err(TrafficError::NotKAryNCube);
                }
            }
            DestPattern::Permutation => {
                if perm.len() != nodes as usize {
                    return Err(TrafficError::BufferSize);
                }
            }
            DestPattern::Hotspot { node, .. } => {
                if node >= nodes {
                    return Err(TrafficError::BadHotspot);
                }
            }
            DestPattern::Hotspots => {
                if !random_patterns::valid_hotspots(perm, nodes) {
                    return Err(TrafficError::BadHotspot);
                }
            }
            DestPattern::Taper64 => {
                if nodes != 64 {
                    return Err(TrafficError::NotSixtyFour);
                }
            }
            DestPattern::BadDragon { k } => {
                if k == 0 || k.checked_mul(k).and_then(|kk| kk.checked_mul(2)).is_none() {
                    return Err(TrafficError::BadGroup);
                }
            }
            DestPattern::Uniform | DestPattern::Diagonal | DestPattern::Asymmetric => {}
        }
        Ok(Traffic {
            pattern,
            nodes,
            bits,
            k,
            n,
            perm,
        })
    }

    /// Fills `buf` (one entry per node) with a random permutation drawn from `rng`
    /// (Fisher–Yates via [`Rng::shuffle`]) for [`DestPattern::Permutation`]: jumpnet's own
    /// draw, which its presets use. BookSim2's is [`Traffic::draw_booksim_permutation`].
    pub fn draw_permutation(buf: &mut [u32], rng: &mut Rng) {
        for (i, v) in buf.iter_mut().enumerate() {
            *v = i as u32;
        }
        rng.shuffle(buf);
    }

    /// Fills `buf` (one entry per node, `buf[s]` the destination of node `s`) with
    /// BookSim2's `randperm` permutation for `perm_seed` (docs/booksim.md §3.8): Knuth's
    /// generator is started from the seed ([`RanStream`]) and node `i = 0, 1, …` becomes
    /// the destination of the source in the `r`-th still unassigned position, counted from
    /// 0, where `r` is BookSim2's `RandomInt(nodes − 1 − i)` ([`RanStream::random_int`]).
    /// BookSim2 walks the positions for each `i`; here a Fenwick tree of the unassigned
    /// positions in `scratch` finds the same one in `O(log nodes)` steps, so the draw takes
    /// `O(nodes · log nodes)`. The same for every node count BookSim2 can hold (`int`).
    ///
    /// `scratch`: at least one entry per node, overwritten.
    ///
    /// Errors: [`TrafficError::BufferSize`] if `scratch` is shorter than `buf` or `buf` has
    /// more than `u32::MAX` entries (node ids are `u32`); `buf` is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::traffic::{Traffic, TrafficError};
    ///
    /// // BookSim2's `traffic = randperm` on 16 nodes with `perm_seed = 0`.
    /// let (mut perm, mut scratch) = ([0u32; 16], [0u32; 16]);
    /// Traffic::draw_booksim_permutation(&mut perm, &mut scratch, 0)?;
    /// assert_eq!(perm, [2, 8, 6, 1, 0, 11, 4, 5, 3, 14, 10, 7, 15, 12, 9, 13]);
    /// # Ok::<(), TrafficError>(())
    /// ```
    pub fn draw_booksim_permutation(
        buf: &mut [u32],
        scratch: &mut [u32],
        perm_seed: i64,
    ) -> Result<(), TrafficError> {
        let n = buf.len();
        if scratch.len() < n || u32::try_from(n).is_err() {
            return Err(TrafficError::BufferSize);
        }
        let tree = &mut scratch[..n];
        // Fenwick tree of the unassigned positions (1-based: entry `p` at `tree[p − 1]`
        // counts the positions `p − lowbit(p) + 1 ..= p`): all unassigned at first.
        for (i, t) in tree.iter_mut().enumerate() {
            let p = i + 1;
            *t = (p & p.wrapping_neg()) as u32;
        }
        let top = if n == 0 { 0 } else { 1usize << n.ilog2() };
        let mut rng = RanStream::new(perm_seed);
        for (i, dest) in (0..n as u32).enumerate() {
            // The `r`-th unassigned position (from 0): descend to the last prefix holding
            // at most `r` of them.
            let mut rest = rng.random_int((n - 1 - i) as u32);
            let (mut pos, mut step) = (0usize, top);
            while step > 0 {
                let next = pos + step;
                if next <= n && tree[next - 1] <= rest {
                    pos = next;
                    rest -= tree[next - 1];
                }
                step >>= 1;
            }
            // Position `pos` (0-based) is unassigned: it sends to `dest`.
            buf[pos] = dest;
            let mut p = pos + 1;
            while p <= n {
                tree[p - 1] -= 1;
                p += p & p.wrapping_neg();
            }
        }
        Ok(())
    }

    /// Destination of a packet from `src` (`< nodes`). Random patterns draw from `rng`;
    /// deterministic ones do not touch it. May return `src` (e.g. bit-reversal palindromes,
    /// the transpose diagonal); the caller decides (docs/mapping.md §5: such nodes send
    /// nothing).
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::rng::Rng;
    /// use jumpnet_core::traffic::{DestPattern, Traffic, TrafficError};
    ///
    /// // 64 nodes: 6 address bits, or an 8-ary 2-cube for the digit patterns.
    /// fn dest(pattern: DestPattern, src: u32) -> Result<u32, TrafficError> {
    ///     Ok(Traffic::new(pattern, 64, 8, 2, &[])?.dest(src, &mut Rng::new(0)))
    /// }
    /// assert_eq!(dest(DestPattern::BitComplement, 5)?, 58); // 5 XOR 63
    /// assert_eq!(dest(DestPattern::BitReversal, 1)?, 32); // 000001 → 100000
    /// assert_eq!(dest(DestPattern::Shuffle, 33)?, 3); // rotate left: 100001 → 000011
    /// assert_eq!(dest(DestPattern::Transpose, 3 + 8 * 5)?, 5 + 8 * 3); // (3, 5) → (5, 3)
    /// assert_eq!(dest(DestPattern::BookSimTornado, 0)?, 3 + 8 * 3); // every digit + ceil(8/2) − 1
    /// // Bit patterns need a power-of-two node count.
    /// assert_eq!(
    ///     Traffic::new(DestPattern::BitReversal, 48, 48, 1, &[]).unwrap_err(),
    ///     TrafficError::NotPowerOfTwo
    /// );
    /// # Ok::<(), TrafficError>(())
    /// ```
    #[inline]
    pub fn dest(&self, src: u32, rng: &mut Rng) -> u32 {
        let nn = self.nodes;
        let b = self.bits;
        let mask = nn.wrapping_sub(1);
        match self.pattern {
            DestPattern::Uniform => uniform_other(src, nn, rng),
            DestPattern::BitComplement => src ^ mask,
            DestPattern::BitReversal => src.reverse_bits() >> (32 - b),
            DestPattern::BitRotation => (src >> 1) | ((src & 1) << (b - 1)),
            DestPattern::Shuffle => ((src << 1) & mask) | (src >> (b - 1)),
            DestPattern::Transpose => {
                let h = b / 2;
                let lo = src & ((1 << h) - 1);
                (lo << h) | (src >> h)
            }
            DestPattern::BookSimTornado => self.digits(src, self.k.div_ceil(2) - 1),
            DestPattern::GaTornado => {
                let x = src % self.k;
                (src - x).wrapping_add((x + self.k / 2) % self.k)
            }
            DestPattern::Neighbour => self.digits(src, 1),
            DestPattern::Permutation => self.perm[src as usize],
            DestPattern::Hotspot { node, permille } => {
                if rng.below(1000) < u64::from(permille) {
                    node
                } else {
                    uniform_other(src, nn, rng)
                }
            }
            DestPattern::Diagonal => random_patterns::diagonal(src, nn, rng),
            DestPattern::Asymmetric => random_patterns::asymmetric(src, nn, rng),
            DestPattern::Taper64 => random_patterns::taper64(src, rng),
            DestPattern::BadDragon { k } => random_patterns::bad_dragon(src, nn, k, rng),
            DestPattern::Hotspots => random_patterns::hotspots(self.perm, rng),
        }
    }

    fn digits(&self, src: u32, shift: u32) -> u32 {
        let (mut rest, mut off, mut out) = (src, 1u32, 0u32);
        for _ in 0..self.n {
            let d = rest % self.k;
            rest /= self.k;
            out += off * ((d + shift) % self.k);
            off = off.wrapping_mul(self.k);
        }
        out
    }
}

#[inline]
fn uniform_other(src: u32, n: u32, rng: &mut Rng) -> u32 {
    let d = rng.below(u64::from(n - 1)) as u32;
    if d >= src {
        d + 1
    } else {
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn det(p: DestPattern, nodes: u32, k: u32, n: u32, s: u32) -> u32 {
        let t = Traffic::new(p, nodes, k, n, &[]).unwrap();
        t.dest(s, &mut Rng::new(0))
    }

    #[test]
    fn bit_patterns_match_spec_table_on_8x8() {
        // s = 13 = 0b001101, (x, y) = (5, 1).
        assert_eq!(det(DestPattern::BitComplement, 64, 8, 2, 13), 50); // (2, 6)
        assert_eq!(det(DestPattern::BitReversal, 64, 8, 2, 13), 0b101100);
        assert_eq!(det(DestPattern::BitRotation, 64, 8, 2, 13), 0b100110);
        assert_eq!(det(DestPattern::Shuffle, 64, 8, 2, 13), 0b011010);
        assert_eq!(det(DestPattern::Transpose, 64, 8, 2, 13), 8 * 5 + 1); // (1, 5)
    }

    #[test]
    fn shuffle_and_rotation_are_inverse() {
        for s in 0..64 {
            let r = det(DestPattern::BitRotation, 64, 8, 2, s);
            assert_eq!(det(DestPattern::Shuffle, 64, 8, 2, r), s);
        }
    }

    #[test]
    fn tornado_and_neighbour_as_booksim() {
        // k = 8: shift ceil(8/2) - 1 = 3 per digit; (5, 1) → (0, 4).
        assert_eq!(det(DestPattern::BookSimTornado, 64, 8, 2, 13), 32);
        // k = 5: shift 2; (4, 4) → (1, 1).
        assert_eq!(det(DestPattern::BookSimTornado, 25, 5, 2, 24), 6);
        assert_eq!(det(DestPattern::Neighbour, 64, 8, 2, 63), 0);
        assert_eq!(det(DestPattern::Neighbour, 64, 8, 2, 13), 22);
    }

    /// BookSim2's tornado as `Traffic::dest` computed it before \[GA\]'s tornado joined the
    /// patterns: every digit shifted by `ceil(k/2) − 1`.
    fn previous_booksim_tornado(src: u32, k: u32, n: u32) -> u32 {
        let (mut rest, mut off, mut out) = (src, 1u32, 0u32);
        for _ in 0..n {
            out += off * ((rest % k + k.div_ceil(2) - 1) % k);
            rest /= k;
            off *= k;
        }
        out
    }

    #[test]
    fn booksim_tornado_is_unchanged() {
        for (k, n) in [
            (8u32, 2u32),
            (5, 2),
            (3, 3),
            (4, 1),
            (2, 5),
            (7, 3),
            (16, 2),
        ] {
            let nodes = k.pow(n);
            for s in 0..nodes {
                assert_eq!(
                    det(DestPattern::BookSimTornado, nodes, k, n, s),
                    previous_booksim_tornado(s, k, n),
                    "k={k} n={n} s={s}"
                );
            }
        }
    }

    #[test]
    fn ga_tornado_moves_only_x_by_half() {
        // (x, y) ↦ ((x + k/2) mod k, y): (5, 1) ↦ (1, 1) on 8 × 8; k = 5: x + 2.
        assert_eq!(det(DestPattern::GaTornado, 64, 8, 2, 13), 9);
        assert_eq!(det(DestPattern::GaTornado, 25, 5, 2, 24), 21);
        for (k, n) in [(8u32, 2u32), (5, 2), (6, 2), (4, 3)] {
            let nodes = k.pow(n);
            for s in 0..nodes {
                let x = s % k;
                assert_eq!(
                    det(DestPattern::GaTornado, nodes, k, n, s),
                    s - x + (x + k / 2) % k
                );
            }
        }
        assert_eq!(
            Traffic::new(DestPattern::GaTornado, 60, 8, 2, &[]).unwrap_err(),
            TrafficError::NotKAryNCube
        );
    }

    #[test]
    fn uniform_never_self_and_covers_all() {
        let t = Traffic::new(DestPattern::Uniform, 5, 5, 1, &[]).unwrap();
        let mut rng = Rng::new(9);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            let d = t.dest(2, &mut rng);
            assert_ne!(d, 2);
            seen[d as usize] += 1;
        }
        assert!(seen.iter().enumerate().all(|(i, &c)| (i == 2) == (c == 0)));
    }

    #[test]
    fn permutation_is_a_permutation() {
        let mut buf = [0u32; 16];
        Traffic::draw_permutation(&mut buf, &mut Rng::new(4));
        let mut sorted = buf;
        sorted.sort_unstable();
        assert_eq!(sorted, core::array::from_fn::<u32, 16, _>(|i| i as u32));
        let t = Traffic::new(DestPattern::Permutation, 16, 16, 1, &buf).unwrap();
        assert_eq!(t.dest(3, &mut Rng::new(0)), buf[3]);
    }

    /// BookSim2's `randomize` (`traffic.cpp`) as it walks: node `i` goes to the
    /// `RandomInt(nodes − 1 − i)`-th unassigned position.
    fn booksim_walk(n: usize, seed: i64) -> std::vec::Vec<u32> {
        let mut rng = RanStream::new(seed);
        let mut dest = std::vec![u32::MAX; n];
        for i in 0..n {
            let r = rng.random_int((n - 1 - i) as u32) as usize;
            let j = (0..n).filter(|&j| dest[j] == u32::MAX).nth(r).unwrap();
            dest[j] = i as u32;
        }
        dest
    }

    /// Permutations BookSim2 (28f4329) printed: `booksim CFG traffic=randperm
    /// sim_type=batch batch_size=1 batch_count=1 watch_out=- watch_packets={0,…,N−1}`, each
    /// node's packet retired with `src = s, dest = d`.
    #[test]
    fn booksim_permutations_as_booksim_printed_them() {
        let draw = |n: usize, seed: i64| {
            let (mut perm, mut scratch) = (std::vec![0; n], std::vec![0; n]);
            Traffic::draw_booksim_permutation(&mut perm, &mut scratch, seed).unwrap();
            perm
        };
        // configs/torus.cfg k=5 perm_seed=3.
        assert_eq!(
            draw(25, 3),
            [
                8, 10, 12, 5, 4, 23, 24, 0, 22, 15, 9, 18, 1, 16, 6, 11, 2, 21, 13, 17, 3, 19, 20,
                7, 14
            ]
        );
        // configs/fly_k2n3.cfg k=4 n=3 perm_seed=-7.
        assert_eq!(
            draw(64, -7),
            [
                45, 39, 38, 7, 53, 24, 43, 41, 63, 44, 62, 28, 13, 17, 15, 8, 34, 30, 5, 9, 42, 35,
                29, 27, 6, 10, 58, 22, 59, 46, 50, 32, 61, 26, 49, 37, 11, 2, 60, 16, 56, 0, 57,
                20, 54, 21, 48, 23, 36, 31, 19, 4, 12, 52, 18, 25, 51, 40, 1, 33, 3, 55, 14, 47
            ]
        );
        // The Fenwick tree finds the position BookSim2's walk finds, at every size.
        for n in (0..70).chain([100, 127, 128, 129, 1000]) {
            for seed in [0, 1, 5, -3, 1 << 40] {
                assert_eq!(draw(n, seed), booksim_walk(n, seed), "n={n} seed={seed}");
            }
        }
    }

    #[test]
    fn booksim_permutation_errors() {
        let mut perm = [7u32; 8];
        let e = Traffic::draw_booksim_permutation(&mut perm, &mut [0; 7], 0).unwrap_err();
        assert_eq!((e, perm), (TrafficError::BufferSize, [7; 8]));
        // A longer scratch buffer is fine.
        Traffic::draw_booksim_permutation(&mut perm, &mut [0; 9], 0).unwrap();
        let mut sorted = perm;
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7]);
        Traffic::draw_booksim_permutation(&mut [], &mut [], 0).unwrap();
    }

    #[test]
    fn hotspot_share_and_errors() {
        let p = DestPattern::Hotspot {
            node: 7,
            permille: 1000,
        };
        let t = Traffic::new(p, 16, 16, 1, &[]).unwrap();
        assert_eq!(t.dest(0, &mut Rng::new(1)), 7);
        assert_eq!(
            Traffic::new(DestPattern::BitReversal, 12, 12, 1, &[]).unwrap_err(),
            TrafficError::NotPowerOfTwo
        );
        assert_eq!(
            Traffic::new(DestPattern::Transpose, 32, 32, 1, &[]).unwrap_err(),
            TrafficError::OddBits
        );
        assert_eq!(
            Traffic::new(DestPattern::BookSimTornado, 60, 8, 2, &[]).unwrap_err(),
            TrafficError::NotKAryNCube
        );
        assert_eq!(
            Traffic::new(DestPattern::Permutation, 4, 4, 1, &[0]).unwrap_err(),
            TrafficError::BufferSize
        );
    }
}
