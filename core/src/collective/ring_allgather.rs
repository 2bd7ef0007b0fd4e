//! Ring allgather (MPICH ring; docs/collectives.md §4).
//!
//! In step `i = 1 .. n-1` rank `r` sends block `(r - i + 1) mod n` to `r + 1` and receives
//! block `(r - i) mod n` from `r - 1` (a `sendrecv`). `n(n-1)` messages in `n - 1` steps.

use super::blocks::{Blocks, DataLayout};
use super::message::{Message, Rank};
use super::program::{Dep, Op, OpSink};
use super::schedule::{check_rank, Schedule, ScheduleError, Semantics};
use crate::error::InvalidParam;

/// Ring allgather over `n` ranks of one `block_bytes`-byte block per rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingAllgather {
    n: u32,
    block_bytes: u64,
}

/// `(a - b) mod n` for `a, b < n`-ish values, without overflow.
pub(crate) fn sub_mod(a: u64, b: u64, n: u32) -> u32 {
    let n = n as u64;
    ((a % n + n - b % n) % n) as u32
}

impl RingAllgather {
    /// A ring allgather; `n ≥ 1`.
    pub fn new(n: u32, block_bytes: u64) -> Result<Self, ScheduleError> {
        if n == 0 {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                rule: "a communicator needs at least one rank",
            }));
        }
        Ok(RingAllgather { n, block_bytes })
    }

    /// Block rank `r` sends in step `i` (1-based).
    pub fn block_sent(&self, r: Rank, step: u32) -> u32 {
        sub_mod(r as u64 + 1, step as u64, self.n)
    }
}

impl Schedule for RingAllgather {
    fn ranks(&self) -> u32 {
        self.n
    }
    fn semantics(&self) -> Semantics {
        Semantics::Allgather
    }
    fn layout(&self) -> DataLayout {
        DataLayout::uniform(self.n, self.block_bytes)
    }
    fn num_steps(&self) -> u32 {
        self.n - 1
    }
    fn num_messages(&self) -> u64 {
        self.n as u64 * (self.n as u64 - 1)
    }
    fn for_each_message<F: FnMut(Message)>(&self, mut f: F) {
        for step in 1..self.n {
            self.for_each_message_in_step(step, &mut f);
        }
    }
    fn for_each_message_in_step<F: FnMut(Message)>(&self, step: u32, mut f: F) {
        if step == 0 || step >= self.n {
            return;
        }
        for r in 0..self.n {
            f(Message {
                step,
                src: r,
                dst: (r + 1) % self.n,
                blocks: Blocks::Single(self.block_sent(r, step)),
                bytes: self.block_bytes,
            });
        }
    }
    fn program_len(&self, r: Rank) -> usize {
        if r >= self.n {
            0
        } else {
            2 * (self.n as usize - 1)
        }
    }
    fn program(&self, r: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        check_rank(r as u64, self.n as u64)?;
        let mut sink = OpSink::new(out);
        let right = (r + 1) % self.n;
        let left = sub_mod(r as u64, 1, self.n);
        for step in 1..self.n {
            sink.push(Op::Send {
                peer: right,
                blocks: Blocks::Single(self.block_sent(r, step)),
                after: Dep::Earlier,
            })?;
            sink.push(Op::Recv {
                peer: left,
                blocks: Blocks::Single(self.block_sent(left, step)),
                after: Dep::Earlier,
            })?;
        }
        Ok(sink.len())
    }
}
