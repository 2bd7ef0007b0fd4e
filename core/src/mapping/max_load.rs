//! Busiest-channel objective with incremental swap evaluation (docs/mapping.md §2).

use super::hops::check_placement;
use super::objective::{for_each_touched, swap_ranks};
use super::traffic::max_step;
use super::{MappingError, Message, NodeId, PathOracle, Rank, RankIndex, SwapObjective};
use crate::error::{CapacityError, InvalidParam};

/// `Σ_steps max_channels load`, where `load` counts the messages of a step whose
/// deterministic route uses a directed channel (docs/mapping.md §2, busiest channel), with
/// ties broken by possible contention `Σ max(0, load − 1)`: the value is
/// `busiest_sum · 2^32 + min(excess, 2^32 − 1)`. The busiest channel alone changes only when
/// a swap empties a step's top level, so a hill climber on it alone stalls on plateaus; the
/// second key gives it a slope.
///
/// For messages long enough that bandwidth dominates, a step lasts about as long as its
/// busiest channel needs to carry its messages one after another, so this sum is the
/// schedule's length in message times; total hops and possible contention do not see it.
///
/// All state lives in caller storage ([`MaxLoadObjective::storage_needed`] counters): per
/// (step, channel) the load, per step a histogram of channel loads and the maximum. Moving a
/// channel's load up or down by one updates the histogram, and the maximum drops by one when
/// its level empties, so a swap costs the same as for [`super::ContentionObjective`].
#[derive(Debug)]
pub struct MaxLoadObjective<'a, P> {
    paths: P,
    messages: &'a [Message],
    index: RankIndex<'a>,
    /// `(steps) · C` loads.
    loads: &'a mut [u32],
    /// `(steps) · (levels)` histogram: channels of the step at load `1..levels`.
    hist: &'a mut [u32],
    /// Busiest load per step.
    max: &'a mut [u32],
    channels: usize,
    levels: usize,
    /// Σ over steps of the busiest load.
    total: u64,
    /// Σ over (step, channel) of `max(0, load − 1)`: the tie-breaker.
    excess: u64,
}

/// Most messages in one step (the highest load a channel can reach when routes do not
/// repeat a channel): one pass when `messages` are in step order, else one pass per step.
pub fn max_messages_per_step(messages: &[Message]) -> u32 {
    let sorted = messages.windows(2).all(|w| w[0].step <= w[1].step);
    if sorted {
        let (mut best, mut run, mut step) = (0u32, 0u32, None);
        for m in messages {
            if step == Some(m.step) {
                run += 1;
            } else {
                (step, run) = (Some(m.step), 1);
            }
            best = best.max(run);
        }
        return best;
    }
    (0..=max_step(messages))
        .map(|s| messages.iter().filter(|m| m.step == s).count() as u32)
        .max()
        .unwrap_or(0)
}

impl<'a, P: PathOracle> MaxLoadObjective<'a, P> {
    /// Counters needed for `messages` on a network with `channels` directed channels.
    pub fn storage_needed(messages: &[Message], channels: u32) -> usize {
        let steps = max_step(messages) as usize + 1;
        let levels = max_messages_per_step(messages) as usize + 1;
        steps * (channels as usize + levels + 1)
    }

