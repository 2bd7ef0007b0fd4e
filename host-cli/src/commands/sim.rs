//! `jumpnet sim`: one flit-level simulation ([`crate::sim::run`]) of a topology and a
//! routing, named as `jumpnet route` names them, with the simulator configuration from a
//! preset, a TOML file (`--config`), a BookSim2 file (`--booksim`) and `key=value`
//! overrides. [`SetupArgs`] (shared with `jumpnet sweep`) resolves all of these into a
//! [`Setup`]; [`simulate`] runs it and returns a [`SimReport`].
//!
//! The words after `sim` are the topology family, then `key=value` words: a key of the
//! family goes to the topology, a [`SimConfig`] key (or `rate` for `injection_rate`) to the
//! simulator; `sim.KEY=VALUE` always means the simulator (for `seed`, which
//! `random-shortcut` also has). Order of application: preset (`--preset`, else the TOML
//! file's, else `booksim`), then the TOML file's keys, then the `key=value` words.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use jumpnet_core::topology::Topology;
use serde::Serialize;

use crate::build::network::OwnedNetwork;
use crate::build::routing::{self, algo_parser, RouteAlgo, RouteOptions, RouteStore};
use crate::build::topology::{TopologySpec, FAMILIES};
use crate::commands::args::{FormatArgs, TopologyArgs};
use crate::io::output::{self, Render, Section};
use crate::io::progress::Progress;
use crate::sim::booksim;
use crate::sim::config::SimConfig;
use crate::sim::config_file::{ConfigFile, Preset};
use crate::sim::stats::SimResult;
use crate::sim::sweep::{canonical_key, Axis};

/// What to simulate: topology, routing and simulator configuration (shared by `jumpnet sim`
/// and `jumpnet sweep`).
#[derive(Debug, Args, Clone)]
pub struct SetupArgs {
    /// Topology family and key=value words: topology keys (e.g. `torus k=8,8`) and simulator
    /// keys (e.g. `injection_rate=0.1 num_vcs=2`; `rate` = injection_rate; `sim.seed=3`
    /// forces a simulator key). `jumpnet topo families` lists the topology keys; the
    /// simulator keys are those of `--config` files.
    #[arg(num_args = 0.., value_name = "TOPOLOGY|KEY=VALUE")]
    pub words: Vec<String>,
    /// Edge-list file for the `arbitrary` family.
    #[arg(long, value_name = "FILE")]
    pub edges: Option<PathBuf>,
    /// Routing algorithm (as `jumpnet route --algo`); required unless --booksim.
    #[arg(long, value_parser = algo_parser())]
    pub algo: Option<RouteAlgo>,
    /// Virtual-layer limit of DFSSSP and PARX.
    #[arg(long, default_value_t = 8)]
    pub max_layers: u8,
    /// Seed of the Valiant intermediate-group hash (the traffic seed is `seed=`).
    #[arg(long, default_value_t = 1)]
    pub valiant_seed: u64,
    /// Base configuration [default: the --config file's preset, else booksim].
    #[arg(long, value_enum)]
    pub preset: Option<Preset>,
    /// TOML configuration file: `preset = "booksim"|"ga"` and any simulator key.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// BookSim2 configuration file: topology, routing and parameters come from it
    /// (key=value words still override parameters).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["config", "preset", "algo", "edges"])]
    pub booksim: Option<PathBuf>,
}

/// A resolved simulation setup.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Topology.
    pub topology: TopologySpec,
    /// Routing options.
    pub route: RouteOptions,
    /// Simulator configuration (overrides applied, sweep axes not).
    pub config: SimConfig,
    /// Swept keys (`jumpnet sweep` only).
    pub axes: Vec<Axis>,
    /// Notes for the user (BookSim2 keys ignored, …).
    pub notes: Vec<String>,
}

fn read(path: &Path, what: &str) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {what} {}", path.display()))
}

/// Keys of a topology family (with `edges` for `arbitrary`).
fn family_keys(family: &str) -> Option<Vec<&'static str>> {
    let lower = family.to_ascii_lowercase();
    FAMILIES
        .iter()
        .find(|f| f.name == lower || f.aliases.contains(&lower.as_str()))
        .map(|f| f.keys.iter().map(|k| k.0).collect())
}

