//! Collective runs on the flit-level simulator ([`crate::sim::workload::collective`]): a
//! [`CollectiveRun`] (any schedule of [`crate::builder::schedule`] under a placement, with
//! NIC parameters and optional background traffic) on a [`Setup`], reported as a
//! [`CollectiveReport`]: makespan, the ranks' finish times, link-class utilisation and the
//! critical path. `jumpnet sim --collective`, collective sweeps, the studies and HIL runs
//! all start here.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::ValueEnum;
use jumpnet_core::collective::Schedule;
use jumpnet_core::topology::{Network, Topology};
use serde::Serialize;

use crate::builder::network::OwnedNetwork;
use crate::builder::optimise::{optimise, JobRoutes, Optimisation, PlacementObjective};
use crate::builder::placement::{self, MapStrategy, Optimiser, RankOrderChoice, Traffic};
use crate::builder::routing::{self, RouteOptions, RouteStore};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::io::duration::Span;
use crate::io::output::{Render, Section};
use crate::sim::config::SimConfig;
use crate::sim::setup::Setup;
use crate::sim::time_scale::TimeScale;
use crate::sim::workload::background::BackgroundConfig;
use crate::sim::workload::collective::{
    run_collective_with_background, CollectiveInput, CollectiveResult, NicConfig, SendOrder,
};
use crate::sim::workload::collective_memory::{check_run_memory, run_bytes};

use super::collective_nic::nic_config;
pub use super::collective_nic::{
    NicDefaults, NicModel, INTERLEAVE_PACKET_FLITS, MPI_RECV_OVERHEAD_NS, MPI_RENDEZVOUS_BYTES,
    MPI_SEND_OVERHEAD_NS,
};

/// Rank → terminal placements of a collective run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mapping {
    /// Rank r on terminal r (any network; topology-aware algorithms: their job from
    /// terminal 0).
    Consecutive,
    /// Ring-consecutive nodes (one terminal per switch).
    Ring,
    /// Distinct random nodes (seeded; topology-aware algorithms: a random job, ranks in
    /// ascending terminal order).
    Random,
    /// As random, in a random rank order (topology-aware algorithms: the same job as
    /// random with shuffled ranks; elsewhere the same as random).
    RandomOrder,
    /// BFS tree from a random root.
    Tree,
    /// Stride n/m (m a power of two).
    Circulant,
    /// Random baseline improved by two-opt swaps on the collective's total hops.
    TwoOpt,
    /// Random baseline improved by simulated annealing on total hops.
    Anneal,
}

impl Mapping {
    /// Name as written on the command line.
    pub fn name(self) -> String {
        format!("{self:?}").to_lowercase()
    }
}

