//! Test-only helpers (std allowed): graphs built by edges, independent BFS distances and
//! routes, a dimension-order path oracle for the 2-D torus, and schedule generators written
//! from docs/collectives.md independently of any library code.

#![allow(dead_code)]

extern crate std;
use std::collections::{HashSet, VecDeque};
use std::vec;
use std::vec::Vec;

use super::{ChannelId, DistanceOracle, Message, NodeId, PathOracle};
use crate::rng::Rng;
use crate::topology::stored::from_edges;
use crate::topology::{Slot, StoredGraph, Topology};

pub fn msg(step: u32, src_rank: u32, dst_rank: u32) -> Message {
    Message {
        step,
        src_rank,
        dst_rank,
    }
}

/// An edge list with owned port-table storage; `view()` builds the stored graph.
pub struct EdgeGraph {
    pub n: u32,
    pub width: u16,
    pub edges: Vec<(u32, u32)>,
    slots: Vec<Slot>,
    degree: Vec<u16>,
}

impl EdgeGraph {
    pub fn new(n: u32, edges: Vec<(u32, u32)>) -> Self {
        let mut deg = vec![0u16; n as usize];
        for &(u, v) in &edges {
            deg[u as usize] += 1;
            deg[v as usize] += 1;
        }
        let width = deg.iter().copied().max().unwrap_or(0).max(1);
        EdgeGraph {
            n,
            width,
            edges,
            slots: vec![Slot::EMPTY; n as usize * width as usize],
            degree: vec![0; n as usize],
        }
    }

    pub fn view(&mut self) -> StoredGraph<'_> {
        from_edges(
            self.n,
            self.width,
            1,
            self.edges.iter().copied(),
            &mut self.slots,
            &mut self.degree,
        )
        .unwrap()
    }
}

/// Ring `0..n` plus `extra` random shortcuts (no self loops, no parallel links).
pub fn ring_with_shortcuts(n: u32, extra: usize, seed: u64) -> EdgeGraph {
    let mut rng = Rng::new(seed);
    let mut set = HashSet::new();
    let mut edges = Vec::new();
    for v in 0..n {
        let w = (v + 1) % n;
        set.insert((v.min(w), v.max(w)));
        edges.push((v, w));
    }
    let mut tries = 0;
    while edges.len() < n as usize + extra && tries < 100 * (extra + 1) {
        tries += 1;
        let (a, b) = rng.distinct_pair(n as usize).unwrap();
        let key = (a.min(b) as u32, a.max(b) as u32);
        if set.insert(key) {
            edges.push(key);
        }
    }
    EdgeGraph::new(n, edges)
}

/// `side × side` torus by edges (+x and +y link of every node).
pub fn torus_graph(side: u32) -> EdgeGraph {
    let mut edges = Vec::new();
    for y in 0..side {
        for x in 0..side {
            let v = y * side + x;
            edges.push((v, y * side + (x + 1) % side));
            edges.push((v, ((y + 1) % side) * side + x));
        }
    }
    EdgeGraph::new(side * side, edges)
}

/// `G(n, log2 n)` by edges: jumps `2^k`, `k = 0..log2 n` (jump n/2 once per pair).
pub fn g_circulant_graph(n: u32) -> EdgeGraph {
    let mut edges = Vec::new();
    let mut jump = 1;
    while jump < n {
        for v in 0..n {
            if 2 * jump == n && v >= jump {
                continue;
            }
            edges.push((v, (v + jump) % n));
        }
        jump *= 2;
    }
    EdgeGraph::new(n, edges)
}

/// Plain BFS distances from `src`.
pub fn bfs_dist<T: Topology>(t: &T, src: u32) -> Vec<u32> {
    let n = t.num_switches() as usize;
    let mut dist = vec![u32::MAX; n];
    let mut q = VecDeque::new();
    dist[src as usize] = 0;
    q.push_back(src);
    while let Some(u) = q.pop_front() {
        for p in 0..t.radix() {
            if let Some(l) = t.port(u, p).link() {
                if dist[l.peer as usize] == u32::MAX {
                    dist[l.peer as usize] = dist[u as usize] + 1;
                    q.push_back(l.peer);
                }
            }
        }
    }
    dist
}

/// All-pairs `u16` distance matrix by BFS.
pub fn all_pairs<T: Topology>(t: &T) -> Vec<u16> {
    let n = t.num_switches();
    let mut m = Vec::with_capacity((n * n) as usize);
    for s in 0..n {
        m.extend(bfs_dist(t, s).into_iter().map(|d| d as u16));
    }
    m
}

/// Minimal routing of docs/routing.md §1 (first port, ascending, that gets one hop closer);
/// channel id = `node · width + port`.
pub struct BfsPaths {
    n: u32,
    width: u32,
    ports: Vec<Vec<(u16, u32)>>,
    dist: Vec<u16>,
}

