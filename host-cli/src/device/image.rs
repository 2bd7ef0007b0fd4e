//! Device images from the command line's inputs: a topology, a routing and collectives,
//! built with the same builders as `jumpnet route` and `jumpnet sched`
//! (`crate::build`, `crate::commands::route::compile`), encoded with
//! `jumpnet_core::image::device`.

use anyhow::{anyhow, bail, Result};
use jumpnet_core::collective::{Blocks, Dep, Op, Schedule};
use jumpnet_core::image::device::{self, DeviceContent, ProgramEntry, RoutingAlgorithm};
use jumpnet_core::routing::RouteEntry;
use jumpnet_core::topology::{Network, Topology};

use crate::build::network::OwnedNetwork;
use crate::build::routing::{self, RouteAlgo, RouteOptions, RouteStore};
use crate::build::schedule::OwnedSchedule;

/// A device image and the host's view of what it holds.
#[derive(Debug, Clone)]
pub struct BuiltImage {
    /// The image bytes.
    pub bytes: Vec<u8>,
    /// The switch's route entry of every destination, as the host computed it.
    pub table: Vec<RouteEntry>,
    /// Programs in the image.
    pub programs: Vec<ProgramEntry>,
    /// Runs of the table.
    pub runs: usize,
}

/// The algorithm recorded in the image header for `algo` on `net`.
pub fn recorded_algorithm(algo: RouteAlgo, net: &Network<'_>) -> RoutingAlgorithm {
    match (algo, net) {
        (RouteAlgo::Minimal, _) => RoutingAlgorithm::MinimalBfs,
        (RouteAlgo::Dor, Network::Torus(_)) => RoutingAlgorithm::TorusDor,
        (RouteAlgo::Dor, Network::HyperX(_)) => RoutingAlgorithm::HyperXDor,
        (RouteAlgo::Dor | RouteAlgo::Ecube, Network::Hypercube(_)) => RoutingAlgorithm::Ecube,
        (RouteAlgo::Greedy, _) => RoutingAlgorithm::CirculantGreedy,
        (RouteAlgo::Naf, _) => RoutingAlgorithm::CirculantNaf,
        (RouteAlgo::Dmodk, _) => RoutingAlgorithm::FatTreeDmodK,
        (RouteAlgo::DfMinimal1vc, _) => RoutingAlgorithm::DragonflyMinimal,
        _ => RoutingAlgorithm::Precomputed,
    }
}

/// Builds the device image of `switch`: its forwarding table under `route` and, for every
/// collective, the programs of the ranks placed on the switch's terminals (rank `r` on
/// terminal `r` unless the schedule was placed on the topology).
pub fn build(
    owned: &OwnedNetwork,
    switch: u32,
    route: &RouteOptions,
    collectives: &[OwnedSchedule],
) -> Result<BuiltImage> {
    let net = owned.network();
    let switches = net.num_switches();
    if switch >= switches {
        bail!("--switch {switch} is out of range: the topology has switches 0..{switches}");
    }
    let spec = owned.spec().network_spec().cloned().ok_or_else(|| {
        anyhow!("device images need a structured topology (not an edge list or random graph)")
    })?;
    let mut store = RouteStore::default();
    let (routing, _) = routing::build(&net, route, &mut store)?;
    let tables = crate::commands::route::compile(&net, &*routing, false)?;
    let set = tables.routes()?;
    let table = set
        .table(switch)
        .ok_or_else(|| anyhow!("no table for switch {switch}"))?;
    let host: Vec<RouteEntry> = (0..table.len())
        .map(|d| table.lookup(d).unwrap_or(RouteEntry::NONE))
        .collect();
    let mut programs = Vec::new();
    let mut ops = Vec::new();
    for (c, owned_schedule) in collectives.iter().enumerate() {
        let schedule = owned_schedule.schedule()?;
        for rank in 0..schedule.ranks() {
            let terminal = owned_schedule
                .terminals
                .as_ref()
                .and_then(|t| t.get(rank as usize).copied())
                .unwrap_or(rank);
            if net.terminal_switch(terminal) != Some(switch) {
                continue;
            }
            let blank = Op::Send {
                peer: 0,
                blocks: Blocks::All,
                after: Dep::None,
            };
            let mut buf = vec![blank; schedule.program_len(rank)];
            let n = schedule
                .program(rank, &mut buf)
                .map_err(|e| anyhow!("program of rank {rank}: {e}"))?;
            programs.push(ProgramEntry {
                collective: c as u32,
                terminal,
                rank,
                ranks: schedule.ranks(),
                ops: n as u32,
            });
            ops.extend_from_slice(&buf[..n]);
        }
    }
    let content = DeviceContent {
        switch,
        network: &spec,
        algorithm: recorded_algorithm(route.algo, &net),
        table,
        programs: &programs,
        ops: &ops,
    };
    let mut bytes = vec![0u8; device::max_image_len(table.runs().len(), programs.len(), ops.len())];
    let len = device::encode(&content, &mut bytes).map_err(|e| anyhow!("{e}"))?;
    bytes.truncate(len);
    Ok(BuiltImage {
        bytes,
        table: host,
        programs,
        runs: table.runs().len(),
    })
}
