//! Cross-checks of the distance paths against an independent BFS over the topology's ports
//! (topology::testutil), spec values for `G(n, log2 n)` (docs/topologies.md §2, reference-results
//! A1) and the cable comparison of docs/mapping.md §6 (docs/reference-results.md A7).

use crate::error::{CapacityError, InvalidParam};
use std::vec;
use std::vec::Vec;

use super::*;
use crate::rng::Rng;
use crate::topology::random_shortcut;
use crate::topology::stored::from_edges;
use crate::topology::testutil::{bfs as plain_bfs, G_CIRCULANT_TABLE};
use crate::topology::{
    Family, Port, PortIndex, Slot, StoredGraph, SwitchId, Symmetry, TerminalId, Topology,
};

/// Distances computed independently: plain BFS from every switch.
#[derive(Debug, PartialEq)]
struct Expected {
    diameter: u32,
    radius: u32,
    sum: u64,
    pairs: u64,
    unreachable: u64,
    histogram: Vec<u64>,
    overflow: u64,
    eccentricities: Vec<u32>,
}

fn expected<T: Topology>(t: &T) -> Expected {
    let n = t.num_switches();
    let mut e = Expected {
        diameter: 0,
        radius: u32::MAX,
        sum: 0,
        pairs: 0,
        unreachable: 0,
        histogram: vec![0; HISTOGRAM_BINS],
        overflow: 0,
        eccentricities: vec![],
    };
    for s in 0..n {
        let d = plain_bfs(t, s);
        let mut ecc = 0;
        for &x in &d {
            if x == u32::MAX {
                e.unreachable += 1;
                ecc = u32::MAX;
                continue;
            }
            match e.histogram.get_mut(x as usize) {
                Some(bin) => *bin += 1,
                None => e.overflow += 1,
            }
            if x > 0 {
                e.pairs += 1;
                e.sum += x as u64;
                e.diameter = e.diameter.max(x);
            }
            if ecc != u32::MAX {
                ecc = ecc.max(x);
            }
        }
        e.radius = e.radius.min(ecc);
        e.eccentricities.push(ecc);
    }
    e
}

fn observed(s: &DistanceSummary, ecc: &[u32]) -> Expected {
    Expected {
        diameter: s.diameter,
        radius: s.radius,
        sum: s.sum,
        pairs: s.pairs,
        unreachable: s.unreachable_pairs,
        histogram: s.histogram.to_vec(),
        overflow: s.overflow,
        eccentricities: ecc.to_vec(),
    }
}

fn build_csr<T: Topology>(t: &T) -> (Vec<u32>, Vec<u32>) {
    let size = csr_size(t);
    (vec![0; size.offsets], vec![0; size.targets])
}

fn bit_bfs_summary<const W: usize>(csr: &Csr<'_>) -> (DistanceSummary, Vec<u32>) {
    let n = csr.num_vertices();
    let mut words = vec![[0u64; W]; bit_bfs::words_needed(n)];
    let mut ecc = vec![0u32; n as usize];
    let mut last = (0, 0);
    let s = bit_bfs::all_pairs(
        csr,
        &mut words,
        DistanceOutputs::with_eccentricities(&mut ecc),
        &mut |d, t| {
            assert!(d > last.0 && d <= t, "progress must grow to the total");
            last = (d, t);
        },
    )
    .unwrap();
    assert_eq!(last, (n, n));
    (s, ecc)
}

