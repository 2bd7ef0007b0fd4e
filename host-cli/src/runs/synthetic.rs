//! Synthetic traffic on a [`Setup`]: one simulation ([`simulate`] → [`SimReport`], `jumpnet
//! sim`) and a sweep over the setup's axes on all cores, stopping a series at saturation
//! ([`sweep()`] → [`SweepResult`], `jumpnet sweep`).

use anyhow::{anyhow, Result};
use jumpnet_core::topology::Topology;
use serde::Serialize;

use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{self, RouteStore};
use crate::io::output::{Render, Section};
use crate::io::progress::Progress;
use crate::sim::config::SimConfig;
use crate::sim::engine::stats::SimResult;
use crate::sim::setup::Setup;
use crate::sim::sweep::{self, Plan, Queue, Record, Shard, SweepResult};

/// Result of one simulation of a setup: the setup and the engine's statistics
/// (per-channel utilisation left out; per link class kept).
#[derive(Debug, Serialize)]
pub struct SimReport {
    /// Topology, canonical form.
    pub topology: String,
    /// Routing algorithm.
    pub routing: String,
    /// VCs the routing uses.
    pub routing_vcs: u8,
    /// Simulator configuration.
    pub config: SimConfig,
    /// Notes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The engine's statistics, as [`SimResult`] names them.
    #[serde(flatten)]
    pub stats: serde_json::Map<String, serde_json::Value>,
    /// The engine's result.
    #[serde(skip)]
    pub result: SimResult,
}

/// Routers per thread below which `threads = 0` uses fewer threads (a cycle's work must
/// outweigh the per-cycle synchronisation). Two threads against one, elapsed, on two cores
/// (docs/booksim.md §6): 8×8 torus (64 routers) −5 %, 12×12 torus and mesh (144) −2 to
/// −26 %, 16×16 torus (256) −21 %, BookSim2's Dragonfly (264) −16 to −22 %; a 6×6 torus
/// (36) takes twice as long.
const ROUTERS_PER_THREAD: u32 = 128;

/// Builds the network and routing of `setup` and runs `config` (the setup's, or a sweep
/// point's) on them, the routers stepped on `threads` threads (0: all cores, at most one
/// per 128 routers; any other count is clamped to the cores and the routers,
/// [`crate::budget::threads_for`]; the result does not depend on it).
///
/// # Examples
///
/// ```
/// use jumpnet::builder::routing::RouteAlgo;
/// use jumpnet::runs::synthetic::simulate;
/// use jumpnet::sim::setup::SetupRequest;
///
/// let words = ["torus", "k=4,4", "rate=0.05", "sample_period=200", "max_samples=2"];
/// let setup = SetupRequest {
///     words: words.map(String::from).to_vec(),
///     algo: Some(RouteAlgo::DorDateline),
///     ..SetupRequest::default()
/// }
/// .resolve(false)
/// .unwrap();
/// let report = simulate(&setup, &setup.config, 1).unwrap();
/// assert_eq!((report.routing.as_str(), report.routing_vcs), ("dor-dateline", 2));
/// assert!(report.result.packets_delivered > 0);
/// assert_eq!(report.result.conservation_errors, 0);
/// assert_eq!(report.deadlock_line(), None);
/// ```
pub fn simulate(setup: &Setup, config: &SimConfig, threads: usize) -> Result<SimReport> {
    let owned = OwnedNetwork::build(&setup.topology)?;
    let net = owned.network();
    let mut store = RouteStore::default();
    let (r, info) = routing::build(&net, &setup.route, &mut store)?;
    let threads = match threads {
        0 => crate::budget::threads_for(0, (net.num_switches() / ROUTERS_PER_THREAD) as usize),
        // An explicit count: at most one router per partition and one thread per core.
        n => crate::budget::threads_for(n, net.num_switches() as usize),
    };
    let result =
        crate::sim::run_parallel(&net, r.as_ref(), config, threads).map_err(|e| anyhow!("{e}"))?;
    let mut stats = match serde_json::to_value(&result)? {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    stats.remove("channel_utilisation");
    Ok(SimReport {
        topology: setup.topology.to_string(),
        routing: info.algorithm,
        routing_vcs: info.vcs,
        config: config.clone(),
        notes: setup.notes.clone(),
        stats,
        result,
    })
}

impl SimReport {
    /// The deadlock cycle as one line: `s0:p1/vc0 -> s1 … `, `None` without deadlock.
    pub fn deadlock_line(&self) -> Option<String> {
        let d = self.result.deadlock.as_ref()?;
        let hops: Vec<String> = d
            .channels
            .iter()
            .map(|c| {
                format!(
                    "switch {} port {} vc {} -> switch {}",
                    c.switch, c.port, c.vc, c.peer
                )
            })
            .collect();
        Some(format!(
            "deadlock: the watchdog fired at cycle {} with {} flits in flight; channel cycle: {}",
            d.cycle,
            d.flits_in_flight,
            hops.join(", ")
        ))
    }

    fn run_section(&self) -> Section {
        let r = &self.result;
        let c = &self.config;
        let mut run = Section::key_values("simulation");
        run.kv("topology", &self.topology)
            .kv(
                "routing",
                format!("{} ({} VCs)", self.routing, self.routing_vcs),
            )
            .kv("num_vcs", c.num_vcs)
            .kv(
                "packet_size",
                match &c.extras.packet_sizes {
                    // A distribution (docs/booksim.md §3.5): size:rate pairs and the mean.
                    Some(d) => format!("{} (mean {:.3})", d.word(), d.mean()),
                    None => c.packet_size.to_string(),
                },
            )
            .kv(
                "injection_rate",
                format!(
                    "{} {}/node/cycle",
                    c.injection_rate,
                    if c.rate_in_flits { "flits" } else { "packets" }
                ),
            )
            .kv("traffic", format!("{:?}", c.traffic))
            .kv("cycles", r.cycles)
            .kv("measured_cycles", r.measured_cycles)
            .kv("samples", r.samples)
            .kv("packets_delivered", r.packets_delivered)
            .kv("saturated", r.saturated)
            .kv("conservation_errors", r.conservation_errors);
        if let Some(b) = &r.batch_time {
            run.kv(
                "batch duration (min / mean / max)",
                format!(
                    "{} / {:.1} / {} cycles, {} batches",
                    b.min, b.mean, b.max, b.count
                ),
            );
        }
        run
    }
}

impl Render for SimReport {
    fn sections(&self) -> Vec<Section> {
        let r = &self.result;
        let mut lat = Section::new(
            "latency (cycles)",
            &["metric", "count", "mean", "p50", "p99", "max"],
        );
        for (name, s) in [
            ("packet_latency", &r.packet_latency),
            ("network_latency", &r.network_latency),
            ("queueing_latency", &r.queueing_latency),
            ("flit_latency", &r.flit_latency),
            ("hops", &r.hops),
        ] {
            lat.row([
                name.to_string(),
                s.count.to_string(),
                format!("{:.3}", s.mean),
                s.p50.to_string(),
                s.p99.to_string(),
                s.max.to_string(),
            ]);
        }
        let mut thr = Section::key_values("throughput (flits/node/cycle)");
        thr.kv("offered", format!("{:.4}", r.offered))
            .kv("accepted", format!("{:.4}", r.accepted));
        let mut util = Section::new(
            "utilisation by link class (flits/channel/cycle)",
            &["class", "channels", "utilisation"],
        );
        for u in &r.class_utilisation {
            util.row([
                u.class.clone(),
                u.channels.to_string(),
                format!("{:.4}", u.utilisation),
            ]);
        }
        let mut out = vec![self.run_section(), lat, thr, util];
        if let Some(d) = &r.deadlock {
            let mut s = Section::new(
                format!(
                    "deadlock at cycle {} ({} flits in flight): channel cycle, each waits for the next",
                    d.cycle, d.flits_in_flight
                ),
                &["step", "switch", "port", "vc", "peer"],
            );
            for (i, c) in d.channels.iter().enumerate() {
                s.row([
                    i.to_string(),
                    c.switch.to_string(),
                    c.port.to_string(),
                    c.vc.to_string(),
                    c.peer.to_string(),
                ]);
            }
            out.push(s);
        }
        out
    }
}

/// How a sweep of a setup runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepOptions {
    /// Run only this shard of the points.
    pub shard: Option<Shard>,
    /// Stop a series at its first saturated point (only when the x axis is the injection
    /// rate; otherwise every point runs anyway).
    pub stop_at_saturation: bool,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// Show a progress bar.
    pub progress: bool,
}