/// How a collective runs, everything but the algorithm: job size, message, placement, NIC
/// parameters and background traffic. [`Default`] is `jumpnet sim --collective`'s.
#[derive(Clone, Debug, PartialEq)]
pub struct CollectiveOptions {
    /// Rank → terminal placement.
    pub mapping: Mapping,
    /// Placement from a file: terminal of rank 0, 1, … (whitespace or comma separated, `#`
    /// comments); overrides `mapping`.
    pub permutation: Option<PathBuf>,
    /// Ranks (default: every terminal; topology-aware broadcasts: the job size).
    pub ranks: Option<u32>,
    /// Root rank of broadcasts (root supernode of SFATA/RFATA).
    pub root: u32,
    /// Message size in bytes (per block for alltoall/allgather, whole vector otherwise).
    pub msg_bytes: u64,
    /// Bytes per element of reductions.
    pub elem_bytes: u32,
    /// Bytes per flit.
    pub flit_bytes: u32,
    /// Header flits per packet.
    pub header_flits: u16,
    /// NIC cycles from a send to its packets entering the network queue.
    pub send_overhead: u64,
    /// NIC cycles from a message's arrival to the NIC seeing it.
    pub recv_overhead: u64,
    /// NIC send overhead in ns, added to `send_overhead` (rounded up to whole cycles).
    pub send_overhead_ns: f64,
    /// NIC receive overhead in ns, added to `recv_overhead` (rounded up to whole cycles).
    pub recv_overhead_ns: f64,
    /// Order of the packets of concurrent messages at a NIC.
    pub send_order: SendOrder,
    /// Messages of at least this many bytes use the rendezvous handshake (none: eager).
    pub rendezvous_bytes: Option<u64>,
    /// Sends of messages of at least this many bytes complete when the message has arrived
    /// (none: when issued).
    pub blocking_bytes: Option<u64>,
    /// Payload bytes per packet of an interleaving NIC at a time scale, rounded up to whole
    /// flits (none: one flit; docs/smpi.md §3).
    pub mtu_bytes: Option<u64>,
    /// Apply SMPI's message-size calibration of latency and bandwidth (needs
    /// `time_scale`; [`crate::sim::workload::nic_calibration`]).
    pub calibrated: bool,
    /// NIC cycles per byte of a reducing receive.
    pub reduce_cycles_per_byte: f64,
    /// Link bandwidth in Gb/s (one flit per cycle: sets the clock for seconds).
    pub link_gbps: f64,
    /// Physical time scale (`--switch-ns`): flit size, packet length and router delay
    /// follow the largest message as in `jumpnet report` ([`TimeScale`]); `flit_bytes` and
    /// `header_flits` are then ignored.
    pub time_scale: Option<TimeScale>,
    /// Seed of random mappings and the optimisers.
    pub map_seed: u64,
    /// Iterations of two-opt / annealing.
    pub map_iterations: u64,
    /// What two-opt / annealing minimise (docs/mapping.md §2).
    pub map_objective: PlacementObjective,
    /// Check the data flow (every rank ends as `sched verify` expects).
    pub check_data: bool,
    /// Background traffic on the terminals the collective does not use: mean inter-arrival
    /// time per terminal (none: no background traffic).
    pub background_mean: Option<Span>,
    /// Bytes per background message.
    pub background_bytes: u64,
    /// Seed of the background traffic.
    pub background_seed: u64,
}

impl Default for CollectiveOptions {
    /// Consecutive ranks on every terminal, 1 KiB messages, 4-byte elements, 16-byte flits
    /// with one header flit, no NIC overheads, 100 Gb/s links, map seed 1, 10,000 optimiser
    /// iterations, data flow checked, no background traffic (1 KiB messages, seed 1 when
    /// enabled).
    fn default() -> Self {
        CollectiveOptions {
            mapping: Mapping::Consecutive,
            permutation: None,
            ranks: None,
            root: 0,
            msg_bytes: 1024,
            elem_bytes: 4,
            flit_bytes: 16,
            header_flits: 1,
            send_overhead: 0,
            recv_overhead: 0,
            send_overhead_ns: 0.0,
            recv_overhead_ns: 0.0,
            send_order: SendOrder::Fifo,
            rendezvous_bytes: None,
            blocking_bytes: None,
            mtu_bytes: None,
            calibrated: false,
            reduce_cycles_per_byte: 0.0,
            link_gbps: 100.0,
            time_scale: None,
            map_seed: 1,
            map_iterations: 10_000,
            map_objective: PlacementObjective::Hops,
            check_data: true,
            background_mean: None,
            background_bytes: 1024,
            background_seed: 1,
        }
    }
}

impl CollectiveOptions {
    /// The background traffic of these options at `clock_ghz`, if any.
    pub fn background(&self, clock_ghz: f64) -> Option<BackgroundConfig> {
        self.background_mean.map(|m| BackgroundConfig {
            mean_cycles: m.cycles(clock_ghz),
            bytes: self.background_bytes,
            seed: self.background_seed,
        })
    }
}

