//! Torus and mesh dimension-order routing (docs/routing.md §2).

extern crate std;
use std::format;
use std::vec::Vec;

use proptest::prelude::*;

use super::super::steps;
use super::check;
use crate::routing::dimension_order::dateline::{dateline_hop, RingHop};
use crate::routing::dimension_order::torus::{TorusDor, TorusVcs};
use crate::routing::{Hop, Routing, RoutingError, VcLayout};
use crate::topology::{LinkClass, Topology, Torus};

/// One expected hop: coordinates reached, dimension, direction and VC.
#[derive(Debug, PartialEq, Eq)]
struct Expected {
    to: Vec<u32>,
    dim: usize,
    forward: bool,
    vc: u8,
}

/// DOR route from coordinates `s` to `t` written from docs/routing.md §2: dimensions in
/// increasing order, the shorter way round with ties to `+` (torus) or toward `t` (mesh);
/// with dateline VCs a hop uses VC1 iff an earlier hop in the same dimension went from
/// `k-1` to 0 or from 0 to `k-1` (the wrap-around link).
fn expected_route(k: &[u32], wrap: bool, s: &[u32], t: &[u32]) -> Vec<Expected> {
    let mut x = s.to_vec();
    let mut out = Vec::new();
    for i in 0..k.len() {
        if x[i] == t[i] {
            continue;
        }
        let (forward, len) = if wrap {
            let plus = (t[i] + k[i] - x[i]) % k[i];
            let minus = k[i] - plus;
            if plus <= minus {
                (true, plus)
            } else {
                (false, minus)
            }
        } else if t[i] > x[i] {
            (true, t[i] - x[i])
        } else {
            (false, x[i] - t[i])
        };
        let mut crossed = false;
        for _ in 0..len {
            let vc = crossed as u8;
            let next = if forward {
                (x[i] + 1) % k[i]
            } else {
                (x[i] + k[i] - 1) % k[i]
            };
            crossed |= (x[i] == k[i] - 1 && next == 0) || (x[i] == 0 && next == k[i] - 1);
            x[i] = next;
            out.push(Expected {
                to: x.clone(),
                dim: i,
                forward,
                vc,
            });
        }
    }
    out
}

/// Checks every pair of `torus` against [`expected_route`]: switches, ports (`2i` for `+`,
/// `2i+1` for `-`, `2i` for both in a torus dimension of `k_i = 2`), link class and VC.
fn check_shapes(torus: &Torus, r: &TorusDor<'_>) {
    let dateline = r.vcs() == TorusVcs::Dateline;
    let tps = torus.terminals_per_switch() as u32;
    let mut used_vc1 = false;
    for src in 0..torus.num_terminals() {
        for dst in 0..torus.num_terminals() {
            if src == dst {
                continue;
            }
            let s = torus.coords(src / tps).unwrap();
            let t = torus.coords(dst / tps).unwrap();
            let want = expected_route(torus.radices(), torus.wraps(), &s, &t);
            let got = steps(torus, r, src, dst);
            assert_eq!(got.len(), want.len(), "{s:?} -> {t:?}");
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(torus.coords(g.to).unwrap().as_slice(), &w.to[..]);
                let k = torus.radices()[w.dim];
                // A torus dimension of k = 2 has its single link on port 2i.
                let single_link = torus.wraps() && k == 2;
                let port = 2 * w.dim as u16 + (!w.forward && !single_link) as u16;
                assert_eq!(g.port, port, "{s:?} -> {t:?} at {}", g.from);
                assert_eq!(g.class, LinkClass::Dim(w.dim as u8));
                assert_eq!(g.vc, if dateline { w.vc } else { 0 }, "{s:?} -> {t:?}");
                used_vc1 |= g.vc == 1;
            }
        }
    }
    // VC1 is used exactly when some route crosses a dateline and continues in the same
    // dimension, which needs a ring of k >= 4.
    let long_ring = torus.radices().iter().any(|&k| k >= 4);
    assert_eq!(used_vc1, dateline && long_ring && torus.wraps());
}

const SHAPES: [&[u32]; 14] = [
    &[1],
    &[2],
    &[3],
    &[4],
    &[5],
    &[8],
    &[2, 2],
    &[3, 4],
    &[4, 4],
    &[1, 5],
    &[6, 3],
    &[2, 3, 5],
    &[5, 5, 2, 1],
    &[8, 8],
];

