//! The HIL driver: the reference run (every engine in process), then the run with the
//! chosen nodes' engines replaced, traced and compared event by event with the reference
//! (or with a recorded trace, `--check`).

use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use jumpnet_core::collective::{Op, Rank, Schedule};
use jumpnet_core::exec::timing::TimedExecutor;
use jumpnet_core::exec::OpStatus;
use jumpnet_core::topology::Topology;
use serde::Serialize;

use super::device_engine::{DeviceEngine, DeviceSetup};
use super::engines::{ClockedEngine, ImageCoreEngine};
use super::images::{self, NodeImage};
use super::switch_route::{self, AtSwitch, ForwardingStage, HeadCounter, InProcess};
use super::trace::{Divergence, Recorder, RunKey, TraceEvent};
use crate::builder::routing::{self, RouteStore};
use crate::commands::sim::Setup;
use crate::commands::sim_collective::{self, CollectiveArgs};
use crate::sim::workload::collective::{run_collective_with, CollectiveError, CollectiveRun};
use crate::sim::workload::nic_engine::NicEngine;
use crate::sim::workload::nic_engine::RunHooks;

/// What runs the chosen nodes' NIC engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EngineKind {
    /// The firmware under QEMU, one instance per rank of each node (reference: core's
    /// Executor).
    Device,
    /// The schedule-engine RTL under Verilator (needs the `rtl` cargo feature; reference:
    /// core's TimedExecutor, the timing contract).
    Rtl,
    /// The in-process Executor over the program read from the node's image (no hardware;
    /// reference: core's Executor).
    Core,
}

impl EngineKind {
    fn clocked(self) -> bool {
        self == EngineKind::Rtl
    }
}

/// A HIL run.
#[derive(Debug)]
pub struct HilRequest<'a> {
    /// Topology, routing and simulator configuration (as `jumpnet sim`).
    pub setup: &'a Setup,
    /// The collective (as `jumpnet sim --collective`).
    pub collective: &'a CollectiveArgs,
    /// Nodes (switches) whose ranks run on `engine`.
    pub nodes: Vec<u32>,
    /// The engine.
    pub engine: EngineKind,
    /// Devices (`EngineKind::Device` only).
    pub device: Option<DeviceSetup>,
    /// Compare with this recorded trace instead of the reference run's.
    pub expected: Option<(RunKey, Vec<TraceEvent>)>,
    /// Testing aid: make the first node's image send to a wrong peer.
    pub mutate: bool,
    /// Switch whose forwarding stage runs on the table router RTL (feature `rtl`).
    pub rtl_router: Option<u32>,
    /// Testing aid: a wrong port in that switch's table (the first destination the
    /// reference forwards there).
    pub mutate_rtl_table: bool,
}

/// Wall time and size of one run.
#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    /// Makespan in cycles (0 when the run stopped early).
    pub makespan_cycles: u64,
    /// Traced events.
    pub events: usize,
    /// Wall-clock seconds of the simulation.
    pub wall_seconds: f64,
}

/// Result of a HIL run.
#[derive(Debug, Serialize)]
pub struct HilReport {
    /// The run (the trace file's header).
    pub run: RunKey,
    /// The engine.
    pub engine: EngineKind,
    /// What the run was compared with.
    pub compared_with: String,
    /// The in-process reference run.
    pub reference: RunSummary,
    /// The run with the nodes' engines replaced.
    pub hil: RunSummary,
    /// Seconds spent starting and flashing devices / loading RTL before the run.
    pub setup_seconds: f64,
    /// HIL wall time over the reference's (pure simulation).
    pub slowdown: f64,
    /// Exec requests sent to the devices during the run (device engines).
    pub device_round_trips: u64,
    /// The deliberate program change, if any.
    pub mutation: Option<String>,
    /// The switch routed by the table router RTL, if any.
    pub rtl_router: Option<RtlRouterSummary>,
    /// The first divergence (exit status 1), if any.
    pub divergence: Option<Divergence>,
    /// The HIL run's trace (for `--record`).
    #[serde(skip)]
    pub trace: Vec<TraceEvent>,
}

/// The switch whose forwarding stage ran on the table router RTL.
#[derive(Clone, Debug, Serialize)]
pub struct RtlRouterSummary {
    /// The switch.
    pub switch: u32,
    /// Runs of its compiled table loaded into the RTL.
    pub table_runs: usize,
    /// Head flits the in-process routing routed at the switch in the reference run.
    pub reference_heads: u64,
    /// Head flits the RTL routed (looked up and moved) in the HIL run.
    pub rtl_lookups: u64,
    /// The deliberate table change, if any.
    pub mutation: Option<String>,
    /// The first head flit the RTL routed differently from the reference (exit status 1).
    pub hop_difference: Option<String>,
}