/// Worker threads for `threads` (0: all cores; never more than the cores,
/// [`crate::budget::threads_for`]).
pub fn worker_threads(threads: usize) -> usize {
    crate::budget::threads_for(threads, usize::MAX)
}

/// Runs the points of `setup`'s axes (its configuration at every point) and returns the
/// sweep's result.
pub fn sweep(setup: &Setup, opts: &SweepOptions) -> Result<SweepResult> {
    let plan = Plan::new(setup.axes.clone())?;
    let selected = plan.select(opts.shard).len() as u64;
    let threads = worker_threads(opts.threads);
    // Fail on a network or routing that cannot be built before starting the threads.
    {
        let owned = OwnedNetwork::build(&setup.topology)?;
        let net = owned.network();
        let mut store = RouteStore::default();
        routing::build(&net, &setup.route, &mut store)?;
    }
    let progress = Progress::new("sweep", selected, opts.progress);
    // Saturation ends a series only along the injection rate.
    let stop = opts.stop_at_saturation && plan.axes[plan.x_axis].key == "injection_rate";
    let records = sweep::run(
        &plan,
        opts.shard,
        stop,
        threads,
        &progress,
        |queue: &Queue<'_>| {
            let owned = OwnedNetwork::build(&setup.topology)?;
            let net = owned.network();
            let mut store = RouteStore::default();
            let (r, _) = routing::build(&net, &setup.route, &mut store)?;
            while let Some(p) = queue.next() {
                let cfg = plan.config(&setup.config, p)?;
                let res = crate::sim::run(&net, r.as_ref(), &cfg).map_err(|e| {
                    let s: Vec<String> =
                        p.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    anyhow!("sweep point {} ({}): {e}", p.index, s.join(" "))
                })?;
                queue.done(p, Record::new(p, &res));
            }
            Ok(())
        },
    );
    progress.finish();
    let records = records?;
    Ok(SweepResult {
        topology: setup.topology.to_string(),
        routing: setup.route.algo.name().to_string(),
        base: serde_json::to_value(&setup.config)?,
        axes: plan.axes.clone(),
        points: plan.points.len() as u32,
        stop_at_saturation: stop,
        shard: opts.shard,
        records,
    })
}