/// A collective run: the algorithm and how it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct CollectiveRun {
    /// The collective (any `jumpnet sched` algorithm).
    pub algorithm: Algorithm,
    /// How it runs.
    pub options: CollectiveOptions,
}

impl CollectiveRun {
    /// `algorithm` with the default options.
    pub fn new(algorithm: Algorithm) -> Self {
        CollectiveRun {
            algorithm,
            options: CollectiveOptions::default(),
        }
    }
}

/// Result of a collective run.
#[derive(Debug, Serialize)]
pub struct CollectiveReport {
    /// Topology, canonical form.
    pub topology: String,
    /// Routing algorithm.
    pub routing: String,
    /// Collective (as `jumpnet sched` describes it).
    pub collective: String,
    /// Placement.
    pub mapping: String,
    /// The message size in bytes.
    pub msg_bytes: u64,
    /// Terminal of every rank.
    pub terminals: Vec<u32>,
    /// Simulator configuration.
    pub config: SimConfig,
    /// NIC configuration.
    pub nic: NicConfig,
    /// Wall-clock seconds of the simulation.
    pub wall_seconds: f64,
    /// Makespan of the same run without background traffic ([`simulate_compared`] runs
    /// both), cycles.
    pub makespan_without_background: Option<u64>,
    /// The result.
    #[serde(flatten)]
    pub result: CollectiveResult,
}

fn read_permutation(path: &Path) -> Result<Vec<u32>> {
    let text = crate::io::read::read_text(path, crate::io::read::Limit::PERMUTATION)?;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        for w in line.split(|c: char| c.is_whitespace() || c == ',') {
            if w.is_empty() {
                continue;
            }
            out.push(w.parse::<u32>().with_context(|| {
                format!(
                    "permutation file {}: '{w}' is not a terminal id",
                    path.display()
                )
            })?);
        }
    }
    Ok(out)
}

/// The terminal of every rank of `sched` under `opts`' placement.
fn place(
    net: &Network<'_>,
    route: &RouteOptions,
    opts: &CollectiveOptions,
    sched: &schedule::OwnedSchedule,
) -> Result<Vec<u32>> {
    let n = sched.schedule()?.ranks();
    if let Some(path) = &opts.permutation {
        let p = read_permutation(path)?;
        if p.len() != n as usize {
            bail!(
                "permutation file {} lists {} terminals for {n} ranks",
                path.display(),
                p.len()
            );
        }
        return Ok(p);
    }
    if let Some(t) = &sched.terminals {
        if !matches!(
            opts.mapping,
            Mapping::Consecutive | Mapping::Random | Mapping::RandomOrder
        ) {
            bail!(
                "--mapping {} does not apply to the topology-aware {}: it places its own job (--mapping consecutive, random or random-order, or --permutation FILE)",
                opts.mapping.name(),
                sched.description
            );
        }
        return Ok(t.clone());
    }
    let strategy = match opts.mapping {
        Mapping::Consecutive => return Ok((0..n).collect()),
        Mapping::Ring => MapStrategy::Ring,
        Mapping::Random | Mapping::RandomOrder | Mapping::TwoOpt | Mapping::Anneal => {
            MapStrategy::Random
        }
        Mapping::Tree => MapStrategy::Tree,
        Mapping::Circulant => MapStrategy::Circulant,
    };
    let of = placement::terminals_of_switches(net)?;
    let mut nodes = placement::initial(net, strategy, RankOrderChoice::Paper, n, opts.map_seed)?;
    let optimiser = match opts.mapping {
        Mapping::TwoOpt => Optimiser::TwoOpt,
        Mapping::Anneal => Optimiser::Anneal,
        _ => Optimiser::None,
    };
    if optimiser != Optimiser::None {
        let s = sched.schedule()?;
        let (mut dist, mut queue) = (Vec::new(), Vec::new());
        let dm = routing::distance_matrix(net, &mut dist, &mut queue)?;
        let traffic = Traffic::of(&s)?;
        let how = Optimisation {
            optimiser,
            objective: opts.map_objective,
            iterations: opts.map_iterations,
            seed: opts.map_seed ^ 0x7770_0007,
        };
        let routes = if opts.map_objective == PlacementObjective::Hops {
            None
        } else {
            let mut store = RouteStore::default();
            let (r, _) = routing::build(net, route, &mut store)?;
            Some(JobRoutes::build(net, r.as_ref(), &of, &nodes)?)
        };
        optimise(
            &dm,
            routes.as_ref(),
            &traffic,
            &mut nodes,
            &how,
            &mut |_, _, _| {},
        )?;
    }
    Ok(nodes.iter().map(|&s| of[s as usize]).collect())
}

