//! The HIL driver: the reference run (every engine in process), then the run with the
//! chosen nodes' engines replaced, traced and compared event by event with the reference
//! (or with a recorded trace, `jumpnet hil --check`).

use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use jumpnet_core::collective::{Op, Rank, Schedule};
use jumpnet_core::exec::timing::TimedExecutor;
use jumpnet_core::exec::OpStatus;
use jumpnet_core::routing::Routing;
use jumpnet_core::topology::{Network, Topology};
use serde::Serialize;

use super::device_engine::{DeviceEngine, DeviceSetup};
use super::engines::{ClockedEngine, ImageCoreEngine};
use super::images::{self, NodeImage};
use super::report::{HilReport, RtlRouterSummary, RunSummary};
use super::run_key::{RunKey, Timing};
use super::switch_route::{self, AtSwitch, ForwardingStage, HeadCounter, InProcess};
use super::trace::{Divergence, Recorder, Trace, TraceEvent};
use super::waveform::{self, DumpedCycles, EngineWaveform};
use crate::builder::routing::{self, RouteStore};
use crate::runs::collective::{self, CollectiveRun, PreparedCollective};
use crate::sim::config::SimConfig;
use crate::sim::setup::Setup;
use crate::sim::workload::background::BackgroundConfig;
use crate::sim::workload::collective::SendOrder;
use crate::sim::workload::collective::{
    run_collective_with, CollectiveError, CollectiveInput, CollectiveResult, NicConfig,
};
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
    /// The engine's name as `--engine` takes it.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Device => "device",
            EngineKind::Rtl => "rtl",
            EngineKind::Core => "core",
        }
    }

    /// The timing contract the engine keeps by default: untimed for devices and core,
    /// clocked for RTL.
    pub fn default_timing(self) -> Timing {
        match self {
            EngineKind::Rtl => Timing::Clocked,
            EngineKind::Device | EngineKind::Core => Timing::Untimed,
        }
    }

    /// Whether the engine can keep `timing`: devices run core's `Executor` (untimed), the
    /// RTL is clocked, the in-process engine does either.
    pub fn keeps(self, timing: Timing) -> bool {
        match self {
            EngineKind::Core => true,
            EngineKind::Device => timing == Timing::Untimed,
            EngineKind::Rtl => timing == Timing::Clocked,
        }
    }
}

/// A HIL run.
#[derive(Debug)]
pub struct HilRequest {
    /// Topology, routing and simulator configuration.
    pub setup: Setup,
    /// The collective.
    pub collective: CollectiveRun,
    /// Nodes (switches) whose ranks run on `engine`.
    pub nodes: Vec<u32>,
    /// The engine.
    pub engine: EngineKind,
    /// The timing contract the engines and the reference keep (one the engine keeps,
    /// [`EngineKind::keeps`]).
    pub timing: Timing,
    /// Devices (`EngineKind::Device` only).
    pub device: Option<DeviceSetup>,
    /// Compare with this recorded trace instead of the reference run's.
    pub expected: Option<Trace>,
    /// Testing aid: make the first node's image send to a wrong peer.
    pub mutate: bool,
    /// Switch whose forwarding stage runs on the table router RTL (feature `rtl`).
    pub rtl_router: Option<u32>,
    /// Testing aid: a wrong port in that switch's table (the first destination the
    /// reference forwards there).
    pub mutate_rtl_table: bool,
    /// A waveform of one rank's RTL engine (`--vcd`; [`waveform::write_waveform`] sets it).
    pub waveform: Option<EngineWaveform>,
}

impl HilRequest {
    /// `collective` on `setup` with the ranks of `nodes` on `engine`, compared with the
    /// reference run: no devices, no router RTL, no testing aids.
    pub fn new(
        setup: Setup,
        collective: CollectiveRun,
        nodes: Vec<u32>,
        engine: EngineKind,
    ) -> Self {
        HilRequest {
            setup,
            collective,
            nodes,
            engine,
            timing: engine.default_timing(),
            device: None,
            expected: None,
            mutate: false,
            rtl_router: None,
            mutate_rtl_table: false,
            waveform: None,
        }
    }
}

