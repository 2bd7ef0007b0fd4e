//! Flit-level, cycle-driven network simulator (issue 9; ARCHITECTURE.md §4): input-queued
//! VC routers with credit flow control and wormhole switching, configurable pipeline delays,
//! seeded synthetic traffic from `jumpnet_core::traffic`, bounded streaming statistics and a
//! deadlock watchdog. Library API: [`SimConfig`] in, [`SimResult`] out ([`run`]).
//!
//! Collective traffic ([`workload::collective`], issue 10): every terminal's NIC runs its rank's
//! `core::exec` program; messages become tagged packets of the same engine
//! ([`run_collective`]). [`workload::nic_engine`] holds the engines that run the programs: the
//! in-process executors by default, others (devices, RTL) in hardware-in-the-loop runs
//! ([`run_collective_with`], `crate::hil`); [`workload::background`] adds random traffic on the
//! terminals a collective does not use ([`run_collective_with_background`]).
//!
//! The command line's side lives here too: TOML configuration files ([`config::toml_file`]),
//! BookSim2 configuration files ([`config::booksim`]) and sweep planning, sharding and merging
//! ([`sweep`]).

pub mod config;
pub mod engine;
pub mod network;
pub mod router;
pub mod setup;
pub mod sweep;
pub mod workload;

#[cfg(test)]
mod tests;

pub use config::{Allocator, Injection, Pattern, SimConfig, SimConfigError};
pub use engine::phases::{run, run_parallel, run_trace};
pub use engine::stats::{DeadlockReport, Histogram, LatencyStats, SimResult, WaitingChannel};
pub use engine::SimError;
pub use workload::background::{BackgroundConfig, BackgroundStats};
pub use workload::collective::{
    run_collective, run_collective_with, run_collective_with_background, CollectiveError,
    CollectiveResult, NicConfig,
};
pub use workload::nic_engine::{ActionObserver, NicEngine, RunHooks};
