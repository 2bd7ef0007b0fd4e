//! DFSSSP — deadlock-free single-source shortest-path routing (docs/routing.md §6; Domke,
//! Hoefler, Nagel, IPDPS 2011; OpenSM `dfsssp`).
//!
//! 1. Paths ([`paths`]): channel weights start at `P²` (P = number of terminals) so routes
//!    stay minimal; for every destination terminal in ascending order a Dijkstra on reversed
//!    channels (ties: smaller weight, then fewer hops, then lower output port) gives every
//!    switch's next hop, then every channel on a path from a source terminal gains +1.
//! 2. Layers ([`layers`]): every (source switch, destination terminal) path starts in layer
//!    0; while layer `v`'s channel dependency graph has a cycle, the paths inducing the
//!    cycle's weakest edge (fewest paths) move to layer `v + 1`. The layer count must stay
//!    within the configured VL limit; spare VLs are then shared out by splitting the most
//!    loaded layers (OpenSM balancing).
//!
//! Routes depend on (switch, destination terminal); layers on (source switch, destination
//! terminal). PARX (docs/routing.md §7, routing::parx) reuses both phases: the Dijkstra
//! takes a link filter and the layer phase works on virtual destinations (LIDs). All
//! storage is caller-provided ([`DfssspBuffers`], sized by [`DfssspSizes::of`]); the host
//! passes `Vec`-backed slices.

mod heap;
pub mod layers;
pub mod paths;

use crate::error::{CapacityError, InvalidParam};
use crate::topology::{PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::deadlock::cycle::Frame;
use crate::routing::error::RoutingError;
use crate::routing::tables::run_table::RouteEntry;
use crate::routing::tables::table_routing::{hop_from_entry, inject_on_layer};
use crate::routing::{Hop, PacketState, Routing};
use layers::LayerBuffers;
use paths::PathBuffers;

/// Largest number of virtual layers DFSSSP assigns or searches (InfiniBand has at most 15
/// data VLs).
pub const MAX_LAYERS: usize = 16;

/// DFSSSP parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DfssspConfig {
    /// Virtual layers available (1..=16; \[HX\] hardware: 8).
    pub max_layers: u8,
    /// Spread paths over spare layers after deadlock removal (OpenSM balancing).
    pub balance: bool,
    /// Initial channel weight; `None` = `P²` as specified (at least 1).
    pub base_weight: Option<u64>,
}

impl Default for DfssspConfig {
    fn default() -> Self {
        DfssspConfig {
            max_layers: 8,
            balance: true,
            base_weight: None,
        }
    }
}

/// Entry counts of every [`DfssspBuffers`] buffer for one topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DfssspSizes {
    /// `weights` (directed channels = switches · radix).
    pub weights: usize,
    /// `dist` (switches).
    pub dist: usize,
    /// `scratch` (10 · switches + 1).
    pub scratch: usize,
    /// `next_port` and `layer` (terminals · switches).
    pub per_path: usize,
    /// `tree` (3 · terminals · switches).
    pub tree: usize,
    /// `dep_count` (channels · radix).
    pub dep_count: usize,
    /// `by_channel` (terminals · switches).
    pub by_channel: usize,
    /// `channel_start` (channels + 1).
    pub channel_start: usize,
    /// `color` and `stack` (channels).
    pub channels: usize,
}

impl DfssspSizes {
    /// Sizes for `topo`.
    pub fn of<T: Topology>(topo: &T) -> Self {
        let n = topo.num_switches() as usize;
        let nt = topo.num_terminals() as usize;
        let r = topo.radix() as usize;
        DfssspSizes {
            weights: n * r,
            dist: n,
            scratch: 10 * n + 1,
            per_path: nt * n,
            tree: 3 * nt * n,
            dep_count: n * r * r,
            by_channel: nt * n,
            channel_start: n * r + 1,
            channels: n * r,
        }
    }