/// Storage of clocked `TimedExecutor` engines (they borrow programs and status): the
/// reference's, and the in-process engines of a clocked run on `--engine core`.
struct TimedStore {
    /// Names the engines in errors.
    what: &'static str,
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
                    format!("{} TimedExecutor of rank {r}", self.what),
                    timed,
                    p,
                ));
                (r, e)
            })
            .collect()
    }
}

/// The clocked in-process engines of `images` (`--engine core` under the clocked
/// contract): core's `TimedExecutor` over each program read back from the image.
fn image_timed_store(images: &[NodeImage]) -> TimedStore {
    let mut store = TimedStore {
        what: "core engine:",
        ranks: Vec::new(),
        programs: Vec::new(),
        status: Vec::new(),
    };
    for p in images.iter().flat_map(|img| &img.programs) {
        store.ranks.push(p.rank);
        store.status.push(vec![OpStatus::Pending; p.ops.len()]);
        store.programs.push(p.ops.clone());
    }
    store
}

/// Builds the HIL engines of `images` (devices are started and flashed here; the clocked
/// in-process engines borrow `timed`; the RTL engine of the waveform's rank writes it and
/// leaves its cycles in `dumped`).
fn hil_engines<'t>(
    req: &HilRequest,
    images: &[NodeImage],
    timed: &'t mut TimedStore,
    dumped: &DumpedCycles,
) -> Result<Vec<(Rank, Box<dyn NicEngine + 't>)>> {
    if req.engine == EngineKind::Core && req.timing == Timing::Clocked {
        *timed = image_timed_store(images);
        return Ok(timed.engines());
    }
    let mut out: Vec<(Rank, Box<dyn NicEngine + 't>)> = Vec::new();
    for img in images {
        for p in &img.programs {
            let name = format!(
                "{:?} engine of node {} rank {}",
                req.engine, img.node, p.rank
            )
            .to_lowercase();
            let engine: Box<dyn NicEngine + 't> = match req.engine {
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
                EngineKind::Rtl => {
                    let vcd = req.waveform.as_ref().filter(|w| w.rank == p.rank);
                    rtl_engine(name, &p.ops, vcd.map(|w| (w, dumped)))?
                }
            };
            out.push((p.rank, engine));
        }
    }
    Ok(out)
}

#[cfg(feature = "rtl")]
fn rtl_engine(
    name: String,
    program: &[Op],
    vcd: Option<(&EngineWaveform, &DumpedCycles)>,
) -> Result<Box<dyn NicEngine>> {
    Ok(Box::new(super::rtl::engine(name, program, vcd)?))
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
fn rtl_engine(
    _: String,
    _: &[Op],
    _: Option<(&EngineWaveform, &DumpedCycles)>,
) -> Result<Box<dyn NicEngine>> {
    bail!(
        "--engine rtl needs a jumpnet built with the `rtl` feature (and verilator): \
         cargo run --features rtl -- hil ..."
    )
}

/// The RTL router at switch `s` loaded with its compiled table (with the testing aid's wrong
/// entry at the first destination `counter` saw forwarded there), and its summary so far.
fn rtl_router_setup<'a>(
    req: &HilRequest,
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

/// The collective runs of a HIL run: the same network, configuration, NICs, schedule,
/// placement and background traffic; routing, engines and recorder differ.
struct Runner<'a, S> {
    net: &'a Network<'a>,
    config: &'a SimConfig,
    nic: &'a NicConfig,
    schedule: &'a S,
    terminals: &'a [u32],
    /// Background traffic (the same in both runs).
    background: Option<BackgroundConfig>,
}

