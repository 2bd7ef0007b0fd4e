//! Ring allreduce = ring reduce-scatter + ring allgather (Baidu `AllR`;
//! docs/collectives.md §4).
//!
//! The vector of `L` elements is cut into `n` chunks, chunk `c` =
//! `[floor(c·L/n), floor((c+1)·L/n))`. Reduce-scatter steps `s = 0 .. n-2` (steps
//! `1 .. n-1` here): rank `r` sends chunk `(r - s) mod n` to `r + 1` and reduces chunk
//! `(r - s - 1) mod n` from `r - 1`; rank `r` then owns the reduced chunk `(r + 1) mod n`.
//! Allgather steps `s = 0 .. n-2` (steps `n .. 2n-2`): send chunk `(r + 1 - s) mod n`,
//! receive chunk `(r - s) mod n` (overwrite). `2n(n-1)` messages.

use super::blocks::{Blocks, DataLayout, SlotSizing};
use super::message::{Message, Rank};
use super::program::{Dep, Op, OpSink};
use super::ring_allgather::sub_mod;
use super::schedule::{check_rank, Schedule, ScheduleError, Semantics};
use crate::error::InvalidParam;

/// Ring allreduce of `elements` elements of `elem_bytes` bytes over `n` ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingAllreduce {
    n: u32,
    elements: u64,
    elem_bytes: u32,
}

impl RingAllreduce {
    /// A ring allreduce; `n ≥ 1`.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::collective::{RingAllreduce, Schedule};
    ///
    /// // 4 ranks, 1,000 elements of 4 bytes: 2n(n − 1) = 24 messages in 2(n − 1) = 6 steps,
    /// // each a chunk of 250 elements to the right-hand neighbour.
    /// let ring = RingAllreduce::new(4, 1000, 4)?;
    /// assert_eq!((ring.num_steps(), ring.num_messages()), (6, 24));
    /// ring.for_each_message(|m| {
    ///     assert_eq!(m.dst, (m.src + 1) % 4);
    ///     assert_eq!(m.bytes, 250 * 4);
    /// });
    /// # Ok::<(), jumpnet_core::collective::ScheduleError>(())
    /// ```
    pub fn new(n: u32, elements: u64, elem_bytes: u32) -> Result<Self, ScheduleError> {
        if n == 0 {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                rule: "a communicator needs at least one rank",
            }));
        }
        Ok(RingAllreduce {
            n,
            elements,
            elem_bytes,
        })
    }

    /// Chunk rank `r` sends in step `step` (1-based) and whether that step reduces.
    pub fn chunk_sent(&self, r: Rank, step: u32) -> (u32, bool) {
        if step < self.n {
            (sub_mod(r as u64, step as u64 - 1, self.n), true)
        } else {
            let s = step - self.n;
            (sub_mod(r as u64 + 1, s as u64, self.n), false)
        }
    }
}

impl Schedule for RingAllreduce {
    fn ranks(&self) -> u32 {
        self.n
    }
    fn semantics(&self) -> Semantics {
        Semantics::Allreduce
    }
    fn layout(&self) -> DataLayout {
        DataLayout {
            slots: self.n,
            sizing: SlotSizing::Chunks {
                elements: self.elements,
                elem_bytes: self.elem_bytes,
            },
        }
    }
    fn num_steps(&self) -> u32 {
        2 * (self.n - 1)
    }
    fn num_messages(&self) -> u64 {
        2 * self.n as u64 * (self.n as u64 - 1)
    }
    fn for_each_message<F: FnMut(Message)>(&self, mut f: F) {
        for step in 1..=self.num_steps() {
            self.for_each_message_in_step(step, &mut f);
        }
    }
    fn for_each_message_in_step<F: FnMut(Message)>(&self, step: u32, mut f: F) {
        if step == 0 || step > self.num_steps() {
            return;
        }
        let layout = self.layout();
        for r in 0..self.n {
            let blocks = Blocks::Single(self.chunk_sent(r, step).0);
            f(Message {
                step,
                src: r,
                dst: (r + 1) % self.n,
                blocks,
                bytes: layout.bytes(blocks),
            });
        }
    }
    fn program_len(&self, r: Rank) -> usize {
        if r >= self.n {
            0
        } else {
            4 * (self.n as usize - 1)
        }
    }
    fn program(&self, r: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        check_rank(r as u64, self.n as u64)?;
        let mut sink = OpSink::new(out);
        let right = (r + 1) % self.n;
        let left = sub_mod(r as u64, 1, self.n);
        for step in 1..=self.num_steps() {
            let (send, _) = self.chunk_sent(r, step);
            let (recv, reduce) = self.chunk_sent(left, step);
            sink.push(Op::Send {
                peer: right,
                blocks: Blocks::Single(send),
                after: Dep::Earlier,
            })?;
            let blocks = Blocks::Single(recv);
            sink.push(if reduce {
                Op::RecvReduce {
                    peer: left,
                    blocks,
                    after: Dep::Earlier,
                }
            } else {
                Op::Recv {
                    peer: left,
                    blocks,
                    after: Dep::Earlier,
                }
            })?;
        }
        Ok(sink.len())
    }
}
