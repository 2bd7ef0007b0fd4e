//! Images for devices: the device image of one switch from a topology, a routing and
//! collectives ([`build`], [`build_device_image`] for a [`DeviceImageRequest`]), built
//! with the same builders as `jumpnet route` and `jumpnet sched` (`crate::builder`,
//! `crate::builder::route_tables::compile`) and encoded with `jumpnet_core::image::device`;
//! and per-rank program images ([`program_image_bytes`], [`export_program`],
//! [`export_programs`]).

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use jumpnet_core::collective::{Blocks, Dep, Op, Schedule};
use jumpnet_core::image::device::{self, DeviceContent, ProgramEntry, RoutingAlgorithm};
use jumpnet_core::image::program as program_image;
use jumpnet_core::routing::RouteEntry;
use jumpnet_core::topology::{Network, Topology};

use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{self, RouteAlgo, RouteOptions, RouteStore};
use crate::builder::schedule::{
    self, program_of, Algorithm, CollectiveRequest, JobPlacement, OwnedSchedule,
};
use crate::builder::topology::TopologySpec;
use crate::io::outdir::OutDir;

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
    let tables = crate::builder::route_tables::compile(&net, &*routing, false)?;
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

/// What goes into a switch's device image (`jumpnet device image`).
#[derive(Clone, Debug)]
pub struct DeviceImageRequest {
    /// The topology (a structured family).
    pub topology: TopologySpec,
    /// The routing.
    pub route: RouteOptions,
    /// The switch the device is.
    pub switch: u32,
    /// Collectives whose programs the switch's terminals run, rank `r` on terminal `r`.
    pub collectives: Vec<Algorithm>,
    /// Ranks of the collectives (default: every terminal).
    pub ranks: Option<u32>,
    /// Message size of the collectives, bytes.
    pub bytes: u64,
    /// Element size of reductions, bytes.
    pub elem_bytes: u32,
}

/// Builds the device image `req` describes, with the host's table.
///
/// # Examples
///
/// ```
/// use jumpnet::builder::image::{build_device_image, DeviceImageRequest};
/// use jumpnet::builder::routing::{RouteAlgo, RouteOptions};
/// use jumpnet::builder::schedule::Algorithm;
/// use jumpnet::builder::topology::TopologySpec;
///
/// let image = build_device_image(&DeviceImageRequest {
///     topology: TopologySpec::parse(&["torus".into(), "k=4,4".into()]).unwrap(),
///     route: RouteOptions { algo: RouteAlgo::Dor, max_layers: 8, seed: 1 },
///     switch: 5,
///     collectives: vec![Algorithm::Bcast, Algorithm::Allreduce],
///     ranks: None,
///     bytes: 1024,
///     elem_bytes: 4,
/// })
/// .unwrap();
/// // A route to each of the 16 terminals; one program per collective for terminal 5.
/// assert_eq!(image.table.len(), 16);
/// assert_eq!(image.programs.len(), 2);
/// assert!(image.programs.iter().all(|p| (p.terminal, p.rank, p.ranks) == (5, 5, 16)));
/// ```
pub fn build_device_image(req: &DeviceImageRequest) -> Result<BuiltImage> {
    let owned = OwnedNetwork::build(&req.topology)?;
    let terminals = owned.network().num_terminals();
    let mut schedules = Vec::new();
    for &algorithm in &req.collectives {
        let sched = CollectiveRequest {
            algorithm,
            ranks: Some(req.ranks.unwrap_or(terminals)),
            root: 0,
            bytes: req.bytes,
            elem_bytes: req.elem_bytes,
            placement: JobPlacement::Consecutive,
            seed: 1,
        };
        let needs = algorithm.needs_topology();
        schedules.push(schedule::build(&sched, needs.then_some(&owned))?);
    }
    build(&owned, req.switch, &req.route, &schedules)
}

/// Program image bytes of `rank`.
pub fn program_image_bytes<S: Schedule>(s: &S, rank: u32) -> Result<Vec<u8>> {
    let ops = program_of(s, rank)?;
    let mut buf = vec![0u8; program_image::max_image_len(ops.len())];
    let len = program_image::encode(rank, s.ranks(), &ops, &mut buf)?;
    buf.truncate(len);
    Ok(buf)
}

/// Writes the program image of `rank` to the file `out` (atomically). Returns its bytes.
pub fn export_program(owned: &OwnedSchedule, rank: u32, out: &Path) -> Result<u64> {
    let bytes = program_image_bytes(&owned.schedule()?, rank)?;
    crate::io::output::write_atomic(out, &bytes)?;
    Ok(bytes.len() as u64)
}

/// Writes one `rank-NNNNN.jnpg` per rank into the claimed output directory (built in its
/// staging directory and moved into place whole, so a failure or an interrupt leaves
/// nothing half-written). Returns (files, bytes).
pub fn export_programs(owned: &OwnedSchedule, mut out: OutDir) -> Result<(u32, u64)> {
    let s = owned.schedule()?;
    let staging = out.staging()?;
    let mut total = 0u64;
    for r in 0..s.ranks() {
        let bytes = program_image_bytes(&s, r)?;
        total += bytes.len() as u64;
        let file = staging.join(format!("rank-{r:05}.jnpg"));
        std::fs::write(&file, &bytes).with_context(|| {
            format!(
                "cannot write {} (for {})",
                file.display(),
                out.path().display()
            )
        })?;
    }
    out.commit()?;
    Ok((s.ranks(), total))
}
