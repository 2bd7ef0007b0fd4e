//! Total-hops objective with incremental swap evaluation (docs/mapping.md §2).

use super::objective::swap_ranks;
use super::{DistanceOracle, MappingError, Message, NodeId, Rank, RankIndex, SwapObjective};
use crate::error::{CapacityError, InvalidParam};

/// `Σ_{messages a→b} dist(node(a), node(b))` (docs/mapping.md §2, total hops), scored
/// incrementally: a swap of ranks `a`, `b` re-scores only the messages in their
/// [`RankIndex`] lists.
#[derive(Debug)]
pub struct HopObjective<'a, D> {
    dist: D,
    messages: &'a [Message],
    index: RankIndex<'a>,
    total: u64,
}

impl<'a, D: DistanceOracle> HopObjective<'a, D> {
    /// Objective over `messages`, whose per-rank lists are `index` (built from the same
    /// messages with [`RankIndex::build`]).
    pub fn new(
        dist: D,
        messages: &'a [Message],
        index: RankIndex<'a>,
    ) -> Result<Self, MappingError> {
        if index.num_messages() != messages.len() {
            return Err(MappingError::Invalid(InvalidParam {
                param: "index",
                value: index.num_messages() as u64,
                rule: "the rank index must be built from the objective's messages",
            }));
        }
        Ok(HopObjective {
            dist,
            messages,
            index,
            total: 0,
        })
    }

    /// The distance oracle.
    pub fn oracle(&self) -> &D {
        &self.dist
    }

    #[inline]
    fn hops(&self, placement: &[NodeId], msg: &Message) -> u64 {
        match (
            placement.get(msg.src_rank as usize),
            placement.get(msg.dst_rank as usize),
        ) {
            (Some(&s), Some(&d)) => self.dist.distance(s, d) as u64,
            _ => 0,
        }
    }

    /// Sum of hops over the messages touching rank `a` or `b` (each message once).
    fn touched(&self, placement: &[NodeId], a: Rank, b: Rank) -> u64 {
        let mut sum = 0;
        for &id in self.index.messages_of(a) {
            if let Some(msg) = self.messages.get(id as usize) {
                sum += self.hops(placement, msg);
            }
        }
        for &id in self.index.messages_of(b) {
            if let Some(msg) = self.messages.get(id as usize) {
                if msg.src_rank != a && msg.dst_rank != a {
                    sum += self.hops(placement, msg);
                }
            }
        }
        sum
    }
}

impl<D: DistanceOracle> SwapObjective for HopObjective<'_, D> {
    fn evaluate(&mut self, placement: &[NodeId]) -> Result<u64, MappingError> {
        check_placement(placement, self.index.num_ranks())?;
        self.total = self.messages.iter().map(|m| self.hops(placement, m)).sum();
        Ok(self.total)
    }

    fn value(&self) -> u64 {
        self.total
    }

    fn apply_swap(&mut self, placement: &mut [NodeId], a: Rank, b: Rank) -> u64 {
        if a == b || a as usize >= placement.len() || b as usize >= placement.len() {
            return self.total;
        }
        let before = self.touched(placement, a, b);
        swap_ranks(placement, a, b);
        let after = self.touched(placement, a, b);
        self.total = (self.total + after).saturating_sub(before);
        self.total
    }

    fn undo_swap(&mut self, placement: &mut [NodeId], a: Rank, b: Rank, previous: u64) {
        if swap_ranks(placement, a, b) {
            self.total = previous;
        }
    }
}

/// Checks that a placement has one node per rank.
pub(crate) fn check_placement(placement: &[NodeId], m: u32) -> Result<(), MappingError> {
    if placement.len() != m as usize {
        return Err(MappingError::Capacity(CapacityError {
            what: "rank placement (one node per rank)",
            needed: m as u64,
            available: placement.len() as u64,
        }));
    }
    Ok(())
}

/// Hops per step: `per_step[s]` = total hops of the messages of step `s`
/// (docs/mapping.md §2, as in \[DISS\] Tables 3.1/3.2). Steps beyond `per_step` are ignored;
/// returns the overall total.
///
/// # Examples
///
/// \[DISS\] Table 3.1 (docs/reference-results.md A4): a binomial broadcast over job nodes 0..7,
/// where `d(0,4) = 3`, `d(0,2) = d(4,6) = 2` and every other message takes one hop.
///
/// ```
/// use jumpnet_core::analysis::flatten;
/// use jumpnet_core::collective::Binomial;
/// use jumpnet_core::mapping::{hops_per_step, DistanceMatrix, Message};
///
/// let mut d = [1u16; 64];
/// for v in 0..8 {
///     d[v * 9] = 0;
/// }
/// for (a, b, hops) in [(0, 4, 3), (0, 2, 2), (4, 6, 2)] {
///     d[a * 8 + b] = hops;
///     d[b * 8 + a] = hops;
/// }
/// let dist = DistanceMatrix::new(8, &d)?;
/// let mut msgs = [Message { step: 0, src_rank: 0, dst_rank: 0 }; 7];
/// flatten(&Binomial::new(8, 0, 1)?, &mut msgs)?;
/// let mut per_step = [0u64; 4];
/// let total = hops_per_step(&dist, &msgs, &[0, 1, 2, 3, 4, 5, 6, 7], &mut per_step);
/// assert_eq!((total, per_step), (11, [0, 3, 4, 4]));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn hops_per_step<D: DistanceOracle>(
    dist: &D,
    messages: &[Message],
    placement: &[NodeId],
    per_step: &mut [u64],
) -> u64 {
    per_step.fill(0);
    let mut total = 0;
    for msg in messages {
        let (Some(&s), Some(&d)) = (
            placement.get(msg.src_rank as usize),
            placement.get(msg.dst_rank as usize),
        ) else {
            continue;
        };
        let h = dist.distance(s, d) as u64;
        total += h;
        if let Some(slot) = per_step.get_mut(msg.step as usize) {
            *slot += h;
        }
    }
    total
}
