//! Builders: from what the user wrote to the owned core objects the commands work on.
//!
//! - [`topology`]: topology specifications as users write them (`<family> key=value ...`),
//!   parsed into a [`topology::TopologySpec`] (the host side of core's
//!   `jumpnet_core::topology::spec`).
//! - [`network`]: a core `Network` built from a spec, owning the storage it borrows.
//! - [`routing`]: choosing and building a routing algorithm for a network.
//! - [`schedule`]: collective send schedules, in rank space or topology-aware.
//! - [`bytes`]: byte sizes as users write them (`65536`, `1MiB`, `64kB`, `2^20`).
//! - [`duration`]: time spans as users write them (`100us`, `5000` cycles).
//! - [`ga`]: GA node mapping on a torus and its study (proxy or simulated fitness).
//! - [`placement`]: process mappings — the job's nodes, rank order and placement optimisation.

pub mod bytes;
pub mod duration;
pub mod ga;
pub mod network;
pub mod placement;
pub mod routing;
pub mod schedule;
pub mod topology;
