//! Hierarchical-tree (BFS) mapping (docs/mapping.md §1, \[DISS\] §3.2).

use crate::error::CapacityError;
use crate::mapping::{FreeNodes, MappingError, NodeId};
use crate::topology::Topology;

/// Entries each buffer of [`BfsBuffers`] needs: `n` (the number of switches) each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BfsSizes {
    /// Entries of `queue` and `seen`.
    pub per_buffer: usize,
}

impl BfsSizes {
    /// Buffer sizes [`bfs_mapping`] needs for `topo`.
    pub fn of<T: Topology + ?Sized>(topo: &T) -> Self {
        BfsSizes {
            per_buffer: topo.num_switches() as usize,
        }
    }
}

/// Caller storage for [`bfs_mapping`]: both slices need at least `n` entries
/// ([`BfsSizes::of`]).
#[derive(Debug)]
pub struct BfsBuffers<'a> {
    /// BFS queue.
    pub queue: &'a mut [NodeId],
    /// Visited flags.
    pub seen: &'a mut [bool],
}

/// Hierarchical-tree mapping (docs/mapping.md §1): BFS from `root` over the switch graph of
/// `topo`, visiting neighbours in ascending port order, and writing every free node in the
/// order it is discovered until `out` (length `m`) is full — possibly in the middle of a BFS
/// level. The BFS walks through busy nodes too; only free nodes are chosen.
///
/// Nodes are switches (one compute node per switch, as in \[DISS\]). `root` must be free (draw
/// it with [`super::random_free_node`], or pass 0 for deterministic output). Fails with
/// [`MappingError::NotEnoughFree`] when the root's component holds fewer than `m` free nodes.
pub fn bfs_mapping<T: Topology>(
    topo: &T,
    free: FreeNodes<'_>,
    root: NodeId,
    out: &mut [NodeId],
    scratch: BfsBuffers<'_>,
) -> Result<(), MappingError> {
    let n = topo.num_switches();
    let m = out.len();
    free.check_room(n, m)?;
    CapacityError::check("BFS queue", n as usize, scratch.queue.len())?;
    CapacityError::check("BFS visited flags", n as usize, scratch.seen.len())?;
    if root >= n {
        return Err(MappingError::NodeOutOfRange {
            node: root as u64,
            n: n as u64,
        });
    }
    if !free.is_free(root) {
        return Err(MappingError::NodeNotFree { node: root as u64 });
    }
    if m == 0 {
        return Ok(());
    }
    let seen = &mut scratch.seen[..n as usize];
    let queue = &mut scratch.queue[..n as usize];
    seen.fill(false);
    seen[root as usize] = true;
    queue[0] = root;
    out[0] = root;
    let (mut head, mut tail, mut chosen) = (0usize, 1usize, 1usize);
    while head < tail && chosen < m {
        let u = queue[head];
        head += 1;
        for p in 0..topo.radix() {
            if chosen == m {
                break;
            }
            let Some(link) = topo.port(u, p).link() else {
                continue;
            };
            let Some(flag) = seen.get_mut(link.peer as usize) else {
                continue;
            };
            if *flag {
                continue;
            }
            *flag = true;
            if let Some(q) = queue.get_mut(tail) {
                *q = link.peer;
                tail += 1;
            }
            if free.is_free(link.peer) {
                out[chosen] = link.peer;
                chosen += 1;
            }
        }
    }
    if chosen < m {
        return Err(MappingError::NotEnoughFree {
            requested: m as u64,
            free: chosen as u64,
        });
    }
    Ok(())
}
