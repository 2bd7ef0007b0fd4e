//! `jumpnet topo`: families, structure, metrics and export of a topology
//! ([`crate::analysis::topology`], [`crate::io::export`]): the command's arguments
//! ([`TopoAction`]) and [`run`].

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::Subcommand;
use jumpnet_core::topology::{Network, Port, Topology};

use crate::analysis::topology::{families, info, metrics};
use crate::builder::topology::FAMILIES;
use crate::commands::args::{FormatArgs, TopologyArgs};
use crate::io::export::{self, ExportFormat};
use crate::io::output::{self, Format};
use crate::sim::network::class_latency::ClassLatency;

/// The anynet file of `net` with the class latencies `words` (`<class>_latency=CYCLES`)
/// on its links (a network's own per-channel latencies win; terminals take 1 cycle).
fn anynet_text(net: &Network<'_>, words: &[String]) -> Result<String> {
    let mut classes = ClassLatency::default();
    for w in words {
        let (k, v) = w.split_once('=').ok_or_else(|| {
            anyhow!("--latency {w}: write CLASS_latency=CYCLES, e.g. global_latency=100")
        })?;
        let cycles = v.parse::<u16>().ok().filter(|&c| c >= 1).ok_or_else(|| {
            anyhow!("--latency {w}: `{v}` is not a number of cycles in 1..=65535")
        })?;
        let slot = classes.slot(k).ok_or_else(|| {
            anyhow!(
                "--latency {w}: `{k}` is not a link class latency; allowed: {}",
                ClassLatency::KEYS.join(", ")
            )
        })?;
        *slot = Some(cycles);
    }
    crate::io::anynet::write(net, |s, p| {
        net.port_latency(s, p)
            .unwrap_or_else(|| match net.port(s, p) {
                Port::Link(l) => classes.of(l.class).and_then(|(_, v)| v).unwrap_or(1),
                _ => 1,
            })
    })
}

/// Build a topology and inspect, measure or export it.
#[derive(Debug, Subcommand)]
pub enum TopoAction {
    /// List the topology families and their parameters.
    Families,
    /// Structure: switches, terminals, ports, links by class, degrees.
    Info {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Distance metrics (diameter, ASPL, eccentricities, histogram), degrees, cable length.
    Metrics {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
        /// Also compute with the plain reference BFS and check both agree.
        #[arg(long)]
        check: bool,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Write the topology as DOT, GraphML, an edge list or a BookSim2 anynet file.
    Export {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// Export format.
        #[arg(long, short = 'f', value_enum, default_value = "edges")]
        format: ExportFormat,
        /// Output file (default: stdout). Written atomically.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Include terminal nodes and links (DOT and GraphML).
        #[arg(long)]
        terminals: bool,
        /// Channel latency of a link class in the anynet file, as the simulator key
        /// (`global_latency=100`, `shortcut_latency=3`, `dim_latency=2`, …; repeatable;
        /// other channels 1 cycle, or the network's own latencies).
        #[arg(long = "latency", value_name = "CLASS_latency=CYCLES")]
        latencies: Vec<String>,
    },
}

/// Runs `jumpnet topo ...`; returns the exit code.
pub fn run(action: TopoAction) -> Result<u8> {
    match action {
        TopoAction::Families => output::print(&families(FAMILIES), Format::Table)?,
        TopoAction::Info { topology, format } => {
            let net = topology.build()?;
            output::print(&info(&net), format.format())?;
        }
        TopoAction::Metrics {
            topology,
            format,
            check,
            quiet,
        } => {
            let net = topology.build()?;
            let m = metrics(&net, check, !quiet)?;
            output::print(&m, format.format())?;
        }
        TopoAction::Export {
            topology,
            format,
            output: path,
            terminals,
            latencies,
        } => {
            let net = topology.build()?;
            let text = if format == ExportFormat::Anynet {
                anynet_text(&net.network(), &latencies)?
            } else if let Some(l) = latencies.first() {
                bail!("--latency {l}: channel latencies are written by -f anynet only");
            } else {
                export::export(&net.network(), format, &net.spec().to_string(), terminals)?
            };
            output::write_or_print(&text, path.as_deref())?;
        }
    }
    Ok(0)
}
