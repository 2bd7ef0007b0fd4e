//! The interface optimisers use to score rank placements (docs/mapping.md §2–§5).

use super::{MappingError, Message, NodeId, Rank, RankIndex};

/// An objective over rank placements (`rank → node`) that can re-score a swap of two ranks
/// incrementally. Lower is better.
///
/// A swap is its own inverse, so [`SwapObjective::apply_swap`] twice restores both the
/// placement and the value; [`SwapObjective::undo_swap`] may do that more cheaply.
pub trait SwapObjective {
    /// Scores `placement` from scratch and resets the incremental state to it.
    fn evaluate(&mut self, placement: &[NodeId]) -> Result<u64, MappingError>;

    /// Value of the placement last evaluated or swapped.
    fn value(&self) -> u64;

    /// Swaps the nodes of ranks `a` and `b` in `placement` and returns the new value, touching
    /// only the messages of those ranks. Out-of-range ranks leave everything unchanged.
    fn apply_swap(&mut self, placement: &mut [NodeId], a: Rank, b: Rank) -> u64;

    /// Reverts the swap of `a` and `b` just applied; `previous` is the value before it.
    fn undo_swap(&mut self, placement: &mut [NodeId], a: Rank, b: Rank, previous: u64) {
        let _ = previous;
        self.apply_swap(placement, a, b);
    }
}

/// Swaps `placement[a]` and `placement[b]` when both are in range; returns whether it did.
#[inline]
pub(crate) fn swap_ranks(placement: &mut [NodeId], a: Rank, b: Rank) -> bool {
    let (a, b) = (a as usize, b as usize);
    if a < placement.len() && b < placement.len() {
        placement.swap(a, b);
        true
    } else {
        false
    }
}

/// Calls `f` once for every message touching rank `a` or `b` (a message between them
/// once): the messages a swap of `a` and `b` re-routes.
pub(crate) fn for_each_touched(
    index: RankIndex<'_>,
    messages: &[Message],
    a: Rank,
    b: Rank,
    mut f: impl FnMut(&Message),
) {
    for &id in index.messages_of(a) {
        if let Some(msg) = messages.get(id as usize) {
            f(msg);
        }
    }
    for &id in index.messages_of(b) {
        if let Some(msg) = messages.get(id as usize) {
            if msg.src_rank != a && msg.dst_rank != a {
                f(msg);
            }
        }
    }
}
