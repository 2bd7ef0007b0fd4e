//! CCO — chain concatenation ordering, project reference (docs/collectives.md §9).
//!
//! A BFS tree of the physical graph rooted at the broadcast source (each node attached to
//! its lowest-id neighbour on the previous level, children sorted by id); the destination
//! order is the pre-order DFS of that tree restricted to job nodes; relative rank `i` is the
//! `i`-th node of that order (the source is rank 0), and the broadcast is §1 over it. (The
//! original CCO concatenates per-switch chains under up*/down* routing; those rules were not
//! recovered.)

use super::schedule::{check_rank, ScheduleError};
use crate::error::{CapacityError, InvalidParam};
use crate::topology::Topology;

/// A graph given by an oracle: nodes `0..nodes()`, neighbours by callback.
pub trait Graph {
    /// Number of nodes.
    fn nodes(&self) -> u32;
    /// Calls `f(v)` for every neighbour `v` of `u` (any order; repeats allowed).
    fn for_each_neighbor<F: FnMut(u32)>(&self, u: u32, f: F);
}

/// The switch graph of a [`Topology`] as a [`Graph`].
#[derive(Clone, Copy, Debug)]
pub struct SwitchGraph<'t, T>(pub &'t T);

impl<T: Topology> Graph for SwitchGraph<'_, T> {
    fn nodes(&self) -> u32 {
        self.0.num_switches()
    }
    fn for_each_neighbor<F: FnMut(u32)>(&self, u: u32, mut f: F) {
        self.0.for_each_link(u, |_, l| f(l.peer));
    }
}

const NONE: u32 = u32::MAX;

/// BFS tree from `source`: `parent[v]` is the lowest-id neighbour of `v` one level closer to
/// the source (`u32::MAX` for the source and unreachable nodes); `level` and `queue` are
/// scratch (`nodes()` entries each; `level[v]` is left as the BFS distance, `u32::MAX` if
/// unreachable).
pub fn bfs_tree<G: Graph>(
    g: &G,
    source: u32,
    parent: &mut [u32],
    level: &mut [u32],
    queue: &mut [u32],
) -> Result<(), ScheduleError> {
    let n = g.nodes();
    let nu = n as usize;
    check_rank(source as u64, n as u64)?;
    if parent.len() < nu || level.len() < nu || queue.len() < nu {
        return Err(ScheduleError::Capacity(CapacityError {
            what: "BFS buffers",
            needed: n as u64,
            available: parent.len().min(level.len()).min(queue.len()) as u64,
        }));
    }
    let (parent, level) = (&mut parent[..nu], &mut level[..nu]);
    parent.fill(NONE);
    level.fill(NONE);
    level[source as usize] = 0;
    queue[0] = source;
    let (mut head, mut tail) = (0, 1);
    let mut bad = None;
    while head < tail {
        let u = queue[head];
        head += 1;
        let lu = level[u as usize];
        g.for_each_neighbor(u, |v| {
            let Some(lv) = level.get_mut(v as usize) else {
                bad = Some(v);
                return;
            };
            if *lv == NONE {
                *lv = lu + 1;
                queue[tail] = v;
                tail += 1;
            }
            if *lv == lu + 1 {
                let p = &mut parent[v as usize];
                *p = (*p).min(u);
            }
        });
        if let Some(v) = bad {
            return Err(ScheduleError::RankOutOfRange {
                rank: v as u64,
                n: n as u64,
            });
        }
    }
    Ok(())
}

