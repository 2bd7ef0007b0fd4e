//! GA traffic patterns against their bit-level definitions (docs/mapping.md §5 table) and the
//! C1 constants.

extern crate std;
use std::vec;
use std::vec::Vec;

use crate::mapping::ga::*;
use crate::rng::Rng;

fn table(p: TrafficPattern, side: u16, seed: u64) -> Vec<Address> {
    let grid = Grid::new(side).unwrap();
    let mut dest = vec![0; grid.nodes()];
    let mut scratch = vec![0; grid.nodes()];
    p.fill(grid, &mut Rng::new(seed), &mut scratch, &mut dest)
        .unwrap();
    dest
}

/// Per-bit rule `d_i = f(s, i)` of a pattern.
type BitRule<'a> = &'a dyn Fn(u32, u32) -> u32;

fn bit(s: u32, i: u32) -> u32 {
    (s >> i) & 1
}

/// Destination from the per-bit rule `d_i = f(s, i)`.
fn by_bits(s: u32, b: u32, f: impl Fn(u32, u32) -> u32) -> u32 {
    (0..b).map(|i| f(s, i) << i).sum()
}

#[test]
fn bit_patterns_match_their_bit_definitions() {
    let (n, b) = (8u32, 6u32);
    let cases: [(TrafficPattern, BitRule); 5] = [
        (TrafficPattern::BitComplement, &|s, i| 1 - bit(s, i)),
        (TrafficPattern::BitReversal, &|s, i| bit(s, b - 1 - i)),
        (TrafficPattern::BitRotation, &|s, i| bit(s, (i + 1) % b)),
        (TrafficPattern::Shuffle, &|s, i| bit(s, (i + b - 1) % b)),
        (TrafficPattern::Transpose, &|s, i| bit(s, (i + b / 2) % b)),
    ];
    for (p, rule) in cases {
        let t = table(p, n as u16, 0);
        for s in 0..n * n {
            let d = by_bits(s, b, rule);
            let want = if d == s { NO_DEST } else { d as Address };
            assert_eq!(t[s as usize], want, "{} s={s}", p.name());
        }
    }
}

#[test]
fn geometric_readings_of_the_patterns() {
    let n = 8u32;
    let bcmp = table(TrafficPattern::BitComplement, 8, 0);
    let trns = table(TrafficPattern::Transpose, 8, 0);
    let torn = table(TrafficPattern::Tornado, 8, 0);
    let brev = table(TrafficPattern::BitReversal, 8, 0);
    for y in 0..n {
        for x in 0..n {
            let s = (y * n + x) as usize;
            assert_eq!(bcmp[s] as u32, (n - 1 - y) * n + (n - 1 - x));
            if x == y {
                assert_eq!(trns[s], NO_DEST);
            } else {
                assert_eq!(trns[s] as u32, x * n + y);
            }
            assert_eq!(torn[s] as u32, y * n + (x + n / 2) % n);
        }
    }
    // Six-bit palindromes (2^3 of them) send nothing under brev; trns idles the diagonal.
    assert_eq!(brev.iter().filter(|&&d| d == NO_DEST).count(), 8);
    assert_eq!(trns.iter().filter(|&&d| d == NO_DEST).count(), 8);
    // Non-power-of-two sides: only tornado and the random patterns exist.
    let grid = Grid::new(6).unwrap();
    let (mut d, mut s) = (vec![0; 36], vec![0; 36]);
    assert!(TrafficPattern::Shuffle
        .fill(grid, &mut Rng::new(0), &mut s, &mut d)
        .is_err());
    assert!(TrafficPattern::Tornado
        .fill(grid, &mut Rng::new(0), &mut s, &mut d)
        .is_ok());
}

#[test]
fn random_patterns_are_a_matching_and_a_single_ring() {
    for seed in 0..20 {
        let rpar = table(TrafficPattern::RandomPair, 8, seed);
        for (s, &d) in rpar.iter().enumerate() {
            assert_ne!(d, NO_DEST);
            assert_ne!(d as usize, s);
            assert_eq!(rpar[d as usize] as usize, s, "partners send to each other");
        }
        let rrng = table(TrafficPattern::RandomRing, 8, seed);
        let mut v = 0usize;
        for step in 1..=64 {
            v = rrng[v] as usize;
            assert_eq!(v == 0, step == 64, "one cycle through all 64 nodes");
        }
    }
    assert_ne!(
        table(TrafficPattern::RandomRing, 8, 1),
        table(TrafficPattern::RandomRing, 8, 2)
    );
}

