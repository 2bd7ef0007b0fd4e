//! What jumpnet computes about a topology, a routing or a schedule without simulating it:
//! the library side of `jumpnet topo`, `jumpnet route check|stats` and `jumpnet sched
//! show|verify`.
//!
//! - [`topology`]: families, structure, distance metrics and cables of a network;
//! - [`route_check`]: delivery, loop freedom, minimality and deadlock freedom of a routing
//!   or of user-supplied tables;
//! - [`path_stats`]: all-to-all hop histogram and channel loads by link class;
//! - [`schedule`]: a schedule's messages and programs as printed, and its symbolic check;
//! - [`step_contention`]: a placed schedule's routed hops and per-step channel contention;
//! - [`link_count_makespan`]: a schedule's makespan in link-count units (\[DF-BC\]'s
//!   preliminary model).

pub mod link_count_makespan;
pub mod path_stats;
pub mod route_check;
pub mod schedule;
pub mod step_contention;
pub mod topology;
