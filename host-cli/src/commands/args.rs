//! Argument groups shared by several subcommands: the topology, the output format, the
//! routing and the collective schedule.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{algo_parser, RouteAlgo, RouteOptions};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement, OwnedSchedule};
use crate::builder::topology::TopologySpec;
use crate::io::bytes::parse_size;
use crate::io::output::Format;
use crate::sim::setup::topology_spec;

/// Routing algorithm choice.
#[derive(Debug, Args, Clone, Copy)]
pub struct RouteArgs {
    /// Routing algorithm.
    #[arg(long, value_parser = algo_parser(), default_value = "minimal")]
    pub algo: RouteAlgo,
    /// Virtual-layer limit of DFSSSP and PARX (InfiniBand hardware: 8; at most 16).
    #[arg(long, default_value_t = 8)]
    pub max_layers: u8,
    /// Seed of the Valiant intermediate-group hash.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl RouteArgs {
    /// Routing options.
    pub fn options(&self) -> RouteOptions {
        RouteOptions {
            algo: self.algo,
            max_layers: self.max_layers,
            seed: self.seed,
        }
    }
}

/// A collective schedule to build.
#[derive(Debug, Args, Clone)]
pub struct ScheduleArgs {
    /// Collective algorithm.
    #[arg(value_enum)]
    pub algorithm: Algorithm,
    /// Number of ranks (topology-aware broadcasts: job size, default all terminals).
    #[arg(long, short = 'n')]
    pub ranks: Option<u32>,
    /// Root rank of broadcasts (root supernode for sfata/rfata).
    #[arg(long, default_value_t = 0)]
    pub root: u32,
    /// Message size in bytes (per block for alltoall/allgather, whole buffer otherwise):
    /// 65536, 64KiB, 1MiB, 1GiB (binary), 64kB, 1MB, 1GB (decimal) or 2^20.
    #[arg(long, default_value = "8", value_parser = parse_size, value_name = "SIZE")]
    pub bytes: u64,
    /// Bytes per element of reductions: allreduce-ring cuts its --bytes vector into chunks of
    /// whole elements (--bytes must be a multiple); allreduce (recursive doubling) sends
    /// whole vectors and does not chunk.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    pub elem_bytes: u32,
    /// Topology of topology-aware algorithms, quoted: --topology "dragonfly g=9 a=4 p=2 h=2".
    #[arg(long, value_name = "TOPOLOGY")]
    pub topology: Option<String>,
    /// Where the job's ranks run on the topology.
    #[arg(long, value_enum, default_value = "consecutive")]
    pub placement: JobPlacement,
    /// Seed of random placements.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl ScheduleArgs {
    /// The library's request and the topology (built when given).
    pub fn request(&self) -> Result<(CollectiveRequest, Option<OwnedNetwork>)> {
        let net = match &self.topology {
            Some(t) => {
                let words: Vec<String> = t.split_whitespace().map(String::from).collect();
                Some(OwnedNetwork::build(&TopologySpec::parse(&words)?)?)
            }
            None => None,
        };
        let req = CollectiveRequest {
            algorithm: self.algorithm,
            ranks: self.ranks,
            root: self.root,
            bytes: self.bytes,
            elem_bytes: self.elem_bytes,
            placement: self.placement,
            seed: self.seed,
        };
        Ok((req, net))
    }

    /// Builds the schedule (and the topology when given).
    pub fn build(&self) -> Result<OwnedSchedule> {
        let (req, net) = self.request()?;
        schedule::build(&req, net.as_ref())
    }
}

/// Output-format flags shared by commands that print results.
#[derive(Debug, Args, Clone, Copy)]
pub struct FormatArgs {
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    pub csv: bool,
}

impl FormatArgs {
    /// The chosen format.
    pub fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else if self.csv {
            Format::Csv
        } else {
            Format::Table
        }
    }
}

/// A topology given as `<family> key=value ...`.
#[derive(Debug, Args, Clone)]
pub struct TopologyArgs {
    /// Topology: a family followed by key=value parameters, e.g. `gcirculant n=1024`,
    /// `dragonfly g=9 a=4 p=2 h=2`, `torus k=8,8`, `random-shortcut n=1024 d=19 seed=1`,
    /// `arbitrary --edges FILE`. `jumpnet topo families` lists all families and keys.
    #[arg(required = true, num_args = 1.., value_name = "TOPOLOGY")]
    pub topology: Vec<String>,
    /// Edge-list file for the `arbitrary` family (same as `edges=FILE`).
    #[arg(long, value_name = "FILE")]
    pub edges: Option<PathBuf>,
}

impl TopologyArgs {
    /// Parses the specification.
    pub fn spec(&self) -> Result<TopologySpec> {
        topology_spec(&self.topology, self.edges.as_deref())
    }

    /// Parses and builds the network.
    pub fn build(&self) -> Result<OwnedNetwork> {
        OwnedNetwork::build(&self.spec()?)
    }
}

/// Parses a positive finite number (a bandwidth, a rate): `0`, negatives, `inf` and `NaN`
/// are refused, as they make every time computed from it meaningless.
pub fn positive_f64(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(_) => Err(format!("'{text}' must be a positive finite number")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

/// Parses a finite number that is zero or positive (a latency, an overhead).
pub fn non_negative_f64(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(_) => Err(format!("'{text}' must be zero or a positive finite number")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}