    /// Total bytes of all buffers.
    pub fn bytes(&self) -> usize {
        self.weights * 8
            + self.dist * 8
            + self.scratch * 4
            + self.per_path * 3
            + self.tree * 4
            + self.dep_count * 4
            + self.by_channel * 4
            + self.channel_start * 4
            + self.channels * (4 + core::mem::size_of::<Frame>())
    }
}

/// Caller-provided buffers of [`dfsssp`] and [`parx`](crate::routing::parx::parx) (lengths from
/// [`DfssspSizes::of`] / [`DfssspSizes::of_parx`]; longer is fine).
#[derive(Debug)]
pub struct DfssspBuffers<'a> {
    /// Channel weights.
    pub weights: &'a mut [u64],
    /// Dijkstra distances.
    pub dist: &'a mut [u64],
    /// Per-switch scratch arrays.
    pub scratch: &'a mut [u32],
    /// Output: next port per (destination terminal, switch).
    pub next_port: &'a mut [PortIndex],
    /// Output: layer per (destination terminal, source switch).
    pub layer: &'a mut [u8],
    /// Path trees (preorder, position, subtree size per destination).
    pub tree: &'a mut [u32],
    /// Dependency counts of the layer being processed.
    pub dep_count: &'a mut [u32],
    /// Destinations routed through each channel, grouped by channel.
    pub by_channel: &'a mut [u32],
    /// Start of each channel's group in `by_channel`.
    pub channel_start: &'a mut [u32],
    /// Cycle search marks.
    pub color: &'a mut [u32],
    /// Cycle search stack.
    pub stack: &'a mut [Frame],
}

impl DfssspBuffers<'_> {
    /// Checks every buffer against `s`.
    pub(crate) fn check(&self, s: &DfssspSizes) -> Result<(), RoutingError> {
        CapacityError::check("DFSSSP weights", s.weights as u64, self.weights.len())?;
        CapacityError::check("DFSSSP dist", s.dist as u64, self.dist.len())?;
        CapacityError::check("DFSSSP scratch", s.scratch as u64, self.scratch.len())?;
        CapacityError::check("DFSSSP next_port", s.per_path as u64, self.next_port.len())?;
        CapacityError::check("DFSSSP layer", s.per_path as u64, self.layer.len())?;
        CapacityError::check("DFSSSP tree", s.tree as u64, self.tree.len())?;
        CapacityError::check("DFSSSP dep_count", s.dep_count as u64, self.dep_count.len())?;
        CapacityError::check(
            "DFSSSP by_channel",
            s.by_channel as u64,
            self.by_channel.len(),
        )?;
        CapacityError::check(
            "DFSSSP channel_start",
            s.channel_start as u64,
            self.channel_start.len(),
        )?;
        CapacityError::check("DFSSSP color", s.channels as u64, self.color.len())?;
        CapacityError::check("DFSSSP stack", s.channels as u64, self.stack.len())?;
        Ok(())
    }
}

/// What DFSSSP did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DfssspReport {
    /// Paths (source switch with terminals, destination terminal elsewhere).
    pub paths: u64,
    /// Layers needed to break every dependency cycle.
    pub layers_needed: u8,
    /// Layers used after balancing (= `layers_needed` without balancing).
    pub layers_used: u8,
    /// Paths per layer after balancing (entries `layers_used..` are 0).
    pub paths_per_layer: [u64; MAX_LAYERS],
    /// Cycles broken.
    pub cycles_broken: u64,
    /// Paths moved to a higher layer while breaking cycles.
    pub paths_moved: u64,
    /// Largest channel weight at the end (initial weight plus paths).
    pub max_weight: u64,
}

/// DFSSSP routes and layers (borrowing the output buffers); a [`Routing`] whose VC is the
/// path's layer.
#[derive(Clone, Copy, Debug)]
pub struct DfssspRouting<'a, T> {
    topo: &'a T,
    n: u32,
    next_port: &'a [PortIndex],
    layer: &'a [u8],
    num_vcs: u8,
}

