//! `jumpnet study`: the papers' simulated studies ([`crate::study`]) — the Dragonfly
//! broadcasts of [DF-BC] (B3) and the Galaxyfly all-to-all broadcasts of [GF-A2A] (E1/E2),
//! with the papers' qualitative claims checked. The flags become the studies' requests
//! ([`crate::study::dragonfly_bcast::Params`], the Galaxyfly configurations and root).

use std::path::PathBuf;

use anyhow::{anyhow, Result};
use clap::{Args, Subcommand};

use crate::builder::routing::{algo_parser, RouteAlgo};
use crate::commands::args::FormatArgs;
use crate::io::bytes::parse_size;
use crate::io::outdir::OutDir;
use crate::io::output;
use crate::io::progress::Progress;
use crate::runs::synthetic::worker_threads;
use crate::study::{dragonfly_bcast, galaxyfly_a2a};

/// The papers' simulated studies: Dragonfly broadcasts ([DF-BC] B3), Galaxyfly
/// all-to-all ([GF-A2A] E1/E2), with the papers' claims checked.
#[derive(Debug, Subcommand)]
pub enum StudyAction {
    /// [DF-BC] B3: TREE/LLF/GLF/FOREST broadcast makespans over random allocations of
    /// growing size, per routing and background setting; writes table.csv, study.json,
    /// runs.csv and one chart per routing/background into --out.
    DragonflyBcast(DragonflyBcastArgs),
    /// [GF-A2A] E1/E2: SFATA and RFATA on Galaxyfly(n, q, a): delivery, redundancy,
    /// AvgTime/MaxTime/MinTime/AvgChannel beside the paper's Tables 3-4.
    GalaxyflyA2a(GalaxyflyA2aArgs),
}

/// `jumpnet study dragonfly-bcast` arguments.
#[derive(Debug, Args)]
pub struct DragonflyBcastArgs {
    /// Dragonfly (family and parameters, one string).
    #[arg(long, default_value = "dragonfly g=17 a=8 p=4 h=2")]
    pub topology: String,
    /// Simulator keys (repeatable): 512-byte packets of 16-byte flits plus a header flit
    /// ([DF-BC]'s 512-byte packets) and 64-flit VC buffers by default.
    #[arg(long = "set", value_name = "KEY=VALUE", default_values = ["packet_size=33", "vc_buf_size=64"])]
    pub set: Vec<String>,
    /// Allocation sizes (ranks).
    #[arg(long, value_delimiter = ',', default_value = "8,16,32,64,128,256,512")]
    pub sizes: Vec<u32>,
    /// Random allocations per size.
    #[arg(long, default_value_t = 5)]
    pub seeds: u32,
    /// Routings: minimal, Valiant (non-minimal), UGAL (adaptive).
    #[arg(
        long,
        value_delimiter = ',',
        value_parser = algo_parser(),
        default_value = "df-minimal,df-valiant,df-ugal-l"
    )]
    pub routings: Vec<RouteAlgo>,
    /// Job placements: random-order (random terminals, ranks shuffled: TREE is
    /// topology-oblivious) and random (ranks in ascending terminal order).
    #[arg(long, value_delimiter = ',', default_value = "random-order,random")]
    pub mappings: Vec<String>,
    /// Background settings: none, or the mean inter-arrival time per unused terminal
    /// ([DF-BC]: 100us; a time or cycles).
    #[arg(long, value_delimiter = ',', default_value = "none,100us,1us")]
    pub backgrounds: Vec<String>,
    /// Broadcast size.
    #[arg(long, default_value = "1KiB", value_parser = parse_size)]
    pub msg: u64,
    /// Link bandwidth in Gb/s ([DF-BC]: 5.25 GB/s local and terminal links = 42 Gb/s);
    /// positive.
    #[arg(long, default_value_t = 42.0, value_parser = crate::commands::args::positive_f64)]
    pub link_gbps: f64,
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Output directory (a new or empty directory, or one jumpnet wrote, which is replaced
    /// whole; checked before the study runs).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Stdout format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `jumpnet study galaxyfly-a2a` arguments.
#[derive(Debug, Args)]
pub struct GalaxyflyA2aArgs {
    /// Configurations `n,q,a` (repeatable) [default: the paper's five].
    #[arg(long = "config", value_name = "N,Q,A", value_parser = parse_config)]
    pub configs: Vec<(u32, u32, u32)>,
    /// Root supernode.
    #[arg(long, default_value_t = 0)]
    pub root: u32,
    /// Output directory for table.csv and study.json (a new or empty directory, or one
    /// jumpnet wrote, which is replaced whole).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Stdout format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_config(s: &str) -> Result<(u32, u32, u32), String> {
    let v: Vec<u32> = s
        .split(',')
        .map(|x| x.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("'{s}' is not n,q,a (three whole numbers, e.g. 3,5,4)"))?;
    match v[..] {
        [n, q, a] => Ok((n, q, a)),
        _ => Err(format!(
            "'{s}' is not n,q,a (three whole numbers, e.g. 3,5,4)"
        )),
    }
}

/// Runs `jumpnet study`.
pub fn run(action: StudyAction) -> Result<u8> {
    match action {
        StudyAction::DragonflyBcast(a) => {
            let out = OutDir::claim(&a.out, "study dragonfly-bcast", "--out")?;
            let mut words: Vec<String> = a.topology.split_whitespace().map(String::from).collect();
            words.extend(a.set.iter().cloned());
            let study = dragonfly_bcast::run(&dragonfly_bcast::Params {
                words,
                sizes: a.sizes.clone(),
                seeds: a.seeds,
                routings: a.routings.clone(),
                mappings: a.mappings.clone(),
                backgrounds: a.backgrounds.clone(),
                msg_bytes: a.msg,
                link_gbps: a.link_gbps,
                threads: worker_threads(a.threads),
                progress: !a.quiet,
            })?;
            study.write(out)?;
            output::print(&study, a.format.format())?;
            Ok(0)
        }
        StudyAction::GalaxyflyA2a(a) => {
            let configs = if a.configs.is_empty() {
                galaxyfly_a2a::CONFIGS.to_vec()
            } else {
                a.configs.clone()
            };
            let out = a
                .out
                .as_ref()
                .map(|dir| OutDir::claim(dir, "study galaxyfly-a2a", "--out"))
                .transpose()?;
            let progress = Progress::new("galaxyfly a2a", 2 * configs.len() as u64, !a.quiet);
            let study = galaxyfly_a2a::run(&configs, a.root, || progress.inc(1))?;
            progress.finish();
            if let Some(out) = out {
                study.write(out).map_err(|e| anyhow!("{e:#}"))?;
            }
            output::print(&study, a.format.format())?;
            Ok(0)
        }
    }
}
