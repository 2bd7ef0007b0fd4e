//! Flit-level, cycle-driven network simulator (issue 9; ARCHITECTURE.md §4): input-queued
//! VC routers with credit flow control and wormhole switching, configurable pipeline delays,
//! seeded synthetic traffic from `jumpnet_core::traffic`, bounded streaming statistics and a
//! deadlock watchdog. Library API: [`SimConfig`] in, [`SimResult`] out ([`run`]).
//!
//! Collective traffic ([`collective`], issue 10): every terminal's NIC runs its rank's
//! `core::exec` program; messages become tagged packets of the same engine
//! ([`run_collective`]). [`nic_engine`] holds the engines that run the programs: the
//! in-process executors by default, others (devices, RTL) in hardware-in-the-loop runs
//! ([`run_collective_with`], `crate::hil`); [`background`] adds random traffic on the
//! terminals a collective does not use ([`run_collective_with_background`]).
//!
//! The command line's side lives here too: TOML configuration files ([`config_file`]),
//! BookSim2 configuration files ([`booksim`]) and sweep planning, sharding and merging
//! ([`sweep`]).

pub mod allocator;
pub mod background;
pub mod booksim;
pub mod class_latency;
pub mod collective;
pub mod config;
pub mod config_file;
pub mod engine;
pub mod ga_fitness;
pub mod ga_pool;
pub mod network;
pub mod nic_engine;
mod partition;
pub mod phases;
mod reset;
pub mod router;
pub mod speedup;
pub mod stats;
pub mod sweep;
pub mod terminal;
pub mod time_scale;
pub mod traffic;
pub mod watchdog;

#[cfg(test)]
mod collective_tests;
#[cfg(test)]
mod ga_tests;
#[cfg(test)]
mod latency_tests;
#[cfg(test)]
mod parallel_tests;
#[cfg(test)]
mod speedup_tests;
#[cfg(test)]
mod tests;

pub use background::{BackgroundConfig, BackgroundStats};
pub use collective::{
    run_collective, run_collective_with, run_collective_with_background, CollectiveError,
    CollectiveResult, NicConfig,
};
pub use config::{Allocator, Injection, Pattern, SimConfig, SimConfigError};
pub use engine::SimError;
pub use nic_engine::{ActionObserver, NicEngine, RunHooks};
pub use phases::{run, run_parallel, run_trace};
pub use stats::{DeadlockReport, Histogram, LatencyStats, SimResult, WaitingChannel};