impl<'a, T: Topology> DfssspRouting<'a, T> {
    /// Forwarding entry of switch `at` toward terminal `dst`.
    pub fn entry(&self, at: SwitchId, dst: TerminalId) -> RouteEntry {
        let i = dst as usize * self.n as usize + at as usize;
        match self.next_port.get(i) {
            Some(&port) if at < self.n => RouteEntry { port, vc: 0 },
            _ => RouteEntry::NONE,
        }
    }

    /// Layer of the path from switch `src` to terminal `dst`.
    pub fn layer(&self, src: SwitchId, dst: TerminalId) -> Option<u8> {
        if src >= self.n {
            return None;
        }
        self.layer
            .get(dst as usize * self.n as usize + src as usize)
            .copied()
    }
}

impl<T: Topology> Routing for DfssspRouting<'_, T> {
    fn num_vcs(&self) -> u8 {
        self.num_vcs
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        inject_on_layer(self.topo, src, dst, |s| {
            self.layer(s, dst).ok_or(RoutingError::NoRoute {
                switch: s,
                terminal: dst,
            })
        })
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let entry = Some(self.entry(at, dst));
        hop_from_entry(self.topo, at, dst, entry, state, |_, st| st.layer)
    }
}

/// Runs DFSSSP on `topo` (docs/routing.md §6): minimal balanced routes, then virtual layers
/// without dependency cycles, at most `config.max_layers` of them (else
/// [`RoutingError::TooManyLayers`] naming the count needed).
pub fn dfsssp<'a, T: Topology>(
    topo: &'a T,
    config: &DfssspConfig,
    buffers: DfssspBuffers<'a>,
) -> Result<(DfssspRouting<'a, T>, DfssspReport), RoutingError> {
    if config.max_layers == 0 || config.max_layers as usize > MAX_LAYERS {
        return Err(RoutingError::Invalid(InvalidParam {
            param: "max_layers",
            value: config.max_layers as u64,
            rule: "DFSSSP supports 1 to 16 virtual layers",
        }));
    }
    let sizes = DfssspSizes::of(topo);
    buffers.check(&sizes)?;
    let dests = layers::Destinations {
        topo,
        per_terminal: 1,
    };
    let (next_port, layer, report) = run_phases(dests, config, buffers, sizes.per_path, |bufs| {
        paths::compute(topo, config, bufs)
    })?;
    let n = topo.num_switches();
    Ok((
        DfssspRouting {
            topo,
            n,
            next_port,
            layer,
            num_vcs: report.layers_used.max(1),
        },
        report,
    ))
}

/// Both phases on `buffers` (checked against the sizes beforehand): `paths` fills the next
/// ports and path trees (DFSSSP's or PARX's path computation) and returns the largest
/// channel weight, then the layer phase assigns every path of `dests` a layer. Returns the
/// next ports and layers (`per_path` entries each) and the report.
pub(crate) fn run_phases<'a, T: Topology>(
    dests: layers::Destinations<'_, T>,
    config: &DfssspConfig,
    buffers: DfssspBuffers<'a>,
    per_path: usize,
    paths: impl FnOnce(PathBuffers<'_>) -> Result<u64, RoutingError>,
) -> Result<(&'a [PortIndex], &'a [u8], DfssspReport), RoutingError> {
    let DfssspBuffers {
        weights,
        dist,
        scratch,
        next_port,
        layer,
        tree,
        dep_count,
        by_channel,
        channel_start,
        color,
        stack,
    } = buffers;
    let max_weight = paths(PathBuffers {
        weights,
        dist,
        scratch: &mut *scratch,
        next_port: &mut *next_port,
        tree: &mut *tree,
    })?;
    let next_port: &'a [PortIndex] = next_port;
    let index = layers::ChannelIndex::build(dests, next_port, by_channel, channel_start)?;
    let mut report = layers::assign(
        dests,
        config,
        next_port,
        &index,
        LayerBuffers {
            layer: &mut *layer,
            tree,
            scratch,
            dep_count,
            color,
            stack,
        },
    )?;
    report.max_weight = max_weight;
    let layer: &'a [u8] = layer;
    Ok((
        next_port.get(..per_path).unwrap_or(&[]),
        layer.get(..per_path).unwrap_or(&[]),
        report,
    ))
}
