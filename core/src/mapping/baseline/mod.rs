//! Baseline mappings: which `m` nodes a job gets (docs/mapping.md §1, \[DISS\] §3.2, §4.4).
//!
//! Every mapping writes the chosen nodes into a caller slice `out` of length `m`, in the
//! mapping's own order (selection order, BFS order or ring traversal order). Apply
//! [`MappingKind::rank_order`] with [`super::apply_rank_order`] to obtain the project's rank
//! placement (`rank → node`).

mod bfs;
mod circulant;
mod random;
mod ring;

pub use bfs::{bfs_mapping, BfsBuffers, BfsSizes};
pub use circulant::circulant_mapping;
pub use random::{random_free_node, random_mapping};
pub use ring::ring_mapping;

use super::RankOrder;

/// The baseline mappings of docs/mapping.md §1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MappingKind {
    /// m distinct free nodes uniformly at random.
    Random,
    /// Hierarchical-tree mapping: BFS from a root over the physical graph.
    HierarchicalTree,
    /// Ring-based consecutive mapping `s, s+1, ...`.
    RingConsecutive,
    /// Circulant mapping `i, i+stride, ...` for `G(n, log2 n)` (\[DISS\] Algorithm 4.1).
    Circulant,
}

impl MappingKind {
    /// The rank placement the project uses with this mapping (docs/mapping.md §1 project
    /// choice): traversal order for ring and circulant, ascending node id otherwise.
    pub fn rank_order(self) -> RankOrder {
        match self {
            MappingKind::Random | MappingKind::HierarchicalTree => RankOrder::Ascending,
            MappingKind::RingConsecutive | MappingKind::Circulant => RankOrder::Traversal,
        }
    }

    /// Lower-case name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            MappingKind::Random => "random",
            MappingKind::HierarchicalTree => "tree",
            MappingKind::RingConsecutive => "ring",
            MappingKind::Circulant => "circulant",
        }
    }
}
