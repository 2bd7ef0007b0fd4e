//! # jumpnet (host library)
//!
//! The library behind the `jumpnet` command. Every subcommand turns its flags into a plain
//! request of this library once ([`commands`]); the library computes plain data and never
//! parses a command line; printing is separate from computing ([`io::output`]). Topologies
//! are described by [`builder::topology::TopologySpec`] and built by
//! [`builder::network::OwnedNetwork`] over `jumpnet-core`. The layout is described in the
//! repository's `docs/architecture.md` §4.
//!
//! The requests, by subcommand: `jumpnet sim`, `sweep` and `hil` describe what to simulate
//! as a [`sim::setup::SetupRequest`] (resolved into a [`sim::setup::Setup`]) and a
//! collective as a [`runs::collective::CollectiveRun`]; `hil` adds a [`hil::HilRequest`];
//! `report` runs a [`report::Scenario`]; `map place` a [`builder::placement::PlaceRequest`];
//! `map ga` a [`ga::GaRequest`]; `sched` builds a [`builder::schedule::CollectiveRequest`];
//! `device image` a [`builder::image::DeviceImageRequest`]; `topo` and `route` take a
//! built network and [`builder::routing::RouteOptions`].
//!
//! ## Module map
//!
//! - [`commands`]: the command line only — clap arguments, their translation into the
//!   library's requests, and printing. Nothing else imports it.
//! - [`builder`]: from what users write to owned core objects: topology specifications
//!   ([`builder::topology`]), networks ([`builder::network`]), routings
//!   ([`builder::routing`]), route tables compiled and as people read them
//!   ([`builder::route_tables`]), collective schedules ([`builder::schedule`]), process
//!   placements ([`builder::placement`]) and device and program images
//!   ([`builder::image`]).
//! - [`analysis`]: what jumpnet computes without simulating: structure, distance metrics
//!   and cables of a topology ([`analysis::topology`]), routing checks
//!   ([`analysis::route_check`]), path statistics ([`analysis::path_stats`]), schedules as
//!   printed and their symbolic check ([`analysis::schedule`]).
//! - [`io`]: formats and output: edge lists, LFT dumps, DOT/GraphML export, images read
//!   back, SVG charts, byte sizes and time spans as users write them, table/JSON/CSV
//!   rendering and progress bars.
//! - [`budget`]: the one policy for resources sized by input: allocations checked against
//!   the memory available and the process's limits, thread counts clamped to the work and
//!   the machine.
//! - [`distances`]: all-pairs distance metrics (parallel fast paths and the reference BFS),
//!   used by `topo metrics` and `report`.
//! - [`sim`]: the flit-level, cycle-driven network simulator: [`sim::engine`],
//!   [`sim::router`], [`sim::network`], [`sim::workload`], and its front ends
//!   [`sim::setup`] (what to simulate, resolved from words and options), [`sim::config`]
//!   (TOML and BookSim2 files) and [`sim::sweep`].
//! - [`runs`]: simulation runs on a setup: synthetic traffic and load sweeps
//!   ([`runs::synthetic`]), collective runs ([`runs::collective`]) and collective sweeps
//!   ([`runs::collective_sweep`]).
//! - [`ga`]: GA node mapping on a torus, with the contention proxy or the simulator as its
//!   fitness.
//! - [`report`]: the main job — the topology comparison on a scenario, its hop counts and
//!   simulated makespans, written as Markdown, JSON and SVG.
//! - [`study`]: the papers' simulated studies (Dragonfly broadcasts B3, Galaxyfly
//!   all-to-all E1/E2, GA mapping C2/C4) with their claims checked, and the one
//!   [`study::claim::Claim`] type (the report's verdicts use it too).
//! - [`device`]: transports to devices (QEMU, probe-rs, a fault injector), the session
//!   link, and the retrying client that speaks the device protocol over them.
//! - [`hil`]: hardware-in-the-loop runs: the simulator with chosen nodes' NIC engines on
//!   devices (QEMU) or RTL (feature `rtl`), traces compared with the in-process run, golden
//!   trace files.
#![warn(missing_docs)]

pub mod analysis;
pub mod budget;
pub mod builder;
pub mod commands;
pub mod device;
pub mod distances;
pub mod ga;
pub mod hil;
pub mod io;
pub mod report;
pub mod runs;
pub mod sim;
pub mod study;
