//! Unit tests of [`super`] (galaxy.rs), kept beside it.

use super::*;
use crate::topology::testutil::{assert_port_symmetry, diameter_aspl, neighbours, TABLE_3_5};
use std::collections::BTreeSet;
use std::vec;
use std::vec::Vec;

/// Independent Galaxy graph from [GF-ICS] Algorithms 1–3 (coordinate matrices), with ξ
/// found by brute force and X from the spec exponent lists. Returns sorted neighbour lists.
fn spec_galaxy(n: u32, q: u32) -> Vec<Vec<u32>> {
    let q64 = q as u64;
    let (xi, x): (u64, BTreeSet<u64>) = if q == 1 {
        (0, BTreeSet::new())
    } else {
        let order = |g: u64| {
            let (mut v, mut k) = (g, 1);
            while v != 1 {
                v = v * g % q64;
                k += 1;
            }
            k
        };
        let xi = (2..q64).find(|&g| order(g) == q64 - 1).unwrap();
        let pow = |e: u64| (0..e).fold(1u64, |v, _| v * xi % q64);
        let delta: i64 = if q % 4 == 1 { 1 } else { -1 };
        let w = (q as i64 - delta) as u64 / 4;
        let exps: Vec<u64> = if delta == 1 {
            (0..=q64 - 3).step_by(2).collect()
        } else {
            (0..=2 * w - 2)
                .step_by(2)
                .chain((2 * w - 1..=4 * w - 3).step_by(2))
                .collect()
        };
        (xi, exps.into_iter().map(pow).collect())
    };
    let h = |v: u64| if q == 1 { 0 } else { xi * v % q64 };
    // M_k[row][col]: column col is the identity if col >= k, else H.
    let m = |k: u32, row: u32, col: u32| if col >= k { row as u64 } else { h(row as u64) };
    let id = |k: u32, x: u32| (k * q + x) as usize;
    let mut adj = vec![BTreeSet::new(); (n * q) as usize];
    for k in 0..n {
        for i in 0..q {
            for j in 0..q {
                let diff = (m(k, j, k) + q64 - m(k, i, k)) % q64;
                if i != j && x.contains(&diff) {
                    adj[id(k, i)].insert(id(k, j) as u32);
                }
            }
        }
    }
    for s in 0..n {
        for t in s + 1..n {
            for r in 0..q {
                for u in 0..q {
                    if m(s, r, t) == m(t, u, s) {
                        adj[id(s, r)].insert(id(t, u) as u32);
                        adj[id(t, u)].insert(id(s, r) as u32);
                    }
                }
            }
        }
    }
    adj.into_iter().map(|s| s.into_iter().collect()).collect()
}

#[test]
fn worked_example_n3_q5() {
    let gf = Galaxyfly::galaxy(3, 5).unwrap();
    assert_eq!(gf.family(), Family::Galaxy);
    assert_eq!((gf.num_switches(), gf.supernode_degree()), (15, 4));
    assert_eq!((gf.field().xi(), gf.intra_degree()), (2, 2));
    let mut buf = [0u32; 4];
    for (s, row) in TABLE_3_5.iter().enumerate() {
        let want: Vec<u32> = row.iter().map(|&v| v - 1).collect();
        assert_eq!(gf.supernode_neighbors(s as u32, &mut buf), Ok(4));
        assert_eq!(buf.as_slice(), want, "S{}", s + 1);
        // Router level of the Galaxy graph: ports 1..=4 list the neighbours ascending.
        let ports: Vec<u32> = (1..5)
            .map(|p| gf.port(s as u32, p).link().unwrap().peer)
            .collect();
        assert_eq!(ports, want, "S{} ports", s + 1);
        assert_eq!(neighbours(&gf, s as u32), want);
    }
    // N(S8) = {S5, S7, S9, S12}.
    assert_eq!(gf.supernode_neighbors(7, &mut buf), Ok(4));
    assert_eq!(buf, [4, 6, 8, 11]);
    assert_eq!(
        spec_galaxy(3, 5),
        TABLE_3_5.map(|r| r.map(|v| v - 1).to_vec())
    );
    assert_port_symmetry(&gf);
}

