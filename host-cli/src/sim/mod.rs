//! Flit-level, cycle-driven network simulator (docs/architecture.md §4): input-queued
//! VC routers with credit flow control and wormhole switching, configurable pipeline delays,
//! seeded synthetic traffic from `jumpnet_core::traffic`, bounded streaming statistics and a
//! deadlock watchdog. Library API: [`SimConfig`] in, [`SimResult`] out ([`run`],
//! [`run_parallel`] on several threads with identical results, [`run_trace`] for explicit
//! packets, [`Engine`] to reuse one engine for many runs).
//!
//! The parts, one folder each:
//!
//! * [`engine`]: the cycle loop and the simulation state — terminals, packet pool, event
//!   wheel, traffic driver, clock — the router partitions for threads and the `Effects` seam
//!   that keeps multi-threaded runs byte-identical to single-threaded ones, the deadlock
//!   watchdog, the warm-up / sample / drain phases and the statistics. It reaches the routers
//!   only through their trait.
//! * [`router`]: the router microarchitectures behind the `RouterModel` trait and the
//!   [`RouterKind`] factory (the `router` key): the input-queued VC router owning its arrays
//!   ([`router::input_queued`]), its allocators, internal speedup, and the selection among
//!   an adaptive routing's candidates ([`router::selection`]).
//! * [`network`]: the port map with channel latencies per link class, flits and channel
//!   events, the event wheel, terminals and packets.
//! * [`workload`]: what the terminals inject — synthetic traffic, collectives whose NICs run
//!   their ranks' `core::exec` programs, background traffic.
//! * [`config`]: [`SimConfig`] with its presets and `key=value` overrides, TOML files
//!   ([`config::toml_file`]) and BookSim2 configuration files ([`config::booksim`]).
//! * [`sweep`]: sweeps over the load and other keys, sharding and merging.
//! * [`time_scale`]: link bandwidth and switch latency onto cycles, flit size and packet
//!   length (the time scale of `jumpnet report` and `jumpnet sim --collective --switch-ns`).
//!
//! Adaptive routing is candidates + selection: the core routing writes the candidate outputs
//! of a hop (`Routing::candidates`) and says whose channels they weigh
//! (`Routing::congestion_scope`); the router weighs them with its credits and commits the
//! cheapest. UGAL-L and UGAL-G are the core's `DragonflyUgal`; a routing whose candidates
//! weigh other routers' channels (UGAL-G) keeps the routers in one partition.
//!
//! Collective traffic ([`workload::collective`]): every terminal's NIC runs its rank's
//! `core::exec` program; messages become tagged packets of the same engine
//! ([`run_collective`]). [`workload::nic_engine`] holds the engines that run the programs: the
//! in-process executors by default, others (devices, RTL) in hardware-in-the-loop runs
//! ([`run_collective_with`] on a [`CollectiveInput`], `crate::hil`); [`workload::background`]
//! adds random traffic on the terminals a collective does not use
//! ([`run_collective_with_background`]).

pub mod config;
pub mod engine;
pub mod error;
pub mod network;
pub mod router;
pub mod setup;
pub mod sweep;
pub mod time_scale;
pub mod workload;

#[cfg(test)]
mod tests;

pub use config::{Allocator, Injection, Pattern, SimConfig, SimConfigError};
pub use engine::phases::{run, run_parallel, run_trace};
pub use engine::stats::{DeadlockReport, Histogram, LatencyStats, SimResult, WaitingChannel};
pub use engine::{Delivery, Engine};
pub use error::SimError;
pub use router::RouterKind;
pub use workload::background::{BackgroundConfig, BackgroundStats};
pub use workload::collective::{
    run_collective, run_collective_with, run_collective_with_background, CollectiveError,
    CollectiveInput, CollectiveResult, NicConfig,
};
pub use workload::nic_engine::{ActionObserver, NicEngine, RunHooks};
