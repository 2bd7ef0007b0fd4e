//! `jumpnet route`: routing tables ([`crate::builder::route_tables::tables`]),
//! delivery/loop/deadlock checks ([`crate::analysis::route_check`]) and path statistics
//! ([`crate::analysis::path_stats`]): the command's arguments ([`RouteAction`]) and [`run`].

use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;
use jumpnet_core::topology::Topology;

use crate::analysis::path_stats::path_stats;
use crate::analysis::route_check::{check, check_table};
use crate::builder::route_tables::{tables, tables_csv};
use crate::commands::args::{FormatArgs, RouteArgs, TopologyArgs};
use crate::io::output::{self, Format};

/// Output format of routing tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Runs of equal entries per switch.
    Table,
    /// JSON (runs per switch, image sizes, layers).
    Json,
    /// CSV: switch,destination,port,vc (with a VC rule:
    /// switch,destination,port,vc_class0,vc_class1,vc_rule).
    Csv,
    /// OpenSM-style linear forwarding table dump (`destination port` lines per switch).
    Lft,
}

/// Deterministic routing: tables, delivery/loop/deadlock checks, path statistics.
#[derive(Debug, Subcommand)]
pub enum RouteAction {
    /// Print or export the routing tables (destination -> port, VC) of every switch or one.
    Table {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// The routing.
        #[command(flatten)]
        route: RouteArgs,
        /// Only this switch.
        #[arg(long)]
        switch: Option<u32>,
        /// Output format.
        #[arg(long, short = 'f', value_enum, default_value = "table")]
        format: TableFormat,
        /// Write to this file instead of stdout (atomically).
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check delivery, loop freedom, minimality and deadlock freedom; exit code 0 only when
    /// everything passes.
    Check {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// The routing (ignored with --table).
        #[command(flatten)]
        route: RouteArgs,
        /// Check these user-supplied tables instead of an algorithm: an LFT dump, CSV or the
        /// JSON of `route table` (a `VCRule` makes the VC depend on the input class).
        #[arg(long, value_name = "FILE")]
        table: Option<PathBuf>,
        /// Fail when the routing needs more virtual channels than this (1..=255).
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
        vcs: Option<u8>,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// All-to-all path statistics: hop histogram and channel loads by link class.
    Stats {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// The routing.
        #[command(flatten)]
        route: RouteArgs,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
}

/// Runs `jumpnet route ...`; returns the exit code (1 when a check fails).
pub fn run(action: RouteAction) -> Result<u8> {
    match action {
        RouteAction::Table {
            topology,
            route: r,
            switch,
            format,
            output: path,
        } => {
            let net = topology.build()?;
            let t = tables(&net, &r.options(), switch)?;
            let text = match format {
                TableFormat::Table => output::render_to_string(&t, Format::Table)?,
                TableFormat::Json => output::render_to_string(&t, Format::Json)?,
                TableFormat::Csv => tables_csv(&t),
                TableFormat::Lft => t.lft_dump(),
            };
            output::write_or_print(&text, path.as_deref())?;
            Ok(0)
        }
        RouteAction::Check {
            topology,
            route: r,
            table,
            vcs,
            format,
        } => {
            let net = topology.build()?;
            let v = match table {
                Some(path) => {
                    let t = net.network();
                    // A table file holds at most a few dozen bytes per (switch, destination).
                    let max = (t.num_switches() as u64 * t.num_terminals() as u64)
                        .saturating_mul(64)
                        .saturating_add(1 << 20);
                    let text =
                        crate::io::read::read_text(&path, crate::io::read::Limit::table(max))?;
                    check_table(&net, &text, &path.display().to_string(), vcs)?
                }
                None => check(&net, &r.options(), vcs)?,
            };
            output::print(&v, format.format())?;
            if !v.passed {
                output::eprint_line("route check FAILED")?;
            }
            Ok(if v.passed { 0 } else { 1 })
        }
        RouteAction::Stats {
            topology,
            route: r,
            format,
        } => {
            let net = topology.build()?;
            output::print(&path_stats(&net, &r.options())?, format.format())?;
            Ok(0)
        }
    }
}
