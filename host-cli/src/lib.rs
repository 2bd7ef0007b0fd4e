//! # jumpnet (host library)
//!
//! The library behind the `jumpnet` command: every subcommand is a function here that returns
//! plain data ([`topo`]), and printing is separate ([`output`]). Topologies are described by
//! [`spec::TopologySpec`] and built by [`network::OwnedNetwork`] over `jumpnet-core`.
#![warn(missing_docs)]

pub mod cli;
pub mod collectives;
pub mod distances;
pub mod edgelist;
pub mod export;
pub mod lft;
pub mod map;
pub mod network;
pub mod output;
pub mod placement;
pub mod progress;
pub mod report;
pub mod route;
pub mod routes;
pub mod sched;
pub mod spec;
pub mod svg;
pub mod topo;
