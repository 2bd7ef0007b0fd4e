//! Sweeps (`jumpnet sweep`): planning points over the injection rate or any
//! [`SimConfig`](crate::sim::SimConfig) key, running them on all cores, stopping at saturation, sharding across machines
//! (`--shard i/N`) and merging shard outputs (`jumpnet sweep merge`).
//!
//! - An axis is `key=a:b:step` (inclusive numeric range) or `key=v1,v2,...`; `rate` is short
//!   for `injection_rate`. The x axis of the charts is `injection_rate` when it is swept,
//!   else the first axis; every combination of the other axes' values is one series.
//! - Points are numbered series-major, x-minor. A point's result depends only on its
//!   configuration (the seed is the configuration's `seed`, the same for every point), so
//!   any subset of points can run anywhere, in any order.
//! - Stop at saturation: along each series, points after the first saturated (or
//!   deadlocked) point are not part of the result. Points are handed to the worker threads
//!   in (x, series) order and a series' points past a stopping point are skipped, so at most
//!   one point per other thread runs in vain.
//! - Shard `i/N` (0-based, `0 <= i < N`) runs the points whose number is `i` modulo `N`.
//!   A shard applies the saturation cut to its own points; [`merge`] applies it again to the
//!   union, which therefore equals the unsharded sweep record for record.

mod axis;
pub mod collective;
mod merge;
mod output;
mod plan;
mod record;
mod run;
mod series;
#[cfg(test)]
mod tests;

pub use axis::{canonical_key, range_values, Axis, ALIASES};
pub use merge::merge;
pub use output::SweepResult;
pub use plan::{Plan, Point, Shard};
pub use record::{cut_at_saturation, Record, Summary, SweepRecord};
pub use run::{run, Queue};
