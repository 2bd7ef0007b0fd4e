//! `min-latency` routing (docs/routing.md §9): the routing table BookSim2's `anynet` network
//! builds (`AnyNet::buildRoutingTable`, its `min` routing function), on any network.
//!
//! For every router `r` a Dijkstra search over the channel latencies (a network's own,
//! [`Topology::port_latency`], else 1 cycle per hop) settles the routers in order of
//! distance from `r`, the lowest router id first among equal distances; a router's
//! predecessor is the first settled router that reached it with its final distance (later
//! equal distances do not replace it). `r` sends a packet for router `d` to the first router
//! on `r`'s tree path to `d`, on the lowest port towards it; every hop decides again from its
//! own table, on any VC.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use anyhow::{anyhow, Result};
use jumpnet_core::routing::{Hop, PacketState, Routing, RoutingError};
use jumpnet_core::topology::{Network, Port, TerminalId, Topology};

/// Marks "no port" (the router itself) in a table.
const NONE: u16 = u16::MAX;

/// BookSim2 anynet's routing: next port per (router, destination router).
#[derive(Debug)]
pub struct MinLatency<'a> {
    net: &'a Network<'a>,
    n: u32,
    /// `next[r·n + d]`: the port of `r` towards router `d`.
    next: Vec<u16>,
}

impl<'a> MinLatency<'a> {
    /// Builds the tables of `net` (n² entries, checked against the memory budget).
    pub fn new(net: &'a Network<'a>) -> Result<Self> {
        let n = net.num_switches();
        crate::builder::network::check_alloc::<u16>(
            &format!("the min-latency routing table of {n} switches"),
            n as u128 * n as u128,
        )?;
        let adj = adjacency(net);
        let mut next = vec![NONE; n as usize * n as usize];
        for r in 0..n {
            tree(&adj, r, &mut next[r as usize * n as usize..(r as usize + 1) * n as usize])
                .map_err(|d| {
                    anyhow!("min-latency: switch {d} cannot be reached from switch {r}; the network is not connected")
                })?;
        }
        Ok(MinLatency { net, n, next })
    }
}

/// Per switch: `(neighbour, latency, lowest port)` in increasing neighbour id, one entry
/// per neighbour (the lowest port among the fastest parallel channels).
fn adjacency(net: &Network<'_>) -> Vec<Vec<(u32, u64, u16)>> {
    (0..net.num_switches())
        .map(|s| {
            let mut v: Vec<(u32, u64, u16)> = Vec::new();
            for p in 0..net.radix() {
                if let Port::Link(l) = net.port(s, p) {
                    let lat = u64::from(net.port_latency(s, p).unwrap_or(1));
                    v.push((l.peer, lat, p));
                }
            }
            v.sort_unstable();
            v.dedup_by_key(|e| e.0);
            v
        })
        .collect()
}

/// The Dijkstra tree of router `r`: `row[d]` = the port of `r` towards `d`'s first hop.
/// `Err(d)` when `d` cannot be reached.
fn tree(adj: &[Vec<(u32, u64, u16)>], r: u32, row: &mut [u16]) -> Result<(), u32> {
    let n = adj.len();
    let mut dist = vec![u64::MAX; n];
    let mut prev = vec![u32::MAX; n];
    // The first hop (a neighbour of r) on the tree path to each router.
    let mut first = vec![u32::MAX; n];
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::new();
    dist[r as usize] = 0;
    heap.push(Reverse((0u64, r)));
    // Settled in (distance, id) order, as BookSim2's scan for the smallest distance with
    // the lowest id does; relaxations keep the first predecessor of a distance.
    while let Some(Reverse((d, u))) = heap.pop() {
        if done[u as usize] || d != dist[u as usize] {
            continue;
        }
        done[u as usize] = true;
        if u != r {
            let p = prev[u as usize];
            first[u as usize] = if p == r { u } else { first[p as usize] };
        }
        for &(v, lat, _) in &adj[u as usize] {
            let nd = d + lat;
            if nd < dist[v as usize] {
                dist[v as usize] = nd;
                prev[v as usize] = u;
                heap.push(Reverse((nd, v)));
            }
        }
    }
    for (d, slot) in row.iter_mut().enumerate() {
        if d == r as usize {
            continue;
        }
        let f = first[d];
        if f == u32::MAX {
            return Err(d as u32);
        }
        *slot = adj[r as usize]
            .iter()
            .find(|e| e.0 == f)
            .map_or(NONE, |e| e.2);
    }
    Ok(())
}

impl Routing for MinLatency<'_> {
    fn num_vcs(&self) -> u8 {
        1
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        let terminals = self.net.num_terminals();
        for t in [src, dst] {
            if t >= terminals {
                return Err(RoutingError::TerminalOutOfRange {
                    terminal: t,
                    terminals,
                });
            }
        }
        let s = self
            .net
            .injection_switch(src)
            .ok_or(RoutingError::TerminalOutOfRange {
                terminal: src,
                terminals,
            })?;
        Ok(PacketState::new(s))
    }

    fn next_hop(
        &self,
        at: u32,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        if at >= self.n {
            return Err(RoutingError::SwitchOutOfRange {
                switch: at,
                switches: self.n,
            });
        }
        let (ds, dp) = self
            .net
            .terminal_port(dst)
            .ok_or(RoutingError::TerminalOutOfRange {
                terminal: dst,
                terminals: self.net.num_terminals(),
            })?;
        if ds == at {
            return Ok(Hop::Eject { port: dp });
        }
        let port = self.next[at as usize * self.n as usize + ds as usize];
        if port == NONE {
            return Err(RoutingError::NoRoute {
                switch: at,
                terminal: dst,
            });
        }
        state.vc = 0;
        Ok(Hop::Forward { port, vc: 0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ports of the table as neighbour ids, for a 4-cycle 0-1-2-3-0 plus chord.
    fn next_router(adj: &[Vec<(u32, u64, u16)>], r: u32, d: u32) -> u32 {
        let mut row = vec![NONE; adj.len()];
        tree(adj, r, &mut row).unwrap();
        adj[r as usize]
            .iter()
            .find(|e| e.2 == row[d as usize])
            .unwrap()
            .0
    }

    #[test]
    fn ties_go_to_the_lowest_settled_router_and_latencies_count() {
        // Square 0-1-3-2-0 (ports numbered by neighbour order), all 1 cycle: from 0 to 3 both
        // 1 and 2 are at distance 1; 1 settles first and reaches 3 first.
        let link = |v: u32, l: u64, p: u16| (v, l, p);
        let mut adj = vec![
            vec![link(1, 1, 0), link(2, 1, 1)],
            vec![link(0, 1, 0), link(3, 1, 1)],
            vec![link(0, 1, 0), link(3, 1, 1)],
            vec![link(1, 1, 0), link(2, 1, 1)],
        ];
        assert_eq!(next_router(&adj, 0, 3), 1);
        assert_eq!(next_router(&adj, 3, 0), 1);
        // A slow channel 0 → 1 (5 cycles): 0 goes through 2, even to 1 (1 + 1 + 1 < 5).
        adj[0][0].1 = 5;
        assert_eq!(next_router(&adj, 0, 3), 2);
        assert_eq!(next_router(&adj, 0, 1), 2);
        // The reverse direction keeps its 1 cycle.
        assert_eq!(next_router(&adj, 1, 0), 0);
        // Disconnected: router 3 alone.
        let adj = vec![vec![link(1, 1, 0)], vec![link(0, 1, 0)], vec![]];
        let mut row = vec![NONE; 3];
        assert_eq!(tree(&adj, 0, &mut row), Err(2));
    }
}