/// A collective run's inputs, resolved: network, schedule, placement and NIC parameters
/// (the routing is built from `Setup::route` by whoever runs it, as it borrows the
/// network).
#[derive(Debug)]
pub struct PreparedCollective {
    /// The network.
    pub owned: OwnedNetwork,
    /// The schedule (with the terminals of a topology-aware placement).
    pub sched: schedule::OwnedSchedule,
    /// Terminal of every rank.
    pub terminals: Vec<u32>,
    /// NIC parameters.
    pub nic: NicConfig,
    /// Router parameters: the setup's, with the time scale's packet length and pipeline
    /// when the options have one.
    pub config: SimConfig,
    /// The placement's name (`file` for a permutation file).
    pub mapping: String,
}

/// Builds the network, schedule, placement and NIC parameters of `run` on `setup`.
pub fn prepare(setup: &Setup, run: &CollectiveRun) -> Result<PreparedCollective> {
    let (algorithm, opts) = (run.algorithm, &run.options);
    let owned = OwnedNetwork::build(&setup.topology)?;
    let net = owned.network();
    let req = CollectiveRequest {
        algorithm,
        ranks: opts
            .ranks
            .or_else(|| (!algorithm.needs_topology()).then(|| net.num_terminals())),
        root: opts.root,
        bytes: opts.msg_bytes,
        elem_bytes: opts.elem_bytes,
        placement: match opts.mapping {
            Mapping::Random => JobPlacement::Random,
            Mapping::RandomOrder => JobPlacement::RandomOrder,
            _ => JobPlacement::Consecutive,
        },
        seed: opts.map_seed,
    };
    let sched = schedule::build(&req, Some(&owned))?;
    let terminals = place(&net, &setup.route, opts, &sched)?;
    let mut config = setup.config.clone();
    let mut timing = None;
    if let Some(scale) = &opts.time_scale {
        let mut largest = 0u64;
        sched
            .schedule()?
            .for_each_message(|m| largest = largest.max(m.bytes));
        let t = scale.timing(largest).map_err(|e| anyhow!(e))?;
        t.configure(&mut config);
        timing = Some(t);
    }
    let nic = nic_config(opts, timing.as_ref(), &mut config, sched.allow_redundant)?;
    let packet_size = config.packet_size;
    check_run_memory(opts.msg_bytes, crate::budget::memory_budget(), |msg| {
        let bytes =
            |s: &schedule::OwnedSchedule| run_bytes(&s.schedule().ok()?, &nic, packet_size).ok();
        if msg == opts.msg_bytes {
            return bytes(&sched);
        }
        let req = CollectiveRequest {
            bytes: msg,
            ..req.clone()
        };
        bytes(&schedule::build(&req, Some(&owned)).ok()?)
    })?;
    let mapping = if opts.permutation.is_some() {
        "file".into()
    } else {
        opts.mapping.name()
    };
    Ok(PreparedCollective {
        owned,
        sched,
        terminals,
        nic,
        config,
        mapping,
    })
}

