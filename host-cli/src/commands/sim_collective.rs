//! `jumpnet sim --collective ALGO`: runs a collective schedule (any `jumpnet sched`
//! algorithm) under a placement on the flit-level simulator ([`crate::sim::workload::collective`])
//! and reports its makespan, the ranks' finish times, link-class utilisation and the
//! critical path.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use jumpnet_core::collective::Schedule;
use jumpnet_core::topology::{Network, Topology};
use serde::Serialize;

use crate::builder::network::OwnedNetwork;
use crate::builder::placement::{self, MapStrategy, Optimiser, RankOrderChoice, Traffic};
use crate::builder::routing::{self, RouteStore};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::commands::sim::Setup;
use crate::io::bytes::parse_size;
use crate::io::duration::{parse_span, Span};
use crate::io::output::{Render, Section};
use crate::sim::config::SimConfig;
use crate::sim::workload::background::BackgroundConfig;
use crate::sim::workload::collective::{
    run_collective_with_background, CollectiveResult, CollectiveRun, NicConfig,
};

/// Rank → terminal placements of `--mapping`.
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

/// Collective options of `jumpnet sim`.
#[derive(Debug, Args, Clone)]
pub struct CollectiveArgs {
    /// Run this collective (as `jumpnet sched`) instead of synthetic traffic.
    #[arg(long, value_enum)]
    pub collective: Option<Algorithm>,
    /// Rank → terminal placement.
    #[arg(long, value_enum, default_value = "consecutive")]
    pub mapping: Mapping,
    /// Placement from a file: terminal of rank 0, 1, … (whitespace or comma separated,
    /// `#` comments); overrides --mapping.
    #[arg(long, value_name = "FILE")]
    pub permutation: Option<PathBuf>,
    /// Ranks [default: every terminal; topology-aware broadcasts: the job size].
    #[arg(long)]
    pub ranks: Option<u32>,
    /// Root rank of broadcasts (root supernode of SFATA/RFATA).
    #[arg(long, default_value_t = 0)]
    pub root: u32,
    /// Message size (as `jumpnet sched --bytes`: per block for alltoall/allgather, whole
    /// vector otherwise), e.g. 1MiB.
    #[arg(long, default_value = "1KiB", value_parser = parse_size)]
    pub msg: u64,
    /// Bytes per element of reductions.
    #[arg(long, default_value_t = 4)]
    pub elem_bytes: u32,
    /// Bytes per flit.
    #[arg(long, default_value_t = 16)]
    pub flit_bytes: u32,
    /// Header flits per packet (`packet_size=` sets the packet length in flits).
    #[arg(long, default_value_t = 1)]
    pub header_flits: u16,
    /// NIC cycles from a send to its packets entering the network queue.
    #[arg(long, default_value_t = 0)]
    pub send_overhead: u64,
    /// NIC cycles from a message's arrival to the NIC seeing it.
    #[arg(long, default_value_t = 0)]
    pub recv_overhead: u64,
    /// NIC cycles per byte of a reducing receive.
    #[arg(long, default_value_t = 0.0)]
    pub reduce_cycles_per_byte: f64,
    /// Link bandwidth in Gb/s (one flit per cycle: sets the clock for seconds).
    #[arg(long, default_value_t = 100.0)]
    pub link_gbps: f64,
    /// Seed of random mappings and the optimisers.
    #[arg(long, default_value_t = 1)]
    pub map_seed: u64,
    /// Iterations of two-opt / annealing.
    #[arg(long, default_value_t = 10_000)]
    pub map_iterations: u64,
    /// Skip the data-flow check.
    #[arg(long)]
    pub no_check: bool,
    /// Background traffic on the terminals the collective does not use: mean inter-arrival
    /// time per terminal, as a time (`100us`, at the clock of --link-gbps) or in cycles
    /// (`5000`). Messages go to random other unused terminals ([DF-BC]: 100us, 1 KiB).
    #[arg(long, value_name = "TIME|CYCLES", value_parser = parse_span)]
    pub background_mean: Option<Span>,
    /// Bytes per background message.
    #[arg(long, default_value = "1KiB", value_parser = parse_size)]
    pub background_bytes: u64,
    /// Seed of the background traffic.
    #[arg(long, default_value_t = 1)]
    pub background_seed: u64,
}