#[test]
fn torus_dor_is_minimal_with_the_spec_path_shape() {
    for k in SHAPES {
        for tps in [1u16, 2] {
            if tps == 2 && k.iter().product::<u32>() > 30 {
                continue;
            }
            let t = Torus::torus(k, tps).unwrap();
            for vcs in [TorusVcs::Single, TorusVcs::Dateline] {
                let r = TorusDor::new(&t, vcs).unwrap();
                assert_eq!(r.num_vcs(), if vcs == TorusVcs::Single { 1 } else { 2 });
                let rep = check(&t, &r, true);
                assert_eq!(rep.non_minimal, 0);
                // Longest route = diameter Σ floor(k_i / 2) (docs/topologies.md §4).
                if t.num_switches() > 1 {
                    assert_eq!(rep.max_hops, k.iter().map(|&ki| ki / 2).sum::<u32>());
                }
                check_shapes(&t, &r);
            }
        }
    }
}

#[test]
fn mesh_dor_is_minimal_with_the_spec_path_shape() {
    for k in SHAPES {
        let m = Torus::mesh(k, 1).unwrap();
        let r = TorusDor::new(&m, TorusVcs::Single).unwrap();
        let rep = check(&m, &r, true);
        if m.num_switches() > 1 {
            assert_eq!(rep.max_hops, k.iter().map(|&ki| ki - 1).sum::<u32>());
        }
        check_shapes(&m, &r);
    }
    let m = Torus::mesh(&[3, 4], 3).unwrap();
    check_shapes(&m, &TorusDor::new(&m, TorusVcs::Single).unwrap());
}

#[test]
fn worked_examples_on_the_8x8_torus() {
    // docs/routing.md §2 on the [GA] 8×8 torus, id = y·8 + x, one terminal per switch.
    let t = Torus::torus(&[8, 8], 1).unwrap();
    let r = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
    let id = |x: u32, y: u32| y * 8 + x;
    let path = |s: u32, d: u32| -> Vec<(u32, u16, u8)> {
        steps(&t, &r, s, d)
            .iter()
            .map(|st| (st.to, st.port, st.vc))
            .collect()
    };
    // (0,0) -> (4,4): both dimensions tie (d+ = d- = 4) and go +, x first.
    let want: Vec<(u32, u16, u8)> = (1..=4)
        .map(|x| (id(x, 0), 0, 0))
        .chain((1..=4).map(|y| (id(4, y), 2, 0)))
        .collect();
    assert_eq!(path(id(0, 0), id(4, 4)), want);
    // (0,0) -> (5,0): d+ = 5 > d- = 3, so -x over the wrap-around link 0 -> 7 (VC0), then
    // VC1 after the dateline.
    assert_eq!(
        path(id(0, 0), id(5, 0)),
        [(id(7, 0), 1, 0), (id(6, 0), 1, 1), (id(5, 0), 1, 1)]
    );
    // (6,6) -> (1,2): x has d+ = 3 < d- = 5, so + over the wrap 7 -> 0 (VC0) and VC1
    // after it; turning into y resets to VC0; y has d+ = 4 = d-, a tie, so + over 7 -> 0
    // again.
    assert_eq!(
        path(id(6, 6), id(1, 2)),
        [
            (id(7, 6), 0, 0),
            (id(0, 6), 0, 0),
            (id(1, 6), 0, 1),
            (id(1, 7), 2, 0),
            (id(1, 0), 2, 0),
            (id(1, 1), 2, 1),
            (id(1, 2), 2, 1),
        ]
    );
    // Single VC: same ports, all VC 0.
    let r1 = TorusDor::new(&t, TorusVcs::Single).unwrap();
    let s1: Vec<(u32, u16, u8)> = steps(&t, &r1, id(6, 6), id(1, 2))
        .iter()
        .map(|st| (st.to, st.port, st.vc))
        .collect();
    assert!(s1.iter().all(|&(_, _, vc)| vc == 0));
    assert_eq!(s1.len(), 7);
}

/// The hops `(switch reached, port, vc)` of `r` from terminal `s` to `d` with coin `coin`.
fn coin_path(t: &Torus, r: &TorusDor<'_>, s: u32, d: u32, coin: u8) -> Vec<(u32, u16, u8)> {
    let mut st = r.inject(s, d).unwrap();
    st.coin = coin;
    let mut at = t.terminal_switch(s).unwrap();
    let mut out = Vec::new();
    while let Hop::Forward { port, vc } = r.next_hop(at, &mut st, d).unwrap() {
        at = t.port(at, port).link().unwrap().peer;
        out.push((at, port, vc));
        assert!(out.len() < 64, "no progress");
    }
    out
}

