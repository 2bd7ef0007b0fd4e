//! Test-only graph builders and an independent BFS: rings with random chords (random
//! shortcut-like graphs), tori and lines built edge by edge with `stored::from_edges`.

#![allow(dead_code)]

extern crate std;
use std::collections::VecDeque;
use std::vec;
use std::vec::Vec;

use crate::rng::Rng;
use crate::topology::stored::{from_edges, Slot};
use crate::topology::{Port, StoredGraph, Topology};

/// Storage of a test graph.
#[derive(Default)]
pub struct Store {
    pub slots: Vec<Slot>,
    pub deg: Vec<u16>,
}

/// Builds a stored graph of `n` switches (at most `width` network ports, `tps` terminals per
/// switch) from `edges` in `store`.
pub fn build<'a>(
    n: u32,
    width: u16,
    tps: u16,
    edges: &[(u32, u32)],
    store: &'a mut Store,
) -> StoredGraph<'a> {
    store.slots = vec![Slot::EMPTY; n as usize * width as usize];
    store.deg = vec![0u16; n as usize];
    from_edges(
        n,
        width,
        tps,
        edges.iter().copied(),
        &mut store.slots,
        &mut store.deg,
    )
    .unwrap()
}

/// Ring of `n` plus `chords` random chords (no self loops, no duplicate links, degree at
/// most `width`).
pub fn ring_with_chords(n: u32, chords: u32, width: u16, seed: u64) -> Vec<(u32, u32)> {
    let mut edges: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
    let mut deg = vec![2u32; n as usize];
    let mut rng = Rng::new(seed);
    let mut tries = 0;
    let mut added = 0;
    while added < chords && tries < chords * 100 {
        tries += 1;
        let Some((a, b)) = rng.distinct_pair(n as usize) else {
            break;
        };
        let (a, b) = (a as u32, b as u32);
        if deg[a as usize] >= width as u32 || deg[b as usize] >= width as u32 {
            continue;
        }
        if edges
            .iter()
            .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
        {
            continue;
        }
        edges.push((a, b));
        deg[a as usize] += 1;
        deg[b as usize] += 1;
        added += 1;
    }
    edges
}

/// Edges of a `kx × ky` torus (ports per switch in order +x, -x... as edges are added).
pub fn torus_edges(kx: u32, ky: u32) -> Vec<(u32, u32)> {
    let id = |x: u32, y: u32| y * kx + x;
    let mut e = Vec::new();
    for y in 0..ky {
        for x in 0..kx {
            if kx > 2 || x + 1 < kx {
                e.push((id(x, y), id((x + 1) % kx, y)));
            }
            if ky > 2 || y + 1 < ky {
                e.push((id(x, y), id(x, (y + 1) % ky)));
            }
        }
    }
    e
}

/// Plain BFS distances from `src` (`u32::MAX` when unreachable).
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