/// Splits the batches into uneven ranges, runs each with its own buffers and merges.
fn bit_bfs_split_merge<const W: usize>(csr: &Csr<'_>) -> (DistanceSummary, Vec<u32>) {
    let n = csr.num_vertices();
    let batches = bit_bfs::batch_count::<W>(n);
    let mut total = DistanceSummary::empty(n);
    let mut ecc = vec![0u32; n as usize];
    let mut start = 0;
    let mut len = 1;
    while start < batches {
        let end = (start + len).min(batches);
        let src = bit_bfs::sources_of::<W>(n, &(start..end));
        let mut words = vec![[0u64; W]; bit_bfs::words_needed(n)];
        let part = bit_bfs::run_batches(
            csr,
            start..end,
            &mut words,
            DistanceOutputs::with_eccentricities(&mut ecc[src.start as usize..src.end as usize]),
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(part.sources, src.end - src.start);
        total.merge(&part).unwrap();
        start = end;
        len += 1;
    }
    (total, ecc)
}

/// Every distance path agrees with the independent BFS on `t`.
fn check_all_paths<T: Topology>(t: &T) -> Expected {
    let exp = expected(t);
    let n = t.num_switches();
    let (mut off, mut tg) = build_csr(t);
    let csr = Csr::build(t, &mut off, &mut tg).unwrap();
    let connected = exp.unreachable == 0;

    let mut dist = vec![0u32; n as usize];
    let mut queue = vec![0u32; n as usize];
    let mut ecc = vec![0u32; n as usize];
    let reference = bfs::all_pairs(
        &csr,
        &mut dist,
        &mut queue,
        DistanceOutputs::with_eccentricities(&mut ecc),
    )
    .unwrap();
    assert_eq!(observed(&reference, &ecc), exp, "reference BFS");
    assert_eq!(reference.connected, connected);
    assert!(reference.is_complete());

    let (s1, e1) = bit_bfs_summary::<1>(&csr);
    assert_eq!(s1, reference, "bit BFS W=1");
    assert_eq!(e1, exp.eccentricities);
    let (s4, e4) = bit_bfs_summary::<4>(&csr);
    assert_eq!(s4, reference, "bit BFS W=4");
    assert_eq!(e4, exp.eccentricities);
    let (s2, e2) = bit_bfs_split_merge::<2>(&csr);
    assert_eq!(s2, reference, "bit BFS W=2 split and merged");
    assert_eq!(e2, exp.eccentricities);

    let mut words = vec![[0u64; 4]; bit_bfs::words_needed(n)];
    let via_entry = distance_summary(
        t,
        &csr,
        DistanceBuffers {
            words: &mut words,
            dist: &mut [],
            queue: &mut [],
        },
        DistanceOutputs::none(),
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(via_entry, reference, "distance_summary (no symmetry)");
    exp
}

fn random_shortcut_storage(n: u32, d: u16) -> (Vec<Slot>, Vec<u16>) {
    let need = random_shortcut::RandomShortcutSizes::of(n, d);
    (vec![Slot::EMPTY; need.slots], vec![0; need.degree])
}

#[test]
fn random_shortcut_graphs_agree() {
    for &(n, d) in &[
        (3u32, 2u16),
        (5, 3),
        (63, 3),
        (64, 4),
        (65, 5),
        (100, 6),
        (255, 4),
        (256, 7),
        (257, 3),
        (300, 11),
        (513, 5),
        (700, 9),
    ] {
        for seed in 0..3 {
            let (mut slots, mut deg) = random_shortcut_storage(n, d);
            let (g, _) =
                random_shortcut::build(n, d, &mut Rng::new(seed), &mut slots, &mut deg).unwrap();
            let e = check_all_paths(&g);
            assert_eq!(e.unreachable, 0, "random shortcut graphs are connected");
        }
    }
}

fn with_edges<R>(n: u32, edges: &[(u32, u32)], f: impl FnOnce(&StoredGraph<'_>) -> R) -> R {
    let width = 2 * edges.len().max(1) as u16;
    let mut slots = vec![Slot::EMPTY; n as usize * width as usize];
    let mut deg = vec![0u16; n as usize];
    let g = from_edges(n, width, 1, edges.iter().copied(), &mut slots, &mut deg).unwrap();
    f(&g)
}

#[test]
fn path_graphs_match_the_closed_form() {
    // P_n: diameter n − 1, sum over ordered pairs n(n² − 1)/3, radius floor((n−1)/2) ...
    for n in [2u32, 3, 64, 65, 130] {
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        let e = with_edges(n, &edges, |g| check_all_paths(g));
        let n64 = n as u64;
        assert_eq!(e.diameter, n - 1);
        assert_eq!(e.sum, n64 * (n64 * n64 - 1) / 3);
        assert_eq!(e.pairs, n64 * (n64 - 1));
        assert_eq!(e.radius, n / 2);
        // ... and the overflow bin holds the pairs beyond distance 63.
        let beyond: u64 = (HISTOGRAM_BINS as u64..n64).map(|k| 2 * (n64 - k)).sum();
        let (mut off, mut tg) = (vec![0; n as usize + 1], vec![0; 2 * n as usize]);
        with_edges(n, &edges, |g| {
            let csr = Csr::build(g, &mut off, &mut tg).unwrap();
            let (s, _) = bit_bfs_summary::<1>(&csr);
            assert_eq!(s.overflow, beyond);
        });
    }
}

#[test]
fn small_arbitrary_graphs_agree() {
    // Petersen graph: diameter 2, 3-regular, so each switch has 3 at distance 1 and 6 at 2.
    let petersen = [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 0),
        (0, 5),
        (1, 6),
        (2, 7),
        (3, 8),
        (4, 9),
        (5, 7),
        (7, 9),
        (9, 6),
        (6, 8),
        (8, 5),
    ];
    let e = with_edges(10, &petersen, |g| check_all_paths(g));
    assert_eq!((e.diameter, e.sum, e.pairs), (2, 10 * (3 + 12), 90));
    assert_eq!(&e.histogram[..3], &[10, 30, 60]);
    // Star K_{1,5} with a parallel link: radius 1 (centre), diameter 2.
    let star = [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 5)];
    let e = with_edges(6, &star, |g| check_all_paths(g));
    assert_eq!((e.diameter, e.radius), (2, 1));
    // Complete graph K_7.
    let k7: Vec<(u32, u32)> = (0..7)
        .flat_map(|a| (a + 1..7).map(move |b| (a, b)))
        .collect();
    let e = with_edges(7, &k7, |g| check_all_paths(g));
    assert_eq!((e.diameter, e.sum), (1, 42));
    // A single switch.
    let e = with_edges(1, &[], |g| check_all_paths(g));
    assert_eq!((e.diameter, e.pairs, e.radius), (0, 0, 0));
    // A pseudo-random sparse multigraph on 150 switches (may be disconnected).
    let mut rng = Rng::new(11);
    let edges: Vec<(u32, u32)> = (0..170)
        .filter_map(|_| rng.distinct_pair(150).map(|(a, b)| (a as u32, b as u32)))
        .collect();
    with_edges(150, &edges, |g| check_all_paths(g));
}

#[test]
fn disconnected_graph_is_reported() {
    // Two triangles and an isolated switch.
    let edges = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)];
    let e = with_edges(7, &edges, |g| check_all_paths(g));
    assert_eq!(e.unreachable, 49 - 7 - 12);
    assert!(e.eccentricities.iter().all(|&x| x == u32::MAX));
    with_edges(7, &edges, |g| {
        let (mut off, mut tg) = build_csr(g);
        let csr = Csr::build(g, &mut off, &mut tg).unwrap();
        let (s, _) = bit_bfs_summary::<4>(&csr);
        assert!(!s.connected);
        assert_eq!((s.diameter, s.pairs, s.radius), (1, 12, u32::MAX));
    });
}

