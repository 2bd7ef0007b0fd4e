//! The `jumpnet` command line, one module per subcommand.
//!
//! Every subcommand module holds its clap arguments, their translation into the library's
//! plain request (built here once, never by parsing a command line elsewhere), and a `run`
//! function that calls the library (which computes and returns plain data) and prints the
//! result with [`crate::io::output`]. Argument groups used by several subcommands live in
//! [`args`], the collective flags of `sim`, `sweep` and `hil` in [`sim_collective`].
//! [`Cli`] and [`Command`] are the top level; [`run`] only dispatches.
//!
//! - [`report`]: `jumpnet report`, the topology comparison on a scenario.
//! - [`topo`]: `jumpnet topo`, families, structure, metrics and export of a topology.
//! - [`route`]: `jumpnet route`, routing tables, checks and path statistics.
//! - [`map`]: `jumpnet map`, process mapping and GA node mapping.
//! - [`sched`]: `jumpnet sched`, collective schedules: show, verify, export programs, and
//!   read images back.
//! - [`device`]: `jumpnet device`, device images, flashing and reading devices.
//! - [`sim`]: `jumpnet sim`, one flit-level simulation (synthetic or collective traffic).
//! - [`sweep`]: `jumpnet sweep`, simulations over the load on all cores; shards and merge;
//!   collective sweeps.
//! - [`hil`]: `jumpnet hil`, hardware-in-the-loop collective runs with golden traces;
//!   [`hil_suite`]: `jumpnet hil suite`, regression suites of golden traces.
//! - [`study`]: `jumpnet study`, the papers' simulated studies.

use anyhow::Result;
use clap::{Parser, Subcommand};

pub mod args;
pub mod device;
pub mod hil;
pub mod hil_suite;
pub mod map;
pub mod report;
pub mod route;
pub mod sched;
pub mod sim;
pub mod sim_collective;
pub mod study;
pub mod sweep;
pub mod topo;

/// jumpnet: interconnection topologies, routing, process mappings and collective schedules.
#[derive(Debug, Parser)]
#[command(name = "jumpnet", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Top-level subcommands. A subcommand's arguments are built only when it runs or shows its
/// help (`defer`), so a run does not build the other subcommands' arguments: less start-up
/// memory and code touched (docs/booksim.md §6). Each subcommand's type carries the same doc
/// comment as its variant here, since the deferred arguments set the help's description.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// The main job: compare topologies on a scenario (default: the embedded N = 1,024,
    /// degree-19 comparison) — diameter, ASPL, cables, collective hop counts under several
    /// mappings and two-opt — written as Markdown + JSON + SVG charts, summary on stdout.
    Report(report::ReportArgs),
    /// Build a topology and inspect, measure or export it.
    Topo {
        /// Topology action.
        #[command(subcommand)]
        action: topo::TopoAction,
    },
    /// Deterministic routing: tables, delivery/loop/deadlock checks, path statistics.
    Route {
        /// Routing action.
        #[command(subcommand)]
        action: route::RouteAction,
    },
    /// Process mapping: place a collective's ranks on nodes and optimise the placement; GA
    /// node mapping on a torus.
    Map {
        /// Mapping action.
        #[command(subcommand)]
        action: map::MapAction,
    },
    /// Collective send schedules: show, verify symbolically, export per-rank programs, read
    /// images back.
    Sched {
        /// Schedule action.
        #[command(subcommand)]
        action: sched::SchedAction,
    },
    /// Device images; flash, inspect and compare a device (firmware under QEMU).
    Device {
        /// Device action.
        #[command(subcommand)]
        action: device::DeviceAction,
    },
    /// Flit-level simulation of a topology and routing: latency, throughput, utilisation;
    /// exit status 1 on deadlock.
    Sim(sim::SimArgs),
    /// Simulations over the injection rate (or any simulator key) on all cores, stopping at
    /// saturation; --shard i/N and `sweep merge` for cluster job arrays; with --collective,
    /// collective makespans over message size, mapping, algorithm, routing, background.
    Sweep(sweep::SweepArgs),
    /// Hardware in the loop: a collective on the simulator with chosen nodes' NIC engines
    /// on devices (firmware under QEMU) or RTL, traced and compared with the in-process
    /// run; exit status 1 on a divergence.
    Hil(hil::HilArgs),
    /// The papers' simulated studies: Dragonfly broadcasts ([DF-BC] B3), Galaxyfly
    /// all-to-all ([GF-A2A] E1/E2), with the papers' claims checked.
    Study {
        /// Which study.
        #[command(subcommand)]
        action: study::StudyAction,
    },
}

/// Runs the parsed command line; returns the process exit code (errors exit with 2).
pub fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Report(args) => report::run(args),
        Command::Topo { action } => topo::run(action),
        Command::Route { action } => route::run(action),
        Command::Map { action } => map::run(action),
        Command::Sched { action } => sched::run(action),
        Command::Device { action } => device::run(action),
        Command::Sim(args) => sim::run(args),
        Command::Sweep(args) => sweep::run(args),
        Command::Hil(args) => hil::run(args),
        Command::Study { action } => study::run(action),
    }
}
