//! # jumpnet (host library)
//!
//! The library behind the `jumpnet` command: every subcommand computes plain data in library
//! functions, and printing is separate. Topologies are described by
//! [`build::topology::TopologySpec`] and built by [`build::network::OwnedNetwork`] over
//! `jumpnet-core`.
//!
//! ## Module map
//!
//! - [`commands`]: the command line. [`commands::Cli`] and [`commands::Command`] are the top
//!   level and [`commands::run`] dispatches; one module per subcommand ([`commands::report`],
//!   [`commands::topo`], [`commands::route`], [`commands::map`], [`commands::sched`]) holds
//!   the functions that compute its results, its clap arguments and its `run`;
//!   [`commands::args`] holds the argument groups several subcommands share (topology,
//!   output format, routing, schedule).
//! - [`build`]: builders from what users write to owned core objects: topology
//!   specifications ([`build::topology`]), networks ([`build::network`]), routings
//!   ([`build::routing`]), collective schedules ([`build::schedule`]) and process placements
//!   ([`build::placement`]).
//! - [`io`]: formats and output: edge lists, LFT dumps, DOT/GraphML export, SVG charts,
//!   table/JSON/CSV rendering and progress bars.
//! - [`distances`]: all-pairs distance metrics (parallel fast paths and the reference BFS),
//!   used by `topo metrics` and `report`.
//!
//! Later work adds `sim/` (the flit-level simulator engine), `device/` (transports to
//! devices: QEMU, probe-rs, a fault injector) and `hil/` (hardware-in-the-loop runs of the
//! simulator against device or RTL engines, golden traces) next to these.
#![warn(missing_docs)]

pub mod build;
pub mod commands;
pub mod distances;
pub mod io;
pub mod sim;

/// The command-line side of the simulator: TOML configuration files
/// ([`sim_cli::config_file`]), BookSim2 configuration files ([`sim_cli::booksim`]) and sweep
/// planning, sharding and merging ([`sim_cli::sweep`]). The files live in `sim/` beside the
/// engine; they are declared here so that `sim/mod.rs` stays the engine's.
#[path = "sim"]
pub mod sim_cli {
    pub mod booksim;
    pub mod config_file;
    pub mod sweep;
}
