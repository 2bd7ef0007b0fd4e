//! `jumpnet sweep`: simulations over the injection rate (or any simulator key) on all cores,
//! stopping at saturation, with `--shard i/N` for cluster job arrays and `jumpnet sweep
//! merge` to join the shards ([`crate::runs::synthetic::sweep`]); with `--collective` or
//! collective axis words, collective sweeps ([`crate::runs::collective_sweep`]).

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Args, Subcommand};

use crate::commands::args::FormatArgs;
use crate::commands::sim::SetupArgs;
use crate::commands::sim_collective::CollectiveArgs;
use crate::io::outdir::OutDir;
use crate::io::output;
use crate::runs::collective_sweep::{self, CollectiveSweep};
use crate::runs::synthetic::{self, worker_threads, SweepOptions};
use crate::sim::sweep::collective::CollectiveSweepResult;
use crate::sim::sweep::{self, Shard, SweepResult};

/// Simulations over the injection rate (or any simulator key) on all cores, stopping at
/// saturation; --shard i/N and `sweep merge` for cluster job arrays; with --collective,
/// collective makespans over message size, mapping, algorithm, routing, background.
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
        /// Shard output directories (or their results.json files), each checked against
        /// the checksum its sweep wrote beside it.
        #[arg(required = true, value_name = "DIR")]
        parts: Vec<PathBuf>,
        /// Output directory of the merged results.csv, results.json, latency.svg and
        /// throughput.svg (a new or empty directory, or one jumpnet wrote).
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
    /// Output directory: results.csv, results.json, latency.svg, throughput.svg (a new or
    /// empty directory, or one jumpnet wrote, which is replaced whole; its manifest holds
    /// the files' checksums, which `sweep merge` verifies).
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
                .any(|w| collective_sweep::is_collective_word(w))
    }

    /// Runs the collective sweep: `collective=`-style words are the collective axes, the
    /// others the setup's words.
    fn sweep_collectives(&self) -> Result<CollectiveSweepResult> {
        if self.shard.is_some() {
            bail!("--shard is not supported for collective sweeps yet; run the whole sweep");
        }
        let (words, rest): (Vec<String>, Vec<String>) = self
            .setup
            .words
            .iter()
            .cloned()
            .partition(|w| collective_sweep::is_collective_word(w));
        let mut setup_args = self.setup.clone();
        setup_args.words = rest;
        let setup = setup_args.resolve(true)?;
        collective_sweep::sweep(&CollectiveSweep {
            setup: &setup,
            algorithm: self.collective.collective,
            base: &self.collective.options(),
            words: &words,
            threads: worker_threads(self.threads),
            progress: !self.quiet,
        })
    }

    /// Runs the sweep over the load (or any simulator key).
    fn sweep(&self) -> Result<SweepResult> {
        let setup = self.setup.resolve(true)?;
        synthetic::sweep(
            &setup,
            &SweepOptions {
                shard: self.shard,
                stop_at_saturation: !self.no_stop,
                threads: self.threads,
                progress: !self.quiet,
            },
        )
    }
}

/// Runs `jumpnet sweep` / `jumpnet sweep merge`.
pub fn run(args: SweepArgs) -> Result<u8> {
    match args.action {
        Some(SweepAction::Merge { parts, out, format }) => {
            let out = OutDir::claim(&out, "sweep merge", "--out")?;
            let parts = parts
                .iter()
                .map(|p| SweepResult::read_shard(p))
                .collect::<Result<Vec<_>>>()?;
            let merged = sweep::merge(parts)?;
            merged.write(out)?;
            output::print(&merged, format.format())?;
            Ok(0)
        }
        None => {
            let Some(out) = &args.run.out else {
                bail!("--out DIR is required: the sweep writes results.csv, results.json and its charts there");
            };
            let out = OutDir::claim(out, "sweep", "--out")?;
            if args.run.is_collective() {
                let result = args.run.sweep_collectives()?;
                result.write(out)?;
                output::print(&result, args.run.format.format())?;
                return Ok(0);
            }
            let result = args.run.sweep()?;
            result.write(out)?;
            output::print(&result, args.run.format.format())?;
            Ok(0)
        }
    }
}