#[test]
fn galaxy_matches_independent_construction() {
    for (n, q) in [
        (1, 5),
        (2, 3),
        (3, 5),
        (4, 7),
        (5, 11),
        (3, 13),
        (6, 1),
        (2, 17),
    ] {
        let gf = Galaxyfly::galaxy(n, q).unwrap();
        let want = spec_galaxy(n, q);
        let mut buf = vec![0u32; gf.supernode_degree() as usize];
        for (u, nb) in want.iter().enumerate() {
            let u = u as u32;
            assert_eq!(gf.supernode_neighbors(u, &mut buf), Ok(nb.len()));
            assert_eq!(&buf, nb, "n={n} q={q} U={u}");
            for (j, &v) in nb.iter().enumerate() {
                assert_eq!(gf.supernode_neighbor(u, j as u32), Some(v));
                assert_eq!(gf.supernode_neighbor_rank(u, v), Some(j as u32));
            }
            assert_eq!(gf.supernode_neighbor(u, nb.len() as u32), None);
            for v in 0..gf.num_supernodes() {
                if !nb.contains(&v) {
                    assert_eq!(gf.supernode_neighbor_rank(u, v), None, "{u} {v}");
                    assert_eq!(gf.edge_routers(u, v), None);
                }
            }
        }
        assert_port_symmetry(&gf);
    }
}

#[test]
fn galaxy_diameter_two() {
    for (n, q) in [(3, 5), (4, 5), (4, 7), (5, 11), (7, 3), (13, 13), (10, 29)] {
        let gf = Galaxyfly::galaxy(n, q).unwrap();
        let delta: i64 = if q % 4 == 1 { 1 } else { -1 };
        let deg = ((q as i64 - delta) / 2) as u32 + n - 1;
        for s in 0..gf.num_switches() {
            assert_eq!(gf.degree(s), deg);
        }
        assert_eq!(diameter_aspl(&gf).0, 2, "(n, q) = ({n}, {q})");
    }
}

#[test]
fn router_assignment_follows_the_project_choice() {
    // Edge U–V_j on router j mod a, slot floor(j/a), peer found from V's list.
    for (n, q, a, p) in [(3, 5, 4, 1), (3, 5, 2, 2), (4, 7, 3, 0), (5, 1, 3, 1)] {
        let gf = Galaxyfly::new(n, q, a, p, None).unwrap();
        let want = spec_galaxy(n, q);
        let deg = gf.supernode_degree();
        assert_eq!(gf.h(), deg.div_ceil(a));
        let first_global = p + a - 1;
        for (u, nb) in want.iter().enumerate() {
            let u = u as u32;
            for (j, &v) in nb.iter().enumerate() {
                let j = j as u32;
                let jb = want[v as usize].binary_search(&u).unwrap() as u32;
                let r1 = u * a + j % a;
                let p1 = (first_global + j / a) as PortIndex;
                let r2 = v * a + jb % a;
                let p2 = (first_global + jb / a) as PortIndex;
                assert_eq!(
                    gf.port(r1, p1),
                    Port::Link(Link {
                        peer: r2,
                        peer_port: p2,
                        class: LinkClass::Global
                    })
                );
                assert_eq!(gf.edge_routers(u, v), Some((r1, p1, r2, p2)));
            }
            // Router t of U: a − 1 local links + edges j ≡ t (mod a).
            for t in 0..a {
                let r = u * a + t;
                let carried = (0..deg).filter(|j| j % a == t).count() as u32;
                assert_eq!(gf.degree(r), a - 1 + carried, "router {r}");
                assert_eq!(gf.supernode_of(r), Some(u));
                assert_eq!(gf.router_offset(r), Some(t));
                assert_eq!(gf.router(u, t), Some(r));
                for j in 0..a - 1 {
                    let l = gf.port(r, (p + j) as PortIndex).link().unwrap();
                    assert_eq!(l.class, LinkClass::Local);
                    assert_eq!(l.peer, u * a + if j < t { j } else { j + 1 });
                }
            }
        }
        assert_port_symmetry(&gf);
    }
}

