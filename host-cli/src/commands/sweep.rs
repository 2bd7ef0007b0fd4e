//! `jumpnet sweep`: simulations over the injection rate (or any simulator key) on all cores,
//! stopping at saturation, with `--shard i/N` for cluster job arrays and `jumpnet sweep
//! merge` to join the shards ([`crate::sim::sweep`] plans, runs and merges).

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Args, Subcommand};

use crate::build::network::OwnedNetwork;
use crate::build::routing::{self, RouteStore};
use crate::commands::args::FormatArgs;
use crate::commands::sim::SetupArgs;
use crate::commands::sim_collective::CollectiveArgs;
use crate::commands::sweep_collective::{self, CollectiveSweep};
use crate::io::output;
use crate::io::progress::Progress;
use crate::sim::sweep::collective::CollectiveSweepResult;
use crate::sim::sweep::{self, Plan, Queue, Record, Shard, SweepResult};

/// `jumpnet sweep` arguments: either a sweep or `merge`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SweepArgs {
    /// `merge` instead of a sweep.
    #[command(subcommand)]
    pub action: Option<SweepAction>,
    /// The sweep.
    #[command(flatten)]
    pub run: SweepRunArgs,
}

/// Sweep subcommands.
#[derive(Debug, Subcommand)]
pub enum SweepAction {
    /// Merge the outputs of the shards `0/N … N-1/N` of one sweep into the whole sweep's
    /// outputs (byte for byte what the unsharded sweep writes).
    Merge {
        /// Shard output directories (or their results.json files).
        #[arg(required = true, value_name = "DIR")]
        parts: Vec<PathBuf>,
        /// Output directory of the merged results.csv, results.json, latency.svg and
        /// throughput.svg.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Stdout format of the merged table.
        #[command(flatten)]
        format: FormatArgs,
    },
}

/// A sweep run.
#[derive(Debug, Args)]
pub struct SweepRunArgs {
    /// Topology, routing and base configuration as for `jumpnet sim`; the words may include
    /// swept keys `key=a:b:step` (inclusive) or `key=v1,v2,...`, e.g. `rate=0.02:0.5:0.04`.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Output directory: results.csv, results.json, latency.svg, throughput.svg (written
    /// atomically; created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Run only shard i of N (0 <= i < N): the points whose number is i modulo N.
    #[arg(long, value_name = "i/N")]
    pub shard: Option<Shard>,
    /// Run every point (do not stop a series at its first saturated point). Without a swept
    /// injection rate every point runs anyway.
    #[arg(long)]
    pub no_stop: bool,
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Stdout format of the results table.
    #[command(flatten)]
    pub format: FormatArgs,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Collective sweeps: the options of `jumpnet sim --collective` (the base run) plus axes
    /// `collective=`, `msg=`, `mapping=`, `ranks=`, `map_seed=`, `routing=`, `background=`
    /// written as words, e.g. `collective=tree,llf msg=256B,1KiB,64KiB`.
    #[command(flatten)]
    pub collective: CollectiveArgs,
}

impl SweepRunArgs {
    /// Whether this is a collective sweep (`--collective` or a `collective=` word).
    pub fn is_collective(&self) -> bool {
        self.collective.collective.is_some()
            || self
                .setup
                .words
                .iter()
                .any(|w| sweep_collective::is_collective_word(w))
    }

    fn threads(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        }
    }
}

/// Runs the collective sweep of `args` (library entry of `jumpnet sweep --collective`).
pub fn sweep_collectives(args: &SweepRunArgs) -> Result<CollectiveSweepResult> {
    if args.shard.is_some() {
        bail!("--shard is not supported for collective sweeps yet; run the whole sweep");
    }
    let (words, rest): (Vec<String>, Vec<String>) = args
        .setup
        .words
        .iter()
        .cloned()
        .partition(|w| sweep_collective::is_collective_word(w));
    let mut setup_args = args.setup.clone();
    setup_args.words = rest;
    let setup = setup_args.resolve(true)?;
    for n in &setup.notes {
        eprintln!("note: {n}");
    }
    sweep_collective::run_sweep(&CollectiveSweep {
        setup: &setup,
        base: &args.collective,
        words: &words,
        threads: args.threads(),
        progress: !args.quiet,
    })
}

/// Runs the sweep of `args` and returns its result (library entry of `jumpnet sweep`).
pub fn sweep(args: &SweepRunArgs) -> Result<SweepResult> {
    let setup = args.setup.resolve(true)?;
    for n in &setup.notes {
        eprintln!("note: {n}");
    }
    let plan = Plan::new(setup.axes.clone())?;
    let selected = plan.select(args.shard).len() as u64;
    let threads = args.threads();
    // Fail on a network or routing that cannot be built before starting the threads.
    {
        let owned = OwnedNetwork::build(&setup.topology)?;
        let net = owned.network();
        let mut store = RouteStore::default();
        routing::build(&net, &setup.route, &mut store)?;
    }
    let progress = Progress::new("sweep", selected, !args.quiet);
    // Saturation ends a series only along the injection rate.
    let stop = !args.no_stop && plan.axes[plan.x_axis].key == "injection_rate";
    let records = sweep::run(
        &plan,
        args.shard,
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
                    anyhow::anyhow!("sweep point {} ({}): {e}", p.index, s.join(" "))
                })?;
                queue.done(p, Record::new(p, &res));
            }
            Ok(())
        },
    );
    progress.finish();
    let records = records?;
    let routing_name = setup.route.algo.name().to_string();
    Ok(SweepResult {
        topology: setup.topology.to_string(),
        routing: routing_name,
        base: serde_json::to_value(&setup.config)?,
        axes: plan.axes.clone(),
        points: plan.points.len() as u32,
        stop_at_saturation: stop,
        shard: args.shard,
        records,
    })
}

/// Runs `jumpnet sweep` / `jumpnet sweep merge`.
pub fn run(args: SweepArgs) -> Result<u8> {
    match args.action {
        Some(SweepAction::Merge { parts, out, format }) => {
            let parts = parts
                .iter()
                .map(|p| SweepResult::read(p))
                .collect::<Result<Vec<_>>>()?;
            let merged = sweep::merge(parts)?;
            merged.write(&out)?;
            output::print(&merged, format.format())?;
            Ok(0)
        }
        None => {
            let Some(out) = &args.run.out else {
                bail!("--out DIR is required: the sweep writes results.csv, results.json and its charts there");
            };
            if args.run.is_collective() {
                let result = sweep_collectives(&args.run)?;
                result.write(out)?;
                output::print(&result, args.run.format.format())?;
                return Ok(0);
            }
            let result = sweep(&args.run)?;
            result.write(out)?;
            output::print(&result, args.run.format.format())?;
            Ok(0)
        }
    }
}
