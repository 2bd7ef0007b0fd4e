//! Unit tests of [`super`] (dragonfly.rs), kept beside it.

use super::*;
use crate::topology::testutil::{assert_port_symmetry, bfs, diameter_aspl, neighbours};
use std::collections::BTreeMap;
use std::vec::Vec;

const ALL: [GlobalArrangement; 3] = [
    GlobalArrangement::Consecutive,
    GlobalArrangement::PalmTree,
    GlobalArrangement::RelativeMirror,
];

/// Spec/topologies.md §7 formulas, written out independently for `g = a·h + 1`:
/// `(G, i) → (T, i')`.
fn spec_peer(arr: GlobalArrangement, g: u32, ah: u32, grp: u32, i: u32) -> (u32, u32) {
    match arr {
        GlobalArrangement::Consecutive => {
            let t = if i < grp { i } else { i + 1 };
            let ib = if grp < t { grp } else { grp - 1 };
            (t, ib)
        }
        GlobalArrangement::PalmTree => ((grp + 2 * g - i - 1) % g, ah - 1 - i),
        GlobalArrangement::RelativeMirror => ((grp + i + 1) % g, ah - 1 - i),
    }
}

/// Number of global links per unordered group pair, counted from the port table.
fn group_pair_counts(d: &Dragonfly) -> BTreeMap<(u32, u32), u32> {
    let mut m = BTreeMap::new();
    for s in 0..d.num_switches() {
        for port in d.first_global_port()..d.radix() {
            if let Port::Link(l) = d.port(s, port) {
                assert_eq!(l.class, LinkClass::Global);
                let (g1, g2) = (s / d.a(), l.peer / d.a());
                assert_ne!(g1, g2, "global link inside group {g1}");
                if g1 < g2 {
                    *m.entry((g1, g2)).or_insert(0) += 1;
                }
            }
        }
    }
    m
}

#[test]
fn balanced_arrangements_match_spec_formulas() {
    for (a, h) in [(1, 1), (2, 1), (4, 2), (3, 4), (6, 3)] {
        let g = a * h + 1;
        for arr in ALL {
            let d = Dragonfly::new(g, a, 2, h, arr).unwrap();
            for grp in 0..g {
                for r in 0..a {
                    for c in 0..h {
                        let i = r * h + c;
                        let (t, ib) = spec_peer(arr, g, a * h, grp, i);
                        let s = grp * a + r;
                        let port = (2 + a - 1 + c) as PortIndex;
                        let want = Port::Link(Link {
                            peer: t * a + ib / h,
                            peer_port: (2 + a - 1 + ib % h) as PortIndex,
                            class: LinkClass::Global,
                        });
                        assert_eq!(d.port(s, port), want, "{arr:?} g={g} G={grp} i={i}");
                        // The formula is an involution.
                        assert_eq!(spec_peer(arr, g, a * h, t, ib), (grp, i));
                    }
                }
            }
            assert_port_symmetry(&d);
            let counts = group_pair_counts(&d);
            assert_eq!(counts.len() as u32, g * (g - 1) / 2, "{arr:?}");
            assert!(counts.values().all(|&c| c == 1), "{arr:?}");
        }
    }
}

#[test]
fn ports_terminals_and_local_cliques() {
    let d = Dragonfly::new(9, 4, 3, 2, GlobalArrangement::Consecutive).unwrap();
    assert_eq!(
        (d.num_switches(), d.num_terminals(), d.radix()),
        (36, 108, 8)
    );
    for s in 0..36 {
        for t in 0..3u16 {
            assert_eq!(d.port(s, t), Port::Terminal(s * 3 + t as u32));
        }
        // Local ports reach every other router of the group exactly once, in offset order.
        let r = s % 4;
        let locals: Vec<u32> = (3..6)
            .map(|port| {
                let l = d.port(s, port).link().unwrap();
                assert_eq!(l.class, LinkClass::Local);
                l.peer
            })
            .collect();
        let want: Vec<u32> = (0..4).filter(|&o| o != r).map(|o| s - r + o).collect();
        assert_eq!(locals, want);
        for (j, &peer) in want.iter().enumerate() {
            assert_eq!(d.local_port(r, peer % 4), Some(3 + j as PortIndex));
        }
        assert_eq!(d.degree(s), 3 + 2);
    }
    assert_eq!(d.terminal_port(107), Some((35, 2)));
    assert_eq!(d.terminal_port(108), None);
    assert_eq!(d.local_port(1, 1), None);
    assert_eq!(d.local_port(4, 1), None);
    assert_port_symmetry(&d);
}