impl HilReport {
    /// The first head flit the RTL router routed differently from the reference, if any.
    pub fn hop_difference(&self) -> Option<&str> {
        self.rtl_router.as_ref()?.hop_difference.as_deref()
    }
}

/// Storage of the reference's clocked engines (they borrow programs and status).
struct TimedStore {
    ranks: Vec<Rank>,
    programs: Vec<Vec<Op>>,
    status: Vec<Vec<OpStatus>>,
}

impl TimedStore {
    fn engines(&mut self) -> Vec<(Rank, Box<dyn NicEngine + '_>)> {
        self.ranks
            .iter()
            .zip(self.programs.iter())
            .zip(self.status.iter_mut())
            .map(|((&r, p), s)| {
                let timed = TimedExecutor::new(p, s);
                let e: Box<dyn NicEngine + '_> = Box::new(ClockedEngine::new(
                    format!("reference TimedExecutor of rank {r}"),
                    timed,
                    p,
                ));
                (r, e)
            })
            .collect()
    }
}

/// Builds the HIL engines of `images` (devices are started and flashed here).
fn hil_engines(
    req: &HilRequest<'_>,
    images: &[NodeImage],
) -> Result<Vec<(Rank, Box<dyn NicEngine>)>> {
    let mut out: Vec<(Rank, Box<dyn NicEngine>)> = Vec::new();
    for img in images {
        for p in &img.programs {
            let name = format!(
                "{:?} engine of node {} rank {}",
                req.engine, img.node, p.rank
            )
            .to_lowercase();
            let engine: Box<dyn NicEngine> = match req.engine {
                EngineKind::Core => Box::new(
                    ImageCoreEngine::new(p.ops.clone()).map_err(|e| anyhow!("{name}: {e}"))?,
                ),
                EngineKind::Device => {
                    let setup = req
                        .device
                        .as_ref()
                        .ok_or_else(|| anyhow!("device engines need a device setup"))?;
                    Box::new(DeviceEngine::start(
                        name, setup, &img.bytes, p.index, &p.ops,
                    )?)
                }
                EngineKind::Rtl => rtl_engine(name, &p.ops)?,
            };
            out.push((p.rank, engine));
        }
    }
    Ok(out)
}

#[cfg(feature = "rtl")]
fn rtl_engine(name: String, program: &[Op]) -> Result<Box<dyn NicEngine>> {
    Ok(Box::new(super::rtl::engine(name, program)?))
}

#[cfg(feature = "rtl")]
fn rtl_switch<'a>(
    net: &'a jumpnet_core::topology::Network<'a>,
    switch: u32,
    runs: &[jumpnet_core::routing::Run<jumpnet_core::routing::RouteEntry>],
) -> Result<Box<dyn ForwardingStage + 'a>> {
    Ok(Box::new(super::rtl_router::RtlStage::new(
        net, switch, runs,
    )?))
}

#[cfg(not(feature = "rtl"))]
fn rtl_switch<'a>(
    _: &'a jumpnet_core::topology::Network<'a>,
    _: u32,
    _: &[jumpnet_core::routing::Run<jumpnet_core::routing::RouteEntry>],
) -> Result<Box<dyn ForwardingStage + 'a>> {
    bail!(
        "--rtl-router needs a jumpnet built with the `rtl` feature (and verilator): \
         cargo run --features rtl -- hil ..."
    )
}

#[cfg(not(feature = "rtl"))]
fn rtl_engine(_: String, _: &[Op]) -> Result<Box<dyn NicEngine>> {
    bail!(
        "--engine rtl needs a jumpnet built with the `rtl` feature (and verilator): \
         cargo run --features rtl -- hil ..."
    )
}