/// Edges of `G(n, log2 n)` (docs/topologies.md §2): `a ~ a ± 2^i`, the `n/2` jump once.
fn g_edges(n: u32) -> Vec<(u32, u32)> {
    let k = n.trailing_zeros();
    let mut edges = vec![];
    for a in 0..n {
        for i in 0..k {
            let j = 1 << i;
            if j == n / 2 && a >= n / 2 {
                continue;
            }
            edges.push((a, (a + j) % n));
        }
    }
    edges
}

/// `G(n, log2 n)` in caller storage, marked vertex-transitive.
struct VertexTransitive<'a>(StoredGraph<'a>);

impl Topology for VertexTransitive<'_> {
    fn family(&self) -> Family {
        Family::CirculantG
    }
    fn num_switches(&self) -> u32 {
        self.0.num_switches()
    }
    fn num_terminals(&self) -> u32 {
        self.0.num_terminals()
    }
    fn radix(&self) -> PortIndex {
        self.0.radix()
    }
    fn port(&self, s: SwitchId, p: PortIndex) -> Port {
        self.0.port(s, p)
    }
    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        self.0.terminal_port(t)
    }
    fn symmetry(&self) -> Symmetry {
        Symmetry::VertexTransitive
    }
}

fn with_g<R>(n: u32, f: impl FnOnce(&StoredGraph<'_>) -> R) -> R {
    let width = (2 * n.trailing_zeros() - 1) as u16;
    let mut slots = vec![Slot::EMPTY; n as usize * width as usize];
    let mut deg = vec![0u16; n as usize];
    let g = from_edges(n, width, 1, g_edges(n), &mut slots, &mut deg).unwrap();
    f(&g)
}

#[test]
fn g_circulant_spec_values_through_the_bit_bfs() {
    for &(n, diameter, aspl) in G_CIRCULANT_TABLE.iter().filter(|r| r.0 <= 4096) {
        with_g(n, |g| {
            let (mut off, mut tg) = build_csr(g);
            let csr = Csr::build(g, &mut off, &mut tg).unwrap();
            let (s, ecc) = bit_bfs_summary::<4>(&csr);
            assert_eq!(s.diameter, diameter, "G({n}) diameter");
            assert!((s.aspl() - aspl).abs() < 5e-5, "G({n}) ASPL {}", s.aspl());
            assert!(
                ecc.iter().all(|&e| e == diameter),
                "vertex-transitive: equal eccentricities"
            );
            assert_eq!(s.radius, diameter);
            assert!(s.connected);
        });
    }
}

#[test]
fn g_circulant_single_bfs_matches_all_pairs() {
    for &(n, diameter, aspl) in G_CIRCULANT_TABLE.iter() {
        with_g(n, |g| {
            let t = VertexTransitive(*g);
            let (mut off, mut tg) = build_csr(g);
            let csr = Csr::build(g, &mut off, &mut tg).unwrap();
            let sizes = DistanceSizes::of(&t);
            assert_eq!((sizes.words, sizes.dist), (0, n as usize));
            let mut dist = vec![0u32; sizes.dist];
            let mut queue = vec![0u32; sizes.queue];
            let mut ecc = vec![0u32; n as usize];
            let mut calls = 0;
            let scratch = DistanceBuffers::<4> {
                words: &mut [],
                dist: &mut dist,
                queue: &mut queue,
            };
            let s = distance_summary(
                &t,
                &csr,
                scratch,
                DistanceOutputs::with_eccentricities(&mut ecc),
                &mut |d, total| {
                    assert_eq!((d, total), (n, n));
                    calls += 1;
                },
            )
            .unwrap();
            assert_eq!(calls, 1);
            assert_eq!(s.diameter, diameter);
            assert!((s.aspl() - aspl).abs() < 5e-5, "G({n}) ASPL {}", s.aspl());
            assert!(ecc.iter().all(|&e| e == diameter));
            assert_eq!(s.histogram[0], n as u64);
            if n <= 1024 {
                // The single-BFS shortcut equals the full all-pairs computation.
                let (full, _) = bit_bfs_summary::<2>(&csr);
                assert_eq!(s, full);
            }
        });
    }
}

#[test]
fn entry_rejects_a_foreign_csr() {
    with_g(16, |g| {
        with_g(32, |other| {
            let (mut off, mut tg) = build_csr(other);
            let csr = Csr::build(other, &mut off, &mut tg).unwrap();
            let r = distance_summary::<_, 1>(
                g,
                &csr,
                DistanceBuffers {
                    words: &mut [],
                    dist: &mut [],
                    queue: &mut [],
                },
                DistanceOutputs::none(),
                &mut |_, _| {},
            );
            assert!(matches!(
                r,
                Err(MetricsError::Invalid(InvalidParam { param: "csr", .. }))
            ));
        });
    });
}

#[test]
fn bit_bfs_rejects_bad_ranges_and_buffers() {
    with_g(256, |g| {
        let (mut off, mut tg) = build_csr(g);
        let csr = Csr::build(g, &mut off, &mut tg).unwrap();
        let mut words = vec![[0u64; 1]; bit_bfs::words_needed(256)];
        let r = bit_bfs::run_batches(
            &csr,
            0..5,
            &mut words,
            DistanceOutputs::none(),
            &mut |_, _| {},
        );
        assert!(matches!(
            r,
            Err(MetricsError::Invalid(InvalidParam {
                param: "batches",
                ..
            }))
        ));
        let r = bit_bfs::run_batches(
            &csr,
            0..1,
            &mut words[..10],
            DistanceOutputs::none(),
            &mut |_, _| {},
        );
        assert!(matches!(r, Err(MetricsError::Capacity(..))));
        let mut ecc = [0u32; 63];
        let r = bit_bfs::run_batches(
            &csr,
            1..2,
            &mut words,
            DistanceOutputs::with_eccentricities(&mut ecc),
            &mut |_, _| {},
        );
        assert!(matches!(
            r,
            Err(MetricsError::Capacity(CapacityError { needed: 64, .. }))
        ));
    });
}

mod cable;
mod histogram;
