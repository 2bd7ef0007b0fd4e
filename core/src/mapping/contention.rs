//! Possible-contention objective with incremental swap evaluation (docs/mapping.md §2).

use super::hops::check_placement;
use super::objective::{for_each_touched, swap_ranks};
use super::traffic::max_step;
use super::{MappingError, Message, NodeId, PathOracle, Rank, RankIndex, SwapObjective};
use crate::error::{CapacityError, InvalidParam};

/// `Σ_steps Σ_channels max(0, load − 1)` where `load` counts the messages of a step whose
/// deterministic route uses a directed channel (docs/mapping.md §2, possible contention,
/// project choice).
///
/// The per-(step, channel) loads live in caller storage (`(max_step + 1) · C` counters, see
/// [`ContentionObjective::loads_needed`]); a swap removes the routes of the messages touching
/// the two ranks, swaps, and adds them back, adjusting the sum as counters cross 1.
#[derive(Debug)]
pub struct ContentionObjective<'a, P> {
    paths: P,
    messages: &'a [Message],
    index: RankIndex<'a>,
    loads: &'a mut [u32],
    channels: usize,
    total: u64,
}

impl<'a, P: PathOracle> ContentionObjective<'a, P> {
    /// Load counters needed for `messages` on a network with `channels` directed channels.
    pub fn loads_needed(messages: &[Message], channels: u32) -> usize {
        (max_step(messages) as usize + 1) * channels as usize
    }

    /// Objective over `messages` (per-rank lists in `index`) routed by `paths`, counting loads
    /// in `loads`.
    pub fn new(
        paths: P,
        messages: &'a [Message],
        index: RankIndex<'a>,
        loads: &'a mut [u32],
    ) -> Result<Self, MappingError> {
        if index.num_messages() != messages.len() {
            return Err(MappingError::Invalid(InvalidParam {
                param: "index",
                value: index.num_messages() as u64,
                rule: "the rank index must be built from the objective's messages",
            }));
        }
        let channels = paths.num_channels() as usize;
        CapacityError::check(
            "per-(step, channel) load counters",
            Self::loads_needed(messages, paths.num_channels()),
            loads.len(),
        )?;
        Ok(ContentionObjective {
            paths,
            messages,
            index,
            loads,
            channels,
            total: 0,
        })
    }

    /// Adds (`add = true`) or removes the route of `msg` under `placement`.
    fn route(&mut self, placement: &[NodeId], msg: &Message, add: bool) {
        let (Some(&s), Some(&d)) = (
            placement.get(msg.src_rank as usize),
            placement.get(msg.dst_rank as usize),
        ) else {
            return;
        };
        let base = msg.step as usize * self.channels;
        let channels = self.channels;
        let loads = &mut *self.loads;
        let total = &mut self.total;
        self.paths.for_each_channel(s, d, |c| {
            if c as usize >= channels {
                return;
            }
            let Some(load) = loads.get_mut(base + c as usize) else {
                return;
            };
            if add {
                if *load >= 1 {
                    *total += 1;
                }
                *load += 1;
            } else if *load >= 1 {
                if *load >= 2 {
                    *total = total.saturating_sub(1);
                }
                *load -= 1;
            }
        });
    }

    /// Adds or removes every message touching rank `a` or `b` (each message once).
    fn route_touched(&mut self, placement: &[NodeId], a: Rank, b: Rank, add: bool) {
        let (index, messages) = (self.index, self.messages);
        for_each_touched(index, messages, a, b, |msg| self.route(placement, msg, add));
    }

    /// Load of `channel` in step `step` under the placement last evaluated or swapped.
    pub fn load(&self, step: u32, channel: u32) -> u32 {
        if channel as usize >= self.channels {
            return 0;
        }
        self.loads
            .get(step as usize * self.channels + channel as usize)
            .copied()
            .unwrap_or(0)
    }
}

impl<P: PathOracle> SwapObjective for ContentionObjective<'_, P> {
    fn evaluate(&mut self, placement: &[NodeId]) -> Result<u64, MappingError> {
        check_placement(placement, self.index.num_ranks())?;
        self.loads.fill(0);
        self.total = 0;
        let messages = self.messages;
        for msg in messages {
            self.route(placement, msg, true);
        }
        Ok(self.total)
    }

    fn value(&self) -> u64 {
        self.total
    }

    fn apply_swap(&mut self, placement: &mut [NodeId], a: Rank, b: Rank) -> u64 {
        if a == b || a as usize >= placement.len() || b as usize >= placement.len() {
            return self.total;
        }
        self.route_touched(placement, a, b, false);
        swap_ranks(placement, a, b);
        self.route_touched(placement, a, b, true);
        self.total
    }
}