/// The RTL router at switch `s` loaded with its compiled table (with the testing aid's wrong
/// entry at the first destination `counter` saw forwarded there), and its summary so far.
fn rtl_router_setup<'a>(
    req: &HilRequest<'_>,
    net: &'a jumpnet_core::topology::Network<'a>,
    routing: &'a dyn jumpnet_core::routing::Routing,
    s: u32,
    counter: &HeadCounter<'_>,
) -> Result<(
    AtSwitch<'a, Box<dyn ForwardingStage + 'a>>,
    RtlRouterSummary,
)> {
    let mut entries = switch_route::switch_entries(net, routing, s)?;
    let mutation = if req.mutate_rtl_table {
        let dst = counter.first_forward().ok_or_else(|| {
            anyhow!("--mutate-rtl-table: no packet is forwarded at switch {s} in this run")
        })?;
        Some(switch_route::mutate_entry(net, s, &mut entries, dst)?)
    } else {
        None
    };
    let runs = switch_route::entry_runs(&entries)?;
    let summary = RtlRouterSummary {
        switch: s,
        table_runs: runs.len(),
        reference_heads: counter.heads(),
        rtl_lookups: 0,
        mutation,
        hop_difference: None,
    };
    let stage = rtl_switch(net, s, &runs)?;
    Ok((AtSwitch::new(routing, s, stage), summary))
}