#[test]
fn booksim_wrap_classes_and_random_ties_on_the_8x8_torus() {
    // docs/routing.md §2, BookSim2's `dim_order` on a torus: a dimension's hops all on VC1
    // iff the destination's coordinate there is below the one where the packet enters it,
    // whichever the direction (`dor_next_torus`); ties by the packet's coin.
    let t = Torus::torus(&[8, 8], 1).unwrap();
    let r = TorusDor::booksim(&t).unwrap();
    assert!(r.random_ties() && !TorusDor::new(&t, TorusVcs::Dateline).unwrap().random_ties());
    assert_eq!(r.num_vcs(), 2);
    let id = |x: u32, y: u32| y * 8 + x;
    // (6,6) -> (1,2): x goes + over 7 -> 0: VC1 from the first hop; y ties (4 = 4): coin 0
    // takes + over 7 -> 0 (VC1 again), coin bit 1 takes - through 5, 4, 3 (no wrap, but
    // 2 < 6: VC1 too).
    let x_hops = [(id(7, 6), 0, 1), (id(0, 6), 0, 1), (id(1, 6), 0, 1)];
    let plus: Vec<_> = x_hops
        .into_iter()
        .chain([
            (id(1, 7), 2, 1),
            (id(1, 0), 2, 1),
            (id(1, 1), 2, 1),
            (id(1, 2), 2, 1),
        ])
        .collect();
    assert_eq!(coin_path(&t, &r, id(6, 6), id(1, 2), 0), plus);
    let minus: Vec<_> = x_hops
        .into_iter()
        .chain([
            (id(1, 5), 3, 1),
            (id(1, 4), 3, 1),
            (id(1, 3), 3, 1),
            (id(1, 2), 3, 1),
        ])
        .collect();
    assert_eq!(coin_path(&t, &r, id(6, 6), id(1, 2), 0b10), minus);
    // Bit 0 only steers ties in x: (0,0) -> (4,0) goes - over 0 -> 7, and on VC0 (4 > 0):
    // in the `-` direction the wrap-around is class 0's, the dateline classes swapped.
    assert_eq!(
        coin_path(&t, &r, id(0, 0), id(4, 0), 1),
        [
            (id(7, 0), 1, 0),
            (id(6, 0), 1, 0),
            (id(5, 0), 1, 0),
            (id(4, 0), 1, 0)
        ]
    );
    // BookSim2's contiguous halves of the VCs, the other DORs' interleaved aliases.
    assert_eq!(r.vc_layout(), VcLayout::Halves);
    let dateline = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
    assert_eq!(dateline.vc_layout(), VcLayout::Interleaved);
    // No wrap, no tie: VC0 whatever the coin; the dateline rule would agree here.
    for coin in [0, 0xff] {
        assert_eq!(
            coin_path(&t, &r, id(1, 0), id(3, 1), coin),
            [(id(2, 0), 0, 0), (id(3, 0), 0, 0), (id(3, 1), 2, 0)]
        );
    }
    // Wrap-class VCs need a torus.
    let m = Torus::mesh(&[4, 4], 1).unwrap();
    assert!(TorusDor::booksim(&m).is_err());
}

#[test]
fn k2_dimension_uses_its_single_link_and_k1_is_skipped() {
    // 2×1×3 torus: dimension 0 has one link (port 0), dimension 1 none, dimension 2 a ring.
    let t = Torus::torus(&[2, 1, 3], 2).unwrap();
    let r = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
    check(&t, &r, true);
    // Switch (1,0,0) = 1 to (0,0,2) = 4: port 0 to switch 0, then -z (d+ = 2 > d- = 1).
    let got: Vec<(u32, u16)> = steps(&t, &r, 2, 9).iter().map(|s| (s.to, s.port)).collect();
    assert_eq!(got, [(0, 0), (4, 5)]);
}

