//! Circulant routing: greedy by largest jump on any `C(n; jumps)` and NAF routing on
//! `G(n, log2 n)` (docs/routing.md §3).

extern crate std;
use crate::error::InvalidParam;
use std::format;
use std::vec::Vec;

use super::super::steps;
use super::check;
use crate::routing::circulant::greedy::CirculantGreedy;
use crate::routing::circulant::jump::Jump;
use crate::routing::circulant::naf::CirculantNaf;
use crate::routing::testgraphs::bfs;
use crate::routing::{Hop, Routing, RoutingError};
use crate::topology::testutil::G_CIRCULANT_TABLE;
use crate::topology::Circulant;

/// Greedy jump sequence from offset `x` written from docs/routing.md §3: try every signed
/// jump, keep the one with the smallest remaining circular distance, ties to the larger jump
/// and then to `+`.
fn greedy_jumps(n: i64, jumps: &[u32], mut x: i64) -> Vec<i64> {
    let circ = |y: i64| y.rem_euclid(n).min(n - y.rem_euclid(n));
    let mut out = Vec::new();
    while x != 0 {
        let mut cands: Vec<(i64, i64, bool)> = Vec::new(); // (distance, -c, minus)
        for &c in jumps {
            cands.push((circ(x - c as i64), -(c as i64), false));
            cands.push((circ(x + c as i64), -(c as i64), true));
        }
        cands.sort();
        let (_, negc, minus) = cands[0];
        let z = if minus { negc } else { -negc };
        out.push(z);
        x = (x - z).rem_euclid(n);
        assert!(
            out.len() <= n as usize,
            "greedy reference does not converge"
        );
    }
    out
}

/// Switches visited from `s` following signed jumps.
fn visit(n: i64, s: u32, jumps: &[i64]) -> Vec<u32> {
    let mut at = s as i64;
    jumps
        .iter()
        .map(|z| {
            at = (at + z).rem_euclid(n);
            at as u32
        })
        .collect()
}

/// Checks every route of `r` on `c` against the jump sequences of `reference`.
fn check_routes<R: Routing>(c: &Circulant, r: &R, reference: impl Fn(i64) -> Vec<i64>) {
    let n = c.n() as i64;
    for s in 0..c.n() {
        for d in 0..c.n() {
            if s == d {
                continue;
            }
            let want = visit(n, s, &reference((d as i64 - s as i64).rem_euclid(n)));
            let got: Vec<u32> = steps(c, r, s, d).iter().map(|st| st.to).collect();
            assert_eq!(got, want, "{s} -> {d} on n = {n}");
        }
    }
}

#[test]
fn greedy_on_rings_and_g_circulants_is_minimal_and_follows_the_spec() {
    for n in 2..=13u32 {
        let c = Circulant::ring(n).unwrap();
        let r = CirculantGreedy::new(&c);
        let rep = check(&c, &r, true);
        assert_eq!(rep.max_hops, n / 2);
        check_routes(&c, &r, |x| greedy_jumps(n as i64, &[1], x));
    }
    // On G(n, log2 n) greedy happens to be minimal too (checked by an independent script
    // for n <= 4096 while writing these tests; asserted here up to 256).
    for k in 1..=8u32 {
        let c = Circulant::g(1 << k).unwrap();
        let r = CirculantGreedy::new(&c);
        check(&c, &r, true);
        let jumps = c.jumps().to_vec();
        check_routes(&c, &r, |x| greedy_jumps(1 << k, &jumps, x));
    }
}

#[test]
fn greedy_on_arbitrary_jump_sets_delivers_but_is_not_always_minimal() {
    // Non-minimal ordered pairs per source, from an independent script (vertex-transitive,
    // so n times that in total): C(17; 1,3): offsets 8, 9; C(30; 1,5,7): 10, 20;
    // C(50; 1,7,12): 14 offsets; C(24; 1,5,12): 8 offsets (7..10, 14..17); C(20; 1,4): none.
    for (n, jumps, per_source) in [
        (17u32, &[1u32, 3][..], 2u64),
        (30, &[1, 5, 7], 2),
        (50, &[1, 7, 12], 14),
        (20, &[1, 4], 0),
        (24, &[1, 5, 12], 8),
    ] {
        let c = Circulant::new(n, jumps).unwrap();
        let r = CirculantGreedy::new(&c);
        let rep = check(&c, &r, false);
        assert_eq!(rep.non_minimal, per_source * n as u64, "C({n}; {jumps:?})");
        check_routes(&c, &r, |x| greedy_jumps(n as i64, jumps, x));
    }
    // The example of the module docs: C(17; 1, 3) from 0 to 8 is +3 +3 +3 -1 (BFS: 3).
    let c = Circulant::new(17, &[1, 3]).unwrap();
    let r = CirculantGreedy::new(&c);
    let got: Vec<(u32, u16)> = steps(&c, &r, 0, 8).iter().map(|s| (s.to, s.port)).collect();
    assert_eq!(got, [(3, 2), (6, 2), (9, 2), (8, 1)]);
    assert_eq!(bfs(&c, 0)[8], 3);
}

