//! Flit-level, cycle-driven network simulator (issue 9; ARCHITECTURE.md §4): input-queued
//! VC routers with credit flow control and wormhole switching, configurable pipeline delays,
//! seeded synthetic traffic from `jumpnet_core::traffic`, bounded streaming statistics and a
//! deadlock watchdog. Library API: [`SimConfig`] in, [`SimResult`] out ([`run`]).
//!
//! Collective traffic ([`collective`], issue 10): every terminal's NIC runs its rank's
//! `core::exec` program; messages become tagged packets of the same engine
//! ([`run_collective`]).
//!
//! The command line's side lives here too: TOML configuration files ([`config_file`]),
//! BookSim2 configuration files ([`booksim`]) and sweep planning, sharding and merging
//! ([`sweep`]).

pub mod allocator;
pub mod booksim;
pub mod collective;
pub mod config;
pub mod config_file;
pub mod engine;
pub mod ga_fitness;
pub mod ga_pool;
pub mod network;
mod reset;
pub mod router;
pub mod stats;
pub mod sweep;
pub mod terminal;
pub mod traffic;
pub mod watchdog;

#[cfg(test)]
mod collective_tests;
#[cfg(test)]
mod ga_tests;
#[cfg(test)]
mod tests;

pub use collective::{run_collective, CollectiveError, CollectiveResult, NicConfig};
pub use config::{Allocator, Injection, Pattern, SimConfig, SimConfigError};
pub use engine::{run, run_trace, SimError};
pub use stats::{DeadlockReport, Histogram, LatencyStats, SimResult, WaitingChannel};