impl CollectiveArgs {
    /// The background traffic of these arguments at `clock_ghz`, if any.
    pub fn background(&self, clock_ghz: f64) -> Option<BackgroundConfig> {
        self.background_mean.map(|m| BackgroundConfig {
            mean_cycles: m.cycles(clock_ghz),
            bytes: self.background_bytes,
            seed: self.background_seed,
        })
    }
}

/// Result of `jumpnet sim --collective`.
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
    /// `--msg` in bytes.
    pub msg_bytes: u64,
    /// Terminal of every rank.
    pub terminals: Vec<u32>,
    /// Simulator configuration.
    pub config: SimConfig,
    /// NIC configuration.
    pub nic: NicConfig,
    /// Wall-clock seconds of the simulation.
    pub wall_seconds: f64,
    /// Makespan of the same run without background traffic (`jumpnet sim` with
    /// `--background-mean` runs both), cycles.
    pub makespan_without_background: Option<u64>,
    /// The result.
    #[serde(flatten)]
    pub result: CollectiveResult,
}

fn read_permutation(path: &PathBuf) -> Result<Vec<u32>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read permutation file {}", path.display()))?;
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

/// Terminal of every switch in a one-terminal-per-switch network.
pub(crate) fn node_terminals(net: &Network<'_>) -> Result<Vec<u32>> {
    placement::check_one_node_per_switch(net)?;
    let mut of = vec![u32::MAX; net.num_switches() as usize];
    for t in 0..net.num_terminals() {
        let s = net
            .terminal_switch(t)
            .ok_or_else(|| anyhow!("terminal {t} has no switch"))?;
        of[s as usize] = t;
    }
    Ok(of)
}

fn place(
    net: &Network<'_>,
    args: &CollectiveArgs,
    sched: &schedule::OwnedSchedule,
) -> Result<Vec<u32>> {
    let n = sched.schedule()?.ranks();
    if let Some(path) = &args.permutation {
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
            args.mapping,
            Mapping::Consecutive | Mapping::Random | Mapping::RandomOrder
        ) {
            bail!(
                "--mapping {} does not apply to the topology-aware {}: it places its own job (--mapping consecutive, random or random-order, or --permutation FILE)",
                format!("{:?}", args.mapping).to_lowercase(),
                sched.description
            );
        }
        return Ok(t.clone());
    }
    let strategy = match args.mapping {
        Mapping::Consecutive => return Ok((0..n).collect()),
        Mapping::Ring => MapStrategy::Ring,
        Mapping::Random | Mapping::RandomOrder | Mapping::TwoOpt | Mapping::Anneal => {
            MapStrategy::Random
        }
        Mapping::Tree => MapStrategy::Tree,
        Mapping::Circulant => MapStrategy::Circulant,
    };
    let of = node_terminals(net)?;
    let mut nodes = placement::initial(net, strategy, RankOrderChoice::Paper, n, args.map_seed)?;
    let optimiser = match args.mapping {
        Mapping::TwoOpt => Optimiser::TwoOpt,
        Mapping::Anneal => Optimiser::Anneal,
        _ => Optimiser::None,
    };
    if optimiser != Optimiser::None {
        let s = sched.schedule()?;
        let (mut dist, mut queue) = (Vec::new(), Vec::new());
        let dm = routing::distance_matrix(net, &mut dist, &mut queue)?;
        let traffic = Traffic::of(&s)?;
        placement::optimise(
            &dm,
            &traffic,
            &mut nodes,
            optimiser,
            args.map_iterations,
            args.map_seed ^ 0x7770_0007,
            &mut |_, _, _| {},
        )?;
    }
    Ok(nodes.iter().map(|&s| of[s as usize]).collect())
}