#[test]
fn greedy_tie_breaks() {
    // G(16): offset 3 -> +4 and +2 both leave distance 1; the larger jump wins.
    let g = Circulant::g(16).unwrap();
    let r = CirculantGreedy::new(&g);
    assert_eq!(
        r.jump(3).unwrap(),
        Some(Jump {
            index: 2,
            forward: true
        })
    );
    let got: Vec<u32> = steps(&g, &r, 0, 3).iter().map(|s| s.to).collect();
    assert_eq!(got, [4, 3]);
    // C(8; 1, 2): offset 4 -> +2 and -2 both leave 2; + wins.
    let c = Circulant::new(8, &[1, 2]).unwrap();
    let r = CirculantGreedy::new(&c);
    let got: Vec<(u32, u16)> = steps(&c, &r, 0, 4).iter().map(|s| (s.to, s.port)).collect();
    assert_eq!(got, [(2, 2), (4, 2)]);
    // Ring of 6: offset 3 ties between + and -; + wins.
    let ring = Circulant::ring(6).unwrap();
    let r = CirculantGreedy::new(&ring);
    let got: Vec<u32> = steps(&ring, &r, 1, 4).iter().map(|s| s.to).collect();
    assert_eq!(got, [2, 3, 4]);
    // C(8; 1, 4): jump n/2 has a single port, used for offset 4.
    let c = Circulant::new(8, &[1, 4]).unwrap();
    let r = CirculantGreedy::new(&c);
    assert_eq!(
        steps(&c, &r, 5, 1)
            .iter()
            .map(|s| s.port)
            .collect::<Vec<_>>(),
        [2]
    );
}

/// NAF digits of `x` (standard right-to-left recoding), as signed jumps lowest first, with
/// digits at `2^k = n` and above dropped (they vanish modulo n).
fn naf_jumps(n: i64, x: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut v = x;
    let mut w = 1i64;
    while v != 0 {
        if v & 1 == 1 {
            let digit = 2 - (v & 3); // +1 when v ≡ 1 (mod 4), -1 when v ≡ 3
            if w < n {
                out.push(digit * w);
            }
            v -= digit;
        }
        v >>= 1;
        w <<= 1;
    }
    out
}

#[test]
fn naf_routes_have_bfs_length_for_all_n_up_to_4096() {
    for &(n, diameter, aspl) in G_CIRCULANT_TABLE.iter().filter(|r| r.0 <= 4096) {
        let c = Circulant::g(n).unwrap();
        let r = CirculantNaf::new(&c).unwrap();
        let dist = bfs(&c, 0);
        // Vertex-transitive: from switch 0 covers every offset; a few other sources too.
        for s in [0, 1, (n / 2 + 3) % n, n - 1] {
            let mut total = 0u64;
            let mut longest = 0;
            for x in 1..n {
                let d = (s + x) % n;
                let got: Vec<u32> = steps(&c, &r, s, d).iter().map(|st| st.to).collect();
                assert_eq!(got.len() as u32, dist[x as usize], "n = {n}, {s} -> {d}");
                // Exact route: NAF digits lowest first.
                let want = visit(n as i64, s, &naf_jumps(n as i64, x as i64));
                assert_eq!(got, want, "n = {n}, {s} -> {d}");
                total += got.len() as u64;
                longest = longest.max(got.len() as u32);
            }
            assert_eq!(longest, diameter, "n = {n}");
            let mean = total as f64 / (n - 1) as f64;
            assert!((mean - aspl).abs() < 5e-5, "n = {n}: ASPL {mean} vs {aspl}");
        }
    }
    // Small sizes: every pair through the walker (delivery, ports, minimality).
    for k in 1..=7 {
        let c = Circulant::g(1 << k).unwrap();
        let r = CirculantNaf::new(&c).unwrap();
        check(&c, &r, true);
    }
}

#[test]
fn naf_jump_choice_and_validation() {
    let c = Circulant::g(16).unwrap();
    let r = CirculantNaf::new(&c).unwrap();
    let j = |x| r.jump(x).unwrap().map(|j| (j.index, j.forward));
    assert_eq!(j(0), None);
    assert_eq!(j(8), Some((3, true))); // n/2: the single + port
    assert_eq!(j(7), Some((0, false))); // 7 = 8 - 1
    assert_eq!(j(5), Some((0, true))); // 5 = 4 + 1
    assert_eq!(j(12), Some((2, false))); // 12 = 16 - 4
    assert_eq!(j(6), Some((1, false))); // 6 = 8 - 2
    assert!(matches!(r.jump(16), Err(RoutingError::Invalid(..))));
    assert_eq!(r.port_toward(0, 8).unwrap(), Some(6));
    assert_eq!(r.port_toward(3, 3).unwrap(), None);
    let mut st = r.inject(2, 9).unwrap();
    assert_eq!(r.next_hop(9, &mut st, 9).unwrap(), Hop::Eject { port: 7 });
    assert!(r.next_hop(16, &mut st, 9).is_err());
    // G(2) = C(2; 1) is accepted; ring(4) = C(4; 1) lacks the jump 2.
    let g2 = Circulant::g(2).unwrap();
    check(&g2, &CirculantNaf::new(&g2).unwrap(), true);
    let ring = Circulant::ring(4).unwrap();
    let err = CirculantNaf::new(&ring).unwrap_err();
    assert_eq!(
        format!("{err}"),
        "NAF routing needs G(n, log2 n): jumps exactly 1, 2, 4, ..., n/2, got jumps = 1"
    );
    let c12 = Circulant::new(12, &[1, 2, 4]).unwrap();
    assert!(matches!(
        CirculantNaf::new(&c12),
        Err(RoutingError::Invalid(InvalidParam { param: "n", .. }))
    ));
    let c16 = Circulant::new(16, &[1, 2, 4]).unwrap();
    assert!(CirculantNaf::new(&c16).is_err());
    // Greedy rejects offsets out of range instead of panicking.
    let g = CirculantGreedy::new(&c16);
    assert!(g.jump(16).is_err());
    assert!(g.port_toward(0, 16).is_err());
    assert_eq!(g.circulant().n(), 16);
}