#[test]
fn eject_port_and_next_dim_queries() {
    let t = Torus::torus(&[4, 3], 2).unwrap();
    let r = TorusDor::new(&t, TorusVcs::Single).unwrap();
    // Terminal 7 is on switch 3, port 4 + 1.
    let mut st = r.inject(0, 7).unwrap();
    assert_eq!(st.src_switch, 0);
    assert_eq!(r.next_hop(3, &mut st, 7).unwrap(), Hop::Eject { port: 5 });
    // Switch 0 -> 3 in a ring of 4: d+ = 3 > d- = 1 -> -.
    assert_eq!(r.next_dim(0, 3).unwrap(), Some((0, false)));
    assert_eq!(r.port_toward(0, 3).unwrap(), Some(1));
    assert_eq!(r.next_dim(0, 2).unwrap(), Some((0, true)));
    assert_eq!(r.next_dim(5, 5).unwrap(), None);
    assert_eq!(r.port_toward(5, 5).unwrap(), None);
    assert_eq!(r.torus().num_switches(), 12);
    // The hop 0 -> 3 leaves x = 0 backward: it takes the wrap-around link.
    let hop = r.next_ring_hop(0, 3).unwrap().unwrap();
    assert_eq!(
        hop,
        RingHop {
            dim: 0,
            forward: false,
            x: 0,
            k: 4
        }
    );
    assert!(hop.wraps());
    assert!(!r.next_ring_hop(1, 3).unwrap().unwrap().wraps());
    // Dateline rule on explicit ports: a wrap on VC0, then VC1 in the same dimension, VC0
    // again after turning; a port outside the torus is an error.
    let mut st = r.inject(0, 7).unwrap();
    assert_eq!(dateline_hop(&t, 0, 1, &mut st), Ok(0));
    assert_eq!(dateline_hop(&t, 3, 1, &mut st), Ok(1));
    assert_eq!(dateline_hop(&t, 2, 2, &mut st), Ok(0));
    assert_eq!(
        dateline_hop(&t, 2, 4, &mut st),
        Err(RoutingError::NotALink { switch: 2, port: 4 })
    );
}

#[test]
fn bad_ids_and_policies_are_errors() {
    let t = Torus::torus(&[4, 3], 1).unwrap();
    let r = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
    let mut st = r.inject(0, 1).unwrap();
    assert_eq!(
        r.next_hop(12, &mut st, 1),
        Err(RoutingError::SwitchOutOfRange {
            switch: 12,
            switches: 12
        })
    );
    assert_eq!(
        r.next_hop(0, &mut st, 12),
        Err(RoutingError::TerminalOutOfRange {
            terminal: 12,
            terminals: 12
        })
    );
    assert!(matches!(
        r.inject(99, 0),
        Err(RoutingError::TerminalOutOfRange { terminal: 99, .. })
    ));
    assert!(r.next_dim(0, 12).is_err());
    let m = Torus::mesh(&[4, 4], 1).unwrap();
    let err = TorusDor::new(&m, TorusVcs::Dateline).unwrap_err();
    assert_eq!(
        format!("{err}"),
        "dateline VCs need a torus (wrap-around links); mesh DOR uses 1 VC, got vcs = 2"
    );
    // A torus without terminals routes nothing and never panics.
    let empty = Torus::torus(&[3], 0).unwrap();
    let r0 = TorusDor::new(&empty, TorusVcs::Single).unwrap();
    assert!(r0.inject(0, 0).is_err());
}

proptest! {
    #[test]
    fn random_shapes_route_like_the_spec(
        k in proptest::collection::vec(1u32..9, 1..4),
        wrap in any::<bool>(),
        pick in any::<(u32, u32)>(),
    ) {
        let t = if wrap { Torus::torus(&k, 1) } else { Torus::mesh(&k, 1) }.unwrap();
        let vcs = if wrap { TorusVcs::Dateline } else { TorusVcs::Single };
        let r = TorusDor::new(&t, vcs).unwrap();
        let n = t.num_switches();
        let (src, dst) = (pick.0 % n, pick.1 % n);
        let s = t.coords(src).unwrap();
        let d = t.coords(dst).unwrap();
        let want = expected_route(&k, wrap, &s, &d);
        let got = if src == dst { Vec::new() } else { steps(&t, &r, src, dst) };
        prop_assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            let c = t.coords(g.to).unwrap();
            prop_assert_eq!(c.as_slice(), &w.to[..]);
            prop_assert_eq!(g.vc, if wrap { w.vc } else { 0 });
        }
    }
}
