//! Errors of mapping construction, objectives and optimisers.

use crate::error::{CapacityError, InvalidParam};
use core::fmt;

/// Why a mapping, objective or optimiser could not run. Every variant names the offending
/// parameter and what is allowed, so the host can print it verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MappingError {
    /// `param = value` breaks `rule` (a sentence such as "m must be a power of two").
    Invalid(InvalidParam),
    /// A caller-provided buffer is too small.
    Capacity(CapacityError),
    /// More ranks were requested than there are free nodes.
    NotEnoughFree {
        /// Requested number of ranks `m`.
        requested: u64,
        /// Free nodes available (reachable from the root, for the BFS mapping).
        free: u64,
    },
    /// A node id is outside `0..n`.
    NodeOutOfRange {
        /// The node id.
        node: u64,
        /// Number of nodes.
        n: u64,
    },
    /// A node that must be used is not free.
    NodeNotFree {
        /// The node id.
        node: u64,
    },
    /// A node appears twice in a rank placement.
    DuplicateNode {
        /// The node id.
        node: u64,
    },
    /// A message refers to a rank outside `0..m`.
    RankOutOfRange {
        /// The rank.
        rank: u64,
        /// Number of ranks.
        m: u64,
    },
    /// A gene or destination table entry is not a valid address.
    AddressOutOfRange {
        /// The address value.
        address: u64,
        /// Number of addresses.
        nodes: u64,
    },
}

impl fmt::Display for MappingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MappingError::Invalid(e) => e.fmt(f),
            MappingError::Capacity(e) => e.fmt(f),
            MappingError::NotEnoughFree { requested, free } => write!(
                f,
                "m = {requested} ranks requested but only {free} free nodes are available \
                 (m must be at most the number of free nodes)"
            ),
            MappingError::NodeOutOfRange { node, n } => write!(
                f,
                "node {node} is out of range: nodes are 0..{n} (exclusive)"
            ),
            MappingError::NodeNotFree { node } => {
                write!(f, "node {node} is not free (only free nodes may be mapped)")
            }
            MappingError::DuplicateNode { node } => write!(
                f,
                "node {node} appears twice in the rank placement (ranks need distinct nodes)"
            ),
            MappingError::RankOutOfRange { rank, m } => write!(
                f,
                "rank {rank} is out of range: ranks are 0..{m} (exclusive)"
            ),
            MappingError::AddressOutOfRange { address, nodes } => write!(
                f,
                "address {address} is out of range: addresses are 0..{nodes} (exclusive)"
            ),
        }
    }
}

crate::error::from_shared!(MappingError, Capacity, Invalid);

impl core::error::Error for MappingError {}