impl<S: Schedule> Runner<'_, S> {
    fn run(
        &self,
        routing: &dyn Routing,
        engines: Vec<(Rank, Box<dyn NicEngine + '_>)>,
        observer: &mut Recorder<'_>,
    ) -> Result<CollectiveResult, CollectiveError> {
        let input = CollectiveInput {
            net: self.net,
            routing,
            config: self.config,
            nic: self.nic,
            schedule: self.schedule,
            terminals: self.terminals,
        };
        run_collective_with(
            &input,
            RunHooks {
                engines,
                observer: Some(observer),
                background: self.background.as_ref(),
            },
        )
    }
}

/// Refuses requests a HIL run cannot honour, before anything is built.
fn check_request(req: &HilRequest) -> Result<()> {
    if req.nodes.is_empty() {
        bail!("--nodes is empty: name at least one node (switch), e.g. --nodes 3,7");
    }
    if req.collective.options.reduce_cycles_per_byte != 0.0 {
        bail!(
            "--reduce-cycles-per-byte must be 0 in HIL runs: device and RTL engines run \
             every ready op of a cycle without the simulator's reduction delays"
        );
    }
    let o = &req.collective.options;
    if o.time_scale.is_some()
        || o.send_order != SendOrder::Fifo
        || o.rendezvous_bytes.is_some()
        || o.blocking_bytes.is_some()
        || o.send_overhead_ns != 0.0
        || o.recv_overhead_ns != 0.0
    {
        bail!(
            "HIL runs take the simple NIC model in cycles (--nic simple, no --switch-ns, \
             --send-order, --rendezvous, --blocking-sends or overheads in ns): golden traces record overheads \
             in cycles and FIFO sends"
        );
    }
    if cfg!(not(feature = "rtl")) && req.engine == EngineKind::Rtl {
        rtl_engine(String::new(), &[], None)?;
    }
    if req.waveform.is_some() {
        waveform::check_engine(req.engine)?;
    }
    if !req.engine.keeps(req.timing) {
        bail!(
            "--engine {} does not keep the {} timing contract (device engines are untimed, \
             RTL engines clocked, core engines either)",
            req.engine.name(),
            req.timing.name()
        );
    }
    if let Some(t) = &req.expected {
        if t.run.timing != req.timing {
            bail!(
                "the trace follows the {} timing contract, the run the {} one",
                t.run.timing.name(),
                req.timing.name()
            );
        }
    }
    Ok(())
}

/// The requested nodes, sorted and without repeats, all below `switches`.
fn checked_nodes(nodes: &[u32], switches: u32) -> Result<Vec<u32>> {
    let mut nodes = nodes.to_vec();
    nodes.sort_unstable();
    nodes.dedup();
    if let Some(&bad) = nodes.iter().find(|&&s| s >= switches) {
        bail!("--nodes {bad} is out of range: the topology has nodes (switches) 0..{switches}");
    }
    Ok(nodes)
}

/// Checks the router RTL's switch and its routing (and that the RTL is built in).
fn check_rtl_router(req: &HilRequest, net: &Network<'_>) -> Result<()> {
    let switches = net.num_switches();
    if let Some(s) = req.rtl_router {
        if s >= switches {
            bail!("--rtl-router {s} is out of range: the topology has switches 0..{switches}");
        }
        switch_route::check_table_routable(req.setup.route.algo)?;
        if cfg!(not(feature = "rtl")) {
            rtl_switch(net, s, &[]).map(drop)?;
        }
    } else if req.mutate_rtl_table {
        bail!("--mutate-rtl-table needs --rtl-router SWITCH");
    }
    Ok(())
}

/// The run's key (the trace file's header), checked against the expected trace's.
fn run_key(
    req: &HilRequest,
    prepared: &PreparedCollective,
    routing: String,
    nodes: &[u32],
    ranks: &[Rank],
) -> Result<RunKey> {
    let key = RunKey::of(
        &req.setup,
        &req.collective,
        routing,
        prepared.sched.description.clone(),
        nodes,
        ranks,
        req.timing,
    )?;
    if let Some(t) = &req.expected {
        let diff = t.run.differences(&key);
        if !diff.is_empty() {
            bail!(
                "the trace was recorded for another run (header field: trace value / this \
                 run's):\n  {}",
                diff.join("\n  ")
            );
        }
    }
    Ok(key)
}

