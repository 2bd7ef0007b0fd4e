//! Tests of the routing module against independent implementations written here (plain
//! BFS, plain Dijkstra, Kahn's topological sort) and exact properties.

mod cdg;
mod deps;
mod dfsssp;
mod dragonfly_minimal;
mod dragonfly_ugal;
mod dragonfly_valiant;
mod minimal;
mod parx;
mod stats;
mod structured;
mod tables;

extern crate std;
use std::vec;
use std::vec::Vec;

use crate::topology::Topology;

use crate::routing::minimal::distance::DistanceMatrix;
use crate::routing::paths::walk::{walk, Step};
use crate::routing::Routing;

/// All-pairs distance matrix buffer for `topo`.
pub fn matrix_buf<T: Topology>(topo: &T) -> Vec<u16> {
    vec![0u16; DistanceMatrix::entries_needed(topo) as usize]
}

/// The steps of the route from `src` to `dst`.
pub fn steps<T: Topology, R: Routing>(topo: &T, r: &R, src: u32, dst: u32) -> Vec<Step> {
    let mut v = Vec::new();
    walk(topo, r, src, dst, 10_000, |s| v.push(*s)).unwrap();
    v
}
