//! All-pairs switch distances as a `u16` matrix in a caller buffer (docs/routing.md §1:
//! "store all-pairs distances as u16 matrices"). Row `t` holds the BFS distances from switch
//! `t`; the graph is undirected, so `dist(t, v) = dist(v, t)`.

use crate::error::{CapacityError, InvalidParam};
use crate::topology::{Port, SwitchId, Topology};

use crate::routing::error::RoutingError;

/// Distance value of an unreachable switch.
pub const UNREACHABLE: u16 = u16::MAX;

/// BFS over the switch graph from `src`, writing hop distances into `dist` (`n` entries,
/// [`UNREACHABLE`] where not reached) using `queue` (`n` entries) as scratch.
/// docs/routing.md §1.
pub fn bfs_into<T: Topology>(
    topo: &T,
    src: SwitchId,
    dist: &mut [u16],
    queue: &mut [u32],
) -> Result<(), RoutingError> {
    let n = topo.num_switches();
    CapacityError::check("BFS distances", n as u64, dist.len())?;
    CapacityError::check("BFS queue", n as u64, queue.len())?;
    if src >= n {
        return Err(RoutingError::SwitchOutOfRange {
            switch: src,
            switches: n,
        });
    }
    if n as u64 > UNREACHABLE as u64 {
        return Err(RoutingError::Invalid(InvalidParam {
            param: "switches",
            value: n as u64,
            rule: "u16 distances need fewer than 65535 switches",
        }));
    }
    let dist = &mut dist[..n as usize];
    dist.fill(UNREACHABLE);
    dist[src as usize] = 0;
    queue[0] = src;
    let (mut head, mut tail) = (0usize, 1usize);
    let radix = topo.radix();
    while head < tail {
        let u = queue[head];
        head += 1;
        let du = dist[u as usize];
        for p in 0..radix {
            if let Port::Link(l) = topo.port(u, p) {
                if let Some(dv) = dist.get_mut(l.peer as usize) {
                    if *dv == UNREACHABLE {
                        *dv = du + 1;
                        queue[tail] = l.peer;
                        tail += 1;
                    }
                }
            }
        }
    }
    Ok(())
}

/// All-pairs distances of an `n`-switch graph (`n²` `u16` entries in caller storage).
#[derive(Clone, Copy, Debug)]
pub struct DistanceMatrix<'a> {
    n: u32,
    d: &'a [u16],
}

impl<'a> DistanceMatrix<'a> {
    /// Entries `buf` needs for `topo` (`n²`).
    pub fn entries_needed<T: Topology>(topo: &T) -> u64 {
        topo.num_switches() as u64 * topo.num_switches() as u64
    }

    /// Computes all rows by BFS from every switch (docs/routing.md §1). `queue` needs `n`
    /// entries.
    pub fn compute<T: Topology>(
        topo: &T,
        buf: &'a mut [u16],
        queue: &mut [u32],
    ) -> Result<Self, RoutingError> {
        let n = topo.num_switches();
        let entries = Self::entries_needed(topo);
        CapacityError::check("distance matrix", entries, buf.len())?;
        let buf = &mut buf[..entries as usize];
        if n > 0 {
            for (t, row) in buf.chunks_exact_mut(n as usize).enumerate() {
                bfs_into(topo, t as u32, row, queue)?;
            }
        }
        Ok(DistanceMatrix { n, d: buf })
    }

    /// Wraps distances computed elsewhere (e.g. by a parallel BFS on the host, or injected
    /// by a test): `d[a·n + b]` = hops from switch `a` to `b`, [`UNREACHABLE`] where
    /// disconnected; `d` must hold exactly `n²` entries.
    pub fn new(n: u32, d: &'a [u16]) -> Result<Self, RoutingError> {
        let needed = n as u64 * n as u64;
        if d.len() as u64 != needed {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "distance matrix entries",
                value: d.len() as u64,
                rule: "a distance matrix of n switches needs exactly n·n entries",
            }));
        }
        Ok(DistanceMatrix { n, d })
    }

    /// Number of switches.
    pub fn switches(&self) -> u32 {
        self.n
    }

    /// Distance between switches `a` and `b` ([`UNREACHABLE`] if disconnected or out of
    /// range).
    #[inline]
    pub fn get(&self, a: SwitchId, b: SwitchId) -> u16 {
        if a >= self.n || b >= self.n {
            return UNREACHABLE;
        }
        self.d
            .get(a as usize * self.n as usize + b as usize)
            .copied()
            .unwrap_or(UNREACHABLE)
    }

    /// Row `t`: distances from every switch to `t`.
    pub fn row(&self, t: SwitchId) -> &'a [u16] {
        let n = self.n as usize;
        let start = t as usize * n;
        self.d.get(start..start + n).unwrap_or(&[])
    }
}
