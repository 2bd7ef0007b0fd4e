//! Test-only helpers (std allowed): an independent plain BFS and structural checks that every
//! topology family's tests share.

#![allow(dead_code)]

extern crate std;
use std::collections::VecDeque;
use std::vec;
use std::vec::Vec;

use super::{Port, Topology};

/// Checks port symmetry: the peer of my peer is me, and terminal ports agree with
/// `terminal_port`. Panics with a message naming the first violation.
pub fn assert_port_symmetry<T: Topology>(t: &T) {
    let n = t.num_switches();
    let r = t.radix();
    let mut terminals_seen = vec![false; t.num_terminals() as usize];
    for s in 0..n {
        for p in 0..r {
            match t.port(s, p) {
                Port::Link(l) => {
                    assert!(
                        l.peer < n,
                        "switch {s} port {p}: peer {} out of range",
                        l.peer
                    );
                    match t.port(l.peer, l.peer_port) {
                        Port::Link(back) => assert_eq!(
                            (back.peer, back.peer_port),
                            (s, p),
                            "switch {s} port {p} -> ({}, {}) does not lead back",
                            l.peer,
                            l.peer_port
                        ),
                        other => panic!(
                            "switch {s} port {p} -> ({}, {}) which is {other:?}",
                            l.peer, l.peer_port
                        ),
                    }
                }
                Port::Terminal(term) => {
                    assert!(term < t.num_terminals(), "terminal {term} out of range");
                    assert!(
                        !terminals_seen[term as usize],
                        "terminal {term} attached twice"
                    );
                    terminals_seen[term as usize] = true;
                    assert_eq!(t.terminal_port(term), Some((s, p)), "terminal {term}");
                }
                Port::Unconnected => {}
            }
        }
        assert_eq!(
            t.port(s, r),
            Port::Unconnected,
            "port beyond radix must be unconnected"
        );
    }
    assert!(
        terminals_seen.iter().all(|&b| b),
        "some terminal has no port"
    );
    assert_eq!(
        t.port(n, 0),
        Port::Unconnected,
        "switch beyond range must be unconnected"
    );
    assert_eq!(t.terminal_port(t.num_terminals()), None);
}

/// Plain BFS distances (switch hops) from `src`; `u32::MAX` for unreachable switches.
pub fn bfs<T: Topology>(t: &T, src: u32) -> Vec<u32> {
    let n = t.num_switches() as usize;
    let mut dist = vec![u32::MAX; n];
    let mut q = VecDeque::new();
    dist[src as usize] = 0;
    q.push_back(src);
    while let Some(u) = q.pop_front() {
        for p in 0..t.radix() {
            if let Port::Link(l) = t.port(u, p) {
                if dist[l.peer as usize] == u32::MAX {
                    dist[l.peer as usize] = dist[u as usize] + 1;
                    q.push_back(l.peer);
                }
            }
        }
    }
    dist
}

/// Diameter and ASPL (ordered pairs of distinct switches) by BFS from every switch.
/// Panics if the graph is disconnected.
pub fn diameter_aspl<T: Topology>(t: &T) -> (u32, f64) {
    let n = t.num_switches();
    let mut diam = 0;
    let mut sum = 0u64;
    for s in 0..n {
        for (v, &d) in bfs(t, s).iter().enumerate() {
            assert!(d != u32::MAX, "switch {v} unreachable from {s}");
            diam = diam.max(d);
            sum += d as u64;
        }
    }
    let pairs = n as u64 * (n as u64 - 1);
    (
        diam,
        if pairs == 0 {
            0.0
        } else {
            sum as f64 / pairs as f64
        },
    )
}

/// Sorted neighbour list (switch ids, with multiplicity) of `s`.
pub fn neighbours<T: Topology>(t: &T, s: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (0..t.radix())
        .filter_map(|p| t.port(s, p).link().map(|l| l.peer))
        .collect();
    v.sort_unstable();
    v
}

/// Distance histogram from `src`: entry `d` counts switches at distance `d` (plain BFS).
/// Panics if some switch is unreachable.
pub fn distance_histogram<T: Topology>(t: &T, src: u32) -> Vec<u64> {
    let mut h = Vec::new();
    for (v, d) in bfs(t, src).into_iter().enumerate() {
        assert!(d != u32::MAX, "switch {v} unreachable from {src}");
        if h.len() <= d as usize {
            h.resize(d as usize + 1, 0);
        }
        h[d as usize] += 1;
    }
    h
}

/// Checks a necessary condition of vertex-transitivity: BFS from every switch gives the same
/// distance histogram as BFS from switch 0. Returns that histogram.
pub fn assert_same_histogram_everywhere<T: Topology>(t: &T) -> Vec<u64> {
    let h0 = distance_histogram(t, 0);
    for s in 1..t.num_switches() {
        assert_eq!(
            distance_histogram(t, s),
            h0,
            "histogram from switch {s} differs"
        );
    }
    h0
}

/// docs/topologies.md §10 worked example, Galaxy graph n = 3, q = 5: neighbours of S1..S15
/// (1-based labels).
pub(crate) const TABLE_3_5: [[u32; 4]; 15] = [
    [2, 5, 6, 11],
    [1, 3, 9, 14],
    [2, 4, 7, 12],
    [3, 5, 10, 15],
    [1, 4, 8, 13],
    [1, 7, 10, 11],
    [3, 6, 8, 14],
    [5, 7, 9, 12],
    [2, 8, 10, 15],
    [4, 6, 9, 13],
    [1, 6, 12, 15],
    [3, 8, 11, 13],
    [5, 10, 12, 14],
    [2, 7, 13, 15],
    [4, 9, 11, 14],
];

/// Diameter and ASPL (4 decimals) of G(2^k, k) for k = 2..13 (docs/topologies.md §2 table,
/// docs/reference-results.md A1).
pub(crate) const G_CIRCULANT_TABLE: [(u32, u32, f64); 12] = [
    (4, 1, 1.0000),
    (8, 2, 1.2857),
    (16, 2, 1.5333),
    (32, 3, 1.8387),
    (64, 3, 2.1429),
    (128, 4, 2.4646),
    (256, 4, 2.7882),
    (512, 5, 3.1174),
    (1024, 5, 3.4477),
    (2048, 6, 3.7797),
    (4096, 6, 4.1121),
    (8192, 7, 4.4450),
];
