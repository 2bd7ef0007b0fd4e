//! Tests of the arithmetic routings of the structured families (docs/routing.md §2, §3,
//! §5): every pair delivered without loops, minimal against an independent BFS, the exact
//! path shape against route generators written here from the spec, deadlock analysis with
//! the CDG, and compiled tables routing like the algorithms.

mod circulant;
mod deadlock;
mod ecube_hyperx;
mod fat_tree;
mod fat_tree_nca;
mod tables;
mod torus;

extern crate std;
use std::vec;
use std::vec::Vec;

use super::matrix_buf;
use crate::routing::deadlock::cdg::{Cdg, Deadlock};
use crate::routing::deadlock::channel::ChannelVc;
use crate::routing::deadlock::cycle::Frame;
use crate::routing::minimal::distance::DistanceMatrix;
use crate::routing::paths::walk::{check_all, CheckReport};
use crate::routing::{default_hop_limit, Routing};
use crate::topology::Topology;

/// Walks every ordered pair of distinct terminals: delivery, loop freedom, ports, eject
/// ports and VC range; counts routes longer than the BFS distance, failing on the first one
/// when `require_minimal`.
pub fn check<T: Topology, R: Routing>(topo: &T, r: &R, require_minimal: bool) -> CheckReport {
    let mut buf = matrix_buf(topo);
    let mut q = vec![0u32; topo.num_switches() as usize];
    let dm = DistanceMatrix::compute(topo, &mut buf, &mut q).unwrap();
    let rep = check_all(topo, r, Some(&dm), require_minimal, default_hop_limit(topo)).unwrap();
    let nt = topo.num_terminals() as u64;
    assert_eq!(rep.pairs, nt * nt.saturating_sub(1));
    rep
}

/// Result of the CDG analysis of a routing over all terminal pairs.
#[derive(Debug)]
pub struct Analysis {
    /// The dependency cycle found, if any.
    pub cycle: Option<Vec<ChannelVc>>,
    /// Number of recorded channel dependencies.
    pub dependencies: u64,
}

/// Builds the CDG of `r` over all terminal pairs and searches it for a cycle. A cycle found
/// is checked to chain: every channel is a real link leading to the switch the next channel
/// leaves, and every consecutive pair is a recorded dependency.
pub fn analyse<T: Topology, R: Routing>(topo: &T, r: &R) -> Analysis {
    let vcs = r.num_vcs();
    let mut bits = vec![0u64; Cdg::words_needed(topo, vcs) as usize];
    let mut cdg = Cdg::new(topo, vcs, &mut bits).unwrap();
    cdg.add_routing(r, default_hop_limit(topo)).unwrap();
    let v = Cdg::vertices_needed(topo, vcs) as usize;
    let (mut marks, mut stack) = (vec![0u32; v], vec![Frame::default(); v]);
    let mut out = vec![ChannelVc::default(); v];
    let cycle = match cdg.find_cycle(&mut marks, &mut stack, &mut out).unwrap() {
        Deadlock::Free => None,
        Deadlock::Cycle(len) => {
            let c = out[..len].to_vec();
            assert!(len >= 2, "a dependency cycle needs two channels: {c:?}");
            for k in 0..len {
                let (a, b) = (c[k], c[(k + 1) % len]);
                let l = topo
                    .port(a.switch, a.port)
                    .link()
                    .expect("channel is a link");
                assert_eq!(l.peer, b.switch, "{a:?} does not lead to {b:?}");
                assert!(cdg.has_dependency(a, b), "{a:?} -> {b:?} not recorded");
            }
            Some(c)
        }
    };
    Analysis {
        cycle,
        dependencies: cdg.num_dependencies(),
    }
}

/// Asserts that `r` is deadlock-free on `topo` and that the verdict is not vacuous (the
/// CDG holds dependencies).
pub fn assert_deadlock_free<T: Topology, R: Routing>(topo: &T, r: &R, what: &str) {
    let a = analyse(topo, r);
    assert_eq!(a.cycle, None, "{what}");
    assert!(a.dependencies > 0, "{what}: no dependencies at all");
}
