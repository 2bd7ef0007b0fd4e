//! Schedules held as an explicit message list in caller storage, for the composed,
//! topology-aware algorithms (docs/collectives.md §6–§8).
//!
//! [`ListBuilder`] numbers steps as a one-port greedy schedule: a rank sends its messages in
//! the order the algorithm generates them, one per step, each no earlier than one step after
//! the latest message it has received so far (`step = max(last receive, last send) + 1`);
//! receiving is unlimited per step. [`ListSchedule`] keeps the list sorted by
//! `(step, src, dst)` and derives each rank's program from it: the rank's messages in step
//! order, sends of a step before its receives, every op waiting for all earlier ops
//! ([`Dep::Earlier`]). That order is deadlock-free: a send of step `s` waits only for ops of
//! steps `< s` and for earlier sends of step `s`.

use super::blocks::{Blocks, DataLayout};
use super::message::{Message, Rank};
use super::program::{Dep, Op, OpSink};
use super::schedule::{check_rank, Schedule, ScheduleError, Semantics};
use crate::error::{CapacityError, InvalidParam};

/// A schedule given by a sorted message list in caller storage.
#[derive(Clone, Copy, Debug)]
pub struct ListSchedule<'a> {
    ranks: u32,
    semantics: Semantics,
    layout: DataLayout,
    messages: &'a [Message],
    own: Option<&'a [u32]>,
    steps: u32,
}

impl<'a> ListSchedule<'a> {
    /// Wraps `messages` (sorted by `(step, src, dst)`, steps from 1). `own[r]` is the block
    /// rank `r` starts with under [`Semantics::Allgather`] (`None`: block `r`).
    pub fn new(
        ranks: u32,
        semantics: Semantics,
        layout: DataLayout,
        messages: &'a [Message],
        own: Option<&'a [u32]>,
    ) -> Result<Self, ScheduleError> {
        let mut prev = (1u32, 0u32, 0u32);
        for m in messages {
            check_rank(m.src as u64, ranks as u64)?;
            check_rank(m.dst as u64, ranks as u64)?;
            let key = (m.step, m.src, m.dst);
            if m.step == 0 || key < prev {
                return Err(ScheduleError::Invalid(InvalidParam {
                    param: "message step",
                    value: m.step as u64,
                    rule: "messages must be sorted by (step, src, dst) with steps from 1",
                }));
            }
            prev = key;
        }
        if let Some(own) = own {
            if own.len() < ranks as usize {
                return Err(ScheduleError::Capacity(CapacityError {
                    what: "own blocks",
                    needed: ranks as u64,
                    available: own.len() as u64,
                }));
            }
        }
        Ok(ListSchedule {
            ranks,
            semantics,
            layout,
            messages,
            own,
            steps: messages.last().map_or(0, |m| m.step),
        })
    }

    /// The message list.
    pub fn messages(&self) -> &'a [Message] {
        self.messages
    }

    fn step_run(&self, step: u32) -> &'a [Message] {
        let lo = self.messages.partition_point(|m| m.step < step);
        let hi = self.messages.partition_point(|m| m.step <= step);
        &self.messages[lo..hi]
    }
}

impl Schedule for ListSchedule<'_> {
    fn ranks(&self) -> u32 {
        self.ranks
    }
    fn semantics(&self) -> Semantics {
        self.semantics
    }
    fn layout(&self) -> DataLayout {
        self.layout
    }
    fn num_steps(&self) -> u32 {
        self.steps
    }
    fn num_messages(&self) -> u64 {
        self.messages.len() as u64
    }
    fn for_each_message<F: FnMut(Message)>(&self, f: F) {
        self.messages.iter().copied().for_each(f)
    }
    fn for_each_message_in_step<F: FnMut(Message)>(&self, step: u32, f: F) {
        self.step_run(step).iter().copied().for_each(f)
    }
    fn program_len(&self, r: Rank) -> usize {
        self.messages
            .iter()
            .filter(|m| m.src == r || m.dst == r)
            .count()
    }
    fn total_program_len(&self) -> usize {
        2 * self.messages.len()
    }
    fn program(&self, r: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        check_rank(r as u64, self.ranks as u64)?;
        let mut sink = OpSink::new(out);
        let mut i = 0;
        while i < self.messages.len() {
            let step = self.messages[i].step;
            let run = self.step_run(step);
            for m in run.iter().filter(|m| m.src == r) {
                sink.push(Op::Send {
                    peer: m.dst,
                    blocks: m.blocks,
                    after: Dep::Earlier,
                })?;
            }
            for m in run.iter().filter(|m| m.dst == r) {
                sink.push(Op::Recv {
                    peer: m.src,
                    blocks: m.blocks,
                    after: Dep::Earlier,
                })?;
            }
            i += run.len().max(1);
        }
        Ok(sink.len())
    }
    fn own_block(&self, r: Rank) -> u32 {
        self.own
            .and_then(|o| o.get(r as usize).copied())
            .unwrap_or(r)
    }
}

/// Number of `u32` scratch entries per rank a [`ListBuilder`] needs.
pub const BUILDER_SCRATCH_PER_RANK: usize = 2;

