//! `jumpnet topo`: families, structure, metrics and export of a topology
//! ([`crate::analysis::topology`], [`crate::io::export`]): the command's arguments
//! ([`TopoAction`]) and [`run`].

use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;

use crate::analysis::topology::{families, info, metrics};
use crate::builder::topology::FAMILIES;
use crate::commands::args::{FormatArgs, TopologyArgs};
use crate::io::export::{self, ExportFormat};
use crate::io::output::{self, Format};

/// `jumpnet topo ...` actions.
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
    /// Write the topology as DOT, GraphML or an edge list.
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
        } => {
            let net = topology.build()?;
            let text = export::export(&net.network(), format, &net.spec().to_string(), terminals)?;
            output::write_or_print(&text, path.as_deref())?;
        }
    }
    Ok(0)
}
