//! Flit-level, cycle-driven network simulator (issue 9; ARCHITECTURE.md §4): input-queued
//! VC routers with credit flow control and wormhole switching, configurable pipeline delays,
//! seeded synthetic traffic from `jumpnet_core::traffic`, bounded streaming statistics and a
//! deadlock watchdog. Library API: [`SimConfig`] in, [`SimResult`] out.

pub mod config;
pub mod stats;

pub use config::{Allocator, Injection, Pattern, SimConfig, SimConfigError};
pub use stats::{DeadlockReport, Histogram, LatencyStats, SimResult, WaitingChannel};