#[test]
fn galaxyfly_router_level_diameters() {
    // docs/topologies.md §10: 2 if a = 1; 3 if q = 1, a > 1; ≤ 5 if a > 2 (any assignment).
    let configs = [
        (3, 5, 4),
        (4, 5, 4),
        (4, 5, 5),
        (4, 7, 4),
        (3, 5, 8),
        (4, 7, 5),
        (3, 5, 1),
        (4, 7, 1),
        (9, 1, 4),
        (5, 1, 2),
        (17, 1, 3),
    ];
    for (n, q, a) in configs {
        let gf = Galaxyfly::new(n, q, a, 1, None).unwrap();
        assert_eq!(gf.num_switches(), n * q * a);
        assert_port_symmetry(&gf);
        let (diam, _) = diameter_aspl(&gf);
        if a == 1 {
            assert_eq!(diam, 2, "({n},{q},{a})");
        } else if q == 1 {
            assert_eq!(diam, 3, "({n},{q},{a})");
        } else {
            assert!(diam <= 5, "({n},{q},{a}): {diam}");
        }
    }
}

#[test]
fn a2_diameter_four_needs_the_cluster_split() {
    // "4 if q > 1 and a = 2" ([GF-ICS] §3.1) holds for the paper's layout (router 0 intra,
    // router 1 inter). Round-robin only guarantees ≤ 5: on (3,5,2) a router of S1 whose
    // supernode paths all turn on the wrong router needs 5 hops.
    for (n, q) in [(3, 5), (4, 5), (4, 7), (5, 11), (7, 3), (3, 13)] {
        let split = RouterAssignment::ClusterSplit;
        let gf = Galaxyfly::with_assignment(n, q, 2, 1, None, split).unwrap();
        assert_port_symmetry(&gf);
        assert_eq!(diameter_aspl(&gf).0, 4, "split ({n},{q},2)");
        let rr = Galaxyfly::new(n, q, 2, 1, None).unwrap();
        assert!(diameter_aspl(&rr).0 <= 5, "round-robin ({n},{q},2)");
    }
    let rr = Galaxyfly::new(3, 5, 2, 1, None).unwrap();
    assert_eq!(diameter_aspl(&rr).0, 5);
}

#[test]
fn cluster_split_layout() {
    let split = RouterAssignment::ClusterSplit;
    for (n, q) in [(3, 5), (5, 11), (2, 13), (4, 1)] {
        let gf = Galaxyfly::with_assignment(n, q, 2, 1, None, split).unwrap();
        let hs = gf.intra_degree();
        assert_eq!(gf.h(), hs.max(n - 1));
        assert_eq!(gf.assignment(), split);
        let want = spec_galaxy(n, q);
        for (u, nb) in want.iter().enumerate() {
            let u = u as u32;
            assert_eq!(gf.degree(2 * u), 1 + hs);
            assert_eq!(gf.degree(2 * u + 1), 1 + n - 1);
            for &v in nb {
                let (r1, p1, r2, p2) = gf.edge_routers(u, v).unwrap();
                let intra = u / q == v / q;
                assert_eq!(r1, 2 * u + if intra { 0 } else { 1 });
                assert_eq!(r2, 2 * v + if intra { 0 } else { 1 });
                let l = gf.port(r1, p1).link().unwrap();
                assert_eq!((l.peer, l.peer_port, l.class), (r2, p2, LinkClass::Global));
            }
        }
        assert_port_symmetry(&gf);
    }
    assert!(matches!(
        Galaxyfly::with_assignment(3, 5, 3, 1, None, split),
        Err(TopologyError::Invalid(InvalidParam {
            param: "a",
            value: 3,
            ..
        }))
    ));
    // (5, 11): hs = 6 > a·h/2 — round-robin would accept h = 5, the split needs 6.
    assert!(matches!(
        Galaxyfly::with_assignment(5, 11, 2, 1, Some(5), split),
        Err(TopologyError::Invalid(InvalidParam {
            param: "h",
            value: 5,
            ..
        }))
    ));
    assert!(Galaxyfly::new(5, 11, 2, 1, Some(5)).is_ok());
}

