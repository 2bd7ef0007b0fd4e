//! Process mapping, rank placement and placement optimisers (docs/mapping.md §1–§5).
//!
//! * A *mapping* chooses the `m` job nodes ([`baseline`]: random, hierarchical tree, ring,
//!   circulant); a *rank placement* assigns ranks `0..m-1` to them ([`RankOrder`]). Nodes are
//!   switches of the physical graph (one compute node per switch, as in \[DISS\]).
//! * Objectives score a placement against traffic in rank space ([`Message`]): total hops
//!   ([`HopObjective`], through a [`DistanceOracle`]), possible contention
//!   ([`ContentionObjective`]) and the busiest channel per step ([`MaxLoadObjective`]),
//!   both through a [`PathOracle`]. All re-score a swap of two ranks incrementally
//!   ([`SwapObjective`]).
//! * Optimisers: [`two_opt()`] (§3), [`anneal()`] (§4) and the genetic node mapping of [`ga`]
//!   (§5).
//!
//! Everything works in caller storage and is deterministic for a given seed.

pub mod anneal;
pub mod baseline;
pub mod contention;
pub mod error;
pub mod free;
pub mod ga;
pub mod hops;
pub mod max_load;
pub mod objective;
pub mod oracle;
pub mod placement;
pub mod traffic;
pub mod two_opt;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

pub use anneal::{anneal, AnnealConfig};
pub use baseline::{
    bfs_mapping, circulant_mapping, random_free_node, random_mapping, ring_mapping, BfsBuffers,
    BfsSizes, MappingKind,
};
pub use contention::ContentionObjective;
pub use error::MappingError;
pub use free::FreeNodes;
pub use hops::{hops_per_step, HopObjective};
pub use max_load::{max_messages_per_step, MaxLoadObjective};
pub use objective::SwapObjective;
pub use oracle::{ChannelId, DistanceMatrix, DistanceOracle, PathLength, PathOracle};
pub use placement::{apply_rank_order, invert, RankOrder, UNMAPPED};
pub use traffic::{Message, RankIndex};
pub use two_opt::{two_opt, OptimiseOutcome, TwoOptConfig};

/// A physical node (switch id, `0..n`).
pub type NodeId = crate::topology::SwitchId;
/// A rank of the job, `0..m`.
pub type Rank = u32;
