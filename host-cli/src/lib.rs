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
//!   [`commands::topo`], [`commands::route`], [`commands::map`], [`commands::sched`],
//!   [`commands::sim`], [`commands::sweep`], [`commands::device`]) holds
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
//! - [`sim`]: the flit-level, cycle-driven network simulator (engine, statistics, watchdog)
//!   and its configuration files and sweeps.
//! - [`study`]: the seeds' simulated studies (Dragonfly broadcasts B3, Galaxyfly
//!   all-to-all E1/E2) with their paper claims checked.
//! - [`device`]: device images and transports to devices (QEMU, a fault injector) with a
//!   retrying client.
//!
//! - [`hil`]: hardware-in-the-loop runs: the simulator with chosen nodes' NIC engines on
//!   devices (QEMU) or RTL (feature `rtl`), traces compared with the in-process run, golden
//!   trace files.
#![warn(missing_docs)]

pub mod build;
pub mod commands;
pub mod device;
pub mod distances;
pub mod hil;
pub mod io;
pub mod sim;
pub mod study;