#[test]
fn switch_diameter_is_three_for_all_arrangements() {
    for (a, p, h) in [
        (2, 1, 1),
        (4, 2, 2),
        (4, 1, 3),
        (6, 3, 3),
        (8, 4, 4),
        (3, 1, 5),
    ] {
        let g = a * h + 1;
        for arr in ALL {
            let d = Dragonfly::new(g, a, p, h, arr).unwrap();
            assert_port_symmetry(&d);
            let (diam, _) = diameter_aspl(&d);
            assert_eq!(diam, 3, "{arr:?} g={g} a={a} h={h}");
        }
    }
}

#[test]
fn consecutive_with_surplus_links() {
    // g < a·h + 1: several rounds; every pair has ≥ 1 link, diameter ≤ 3.
    for (g, a, h) in [
        (5, 4, 2),
        (6, 4, 2),
        (4, 3, 3),
        (7, 2, 4),
        (2, 3, 1),
        (3, 1, 5),
    ] {
        let d = Dragonfly::new(g, a, 1, h, GlobalArrangement::Consecutive).unwrap();
        assert_port_symmetry(&d);
        let counts = group_pair_counts(&d);
        assert_eq!(counts.len() as u32, g * (g - 1) / 2, "g={g} a={a} h={h}");
        // Independent count: round k ≤ last pairs (G,T) iff both indices < a·h.
        let ah = a * h;
        let mut want: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        for grp in 0..g {
            for i in 0..ah {
                let (k, t) = (i / (g - 1), i % (g - 1));
                let target = if t < grp { t } else { t + 1 };
                let tb = if grp < target { grp } else { grp - 1 };
                if k * (g - 1) + tb < ah && grp < target {
                    *want.entry((grp, target)).or_insert(0) += 1;
                }
            }
        }
        assert_eq!(counts, want, "g={g} a={a} h={h}");
        let (diam, _) = diameter_aspl(&d);
        assert!(diam <= 3, "g={g} a={a} h={h}: {diam}");
    }
    // Single group: a clique, global ports unconnected.
    let d = Dragonfly::new(1, 5, 1, 2, GlobalArrangement::Consecutive).unwrap();
    assert_port_symmetry(&d);
    assert_eq!(diameter_aspl(&d).0, 1);
    assert_eq!(d.port(0, 5), Port::Unconnected);
    assert_eq!(d.global_link(0, 0), None);
}

#[test]
fn every_group_count_is_symmetric_and_connected() {
    // Consecutive: every g ≤ a·h + 1; every group pair linked, diameter ≤ 3.
    for (a, h) in [(1, 3), (2, 2), (3, 2), (4, 1)] {
        for g in 1..=a * h + 1 {
            for p in [0, 1, 2] {
                let d = Dragonfly::new(g, a, p, h, GlobalArrangement::Consecutive).unwrap();
                assert_port_symmetry(&d);
                let (diam, _) = diameter_aspl(&d);
                assert!(diam <= 3, "g={g} a={a} h={h}");
                if g > 1 {
                    assert_eq!(group_pair_counts(&d).len() as u32, g * (g - 1) / 2);
                }
            }
        }
    }
}

