//! Traffic in rank space and per-rank message lists (docs/mapping.md §2–§3).
//!
//! The host flattens a collective schedule (docs/collectives.md) into a slice of [`Message`]s.
//! Swap evaluation only re-scores the messages touching the two swapped ranks; [`RankIndex`]
//! lists them per rank in compressed-sparse-row form, in caller storage.

use super::{MappingError, Rank};
use crate::error::{CapacityError, InvalidParam};

/// One message of a schedule, in rank space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Message {
    /// Step of the schedule (messages of one step may proceed concurrently).
    pub step: u32,
    /// Sending rank.
    pub src_rank: Rank,
    /// Receiving rank.
    pub dst_rank: Rank,
}

/// Largest step number of `messages` (0 when empty).
pub fn max_step(messages: &[Message]) -> u32 {
    messages.iter().map(|m| m.step).max().unwrap_or(0)
}

/// Per-rank lists of message indices (CSR): the messages of rank `r` are
/// `items[offsets[r] .. offsets[r+1]]`. A message appears in the lists of its source and of its
/// destination (once if they are equal), so `items` needs at most `2 · messages` entries.
#[derive(Clone, Copy, Debug)]
pub struct RankIndex<'a> {
    offsets: &'a [u32],
    items: &'a [u32],
    messages: usize,
}

impl<'a> RankIndex<'a> {
    /// Entries `items` needs for `messages` ([`RankIndex::build`]).
    pub fn items_needed(messages: &[Message]) -> usize {
        messages
            .iter()
            .map(|m| if m.src_rank == m.dst_rank { 1 } else { 2 })
            .sum()
    }

    /// Builds the index of `messages` over ranks `0..m` into `offsets` (at least `m + 1`
    /// entries) and `items` (at least [`RankIndex::items_needed`] entries).
    pub fn build(
        messages: &[Message],
        m: u32,
        offsets: &'a mut [u32],
        items: &'a mut [u32],
    ) -> Result<Self, MappingError> {
        let ranks = m as usize;
        let total = Self::items_needed(messages);
        if total > u32::MAX as usize {
            return Err(MappingError::Invalid(InvalidParam {
                param: "messages",
                value: messages.len() as u64,
                rule: "at most 2^31 messages are supported",
            }));
        }
        CapacityError::check("rank index offsets (m + 1)", ranks + 1, offsets.len())?;
        CapacityError::check("rank index items", total, items.len())?;
        for msg in messages {
            for r in [msg.src_rank, msg.dst_rank] {
                if r >= m {
                    return Err(MappingError::RankOutOfRange {
                        rank: r as u64,
                        m: m as u64,
                    });
                }
            }
        }
        let offsets = &mut offsets[..ranks + 1];
        let items = &mut items[..total];
        // Count per rank into offsets[r + 1], prefix-sum to starts, fill using offsets[r] as
        // the cursor (which ends at the start of r + 1), then shift back.
        offsets.fill(0);
        for msg in messages {
            offsets[msg.src_rank as usize + 1] += 1;
            if msg.dst_rank != msg.src_rank {
                offsets[msg.dst_rank as usize + 1] += 1;
            }
        }
        for r in 0..ranks {
            offsets[r + 1] += offsets[r];
        }
        for (id, msg) in messages.iter().enumerate() {
            let s = msg.src_rank as usize;
            items[offsets[s] as usize] = id as u32;
            offsets[s] += 1;
            if msg.dst_rank != msg.src_rank {
                let d = msg.dst_rank as usize;
                items[offsets[d] as usize] = id as u32;
                offsets[d] += 1;
            }
        }
        for r in (1..=ranks).rev() {
            offsets[r] = offsets[r - 1];
        }
        offsets[0] = 0;
        Ok(RankIndex {
            offsets,
            items,
            messages: messages.len(),
        })
    }

    /// Number of ranks `m`.
    pub fn num_ranks(&self) -> u32 {
        (self.offsets.len() - 1) as u32
    }

    /// Number of messages the index was built from.
    pub fn num_messages(&self) -> usize {
        self.messages
    }

    /// Indices of the messages rank `r` sends or receives (empty when out of range).
    #[inline]
    pub fn messages_of(&self, r: Rank) -> &'a [u32] {
        let r = r as usize;
        match (self.offsets.get(r), self.offsets.get(r + 1)) {
            (Some(&a), Some(&b)) => self.items.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(step: u32, src_rank: u32, dst_rank: u32) -> Message {
        Message {
            step,
            src_rank,
            dst_rank,
        }
    }

    #[test]
    fn lists_every_message_under_both_ranks() {
        let msgs = [msg(1, 0, 2), msg(1, 2, 1), msg(2, 1, 1), msg(2, 0, 1)];
        let mut off = [0u32; 4];
        let mut items = [0u32; 7];
        assert_eq!(RankIndex::items_needed(&msgs), 7);
        let idx = RankIndex::build(&msgs, 3, &mut off, &mut items).unwrap();
        assert_eq!(idx.messages_of(0), &[0, 3]);
        assert_eq!(idx.messages_of(1), &[1, 2, 3]);
        assert_eq!(idx.messages_of(2), &[0, 1]);
        assert_eq!(idx.messages_of(3), &[] as &[u32]);
        assert_eq!(max_step(&msgs), 2);
    }

    #[test]
    fn rejects_bad_ranks_and_small_buffers() {
        let msgs = [msg(0, 0, 5)];
        let mut off = [0u32; 4];
        let mut items = [0u32; 2];
        assert_eq!(
            RankIndex::build(&msgs, 3, &mut off, &mut items).unwrap_err(),
            MappingError::RankOutOfRange { rank: 5, m: 3 }
        );
        assert!(matches!(
            RankIndex::build(&msgs, 6, &mut off, &mut items).unwrap_err(),
            MappingError::Capacity(..)
        ));
    }
}
