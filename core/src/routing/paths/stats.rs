//! Path statistics for all-to-all traffic: hop histogram and per-channel path counts (the
//! edge forwarding index is their maximum), with load summaries split by
//! [`LinkClass`]. Hops are router hops (docs/routing.md §8, \[DISS\] convention).

use crate::error::CapacityError;
use crate::topology::{LinkClass, Port, Topology};

use crate::routing::deadlock::channel::channel_index;
use crate::routing::error::RoutingError;
use crate::routing::paths::walk::walk;
use crate::routing::Routing;

/// Totals of an all-to-all walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PathStats {
    /// Ordered pairs of distinct terminals.
    pub pairs: u64,
    /// Sum of router hops over all pairs.
    pub total_hops: u64,
    /// Longest route in router hops.
    pub max_hops: u32,
}

/// Load summary over a set of channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LoadSummary {
    /// Directed network channels counted.
    pub channels: u64,
    /// Sum of their path counts.
    pub total: u64,
    /// Largest path count (edge forwarding index of the set).
    pub max: u64,
}

impl LoadSummary {
    /// Mean path count per channel (0 for an empty set). Integer inputs below 2^53 and IEEE
    /// division give the same value on every target.
    pub fn mean(&self) -> f64 {
        if self.channels == 0 {
            0.0
        } else {
            self.total as f64 / self.channels as f64
        }
    }
}

/// Routes every ordered pair of distinct terminals (all-to-all), counting router hops into
/// `hop_histogram` (entry `h` = pairs with `h` hops; it must be long enough for the longest
/// route) and paths per directed channel into `loads` (dense channel index, see
/// routing::deadlock::channel; `switches · radix` entries, zeroed first).
pub fn all_to_all<T: Topology, R: Routing + ?Sized>(
    topo: &T,
    routing: &R,
    hop_limit: u32,
    loads: &mut [u64],
    hop_histogram: &mut [u64],
) -> Result<PathStats, RoutingError> {
    let radix = topo.radix();
    let channels = topo.num_switches() as u64 * radix as u64;
    CapacityError::check("channel loads", channels, loads.len())?;
    let loads = &mut loads[..channels as usize];
    loads.fill(0);
    hop_histogram.fill(0);
    let mut st = PathStats::default();
    let nt = topo.num_terminals();
    for src in 0..nt {
        for dst in 0..nt {
            if src == dst {
                continue;
            }
            let hops = walk(topo, routing, src, dst, hop_limit, |s| {
                if let Some(l) = loads.get_mut(channel_index(radix, s.from, s.port)) {
                    *l += 1;
                }
            })?;
            let hist_len = hop_histogram.len();
            let slot = hop_histogram
                .get_mut(hops as usize)
                .ok_or(RoutingError::Capacity(CapacityError {
                    what: "hop histogram",
                    needed: hops as u64 + 1,
                    available: hist_len as u64,
                }))?;
            *slot += 1;
            st.pairs += 1;
            st.total_hops += hops as u64;
            st.max_hops = st.max_hops.max(hops);
        }
    }
    Ok(st)
}

/// Summarises `loads` (from [`all_to_all`]) over the network channels of `topo` whose link
/// class is `class` (all network channels when `None`).
pub fn load_summary<T: Topology>(topo: &T, loads: &[u64], class: Option<LinkClass>) -> LoadSummary {
    let radix = topo.radix();
    let mut sum = LoadSummary::default();
    for s in 0..topo.num_switches() {
        for p in 0..radix {
            if let Port::Link(l) = topo.port(s, p) {
                if class.is_some_and(|c| c != l.class) {
                    continue;
                }
                let v = loads.get(channel_index(radix, s, p)).copied().unwrap_or(0);
                sum.channels += 1;
                sum.total += v;
                sum.max = sum.max.max(v);
            }
        }
    }
    sum
}

/// Writes one [`LoadSummary`] per distinct link class of `topo` (in order of first
/// appearance, switch by switch and port by port) into `out`; returns how many were written.
pub fn load_by_class<T: Topology>(
    topo: &T,
    loads: &[u64],
    out: &mut [(LinkClass, LoadSummary)],
) -> Result<usize, RoutingError> {
    let radix = topo.radix();
    let mut used = 0usize;
    for s in 0..topo.num_switches() {
        for p in 0..radix {
            if let Port::Link(l) = topo.port(s, p) {
                let v = loads.get(channel_index(radix, s, p)).copied().unwrap_or(0);
                let idx = match out[..used].iter().position(|(c, _)| *c == l.class) {
                    Some(i) => i,
                    None => {
                        CapacityError::check("link classes", used as u64 + 1, out.len())?;
                        out[used] = (l.class, LoadSummary::default());
                        used += 1;
                        used - 1
                    }
                };
                let e = &mut out[idx].1;
                e.channels += 1;
                e.total += v;
                e.max = e.max.max(v);
            }
        }
    }
    Ok(used)
}
