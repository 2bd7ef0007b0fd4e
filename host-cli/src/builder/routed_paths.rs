//! Precomputed deterministic routes between every pair of nodes: the path oracle of the
//! GA's contention proxy (torus DOR) and of the channel-aware placement objectives
//! (docs/mapping.md §2).

use anyhow::{Context, Result};

use jumpnet_core::mapping::{ChannelId, NodeId, PathOracle};
use jumpnet_core::routing::{self, deadlock::channel::channel_index, paths::walk};
use jumpnet_core::topology::Topology;

/// The channels of every route between two nodes, precomputed (a [`PathOracle`] over
/// core's routing).
#[derive(Debug)]
pub struct RoutedPaths {
    n: u32,
    channels: u32,
    start: Vec<u32>,
    list: Vec<ChannelId>,
}

impl RoutedPaths {
    /// Routes every ordered pair of terminals of `topo` with `routing`.
    pub fn build<T: Topology>(topo: &T, routing: &dyn routing::Routing) -> Result<Self> {
        let all: Vec<u32> = (0..topo.num_terminals()).collect();
        Self::between(topo, routing, &all)
    }

    /// Routes every ordered pair of `endpoints` (terminals of `topo`) with `routing`; the
    /// oracle's node `i` is `endpoints[i]`.
    pub fn between<T: Topology>(
        topo: &T,
        routing: &dyn routing::Routing,
        endpoints: &[u32],
    ) -> Result<Self> {
        let n = endpoints.len();
        let radix = topo.radix();
        let limit = routing::default_hop_limit(topo);
        let mut start = Vec::with_capacity(n * n + 1);
        let mut list = Vec::new();
        for &a in endpoints {
            for &b in endpoints {
                start.push(list.len() as u32);
                if a != b {
                    walk::walk(topo, routing, a, b, limit, |s| {
                        list.push(channel_index(radix, s.from, s.port) as ChannelId)
                    })
                    .with_context(|| format!("routing {a} -> {b}"))?;
                }
            }
        }
        start.push(list.len() as u32);
        Ok(RoutedPaths {
            n: n as u32,
            channels: topo.num_switches() * radix as u32,
            start,
            list,
        })
    }
}

impl PathOracle for RoutedPaths {
    fn num_channels(&self) -> u32 {
        self.channels
    }

    fn for_each_channel<F: FnMut(ChannelId)>(&self, a: NodeId, b: NodeId, mut f: F) {
        if a >= self.n || b >= self.n {
            return;
        }
        let i = a as usize * self.n as usize + b as usize;
        for &c in &self.list[self.start[i] as usize..self.start[i + 1] as usize] {
            f(c);
        }
    }
}
