//! Builders: from what the user wrote to the owned core objects the commands work on.
//!
//! - [`topology`]: topology specifications as users write them (`<family> key=value ...`),
//!   parsed into a [`topology::TopologySpec`] (the host side of core's
//!   `jumpnet_core::topology::spec`).
//! - [`network`]: a core `Network` built from a spec, owning the storage it borrows.
//! - [`routing`]: choosing and building a routing algorithm for a network.
//! - [`anynet`]: the stored graph of a BookSim2 anynet network (terminals and channel
//!   latencies port by port); [`min_latency`]: its routing table.
//! - [`schedule`]: collective send schedules, in rank space or topology-aware.
//! - [`route_tables`]: a routing compiled into owned forwarding (and layer) tables.
//! - [`image`]: the device image of one node (route tables and programs), encoded for
//!   flashing.
//! - [`placement`]: process mappings — the job's nodes and rank order, `map place`.
//! - [`optimise`]: placement optimisation (two-opt, annealing) on hops or channel loads.
//! - [`routed_paths`]: the deterministic route of every node pair, precomputed.

pub mod anynet;
pub mod anynet_tree;
pub mod fly;
pub mod image;
pub mod min_latency;
pub mod network;
pub mod optimise;
pub mod placement;
pub mod route_tables;
pub mod routed_paths;
pub mod routing;
pub mod schedule;
pub mod topology;
