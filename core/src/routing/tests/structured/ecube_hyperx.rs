//! Hypercube e-cube and HyperX dimension-order routing (docs/routing.md §2).

extern crate std;
use std::vec::Vec;

use super::super::steps;
use super::check;
use crate::routing::dimension_order::hypercube::HypercubeEcube;
use crate::routing::dimension_order::hyperx::HyperXDor;
use crate::routing::{Hop, Routing, RoutingError};
use crate::topology::{HyperX, Hypercube, LinkClass, Topology};

#[test]
fn ecube_is_minimal_and_fixes_the_lowest_bit_first() {
    for dim in 1..=6u32 {
        for tps in [1u16, 2] {
            if tps == 2 && dim > 4 {
                continue;
            }
            let h = Hypercube::new(dim, tps).unwrap();
            let r = HypercubeEcube::new(&h);
            assert_eq!(r.num_vcs(), 1);
            let rep = check(&h, &r, true);
            // Longest route = diameter n; total = Hamming distances summed (docs/topologies.md
            // §5: mean distance n/2 over ordered pairs including self).
            assert_eq!(rep.max_hops, dim);
            let n = 1u64 << dim;
            let t = tps as u64;
            assert_eq!(rep.total_hops, n * n * dim as u64 / 2 * t * t);
            for src in 0..h.num_terminals() {
                for dst in 0..h.num_terminals() {
                    if src == dst {
                        continue;
                    }
                    let (s, d) = (src / tps as u32, dst / tps as u32);
                    // Expected: flip the differing bits from the lowest up.
                    let mut want = Vec::new();
                    let mut x = s;
                    for b in 0..dim {
                        if (x ^ d) >> b & 1 == 1 {
                            x ^= 1 << b;
                            want.push((x, b as u16));
                        }
                    }
                    let got: Vec<(u32, u16)> = steps(&h, &r, src, dst)
                        .iter()
                        .map(|st| (st.to, st.port))
                        .collect();
                    assert_eq!(got, want, "{s} -> {d}");
                }
            }
        }
    }
}

#[test]
fn ecube_queries_and_errors() {
    let h = Hypercube::new(4, 1).unwrap();
    let r = HypercubeEcube::new(&h);
    assert_eq!(r.port_toward(0b0110, 0b1010).unwrap(), Some(2));
    assert_eq!(r.port_toward(5, 5).unwrap(), None);
    assert!(matches!(
        r.port_toward(16, 0),
        Err(RoutingError::SwitchOutOfRange { switch: 16, .. })
    ));
    let mut st = r.inject(3, 9).unwrap();
    assert_eq!(r.next_hop(9, &mut st, 9).unwrap(), Hop::Eject { port: 4 });
    assert!(r.next_hop(0, &mut st, 16).is_err());
    assert_eq!(r.cube().dim(), 4);
}

const HYPERX: [(&[u32], u16, u16); 8] = [
    (&[2], 1, 1),
    (&[5], 2, 1),
    (&[3, 4], 1, 2),
    (&[2, 3, 4], 2, 1),
    (&[1, 4], 3, 1),
    (&[3, 3, 3], 1, 2),
    (&[4, 1, 2, 3], 1, 1),
    (&[6, 4], 2, 3),
];

#[test]
fn hyperx_dor_is_minimal_one_hop_per_dimension_on_trunk_0() {
    for (sizes, k, t) in HYPERX {
        let hx = HyperX::new(sizes, k, t).unwrap();
        let r = HyperXDor::new(&hx);
        assert_eq!(r.num_vcs(), 1);
        let rep = check(&hx, &r, true);
        let diameter = sizes.iter().filter(|&&s| s > 1).count() as u32;
        assert_eq!(rep.max_hops, diameter, "{sizes:?}");
        let tps = t as u32;
        for src in 0..hx.num_terminals() {
            for dst in 0..hx.num_terminals() {
                if src == dst {
                    continue;
                }
                let mut x = hx.coords(src / tps).unwrap();
                let d = hx.coords(dst / tps).unwrap();
                let got = steps(&hx, &r, src, dst);
                let mut i = 0;
                for dim in 0..sizes.len() {
                    if x[dim] == d[dim] {
                        continue;
                    }
                    x[dim] = d[dim];
                    let st = got[i];
                    assert_eq!(hx.coords(st.to).unwrap(), x, "{src} -> {dst}");
                    assert_eq!(st.class, LinkClass::Dim(dim as u8));
                    let target = hx.port_target(st.from, st.port).unwrap();
                    assert_eq!((target.dim, target.value, target.trunk), (dim, d[dim], 0));
                    i += 1;
                }
                assert_eq!(got.len(), i);
            }
        }
    }
}

#[test]
fn hyperx_of_the_hx_paper_routes_every_pair_minimally() {
    // [HX]: 12×8, K = 1, T = 7 (672 terminals).
    let hx = HyperX::new(&[12, 8], 1, 7).unwrap();
    let r = HyperXDor::new(&hx);
    let rep = check(&hx, &r, true);
    assert_eq!(rep.max_hops, 2);
    // From each of the 96 switches: 11 + 7 switches one hop away (one coordinate differs),
    // 11·7 two hops away; 7·7 terminal pairs per switch pair.
    assert_eq!(rep.total_hops, 96 * (11 + 7 + 2 * 11 * 7) * 49);
    let mut st = r.inject(0, 671).unwrap();
    assert_eq!(
        r.next_hop(95, &mut st, 671).unwrap(),
        Hop::Eject { port: 6 }
    );
    assert_eq!(r.port_toward(0, 0).unwrap(), None);
    assert!(r.port_toward(0, 96).is_err());
    assert_eq!(r.hyperx().trunk(), 1);
}