#[test]
fn diss_64_groups_of_16_with_4_global_links() {
    // [DISS] §5.2: 1024 switches, one node each, degree 15 + 4 = 19 at most, diameter 3.
    // Project choice (arrangement-dependent): link i targets index i mod 63; the only
    // surplus pair that closes is groups 0–1 (index 0 at both ends).
    let d = Dragonfly::new(64, 16, 1, 4, GlobalArrangement::Consecutive).unwrap();
    assert_eq!(
        (d.num_switches(), d.num_terminals(), d.radix()),
        (1024, 1024, 20)
    );
    assert_port_symmetry(&d);
    let mut unconnected = Vec::new();
    for s in 0..1024 {
        assert!(d.degree(s) <= 19);
        assert!(d.degree(s) >= 18);
        for port in 16..20 {
            if d.port(s, port) == Port::Unconnected {
                unconnected.push(s);
            }
        }
    }
    // Surplus link index 63 = router 15, global port 3 of every group except 0 and 1.
    let want: Vec<u32> = (2..64).map(|grp| grp * 16 + 15).collect();
    assert_eq!(unconnected, want);
    let counts = group_pair_counts(&d);
    assert_eq!(counts.len(), 64 * 63 / 2);
    assert_eq!(counts.values().sum::<u32>(), 64 * 63 / 2 + 1);
    assert_eq!(counts[&(0, 1)], 2);
    assert_eq!(diameter_aspl(&d).0, 3);
}

#[test]
fn df_bc_networks_structure() {
    // [DF-BC]: g=129, a=16, p=8, h=8: 16,512 terminals, radix 31, one link per group pair.
    let d = Dragonfly::new(129, 16, 8, 8, GlobalArrangement::Consecutive).unwrap();
    assert_eq!(
        (d.num_terminals(), d.radix(), d.num_switches()),
        (16_512, 31, 2064)
    );
    assert_port_symmetry(&d);
    let counts = group_pair_counts(&d);
    assert_eq!(counts.len(), 129 * 128 / 2);
    assert!(counts.values().all(|&c| c == 1));
    for s in [0, 1000, 2063] {
        assert_eq!(d.degree(s), 15 + 8);
        assert_eq!(bfs(&d, s).into_iter().max(), Some(3));
    }
    // docs/reference-results.md B2: 73·12·6 = 5,256 terminals.
    let d = Dragonfly::new(73, 12, 6, 6, GlobalArrangement::Consecutive).unwrap();
    assert_eq!(d.num_terminals(), 5_256);
    assert_eq!(d.radix(), 6 + 11 + 6);
    assert_port_symmetry(&d);
    let counts = group_pair_counts(&d);
    assert_eq!(counts.len(), 73 * 72 / 2);
    assert!(counts.values().all(|&c| c == 1));
}

#[test]
fn global_link_oracle_matches_port_scan() {
    let cases = [
        (9, 4, 2, GlobalArrangement::Consecutive),
        (9, 4, 2, GlobalArrangement::PalmTree),
        (9, 4, 2, GlobalArrangement::RelativeMirror),
        (6, 4, 2, GlobalArrangement::Consecutive),
        (64, 16, 4, GlobalArrangement::Consecutive),
    ];
    for (g, a, h, arr) in cases {
        let d = Dragonfly::new(g, a, 2, h, arr).unwrap();
        for g1 in 0..g {
            for g2 in 0..g {
                // Lowest link index of g1 toward g2 by scanning routers and ports in order.
                let mut first = None;
                'scan: for r in 0..a {
                    for c in 0..h {
                        let s = g1 * a + r;
                        let port = (2 + a - 1 + c) as PortIndex;
                        if let Port::Link(l) = d.port(s, port) {
                            if l.peer / a == g2 {
                                first = Some((s, port, l.peer, l.peer_port));
                                break 'scan;
                            }
                        }
                    }
                }
                assert_eq!(d.global_link(g1, g2), first, "{arr:?} {g1}->{g2}");
                if let Some((r1, p1, _, _)) = first {
                    let c = (p1 - d.first_global_port()) as u32;
                    assert_eq!(d.global_target_group(r1, c), Some(g2));
                }
            }
        }
        assert_eq!(d.global_link(0, g), None);
    }
    // docs/routing.md §4 BookSim formula (consecutive): grp_output = G_d if G > G_d else
    // G_d − 1; owner offset floor(grp_output / h), port p + a − 1 + grp_output mod h.
    let (g, a, p, h) = (33, 8, 4, 4);
    let d = Dragonfly::new(g, a, p, h, GlobalArrangement::Consecutive).unwrap();
    for g1 in 0..g {
        for g2 in (0..g).filter(|&x| x != g1) {
            let out = if g1 > g2 { g2 } else { g2 - 1 };
            let (r1, p1, _, _) = d.global_link(g1, g2).unwrap();
            assert_eq!(r1, g1 * a + out / h);
            assert_eq!(p1 as u32, p + a - 1 + out % h);
        }
    }
}