#[test]
fn range_of_sizes_symmetric_and_connected() {
    for n in 1..=5 {
        for q in [1, 3, 5, 7, 13] {
            for a in 1..=4 {
                for p in [0, 2] {
                    let gf = Galaxyfly::new(n, q, a, p, None).unwrap();
                    assert_port_symmetry(&gf);
                    let deg = gf.supernode_degree();
                    for u in 0..gf.num_supernodes() {
                        let ports: u32 = (0..a).map(|t| gf.degree(u * a + t)).sum();
                        assert_eq!(ports, a * (a - 1) + deg, "({n},{q},{a}) U={u}");
                    }
                    let (diam, _) = diameter_aspl(&gf);
                    assert!(diam <= 5, "({n},{q},{a}): {diam}");
                }
            }
        }
    }
}

#[test]
fn explicit_h_leaves_spare_slots_unconnected() {
    let gf = Galaxyfly::new(3, 5, 2, 1, Some(4)).unwrap();
    assert_eq!(gf.radix(), 1 + 1 + 4);
    // Degree 4 over 2 routers: slots 0, 1 used, slots 2, 3 unconnected.
    for r in 0..gf.num_switches() {
        assert_eq!(gf.degree(r), 1 + 2);
        assert_eq!(gf.port(r, 4), Port::Unconnected);
        assert_eq!(gf.port(r, 5), Port::Unconnected);
    }
    assert_port_symmetry(&gf);
    assert_eq!(gf.terminal_port(29), Some((29, 0)));
    assert_eq!(gf.terminal_port(30), None);
    assert_eq!(gf.port(30, 0), Port::Unconnected);
}

#[test]
fn invalid_parameters_are_rejected() {
    assert_eq!(
        Galaxyfly::new(3, 9, 2, 1, None),
        Err(TopologyError::NotPrime {
            param: "q",
            value: 9
        })
    );
    assert!(matches!(
        Galaxyfly::new(3, 2, 2, 1, None),
        Err(TopologyError::Invalid(InvalidParam { param: "q", .. }))
    ));
    assert!(matches!(
        Galaxyfly::new(0, 5, 2, 1, None),
        Err(TopologyError::Invalid(InvalidParam { param: "n", .. }))
    ));
    assert!(matches!(
        Galaxyfly::new(3, 5, 0, 1, None),
        Err(TopologyError::Invalid(InvalidParam { param: "a", .. }))
    ));
    // hs + hg = 2 + 2 = 4 > a·h = 3·1.
    let e = Galaxyfly::new(3, 5, 3, 1, Some(1)).unwrap_err();
    assert!(matches!(
        e,
        TopologyError::Invalid(InvalidParam {
            param: "h",
            value: 1,
            ..
        })
    ));
    assert_eq!(
        std::format!("{e}"),
        "a Galaxyfly needs a·h ≥ hs + hg = (q − δ)/2 + (n − 1), got h = 1"
    );
    assert!(Galaxyfly::new(3, 5, 2, 1, Some(2)).is_ok());
    assert!(matches!(
        Galaxyfly::new(100_000, 101, 1_000, 1, None),
        Err(TopologyError::Invalid(InvalidParam { param: "n", .. }))
    ));
    assert!(matches!(
        Galaxyfly::new(100, 101, 100, 10_000, None),
        Err(TopologyError::Invalid(InvalidParam { param: "p", .. }))
    ));
    assert!(matches!(
        Galaxyfly::new(3, 5, 2, 1, Some(70_000)),
        Err(TopologyError::Invalid(InvalidParam { param: "h", .. }))
    ));
    let gf = Galaxyfly::galaxy(3, 5).unwrap();
    let mut small = [0u32; 3];
    assert_eq!(
        gf.supernode_neighbors(0, &mut small),
        Err(TopologyError::Capacity(CapacityError {
            what: "supernode neighbours",
            needed: 4,
            available: 3
        }))
    );
    let mut buf = [0u32; 8];
    assert!(matches!(
        gf.supernode_neighbors(15, &mut buf),
        Err(TopologyError::Invalid(InvalidParam {
            param: "supernode",
            ..
        }))
    ));
    assert_eq!(gf.supernode_neighbor(15, 0), None);
    assert_eq!(gf.supernode_neighbor_rank(0, 15), None);
    assert_eq!(gf.supernode_neighbor_rank(3, 3), None);
    assert_eq!(gf.supernode(3, 0), None);
    assert_eq!(gf.supernode(2, 4), Some(14));
    assert_eq!(gf.supernode_coords(14), Some((2, 4)));
    assert_eq!(gf.router(15, 0), None);
}