impl SetupArgs {
    /// Resolves the arguments; `sweep` allows `key=a:b:step` / `key=v1,v2` axes.
    pub fn resolve(&self, sweep: bool) -> Result<Setup> {
        let mut notes = Vec::new();
        let (topology_words, sim_words): (Vec<String>, Vec<String>);
        let (topology, algo, mut config) = if let Some(path) = &self.booksim {
            if let Some(w) = self.words.iter().find(|w| !w.contains('=')) {
                bail!(
                    "with --booksim the topology comes from the file: drop '{w}' (only simulator key=value words may follow)"
                );
            }
            sim_words = self.words.clone();
            let b = booksim::parse(&read(path, "BookSim2 config")?)
                .with_context(|| format!("in BookSim2 config {}", path.display()))?;
            if !b.ignored.is_empty() {
                notes.push(format!(
                    "BookSim2 keys without effect here: {}",
                    b.ignored.join(", ")
                ));
            }
            (b.topology, b.algo, b.config)
        } else {
            let Some((family, rest)) = self.words.split_first() else {
                bail!("missing topology: give a family and its key=value parameters, e.g. `jumpnet sim torus k=8,8 --algo dor-dateline injection_rate=0.1`, or --booksim FILE");
            };
            if family.contains('=') {
                bail!("the first word must be a topology family (e.g. torus), not '{family}'");
            }
            let keys = family_keys(family).unwrap_or_default();
            let mut topo = vec![family.clone()];
            let mut sim = Vec::new();
            for w in rest {
                let Some((k, _)) = w.split_once('=') else {
                    bail!("'{w}' is not key=value");
                };
                if k.starts_with("sim.") || !keys.contains(&k) {
                    sim.push(w.clone());
                } else {
                    topo.push(w.clone());
                }
            }
            topology_words = topo;
            sim_words = sim;
            let spec = TopologyArgs {
                topology: topology_words.clone(),
                edges: self.edges.clone(),
            }
            .spec()?;
            let Some(algo) = self.algo else {
                bail!("--algo is required (as for `jumpnet route`), e.g. --algo dor-dateline; `jumpnet sim --help` lists them");
            };
            let config = match &self.config {
                Some(path) => ConfigFile::parse(&read(path, "config file")?)
                    .and_then(|f| f.config(self.preset))
                    .map_err(|e| anyhow!("in config file {}: {e}", path.display()))?,
                None => self.preset.unwrap_or_default().config(),
            };
            (spec, algo, config)
        };
        let topo_keys = match &topology {
            TopologySpec::Arbitrary { .. } => family_keys("arbitrary"),
            t => family_keys(t.family_name()),
        }
        .unwrap_or_default();
        let mut axes = Vec::new();
        for w in &sim_words {
            let (k, v) = w.split_once('=').unwrap_or((w, ""));
            let bare = k.strip_prefix("sim.").unwrap_or(k);
            let key = canonical_key(bare);
            if !SimConfig::KEYS.contains(&key) {
                let topo_part = if self.booksim.is_some() {
                    String::new()
                } else {
                    format!(
                        "topology keys of {}: {}; ",
                        topology.family_name(),
                        topo_keys.join(", ")
                    )
                };
                bail!(
                    "unknown key '{bare}'; {topo_part}simulator keys: rate, {}",
                    SimConfig::KEYS.join(", ")
                );
            }
            if sweep && Axis::is_axis(w) {
                axes.push(Axis::parse(&format!("{key}={v}"))?);
            } else {
                config.set(key, v)?;
            }
        }
        Ok(Setup {
            topology,
            route: RouteOptions {
                algo,
                max_layers: self.max_layers,
                seed: self.valiant_seed,
            },
            config,
            axes,
            notes,
        })
    }
}

/// `jumpnet sim` arguments.
#[derive(Debug, Args, Clone)]
pub struct SimArgs {
    /// What to simulate.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Collective traffic instead of synthetic traffic.
    #[command(flatten)]
    pub collective: crate::commands::sim_collective::CollectiveArgs,
    /// Output format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// No progress spinner.
    #[arg(long, short)]
    pub quiet: bool,
    /// Threads that step the routers of this one simulation (0: all cores, at most one per
    /// 256 routers; synthetic traffic). The statistics are the same, byte for byte, for
    /// every value.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// Result of `jumpnet sim`: the setup and the engine's statistics (per-channel
/// utilisation left out; per link class kept).
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

/// Routers per thread below which `--threads 0` uses fewer threads (a cycle's work must
/// outweigh the per-cycle synchronisation).
const ROUTERS_PER_THREAD: u32 = 256;

/// Builds the network and routing of `setup` and runs `config` (the setup's, or a sweep
/// point's) on them, the routers stepped on `threads` threads (0: all cores, at most one
/// per [`ROUTERS_PER_THREAD`] routers; the result does not depend on it).
pub fn simulate(setup: &Setup, config: &SimConfig, threads: usize) -> Result<SimReport> {
    let owned = OwnedNetwork::build(&setup.topology)?;
    let net = owned.network();
    let mut store = RouteStore::default();
    let (r, info) = routing::build(&net, &setup.route, &mut store)?;
    let threads = match threads {
        0 => std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min((net.num_switches() / ROUTERS_PER_THREAD).max(1) as usize),
        n => n,
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
}

impl Render for SimReport {
    fn sections(&self) -> Vec<Section> {
        let r = &self.result;
        let c = &self.config;
        let mut run = Section::key_values("simulation");
        run.kv("topology", &self.topology)
            .kv(
                "routing",
                format!("{} ({} VCs)", self.routing, self.routing_vcs),
            )
            .kv("num_vcs", c.num_vcs)
            .kv("packet_size", c.packet_size)
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
        let mut out = vec![run, lat, thr, util];
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

/// Runs `jumpnet sim`: exit status 0, or 1 when the watchdog reports a deadlock (the report,
/// with the channel cycle, is printed and the cycle repeated on stderr).
pub fn run(args: SimArgs) -> Result<u8> {
    let setup = args.setup.resolve(false)?;
    for n in &setup.notes {
        eprintln!("note: {n}");
    }
    if args.collective.collective.is_none() && args.collective.background_mean.is_some() {
        bail!("--background-mean adds background traffic to a collective run: give --collective ALGO too");
    }
    if args.collective.collective.is_some() {
        let spinner = Progress::spinner("simulating the collective", !args.quiet);
        let report = crate::commands::sim_collective::simulate_compared(&setup, &args.collective);
        spinner.finish();
        output::print(&report?, args.format.format())?;
        return Ok(0);
    }
    let spinner = Progress::spinner("simulating", !args.quiet);
    let report = simulate(&setup, &setup.config, args.threads);
    spinner.finish();
    let report = report?;
    output::print(&report, args.format.format())?;
    match report.deadlock_line() {
        Some(line) => {
            eprintln!("{line}");
            Ok(1)
        }
        None => Ok(0),
    }
}