/// The reference's clocked engines of `ranks` (RTL runs), or none.
fn timed_store<S: Schedule>(schedule: &S, ranks: &[Rank], clocked: bool) -> Result<TimedStore> {
    let mut timed = TimedStore {
        what: "reference",
        ranks: ranks.to_vec(),
        programs: Vec::new(),
        status: Vec::new(),
    };
    if clocked {
        for &r in ranks {
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
    Ok(timed)
}

/// The reference run (every engine in process; clocked reference engines for RTL runs):
/// its summary and its events.
fn reference_run<S: Schedule>(
    runner: &Runner<'_, S>,
    routing: &dyn Routing,
    ranks: &[Rank],
    clocked: bool,
) -> Result<(RunSummary, Vec<TraceEvent>)> {
    let mut timed = timed_store(runner.schedule, ranks, clocked)?;
    let mut recorder = Recorder::new(ranks, None);
    let start = Instant::now();
    let result = runner
        .run(routing, timed.engines(), &mut recorder)
        .map_err(|e| anyhow!("the reference run failed: {e}"))?;
    let summary = RunSummary {
        makespan_cycles: result.makespan_cycles,
        events: recorder.events.len(),
        wall_seconds: start.elapsed().as_secs_f64(),
    };
    Ok((summary, recorder.events))
}

/// The HIL run, compared with `expected` as it goes: its summary, the first divergence and
/// its events. An engine failure before any divergence is an error.
fn hil_run<S: Schedule>(
    runner: &Runner<'_, S>,
    routing: &dyn Routing,
    engines: Vec<(Rank, Box<dyn NicEngine + '_>)>,
    ranks: &[Rank],
    expected: &[TraceEvent],
) -> Result<(RunSummary, Option<Divergence>, Vec<TraceEvent>)> {
    let mut recorder = Recorder::new(ranks, Some(expected));
    let start = Instant::now();
    let result = runner.run(routing, engines, &mut recorder);
    let wall_seconds = start.elapsed().as_secs_f64();
    let makespan_cycles = match result {
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
    let summary = RunSummary {
        makespan_cycles,
        events: recorder.events.len(),
        wall_seconds,
    };
    Ok((summary, divergence, recorder.events))
}

/// The ranks of the nodes' images, in order.
fn image_ranks(images: &[NodeImage]) -> Vec<Rank> {
    let mut ranks: Vec<Rank> = images
        .iter()
        .flat_map(|i| i.programs.iter().map(|p| p.rank))
        .collect();
    ranks.sort_unstable();
    ranks
}

/// Runs the reference and the HIL run and compares them (see the module documentation).
/// A divergence is in the report; a failing engine (device fault, RTL error) or a failing
/// reference run is an error.
///
/// # Examples
///
/// The in-process engine over the images of nodes 3 and 7 of a 4×4 torus traces exactly
/// like the reference run:
///
/// ```
/// use jumpnet::builder::routing::RouteAlgo;
/// use jumpnet::builder::schedule::Algorithm;
/// use jumpnet::hil::{run_hil, EngineKind, HilRequest};
/// use jumpnet::runs::collective::CollectiveRun;
/// use jumpnet::sim::setup::SetupRequest;
///
/// let words = ["torus", "k=4,4", "packet_size=4", "num_vcs=2"].map(String::from).to_vec();
/// let setup = SetupRequest { words, algo: Some(RouteAlgo::DorDateline), ..SetupRequest::default() }
///     .resolve(false)
///     .unwrap();
/// let mut allreduce = CollectiveRun::new(Algorithm::Allreduce);
/// allreduce.options.msg_bytes = 64;
/// let report = run_hil(&HilRequest::new(setup, allreduce, vec![3, 7], EngineKind::Core)).unwrap();
/// assert_eq!(report.run.ranks, [3, 7]);
/// assert!(report.divergence.is_none());
/// assert_eq!(report.hil.events, 18);
/// assert_eq!(report.hil.events, report.reference.events);
/// assert_eq!(report.hil.makespan_cycles, 114);
/// assert_eq!(report.reference.makespan_cycles, 114);
/// ```
pub fn run_hil(req: &HilRequest) -> Result<HilReport> {
    check_request(req)?;
    let mut prepared = collective::prepare(&req.setup, &req.collective)?;
    let net = prepared.owned.network();
    let nodes = checked_nodes(&req.nodes, net.num_switches())?;
    prepared.sched.terminals = Some(prepared.terminals.clone());
    let mut store = RouteStore::default();
    let (routing, info) = routing::build(&net, &req.setup.route, &mut store)?;
    check_rtl_router(req, &net)?;
    let schedule = prepared.sched.schedule()?;

    let started = Instant::now();
    let mut images =
        images::node_images(&prepared.owned, &req.setup.route, &prepared.sched, &nodes)?;
    let mutation = if req.mutate {
        Some(images::mutate_first_send(&mut images[0], schedule.ranks())?)
    } else {
        None
    };
    let ranks = image_ranks(&images);
    let wave_node = req.waveform.as_ref().map(|w| w.node(&images)).transpose()?;
    let key = run_key(req, &prepared, info.algorithm.clone(), &nodes, &ranks)?;
    let runner = Runner {
        net: &net,
        config: &req.setup.config,
        nic: &prepared.nic,
        schedule: &schedule,
        terminals: &prepared.terminals,
        background: req.collective.options.background(prepared.nic.clock_ghz()),
    };
    let counter = req
        .rtl_router
        .map(|s| HeadCounter::new(routing.as_ref(), s, InProcess));
    let in_process: &dyn Routing = routing.as_ref();
    let ref_routing = counter.as_ref().map_or(in_process, |c| c as &dyn Routing);
    let (reference, ref_events) =
        reference_run(&runner, ref_routing, &ranks, req.timing == Timing::Clocked)?;

    let (expected, compared_with) = match &req.expected {
        Some(t) => (t.events.as_slice(), "recorded trace".to_string()),
        None if req.timing == Timing::Clocked => (
            ref_events.as_slice(),
            "in-process run (TimedExecutor on the nodes)".to_string(),
        ),
        None => (
            ref_events.as_slice(),
            "in-process run (Executor)".to_string(),
        ),
    };
    let (switch_routing, mut rtl_summary) = match (req.rtl_router, &counter) {
        (Some(s), Some(counter)) => {
            let (r, sum) = rtl_router_setup(req, &net, in_process, s, counter)?;
            (Some(r), Some(sum))
        }
        _ => (None, None),
    };
    let mut engine_store = timed_store(&schedule, &[], false)?;
    let dumped = DumpedCycles::default();
    let engines = hil_engines(req, &images, &mut engine_store, &dumped)?;
    let setup_seconds = started.elapsed().as_secs_f64() - reference.wall_seconds;
    let hil_routing = switch_routing
        .as_ref()
        .map_or(in_process, |r| r as &dyn Routing);
    let (hil, divergence, trace) = hil_run(&runner, hil_routing, engines, &ranks, expected)?;
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
        slowdown: hil.wall_seconds / reference.wall_seconds.max(1e-9),
        reference,
        hil,
        setup_seconds,
        device_round_trips: req.device.as_ref().map_or(0, |d| d.round_trips.get()),
        mutation,
        rtl_router: rtl_summary,
        divergence,
        waveform: req
            .waveform
            .as_ref()
            .zip(wave_node)
            .map(|(w, node)| w.summary(node, dumped.get())),
        trace,
    })
}
