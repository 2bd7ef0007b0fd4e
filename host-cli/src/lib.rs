//! # jumpnet (host library)
//!
//! The library behind the `jumpnet` command: every subcommand is a function here that returns
//! plain data ([`commands`]), and printing is separate ([`io::output`]). Topologies are
//! described by [`build::topology::TopologySpec`] and built by
//! [`build::network::OwnedNetwork`] over `jumpnet-core`.
#![warn(missing_docs)]

pub mod build;
pub mod cli;
pub mod commands;
pub mod distances;
pub mod io;