/// Builds the network, routing, schedule and placement of `run` on `setup` and runs the
/// collective.
///
/// # Examples
///
/// ```
/// use jumpnet::builder::routing::RouteAlgo;
/// use jumpnet::builder::schedule::Algorithm;
/// use jumpnet::runs::collective::{simulate, CollectiveRun};
/// use jumpnet::sim::setup::SetupRequest;
///
/// let words = ["torus", "k=4,4", "packet_size=4", "num_vcs=2"].map(String::from).to_vec();
/// let setup = SetupRequest { words, algo: Some(RouteAlgo::DorDateline), ..SetupRequest::default() }
///     .resolve(false)
///     .unwrap();
/// let mut run = CollectiveRun::new(Algorithm::Allreduce);
/// run.options.msg_bytes = 64;
/// let report = simulate(&setup, &run).unwrap();
/// assert_eq!(report.collective, "recursive-doubling allreduce");
/// assert_eq!(report.terminals, (0..16).collect::<Vec<u32>>());
/// assert_eq!(report.result.messages, 16 * 4);
/// assert_eq!(report.result.makespan_cycles, 114);
/// assert!(report.result.data_checked);
/// ```
pub fn simulate(setup: &Setup, run: &CollectiveRun) -> Result<CollectiveReport> {
    simulate_logged(setup, run, None)
}

/// [`simulate`], writing every message of the run to `message_log` when given
/// ([`crate::runs::collective_messages`]), with the run's own network and routes.
fn simulate_logged(
    setup: &Setup,
    run: &CollectiveRun,
    message_log: Option<&Path>,
) -> Result<CollectiveReport> {
    let p = prepare(setup, run)?;
    let net = p.owned.network();
    let mut store = RouteStore::default();
    let (r, info) = routing::build(&net, &setup.route, &mut store)?;
    let s = p.sched.schedule()?;
    let background = run.options.background(p.nic.clock_ghz());
    let started = std::time::Instant::now();
    let input = CollectiveInput {
        net: &net,
        routing: r.as_ref(),
        config: &p.config,
        nic: &p.nic,
        schedule: &s,
        terminals: &p.terminals,
    };
    let result =
        run_collective_with_background(&input, background.as_ref()).map_err(|e| anyhow!("{e}"))?;
    let report = CollectiveReport {
        topology: setup.topology.to_string(),
        routing: info.algorithm,
        collective: p.sched.description.clone(),
        mapping: p.mapping.clone(),
        msg_bytes: run.options.msg_bytes,
        terminals: p.terminals,
        config: p.config.clone(),
        nic: p.nic,
        wall_seconds: started.elapsed().as_secs_f64(),
        makespan_without_background: None,
        result,
    };
    if let Some(path) = message_log {
        super::collective_messages::write_message_log(&net, r.as_ref(), &report, path)?;
    }
    Ok(report)
}

/// Writes the SimGrid platform and SMPI hostfile of `run` on `setup` into `dir` (created
/// when missing; each file written atomically): links at the run's bandwidth, switches at
/// its time scale's latency or 100 ns ([`crate::io::simgrid`]). Returns the routes written.
pub fn write_smpi_platform(setup: &Setup, run: &CollectiveRun, dir: &Path) -> Result<u64> {
    let p = prepare(setup, run)?;
    let net = p.owned.network();
    let mut store = RouteStore::default();
    let (r, _) = routing::build(&net, &setup.route, &mut store)?;
    let params = crate::io::simgrid::LinkParams {
        gbps: run.options.link_gbps,
        switch_ns: run
            .options
            .time_scale
            .map_or(100.0, |t| t.switch_latency_ns),
    };
    let platform = crate::io::simgrid::platform(&net, r.as_ref(), &p.terminals, params)?;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the directory {}", dir.display()))?;
    crate::io::output::write_atomic(&dir.join("platform.xml"), platform.xml.as_bytes())?;
    crate::io::output::write_atomic(&dir.join("hostfile"), platform.hostfile.as_bytes())?;
    Ok(platform.routes)
}