/// CCO destination order: pre-order DFS (children ascending) of the tree `parent` rooted at
/// `source`, keeping the nodes for which `is_job` holds (the source first, whether or not it
/// is a job node). Writes the order to `out` and returns its length; `scratch` needs
/// `2 · parent.len()` entries.
pub fn cco_order<J: Fn(u32) -> bool>(
    parent: &[u32],
    source: u32,
    is_job: J,
    out: &mut [u32],
    scratch: &mut [u32],
) -> Result<usize, ScheduleError> {
    let n = parent.len();
    check_rank(source as u64, n as u64)?;
    if scratch.len() < 2 * n {
        return Err(ScheduleError::Capacity(CapacityError {
            what: "CCO scratch",
            needed: 2 * n as u64,
            available: scratch.len() as u64,
        }));
    }
    let (first, rest) = scratch.split_at_mut(n);
    let next = &mut rest[..n];
    first.fill(NONE);
    next.fill(NONE);
    for v in (0..n).rev() {
        let p = parent[v];
        if p != NONE && v as u32 != source {
            check_rank(p as u64, n as u64)?;
            next[v] = first[p as usize];
            first[p as usize] = v as u32;
        }
    }
    let mut len = 0usize;
    let mut push = |v: u32, out: &mut [u32]| -> Result<(), ScheduleError> {
        let available = out.len() as u64;
        let slot = out
            .get_mut(len)
            .ok_or(ScheduleError::Capacity(CapacityError {
                what: "CCO order",
                needed: len as u64 + 1,
                available,
            }))?;
        *slot = v;
        len += 1;
        Ok(())
    };
    push(source, out)?;
    let mut v = source;
    let mut steps = 0usize;
    loop {
        steps += 1;
        if steps > n {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "parent",
                value: v as u64,
                rule: "parent links must form a tree",
            }));
        }
        if first[v as usize] != NONE {
            v = first[v as usize];
        } else {
            while v != source && next[v as usize] == NONE {
                v = parent[v as usize];
            }
            if v == source {
                break;
            }
            v = next[v as usize];
        }
        if is_job(v) {
            push(v, out)?;
        }
    }
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    struct Adj(Vec<Vec<u32>>);
    impl Graph for Adj {
        fn nodes(&self) -> u32 {
            self.0.len() as u32
        }
        fn for_each_neighbor<F: FnMut(u32)>(&self, u: u32, f: F) {
            self.0[u as usize].iter().copied().for_each(f)
        }
    }

    fn undirected(n: usize, edges: &[(u32, u32)]) -> Adj {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
        Adj(adj)
    }

    #[test]
    fn bfs_parent_is_the_lowest_id_on_the_previous_level() {
        // 0 – 3, 0 – 5, 3 – 4, 5 – 4, 5 – 1, 4 – 2, 1 – 2
        let g = undirected(6, &[(0, 3), (0, 5), (3, 4), (5, 4), (5, 1), (4, 2), (1, 2)]);
        let (mut p, mut l, mut q) = (vec![0; 6], vec![0; 6], vec![0; 6]);
        bfs_tree(&g, 0, &mut p, &mut l, &mut q).unwrap();
        assert_eq!(l, [0, 2, 3, 1, 2, 1]);
        assert_eq!(p, [NONE, 5, 1, 0, 3, 0]); // 4 hangs under 3 (not 5); 2 under 1 (not 4)
                                              // Pre-order, children ascending: 0, 3, 4, 5, 1, 2; job = all but 4.
        let mut out = vec![0; 6];
        let mut scratch = vec![0; 12];
        let len = cco_order(&p, 0, |v| v != 4, &mut out, &mut scratch).unwrap();
        assert_eq!(&out[..len], &[0, 3, 5, 1, 2]);
    }

    #[test]
    fn works_on_a_topology() {
        use crate::topology::stored::from_edges;
        use crate::topology::Slot;
        let mut slots = [Slot::EMPTY; 8];
        let mut deg = [0u16; 4];
        let ring = from_edges(
            4,
            2,
            1,
            [(0, 1), (1, 2), (2, 3), (3, 0)],
            &mut slots,
            &mut deg,
        )
        .unwrap();
        let (mut p, mut l, mut q) = ([0u32; 4], [0u32; 4], [0u32; 4]);
        bfs_tree(&SwitchGraph(&ring), 2, &mut p, &mut l, &mut q).unwrap();
        assert_eq!(p, [1, 2, NONE, 2]);
        let (mut out, mut scratch) = ([0u32; 4], [0u32; 8]);
        let len = cco_order(&p, 2, |_| true, &mut out, &mut scratch).unwrap();
        assert_eq!(&out[..len], &[2, 1, 0, 3]);
    }

    #[test]
    fn bad_trees_fail() {
        let (mut out, mut scratch) = ([0u32; 3], [0u32; 6]);
        // 1 and 2 point at each other: not reachable from 0, so only the source is listed.
        assert_eq!(
            cco_order(&[NONE, 2, 1], 0, |_| true, &mut out, &mut scratch),
            Ok(1)
        );
        assert!(cco_order(&[NONE, 0, 0], 5, |_| true, &mut out, &mut scratch).is_err());
        assert!(cco_order(&[NONE, 9, 0], 0, |_| true, &mut out, &mut scratch).is_err());
    }
}
