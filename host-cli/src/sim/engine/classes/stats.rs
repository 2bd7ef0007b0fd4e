//! The statistics of each traffic class over a measurement window (BookSim2's per-class
//! blocks, docs/booksim.md §3.5).

use serde::Serialize;

use crate::sim::engine::node_counts::NodeRates;
use crate::sim::engine::stats::LatencyStats;
use crate::sim::engine::{Counters, State};

/// Statistics of one traffic class (`SimResult::classes`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassStats {
    /// Packet latency of the class's measured packets.
    pub packet_latency: LatencyStats,
    /// Network latency.
    pub network_latency: LatencyStats,
    /// Flit latency (BookSim2's population, as the run's own).
    pub flit_latency: LatencyStats,
    /// Router-to-router hops.
    pub hops: LatencyStats,
    /// BookSim2's fragmentation of the class's measured packets.
    pub fragmentation: LatencyStats,
    /// Offered load of the class, flits/node/cycle.
    pub offered: f64,
    /// Accepted throughput of the class, flits/node/cycle.
    pub accepted: f64,
    /// The class's injected and accepted packet and flit rates (BookSim2's).
    pub rates: NodeRates,
    /// The class's packet size, flits (the longest of a size distribution; the sizes sent are
    /// in `rates`).
    pub packet_size: u16,
}

impl State<'_> {
    /// Flits of class `c` ejected up to the snapshot `at` (all flits with one class).
    pub(crate) fn class_ejected(&self, at: &Counters, c: usize) -> u64 {
        if self.classes.is_none() {
            return at.ejected;
        }
        self.nodes.accepted_flits(&at.nodes, c)
    }

    /// The statistics of every class over the window `start..end` (empty with one class).
    pub(crate) fn class_stats(&self, start: &Counters, end: &Counters) -> Vec<ClassStats> {
        let Some(cl) = self.classes.as_deref().filter(|cl| cl.listed) else {
            return Vec::new();
        };
        let cycles = end.cycle.saturating_sub(start.cycle).max(1) as f64;
        let nodes = f64::from(self.fabric.terminals);
        let rate = |e: &[u64], s: &[u64], c: usize| {
            (e.get(c).copied().unwrap_or(0) - s.get(c).copied().unwrap_or(0)) as f64
                / nodes
                / cycles
        };
        (0..cl.len())
            .map(|c| {
                let r = &cl.recs[c];
                let rates = self.nodes.rates(
                    &start.nodes,
                    &end.nodes,
                    Some(c),
                    end.cycle.saturating_sub(start.cycle),
                );
                ClassStats {
                    packet_latency: r.packet_summary(),
                    network_latency: r.network_summary(),
                    flit_latency: r.flit_summary(),
                    hops: r.hops_summary(),
                    fragmentation: r.fragmentation_summary(),
                    // BookSim2's sources: the configured rate (their packets fall short
                    // of it past saturation).
                    offered: cl
                        .class_booksim_offered(c)
                        .unwrap_or_else(|| rate(&end.class_gen, &start.class_gen, c)),
                    accepted: rates.accepted_flits.mean,
                    rates,
                    packet_size: cl.sizes[c],
                }
            })
            .collect()
    }
}