/// Generates a message list with one-port greedy step numbers (see the module docs).
#[derive(Debug)]
pub struct ListBuilder<'a, 'b> {
    n: u32,
    layout: DataLayout,
    msgs: &'a mut [Message],
    len: usize,
    last_recv: &'b mut [u32],
    last_send: &'b mut [u32],
}

impl<'a, 'b> ListBuilder<'a, 'b> {
    /// A builder for `n` ranks writing into `msgs`, with `2n` entries of `scratch`.
    pub fn new(
        n: u32,
        layout: DataLayout,
        msgs: &'a mut [Message],
        scratch: &'b mut [u32],
    ) -> Result<Self, ScheduleError> {
        let nu = n as usize;
        if scratch.len() < 2 * nu {
            return Err(ScheduleError::Capacity(CapacityError {
                what: "list builder scratch",
                needed: 2 * nu as u64,
                available: scratch.len() as u64,
            }));
        }
        let (last_recv, rest) = scratch.split_at_mut(nu);
        let last_send = &mut rest[..nu];
        last_recv.fill(0);
        last_send.fill(0);
        Ok(ListBuilder {
            n,
            layout,
            msgs,
            len: 0,
            last_recv,
            last_send,
        })
    }

    /// Appends the message `src → dst` carrying `blocks`; returns its step.
    pub fn send(&mut self, src: Rank, dst: Rank, blocks: Blocks) -> Result<u32, ScheduleError> {
        check_rank(src as u64, self.n as u64)?;
        check_rank(dst as u64, self.n as u64)?;
        let (s, d) = (src as usize, dst as usize);
        let step = self.last_recv[s].max(self.last_send[s]) + 1;
        let available = self.msgs.len() as u64;
        let slot = self
            .msgs
            .get_mut(self.len)
            .ok_or(ScheduleError::Capacity(CapacityError {
                what: "messages",
                needed: self.len as u64 + 1,
                available,
            }))?;
        *slot = Message {
            step,
            src,
            dst,
            blocks,
            bytes: self.layout.bytes(blocks),
        };
        self.len += 1;
        self.last_send[s] = step;
        self.last_recv[d] = self.last_recv[d].max(step);
        Ok(step)
    }

    /// Messages generated so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was generated.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sorts the list and wraps it as a schedule.
    pub fn finish(
        self,
        semantics: Semantics,
        own: Option<&'a [u32]>,
    ) -> Result<ListSchedule<'a>, ScheduleError> {
        let (n, layout) = (self.n, self.layout);
        let (head, _) = self.msgs.split_at_mut(self.len);
        head.sort_unstable_by_key(|m| (m.step, m.src, m.dst));
        ListSchedule::new(n, semantics, layout, head, own)
    }
}

/// Appends a binomial broadcast (docs/collectives.md §1) over the ordered `list`, whose first
/// element is the sub-root: `list[x] → list[x + 2^j]`, largest jump first.
pub fn binomial_over(
    b: &mut ListBuilder<'_, '_>,
    list: &[u32],
    blocks: Blocks,
) -> Result<(), ScheduleError> {
    let len = list.len();
    let mut mask = 1usize;
    while mask < len {
        mask <<= 1;
    }
    mask >>= 1;
    while mask > 0 {
        let mut x = 0;
        while x + mask < len {
            b.send(list[x], list[x + mask], blocks)?;
            x += 2 * mask;
        }
        mask >>= 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::Binomial;
    use crate::exec::testutil::strict;
    use std::vec;

    #[test]
    fn binomial_over_identity_list_is_the_mpich_tree() {
        for n in 1..40u32 {
            let list: std::vec::Vec<u32> = (0..n).collect();
            let mut msgs = vec![
                Message {
                    step: 0,
                    src: 0,
                    dst: 0,
                    blocks: Blocks::All,
                    bytes: 0
                };
                n as usize
            ];
            let mut scratch = vec![0u32; 2 * n as usize];
            let mut b =
                ListBuilder::new(n, DataLayout::uniform(1, 8), &mut msgs, &mut scratch).unwrap();
            binomial_over(&mut b, &list, Blocks::All).unwrap();
            let s = b.finish(Semantics::Broadcast { root: 0 }, None).unwrap();
            strict(&s).unwrap();
            let reference = Binomial::new(n, 0, 8).unwrap();
            assert_eq!(s.num_messages(), n as u64 - 1);
            for m in s.messages() {
                assert_eq!(reference.parent(m.dst), Some(m.src));
            }
        }
    }

    #[test]
    fn capacity_errors() {
        let mut msgs = [Message {
            step: 0,
            src: 0,
            dst: 0,
            blocks: Blocks::All,
            bytes: 0,
        }; 1];
        let mut scratch = [0u32; 8];
        let mut b =
            ListBuilder::new(4, DataLayout::uniform(1, 8), &mut msgs, &mut scratch).unwrap();
        b.send(0, 1, Blocks::All).unwrap();
        assert_eq!(
            b.send(1, 2, Blocks::All),
            Err(ScheduleError::Capacity(CapacityError {
                what: "messages",
                needed: 2,
                available: 1
            }))
        );
        assert_eq!(
            b.send(0, 9, Blocks::All),
            Err(ScheduleError::RankOutOfRange { rank: 9, n: 4 })
        );
    }
}
