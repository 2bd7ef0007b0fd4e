//! The SPC tree ([GF-A2A] §3.2; docs/collectives.md §7): breadth-first from the target
//! supernode `A` over the Galaxy graph, neighbours in ascending id, each supernode attached
//! to the first supernode (in BFS order) adjacent to it. Level 1 are `A`'s neighbours; a
//! level-2 supernode hangs under its smallest-id level-1 neighbour.

use super::{GalaxyGraph, NONE};
use crate::collective::schedule::{check_rank, ScheduleError};
use crate::error::CapacityError;

/// Writes the SPC tree rooted at `root`: `parent[u]` (`NONE` for the root) and the BFS order
/// in `order` (both `S` entries).
pub fn spc_tree<G: GalaxyGraph>(
    graph: &G,
    root: u32,
    parent: &mut [u32],
    order: &mut [u32],
) -> Result<(), ScheduleError> {
    let s = graph.supernodes();
    let su = s as usize;
    check_rank(root as u64, s as u64)?;
    if parent.len() < su || order.len() < su {
        return Err(ScheduleError::Capacity(CapacityError {
            what: "SPC tree",
            needed: s as u64,
            available: parent.len().min(order.len()) as u64,
        }));
    }
    let (parent, order) = (&mut parent[..su], &mut order[..su]);
    parent.fill(NONE);
    parent[root as usize] = root; // visited marker, cleared below
    order[0] = root;
    let (mut head, mut tail) = (0usize, 1usize);
    while head < tail {
        let u = order[head];
        head += 1;
        for i in 0..graph.degree(u) {
            let v = graph.neighbor(u, i);
            check_rank(v as u64, s as u64)?;
            if parent[v as usize] == NONE {
                parent[v as usize] = u;
                order[tail] = v;
                tail += 1;
            }
        }
    }
    if let Some(u) = parent.iter().position(|&p| p == NONE) {
        return Err(ScheduleError::Disconnected { node: u as u64 });
    }
    parent[root as usize] = NONE;
    Ok(())
}
