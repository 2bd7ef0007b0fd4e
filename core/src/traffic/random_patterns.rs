//! BookSim2's random destination patterns without a digit or bit structure
//! (docs/booksim.md §3, after BookSim2's `traffic.cpp`): `diagonal`, `asymmetric`,
//! `taper64`, `bad_dragon` and the weighted `hotspot` list. Each draws from the caller's
//! [`Rng`]; a BookSim2 `RandomInt(m)` (uniform over `0..=m`) is `rng.below(m + 1)` here.

use crate::rng::Rng;

/// `diagonal`: the next node `(s + 1) mod N` with probability 1/3, else `s` itself
/// (BookSim2 draws `RandomInt(2) == 0`, one of three values).
#[inline]
pub fn diagonal(src: u32, nodes: u32, rng: &mut Rng) -> u32 {
    if rng.below(3) == 0 {
        (src + 1) % nodes
    } else {
        src
    }
}

/// `asymmetric`: `s mod (N/2)` in the lower or, with probability 1/2, the upper half of
/// the nodes.
#[inline]
pub fn asymmetric(src: u32, nodes: u32, rng: &mut Rng) -> u32 {
    let half = nodes / 2;
    src % half + if rng.below(2) == 1 { half } else { 0 }
}

/// `taper64` on exactly 64 nodes: with probability 1/2 one of the nine nodes
/// `(s + 8a + b) mod 64`, `a, b` uniform in `{-1, 0, 1}` (the source's 3 × 3 neighbourhood
/// on an 8 × 8 grid whose rows wrap into each other), else uniform over all 64 nodes, the
/// source included.
#[inline]
pub fn taper64(src: u32, rng: &mut Rng) -> u32 {
    if rng.below(2) == 1 {
        let a = rng.below(3) as u32;
        let b = rng.below(3) as u32;
        // 64 + s + 8(a - 1) + (b - 1), without going negative.
        (64 + src + 8 * a + b - 9) % 64
    } else {
        rng.below(64) as u32
    }
}

/// `bad_dragon` on a dragonfly with `k` terminals per router (groups of `2k` routers,
/// `G = 2k²` nodes): uniform over the `G` nodes of the next group,
/// `(u + (s / G + 1)·G) mod N` for `u` uniform in `0..G`.
#[inline]
pub fn bad_dragon(src: u32, nodes: u32, k: u32, rng: &mut Rng) -> u32 {
    let g = u64::from(2 * k * k);
    let u = rng.below(g);
    ((u + (u64::from(src) / g + 1) * g) % u64::from(nodes)) as u32
}

/// BookSim2's `hotspot`: every packet goes to one of the hotspots of `table`, pairs
/// `[node, weight, node, weight, …]`, hotspot `i` with probability `weight_i / Σ weight`
/// (a single hotspot takes every packet without a draw).
#[inline]
pub fn hotspots(table: &[u32], rng: &mut Rng) -> u32 {
    if table.len() == 2 {
        return table[0];
    }
    let total: u64 = table.chunks_exact(2).map(|p| u64::from(p[1])).sum();
    let mut pick = rng.below(total);
    for p in table.chunks_exact(2) {
        let w = u64::from(p[1]);
        if pick < w {
            return p[0];
        }
        pick -= w;
    }
    table[table.len() - 2]
}

/// Whether `table` is a valid hotspot list for `nodes` nodes: at least one pair, every
/// node `< nodes`, every weight positive.
pub fn valid_hotspots(table: &[u32], nodes: u32) -> bool {
    !table.is_empty()
        && table.len().is_multiple_of(2)
        && table.chunks_exact(2).all(|p| p[0] < nodes && p[1] > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Share of `n` draws of `f` equal to each value `0..64`.
    fn counts(n: u32, mut f: impl FnMut(&mut Rng) -> u32) -> [u32; 64] {
        let mut rng = Rng::new(11);
        let mut c = [0u32; 64];
        for _ in 0..n {
            c[f(&mut rng) as usize] += 1;
        }
        c
    }

    #[test]
    fn diagonal_sends_a_third_to_the_next_node() {
        let c = counts(30_000, |r| diagonal(63, 64, r));
        // 10 000 expected at node 0 (σ ≈ 82), the rest to itself.
        assert!((9_600..=10_400).contains(&c[0]), "{}", c[0]);
        assert_eq!(c[0] + c[63], 30_000);
    }

    #[test]
    fn asymmetric_keeps_the_offset_in_either_half() {
        let c = counts(10_000, |r| asymmetric(37, 64, r));
        assert_eq!(c[5] + c[37], 10_000);
        assert!((4_700..=5_300).contains(&c[5]), "{}", c[5]);
    }

    #[test]
    fn taper64_neighbourhood_and_uniform_halves() {
        // Source 0: the neighbourhood is {55, 56, 57, 63, 0, 1, 7, 8, 9}; each gets 1/18 from
        // the local half plus 1/128 from the uniform half; every other node 1/128.
        let n = 128_000;
        let c = counts(n, |r| taper64(0, r));
        let near = [55, 56, 57, 63, 0, 1, 7, 8, 9];
        for (d, &k) in c.iter().enumerate() {
            let p = if near.contains(&d) {
                1.0 / 18.0 + 1.0 / 128.0
            } else {
                1.0 / 128.0
            };
            let want = p * f64::from(n);
            assert!((f64::from(k) - want).abs() < 5.0 * want.sqrt(), "{d}: {k}");
        }
    }

    #[test]
    fn bad_dragon_targets_the_next_group() {
        // k = 2: groups of 8 nodes, 9 groups = 72 nodes; node 70 (group 8) → group 0.
        let mut rng = Rng::new(3);
        for _ in 0..1000 {
            let d = bad_dragon(13, 72, 2, &mut rng);
            assert!((16..24).contains(&d), "{d}");
            assert!(bad_dragon(70, 72, 2, &mut rng) < 8);
        }
    }

    #[test]
    fn hotspots_weighted_and_single() {
        let mut rng = Rng::new(5);
        assert!((0..100).all(|_| hotspots(&[9, 4], &mut rng) == 9));
        // Weights 2 : 1 : 1.
        let c = counts(40_000, |r| hotspots(&[0, 2, 27, 1, 45, 1], r));
        assert_eq!(c[0] + c[27] + c[45], 40_000);
        assert!((19_500..=20_500).contains(&c[0]), "{}", c[0]);
        assert!((9_600..=10_400).contains(&c[27]), "{}", c[27]);
        assert!(valid_hotspots(&[0, 2, 63, 1], 64));
        assert!(!valid_hotspots(&[64, 1], 64) && !valid_hotspots(&[1, 0], 64));
        assert!(!valid_hotspots(&[], 64) && !valid_hotspots(&[1], 64));
    }
}