/// A collective run's inputs as `jumpnet sim --collective` resolves them: network,
/// schedule, placement and NIC parameters (the routing is built from `Setup::route` by
/// whoever runs it, as it borrows the network).
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
    /// The placement's name (`file` for `--permutation`).
    pub mapping: String,
}

/// Builds the network, schedule, placement and NIC parameters of `args`.
pub fn prepare(setup: &Setup, args: &CollectiveArgs) -> Result<PreparedCollective> {
    let Some(algorithm) = args.collective else {
        bail!("no --collective given");
    };
    let owned = OwnedNetwork::build(&setup.topology)?;
    let net = owned.network();
    let req = CollectiveRequest {
        algorithm,
        ranks: args
            .ranks
            .or_else(|| (!algorithm.needs_topology()).then(|| net.num_terminals())),
        root: args.root,
        bytes: args.msg,
        elem_bytes: args.elem_bytes,
        placement: match args.mapping {
            Mapping::Random => JobPlacement::Random,
            Mapping::RandomOrder => JobPlacement::RandomOrder,
            _ => JobPlacement::Consecutive,
        },
        seed: args.map_seed,
    };
    let sched = schedule::build(&req, Some(&owned))?;
    let terminals = place(&net, args, &sched)?;
    let nic = NicConfig {
        flit_bytes: args.flit_bytes,
        header_flits: args.header_flits,
        send_overhead: args.send_overhead,
        recv_overhead: args.recv_overhead,
        reduce_cycles_per_byte: args.reduce_cycles_per_byte,
        link_gbps: args.link_gbps,
        check_data: !args.no_check,
        allow_redundant: sched.allow_redundant,
    };
    let mapping = if args.permutation.is_some() {
        "file".into()
    } else {
        format!("{:?}", args.mapping).to_lowercase()
    };
    Ok(PreparedCollective {
        owned,
        sched,
        terminals,
        nic,
        mapping,
    })
}

/// Builds the network, routing, schedule and placement and runs the collective.
pub fn simulate(setup: &Setup, args: &CollectiveArgs) -> Result<CollectiveReport> {
    let p = prepare(setup, args)?;
    let net = p.owned.network();
    let mut store = RouteStore::default();
    let (r, info) = routing::build(&net, &setup.route, &mut store)?;
    let s = p.sched.schedule()?;
    let background = args.background(p.nic.clock_ghz());
    let started = std::time::Instant::now();
    let run = CollectiveRun {
        net: &net,
        routing: r.as_ref(),
        config: &setup.config,
        nic: &p.nic,
        schedule: &s,
        terminals: &p.terminals,
    };
    let result =
        run_collective_with_background(&run, background.as_ref()).map_err(|e| anyhow!("{e}"))?;
    Ok(CollectiveReport {
        topology: setup.topology.to_string(),
        routing: info.algorithm,
        collective: p.sched.description.clone(),
        mapping: p.mapping.clone(),
        msg_bytes: args.msg,
        terminals: p.terminals,
        config: setup.config.clone(),
        nic: p.nic,
        wall_seconds: started.elapsed().as_secs_f64(),
        makespan_without_background: None,
        result,
    })
}

/// [`simulate`], and with background traffic also the same run without it, so the report
/// gives the makespan with and without background.
pub fn simulate_compared(setup: &Setup, args: &CollectiveArgs) -> Result<CollectiveReport> {
    let mut report = simulate(setup, args)?;
    if args.background_mean.is_some() {
        let quiet = CollectiveArgs {
            background_mean: None,
            ..args.clone()
        };
        report.makespan_without_background = Some(simulate(setup, &quiet)?.result.makespan_cycles);
    }
    Ok(report)
}

impl Render for CollectiveReport {
    fn sections(&self) -> Vec<Section> {
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
        let mut out = vec![s, fin, util, cp];
        if let Some(b) = &r.background {
            let mut bg =
                Section::key_values("background traffic (terminals outside the collective)");
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
            out.push(bg);
        }
        out
    }
}