#[test]
fn accessors_round_trip() {
    let d = Dragonfly::new(9, 4, 1, 2, GlobalArrangement::PalmTree).unwrap();
    for s in 0..36 {
        let (grp, r) = (d.group_of(s).unwrap(), d.offset_in_group(s).unwrap());
        assert_eq!(d.router(grp, r), Some(s));
    }
    assert_eq!(d.group_of(36), None);
    assert_eq!(d.offset_in_group(36), None);
    assert_eq!(d.router(9, 0), None);
    assert_eq!(d.router(0, 4), None);
    assert_eq!(d.port(36, 0), Port::Unconnected);
    assert_eq!(d.global_target_group(0, 2), None);
    assert_eq!((d.g(), d.a(), d.p(), d.h()), (9, 4, 1, 2));
    assert_eq!(d.arrangement().name(), "palm-tree");
    assert_eq!(GlobalArrangement::default(), GlobalArrangement::Consecutive);
}

#[test]
fn invalid_parameters_are_rejected() {
    use GlobalArrangement::*;
    let e = Dragonfly::new(10, 4, 1, 2, Consecutive).unwrap_err();
    assert!(matches!(
        e,
        TopologyError::Invalid(InvalidParam {
            param: "g",
            value: 10,
            ..
        })
    ));
    assert_eq!(
        std::format!("{e}"),
        "a Dragonfly needs g ≤ a·h + 1 (one global link per group pair), got g = 10"
    );
    for arr in [PalmTree, RelativeMirror] {
        let e = Dragonfly::new(8, 4, 1, 2, arr).unwrap_err();
        assert!(matches!(
            e,
            TopologyError::Invalid(InvalidParam {
                param: "g",
                value: 8,
                ..
            })
        ));
    }
    assert!(matches!(
        Dragonfly::new(0, 4, 1, 2, Consecutive),
        Err(TopologyError::Invalid(InvalidParam { param: "g", .. }))
    ));
    assert!(matches!(
        Dragonfly::new(3, 0, 1, 2, Consecutive),
        Err(TopologyError::Invalid(InvalidParam { param: "a", .. }))
    ));
    assert!(matches!(
        Dragonfly::new(3, 2, 1, 0, Consecutive),
        Err(TopologyError::Invalid(InvalidParam { param: "g", .. }))
    ));
    assert!(matches!(
        Dragonfly::new(2, 1, 70_000, 1, Consecutive),
        Err(TopologyError::Invalid(InvalidParam { param: "h", .. }))
    ));
    assert!(matches!(
        Dragonfly::new(65_537, 65_536, 1, 1, Consecutive),
        Err(TopologyError::Invalid(InvalidParam { param: "g", .. }))
    ));
    assert!(matches!(
        Dragonfly::new(1_000, 1_000, 5_000, 1, Consecutive),
        Err(TopologyError::Invalid(InvalidParam { param: "p", .. }))
    ));
}

#[test]
fn neighbour_lists_of_a_small_example() {
    // g=3, a=2, h=1, consecutive (p = 1): group G link i → group i (i < G) or i + 1.
    let d = Dragonfly::new(3, 2, 1, 1, GlobalArrangement::Consecutive).unwrap();
    // Router (0,0): local (0,1), global to group 1 link 0 → router (1,0).
    assert_eq!(neighbours(&d, 0), [1, 2]);
    // Router (0,1): link 1 → group 2, index 0 → router (2,0) = 4.
    assert_eq!(neighbours(&d, 1), [0, 4]);
    // Router (1,1): link 1 → group 2, index 1 → router (2,1) = 5.
    assert_eq!(neighbours(&d, 3), [2, 5]);
}
