//! Rank placement: which job node plays which rank (docs/mapping.md §1).
//!
//! A placement is a caller slice `rank → node` of length `m` with distinct nodes. Mappings
//! write their chosen nodes in selection/traversal order; [`apply_rank_order`] then turns that
//! list into the placement the project uses.

use super::{MappingError, NodeId, Rank};
use crate::error::InvalidParam;

/// Marker in a `node → rank` table for nodes that hold no rank.
pub const UNMAPPED: Rank = Rank::MAX;

/// How ranks are assigned to the chosen nodes (docs/mapping.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RankOrder {
    /// Rank `j` ↦ the `j`-th smallest node id (\[DISS\] §3.3.1; project default for the random
    /// and hierarchical-tree mappings).
    Ascending,
    /// Rank `j` ↦ the `j`-th node in the mapping's traversal order (project choice for the
    /// ring-consecutive and circulant mappings, so that wrap-around keeps ring order).
    Traversal,
}

/// Turns a mapping's node list (in traversal order) into a rank placement in place.
pub fn apply_rank_order(order: RankOrder, nodes: &mut [NodeId]) {
    if order == RankOrder::Ascending {
        nodes.sort_unstable();
    }
}

/// Fills `node_to_rank` (length `n`) with the inverse of `rank_to_node`, [`UNMAPPED`] for nodes
/// without a rank. Fails when a node is out of range or appears twice, so this also validates
/// a placement.
pub fn invert(rank_to_node: &[NodeId], node_to_rank: &mut [Rank]) -> Result<(), MappingError> {
    let n = node_to_rank.len();
    if rank_to_node.len() > n || rank_to_node.len() >= UNMAPPED as usize {
        return Err(MappingError::Invalid(InvalidParam {
            param: "m",
            value: rank_to_node.len() as u64,
            rule: "a placement needs at most one rank per node",
        }));
    }
    node_to_rank.fill(UNMAPPED);
    for (rank, &node) in rank_to_node.iter().enumerate() {
        let slot = node_to_rank
            .get_mut(node as usize)
            .ok_or(MappingError::NodeOutOfRange {
                node: node as u64,
                n: n as u64,
            })?;
        if *slot != UNMAPPED {
            return Err(MappingError::DuplicateNode { node: node as u64 });
        }
        *slot = rank as Rank;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascending_sorts_and_traversal_keeps() {
        let mut a = [5, 1, 7, 0];
        apply_rank_order(RankOrder::Traversal, &mut a);
        assert_eq!(a, [5, 1, 7, 0]);
        apply_rank_order(RankOrder::Ascending, &mut a);
        assert_eq!(a, [0, 1, 5, 7]);
    }

    #[test]
    fn invert_roundtrips_and_rejects_bad_placements() {
        let mut inv = [0u32; 6];
        invert(&[4, 0, 2], &mut inv).unwrap();
        assert_eq!(inv, [1, UNMAPPED, 2, UNMAPPED, 0, UNMAPPED]);
        assert_eq!(
            invert(&[4, 0, 4], &mut inv),
            Err(MappingError::DuplicateNode { node: 4 })
        );
        assert_eq!(
            invert(&[9], &mut inv),
            Err(MappingError::NodeOutOfRange { node: 9, n: 6 })
        );
    }
}