#[test]
fn names_round_trip() {
    for p in TrafficPattern::ALL {
        assert_eq!(TrafficPattern::from_name(p.name()), Some(p));
    }
    assert_eq!(TrafficPattern::from_name("xyz"), None);
}

#[test]
fn c1_constants() {
    // 1 injection + 4 packets · 8 flits + 1 reception = 34 cycles per pattern.
    assert_eq!(IDEAL_PATTERN_CYCLES, 34);
    assert_eq!(proxy_pattern_duration(1), 34);
    assert_eq!(proxy_pattern_duration(2), 66);
    // 64! ≈ 1.27e89, checked against an independent log10 sum.
    let (mantissa, exponent) = permutations_scientific(64);
    assert_eq!(exponent, 89);
    assert!((mantissa - 1.27).abs() < 0.005, "{mantissa}");
    let log10: f64 = (2..=64).map(|i| (i as f64).log10()).sum();
    assert!((log10 - (exponent as f64 + mantissa.log10())).abs() < 1e-9);
}

/// The GA's pattern tables as `TrafficPattern::fill` wrote them before the formulas moved to
/// `traffic::Traffic::dest` (one definition per formula).
fn previous_table(p: TrafficPattern, n: u32) -> Vec<Address> {
    let nodes = n * n;
    let bits = nodes.trailing_zeros();
    let mask = nodes - 1;
    (0..nodes)
        .map(|s| {
            let d = match p {
                TrafficPattern::BitComplement => s ^ mask,
                TrafficPattern::BitReversal => s.reverse_bits() >> (32 - bits),
                TrafficPattern::BitRotation => (s >> 1) | ((s & 1) << (bits - 1)),
                TrafficPattern::Shuffle => ((s << 1) & mask) | (s >> (bits - 1)),
                TrafficPattern::Transpose => {
                    let h = bits / 2;
                    (s >> h) | ((s << h) & mask)
                }
                _ => {
                    let (x, y) = (s % n, s / n);
                    y * n + (x + n / 2) % n
                }
            };
            if d == s {
                NO_DEST
            } else {
                d as Address
            }
        })
        .collect()
}

#[test]
fn deterministic_tables_are_the_previous_ones() {
    for n in [2u32, 4, 8, 16, 32] {
        for p in TrafficPattern::ALL.into_iter().filter(|p| !p.is_random()) {
            assert_eq!(
                table(p, n as u16, 0),
                previous_table(p, n),
                "{} n={n}",
                p.name()
            );
        }
    }
    // torn is also defined on sides that are not powers of two.
    for n in [3u32, 5, 6, 7, 12] {
        assert_eq!(
            table(TrafficPattern::Tornado, n as u16, 0),
            previous_table(TrafficPattern::Tornado, n)
        );
    }
}

#[test]
fn torn_is_the_gas_tornado_not_booksims() {
    // GA torn on the 8 × 8 grid, written out: row y sends to ((x + 4) mod 8, y).
    let want: [Address; 64] = [
        4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 20, 21, 22, 23, 16, 17, 18, 19, 28,
        29, 30, 31, 24, 25, 26, 27, 36, 37, 38, 39, 32, 33, 34, 35, 44, 45, 46, 47, 40, 41, 42, 43,
        52, 53, 54, 55, 48, 49, 50, 51, 60, 61, 62, 63, 56, 57, 58, 59,
    ];
    assert_eq!(table(TrafficPattern::Tornado, 8, 0), want);
    assert_eq!(TrafficPattern::Tornado.name(), "torn");
    assert_eq!(
        TrafficPattern::Tornado.dest_pattern(),
        Some(crate::traffic::DestPattern::GaTornado)
    );
    // BookSim2's tornado moves every digit by ceil(8/2) − 1 = 3: (5, 1) ↦ (0, 4), where torn
    // gives (1, 1).
    let booksim =
        crate::traffic::Traffic::new(crate::traffic::DestPattern::BookSimTornado, 64, 8, 2, &[])
            .unwrap();
    assert_eq!(booksim.dest(13, &mut Rng::new(0)), 32);
    assert_eq!(want[13], 9);
    assert!(TrafficPattern::RandomPair.dest_pattern().is_none());
}