impl BfsPaths {
    pub fn new(t: &StoredGraph<'_>) -> Self {
        let n = t.num_switches();
        let width = t.width();
        let ports = (0..n)
            .map(|u| {
                (0..t.radix())
                    .filter_map(|p| t.port(u, p).link().map(|l| (p, l.peer)))
                    .collect()
            })
            .collect();
        BfsPaths {
            n,
            width: width as u32,
            ports,
            dist: all_pairs(t),
        }
    }

    fn d(&self, a: u32, b: u32) -> u16 {
        self.dist[(a * self.n + b) as usize]
    }
}

impl PathOracle for BfsPaths {
    fn num_channels(&self) -> u32 {
        self.n * self.width
    }
    fn for_each_channel<F: FnMut(ChannelId)>(&self, a: NodeId, b: NodeId, mut f: F) {
        let mut u = a;
        while u != b {
            let (p, v) = *self.ports[u as usize]
                .iter()
                .find(|&&(_, v)| self.d(v, b) + 1 == self.d(u, b))
                .expect("connected graph");
            f(u * self.width + p as u32);
            u = v;
        }
    }
}

/// Dimension-order routing on a `side × side` torus (docs/routing.md §2: x first, shorter way,
/// tie → `+`). Channel id = `node · 4 + dir` with dir 0 = +x, 1 = −x, 2 = +y, 3 = −y.
#[derive(Clone, Copy)]
pub struct TorusDor {
    pub side: u32,
}

impl TorusDor {
    /// Hop that DOR takes from `u` toward `t`: `(dir, next)`, or None at the destination.
    pub fn next_hop(&self, u: u32, t: u32) -> Option<(u32, u32)> {
        let k = self.side;
        let (x, y) = (u % k, u / k);
        let (tx, ty) = (t % k, t / k);
        if x != tx {
            let plus = (tx + k - x) % k;
            return Some(if plus <= k - plus {
                (0, y * k + (x + 1) % k)
            } else {
                (1, y * k + (x + k - 1) % k)
            });
        }
        if y != ty {
            let plus = (ty + k - y) % k;
            return Some(if plus <= k - plus {
                (2, ((y + 1) % k) * k + x)
            } else {
                (3, ((y + k - 1) % k) * k + x)
            });
        }
        None
    }
}

impl PathOracle for TorusDor {
    fn num_channels(&self) -> u32 {
        self.side * self.side * 4
    }
    fn for_each_channel<F: FnMut(ChannelId)>(&self, a: NodeId, b: NodeId, mut f: F) {
        let mut u = a;
        while let Some((dir, v)) = self.next_hop(u, b) {
            f(u * 4 + dir);
            u = v;
        }
    }
}

/// Torus distance, arithmetically.
#[derive(Clone, Copy)]
pub struct TorusDistance {
    pub side: u32,
}

impl DistanceOracle for TorusDistance {
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        let k = self.side;
        let d = |p: u32, q: u32| {
            let t = (q + k - p) % k;
            t.min(k - t)
        };
        d(a % k, b % k) + d(a / k, b / k)
    }
}

/// Binomial broadcast (docs/collectives.md §1), relative ranks turned absolute with `root`.
pub fn binomial_bcast(n: u32, root: u32) -> Vec<Message> {
    let k = 32 - (n - 1).leading_zeros(); // ceil(log2 n) for n >= 2
    let mut out = Vec::new();
    for x in 0..n {
        let limit = if x == 0 {
            1u32 << k
        } else {
            x & x.wrapping_neg()
        };
        let mut j = 0;
        while (1u32 << j) < limit {
            if x + (1 << j) < n {
                out.push(msg(k - j, (x + root) % n, (x + (1 << j) + root) % n));
            }
            j += 1;
        }
    }
    out
}

/// Recursive-doubling allreduce for power-of-two `m` (docs/collectives.md §2): step `j` pairs
/// `r ↔ r XOR 2^(j-1)`, both directions.
pub fn recursive_doubling(m: u32) -> Vec<Message> {
    let mut out = Vec::new();
    let mut j = 1;
    while (1u32 << (j - 1)) < m {
        for r in 0..m {
            out.push(msg(j, r, r ^ (1 << (j - 1))));
        }
        j += 1;
    }
    out
}

/// Bruck all-to-all (docs/collectives.md §3): step k sends `r → r + 2^k mod m`.
pub fn bruck(m: u32) -> Vec<Message> {
    let mut out = Vec::new();
    let mut k = 0;
    while (1u32 << k) < m {
        for r in 0..m {
            out.push(msg(k, r, (r + (1 << k)) % m));
        }
        k += 1;
    }
    out
}

/// Whether `p` is a permutation of `0..p.len()`.
pub fn is_permutation<T: Copy + Into<u64>>(p: &[T]) -> bool {
    let mut seen = vec![false; p.len()];
    for &v in p {
        let v: u64 = v.into();
        if v as usize >= p.len() || seen[v as usize] {
            return false;
        }
        seen[v as usize] = true;
    }
    true
}