/// [`simulate`], and with background traffic also the same run without it, so the report
/// gives the makespan with and without background; the run's messages go to `message_log`
/// when given (`sim --messages`).
pub fn simulate_compared(
    setup: &Setup,
    run: &CollectiveRun,
    message_log: Option<&Path>,
) -> Result<CollectiveReport> {
    let mut report = simulate_logged(setup, run, message_log)?;
    if run.options.background_mean.is_some() {
        let mut quiet = run.clone();
        quiet.options.background_mean = None;
        report.makespan_without_background = Some(simulate(setup, &quiet)?.result.makespan_cycles);
    }
    Ok(report)
}

impl CollectiveReport {
    fn summary_section(&self) -> Section {
        let r = &self.result;
        let mut s = Section::key_values("collective simulation");
        s.kv("topology", &self.topology)
            .kv("routing", &self.routing)
            .kv("collective", &self.collective)
            .kv("ranks", r.ranks)
            .kv("mapping", &self.mapping)
            .kv("msg_bytes", self.msg_bytes)
            .kv("packet_size (flits)", self.config.packet_size)
            .kv("makespan_cycles", r.makespan_cycles)
            .kv(
                "makespan_seconds",
                format!("{:.6e} (clock {:.4} GHz)", r.makespan_seconds, r.clock_ghz),
            )
            .kv("messages", r.messages)
            .kv("packets", r.packets)
            .kv("flits", r.flits)
            .kv(
                "hops_mean (router to router)",
                format!("{:.3}", r.hops_mean),
            )
            .kv(
                "data_flow",
                if r.data_checked {
                    "checked: every rank ends as sched verify expects"
                } else {
                    "not checked"
                },
            )
            .kv("wall_seconds", format!("{:.3}", self.wall_seconds));
        s
    }

    fn background_section(&self) -> Option<Section> {
        let b = self.result.background.as_ref()?;
        let mut bg = Section::key_values("background traffic (terminals outside the collective)");
        bg.kv("terminals", b.terminals)
            .kv(
                "mean inter-arrival (cycles)",
                format!("{:.1}", b.mean_cycles),
            )
            .kv("bytes per message", b.bytes)
            .kv(
                "collective makespan without background (cycles)",
                self.makespan_without_background
                    .map_or("not run".to_string(), |m| m.to_string()),
            )
            .kv("messages sent", b.messages_sent)
            .kv("messages delivered", b.messages_delivered)
            .kv("latency mean (cycles)", format!("{:.1}", b.latency.mean))
            .kv("latency p50 (cycles)", b.latency.p50)
            .kv("latency p99 (cycles)", b.latency.p99)
            .kv("latency max (cycles)", b.latency.max);
        Some(bg)
    }
}

impl Render for CollectiveReport {
    fn sections(&self) -> Vec<Section> {
        let r = &self.result;
        let f = &r.finish_summary;
        let mut fin = Section::key_values("finish times (cycles)");
        fin.kv("min", f.min)
            .kv("mean", format!("{:.1}", f.mean))
            .kv("median", f.median)
            .kv("max", f.max);
        let mut util = Section::new(
            "utilisation by link class over the makespan (flits/channel/cycle)",
            &["class", "channels", "utilisation"],
        );
        for u in &r.class_utilisation {
            util.row([
                u.class.clone(),
                u.channels.to_string(),
                format!("{:.4}", u.utilisation),
            ]);
        }
        let mut cp = Section::new(
            "critical path (messages the last rank waited on)",
            &["src", "dst", "bytes", "sent", "arrived", "delivered"],
        );
        for m in &r.critical_path {
            cp.row([
                m.src.to_string(),
                m.dst.to_string(),
                m.bytes.to_string(),
                m.sent.to_string(),
                m.arrived.to_string(),
                m.delivered.to_string(),
            ]);
        }
        let mut out = vec![self.summary_section(), fin, util, cp];
        out.extend(self.background_section());
        out
    }
}
