//! Flit-level, cycle-driven network simulator (issue 9; ARCHITECTURE.md §4): input-queued
//! VC routers with credit flow control and wormhole switching, configurable pipeline delays,
//! seeded synthetic traffic from `jumpnet_core::traffic`, bounded streaming statistics and a
//! deadlock watchdog. Library API: [`SimConfig`] in, [`SimResult`] out ([`run`]).

pub mod allocator;
pub mod config;
pub mod engine;
pub mod network;
pub mod router;
pub mod stats;
pub mod terminal;
pub mod traffic;
pub mod watchdog;

#[cfg(test)]
mod tests;

pub use config::{Allocator, Injection, Pattern, SimConfig, SimConfigError};
pub use engine::{run, run_trace, SimError};
pub use stats::{DeadlockReport, Histogram, LatencyStats, SimResult, WaitingChannel};