/// Runs the reference and the HIL run and compares them (see the module documentation).
/// A divergence is in the report; a failing engine (device fault, RTL error) or a failing
/// reference run is an error.
pub fn run_hil(req: &HilRequest<'_>) -> Result<HilReport> {
    if req.nodes.is_empty() {
        bail!("--nodes is empty: name at least one node (switch), e.g. --nodes 3,7");
    }
    if req.collective.reduce_cycles_per_byte != 0.0 {
        bail!(
            "--reduce-cycles-per-byte must be 0 in HIL runs: device and RTL engines run \
             every ready op of a cycle without the simulator's reduction delays"
        );
    }
    if cfg!(not(feature = "rtl")) && req.engine == EngineKind::Rtl {
        rtl_engine(String::new(), &[])?;
    }
    let mut prepared = sim_collective::prepare(req.setup, req.collective)?;
    let net = prepared.owned.network();
    let switches = net.num_switches();
    let mut nodes = req.nodes.clone();
    nodes.sort_unstable();
    nodes.dedup();
    if let Some(&bad) = nodes.iter().find(|&&s| s >= switches) {
        bail!("--nodes {bad} is out of range: the topology has nodes (switches) 0..{switches}");
    }
    prepared.sched.terminals = Some(prepared.terminals.clone());
    let mut store = RouteStore::default();
    let (routing, info) = routing::build(&net, &req.setup.route, &mut store)?;
    if let Some(s) = req.rtl_router {
        if s >= switches {
            bail!("--rtl-router {s} is out of range: the topology has switches 0..{switches}");
        }
        switch_route::check_table_routable(req.setup.route.algo)?;
        if cfg!(not(feature = "rtl")) {
            rtl_switch(&net, s, &[]).map(drop)?;
        }
    } else if req.mutate_rtl_table {
        bail!("--mutate-rtl-table needs --rtl-router SWITCH");
    }
    let schedule = prepared.sched.schedule()?;
    let n = schedule.ranks();

    let started = Instant::now();
    let mut images =
        images::node_images(&prepared.owned, &req.setup.route, &prepared.sched, &nodes)?;
    let mutation = if req.mutate {
        Some(images::mutate_first_send(&mut images[0], n)?)
    } else {
        None
    };
    let mut ranks: Vec<Rank> = images
        .iter()
        .flat_map(|i| i.programs.iter().map(|p| p.rank))
        .collect();
    ranks.sort_unstable();
    let key = RunKey {
        topology: req.setup.topology.to_string(),
        routing: info.algorithm.clone(),
        collective: prepared.sched.description.clone(),
        mapping: prepared.mapping.clone(),
        msg_bytes: req.collective.msg,
        nodes: nodes.clone(),
        ranks: ranks.clone(),
        timing: if req.engine.clocked() {
            "clocked"
        } else {
            "untimed"
        }
        .into(),
    };
    if let Some((file_key, _)) = &req.expected {
        if file_key != &key {
            bail!(
                "the trace was recorded for another run:\n  trace: {}\n  now:   {}",
                serde_json::to_string(file_key)?,
                serde_json::to_string(&key)?
            );
        }
    }

    // Reference: every engine in process (clocked reference engines for RTL runs).
    let mut timed = TimedStore {
        ranks: ranks.clone(),
        programs: Vec::new(),
        status: Vec::new(),
    };
    if req.engine.clocked() {
        for &r in &ranks {
            let blank = Op::Permute {
                reflect: false,
                shift: 0,
                after: jumpnet_core::collective::Dep::None,
            };
            let mut p = vec![blank; schedule.program_len(r)];
            let len = schedule
                .program(r, &mut p)
                .map_err(|e| anyhow!("program of rank {r}: {e}"))?;
            p.truncate(len);
            timed.status.push(vec![OpStatus::Pending; len]);
            timed.programs.push(p);
        }
    }
    // Background traffic (`--background-mean`) runs the same in both runs.
    let background = req.collective.background(prepared.nic.clock_ghz());
    let mut reference = Recorder::new(&ranks, None);
    let counter = req
        .rtl_router
        .map(|s| HeadCounter::new(routing.as_ref(), s, InProcess));
    // The reference run and the hardware run differ only in routing, engines and recorder.
    let run = |routing: &dyn jumpnet_core::routing::Routing,
               engines: Vec<(Rank, Box<dyn NicEngine + '_>)>,
               observer: &mut Recorder<'_>| {
        let run = CollectiveRun {
            net: &net,
            routing,
            config: &req.setup.config,
            nic: &prepared.nic,
            schedule: &schedule,
            terminals: &prepared.terminals,
        };
        run_collective_with(
            &run,
            RunHooks {
                engines,
                observer: Some(observer),
                background: background.as_ref(),
            },
        )
    };
    let ref_start = Instant::now();
    let ref_result = run(
        counter.as_ref().map_or(routing.as_ref(), |c| {
            c as &dyn jumpnet_core::routing::Routing
        }),
        timed.engines(),
        &mut reference,
    )
    .map_err(|e| anyhow!("the reference run failed: {e}"))?;
    let ref_wall = ref_start.elapsed().as_secs_f64();

    let (expected, compared_with) = match &req.expected {
        Some((_, events)) => (events.as_slice(), "recorded trace".to_string()),
        None => (
            reference.events.as_slice(),
            if req.engine.clocked() {
                "in-process run (TimedExecutor on the nodes)".to_string()
            } else {
                "in-process run (Executor)".to_string()
            },
        ),
    };
    let (switch_routing, mut rtl_summary) = match (req.rtl_router, &counter) {
        (Some(s), Some(counter)) => {
            let (r, sum) = rtl_router_setup(req, &net, routing.as_ref(), s, counter)?;
            (Some(r), Some(sum))
        }
        _ => (None, None),
    };
    let engines = hil_engines(req, &images)?;
    let setup_seconds = started.elapsed().as_secs_f64() - ref_wall;
    let mut recorder = Recorder::new(&ranks, Some(expected));
    let hil_start = Instant::now();
    let result = run(
        switch_routing.as_ref().map_or(routing.as_ref(), |r| {
            r as &dyn jumpnet_core::routing::Routing
        }),
        engines,
        &mut recorder,
    );
    let hil_wall = hil_start.elapsed().as_secs_f64();
    let makespan = match result {
        Ok(r) => r.makespan_cycles,
        Err(CollectiveError::Stopped(_)) => 0,
        Err(e) => {
            if recorder.divergence.is_none() {
                let last: Vec<String> = recorder
                    .events
                    .iter()
                    .rev()
                    .take(super::trace::CONTEXT_EVENTS)
                    .rev()
                    .map(ToString::to_string)
                    .collect();
                bail!(
                    "the HIL run failed after {} equal events: {e}\n  last events:\n    {}",
                    recorder.events.len(),
                    last.join("\n    ")
                );
            }
            0
        }
    };
    let divergence = recorder.finish().cloned();
    if let (Some(sum), Some(r)) = (rtl_summary.as_mut(), switch_routing.as_ref()) {
        sum.rtl_lookups = r.heads();
        if let Some(c) = &counter {
            sum.hop_difference =
                switch_route::first_hop_difference(sum.switch, &c.hops(), &r.hops());
        }
    }
    Ok(HilReport {
        run: key,
        engine: req.engine,
        compared_with,
        reference: RunSummary {
            makespan_cycles: ref_result.makespan_cycles,
            events: reference.events.len(),
            wall_seconds: ref_wall,
        },
        hil: RunSummary {
            makespan_cycles: makespan,
            events: recorder.events.len(),
            wall_seconds: hil_wall,
        },
        setup_seconds,
        slowdown: hil_wall / ref_wall.max(1e-9),
        device_round_trips: req.device.as_ref().map_or(0, |d| d.round_trips.get()),
        mutation,
        rtl_router: rtl_summary,
        divergence,
        trace: recorder.events,
    })
}