    /// Objective over `messages` (per-rank lists in `index`) routed by `paths`, with its
    /// counters in `storage` (at least [`MaxLoadObjective::storage_needed`]).
    pub fn new(
        paths: P,
        messages: &'a [Message],
        index: RankIndex<'a>,
        storage: &'a mut [u32],
    ) -> Result<Self, MappingError> {
        if index.num_messages() != messages.len() {
            return Err(MappingError::Invalid(InvalidParam {
                param: "index",
                value: index.num_messages() as u64,
                rule: "the rank index must be built from the objective's messages",
            }));
        }
        let channels = paths.num_channels() as usize;
        let needed = Self::storage_needed(messages, paths.num_channels());
        CapacityError::check("busiest-channel counters", needed, storage.len())?;
        let steps = max_step(messages) as usize + 1;
        let levels = max_messages_per_step(messages) as usize + 1;
        let (loads, rest) = storage[..needed].split_at_mut(steps * channels);
        let (hist, max) = rest.split_at_mut(steps * levels);
        Ok(MaxLoadObjective {
            paths,
            messages,
            index,
            loads,
            hist,
            max,
            channels,
            levels,
            total: 0,
            excess: 0,
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
        let step = msg.step as usize;
        let (channels, levels) = (self.channels, self.levels);
        let base = step * channels;
        let hbase = step * levels;
        let (loads, hist, max, total, excess) = (
            &mut *self.loads,
            &mut *self.hist,
            &mut *self.max,
            &mut self.total,
            &mut self.excess,
        );
        let Some(step_max) = max.get_mut(step) else {
            return;
        };
        self.paths.for_each_channel(s, d, |c| {
            if c as usize >= channels {
                return;
            }
            let Some(load) = loads.get_mut(base + c as usize) else {
                return;
            };
            let old = *load as usize;
            // Histogram levels are bounded by the busiest step's message count; a route
            // that repeats a channel could exceed it and is clamped there.
            let level = |l: usize| hbase + l.min(levels - 1);
            let mut bump = |l: usize, up: bool| {
                if let Some(h) = hist.get_mut(level(l)) {
                    *h = if up {
                        h.saturating_add(1)
                    } else {
                        h.saturating_sub(1)
                    };
                }
            };
            if add {
                if old >= 1 {
                    bump(old, false);
                    *excess += 1;
                }
                bump(old + 1, true);
                *load += 1;
                if *load > *step_max {
                    *step_max = *load;
                    *total += 1;
                }
            } else if old >= 1 {
                bump(old, false);
                if old >= 2 {
                    bump(old - 1, true);
                    *excess = excess.saturating_sub(1);
                }
                *load -= 1;
                let emptied = hist.get(level(old)).is_none_or(|&h| h == 0);
                if old as u32 == *step_max && emptied {
                    *step_max -= 1;
                    *total = total.saturating_sub(1);
                }
            }
        });
    }

    /// Adds or removes every message touching rank `a` or `b` (each message once).
    fn route_touched(&mut self, placement: &[NodeId], a: Rank, b: Rank, add: bool) {
        let (index, messages) = (self.index, self.messages);
        for_each_touched(index, messages, a, b, |msg| self.route(placement, msg, add));
    }

    /// Σ over the steps of the busiest channel's load (the objective's first key).
    pub fn busiest_sum(&self) -> u64 {
        self.total
    }

    /// Possible contention, `Σ max(0, load − 1)` (the objective's second key).
    pub fn excess(&self) -> u64 {
        self.excess
    }

    /// The objective's value: [`Self::busiest_sum`], ties broken by [`Self::excess`].
    fn key(&self) -> u64 {
        (self.total << 32) | self.excess.min(u64::from(u32::MAX))
    }

    /// Busiest channel's load in `step` under the placement last evaluated or swapped.
    pub fn step_max(&self, step: u32) -> u32 {
        self.max.get(step as usize).copied().unwrap_or(0)
    }
}

impl<P: PathOracle> SwapObjective for MaxLoadObjective<'_, P> {
    fn evaluate(&mut self, placement: &[NodeId]) -> Result<u64, MappingError> {
        check_placement(placement, self.index.num_ranks())?;
        self.loads.fill(0);
        self.hist.fill(0);
        self.max.fill(0);
        self.total = 0;
        self.excess = 0;
        let messages = self.messages;
        for msg in messages {
            self.route(placement, msg, true);
        }
        Ok(self.key())
    }

    fn value(&self) -> u64 {
        self.key()
    }

    fn apply_swap(&mut self, placement: &mut [NodeId], a: Rank, b: Rank) -> u64 {
        if a == b || a as usize >= placement.len() || b as usize >= placement.len() {
            return self.key();
        }
        self.route_touched(placement, a, b, false);
        swap_ranks(placement, a, b);
        self.route_touched(placement, a, b, true);
        self.key()
    }
}
