//! Bruck all-to-all, MPICH `MPIR_Alltoall_intra_brucks` (docs/collectives.md §3).
//!
//! 1. Local rotation `buf[i] = send[(i + r) mod n]`.
//! 2. For `2^k < n` (`K` steps): send to `(r + 2^k) mod n` and receive from
//!    `(r - 2^k) mod n` the blocks `{ i : 1 ≤ i < n, i & 2^k ≠ 0 }`; received blocks
//!    overwrite `buf[i]` after the outgoing copy was taken.
//! 3. `recv[j] = buf[(r - j) mod n]` (inverse rotation plus reversal).
//!
//! One message per rank per step: `n·K` messages (MPICH's direction `r → r + 2^k`).

use super::blocks::{bitmask_count, Blocks, DataLayout};
use super::message::{Message, Rank};
use super::program::{Dep, Op, OpSink};
use super::schedule::{ceil_log2, check_rank, Schedule, ScheduleError, Semantics};
use crate::error::InvalidParam;

/// Bruck all-to-all over `n` ranks with `block_bytes` bytes per destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bruck {
    n: u32,
    k: u32,
    block_bytes: u64,
}

impl Bruck {
    /// A Bruck all-to-all; `n ≥ 1`.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::collective::{Blocks, Bruck, Schedule};
    ///
    /// // 8 ranks, 16-byte blocks: log2 8 = 3 steps of one message per rank.
    /// let bruck = Bruck::new(8, 16)?;
    /// assert_eq!((bruck.num_steps(), bruck.num_messages()), (3, 24));
    /// // Step 2 (2^k = 2): every rank sends to r + 2 the blocks whose index has bit 1 set,
    /// // {2, 3, 6, 7}: n/2 blocks of 16 bytes.
    /// bruck.for_each_message_in_step(2, |m| {
    ///     assert_eq!(m.dst, (m.src + 2) % 8);
    ///     assert_eq!((m.blocks, m.bytes), (Blocks::BitMask { bit: 1 }, 64));
    /// });
    /// # Ok::<(), jumpnet_core::collective::ScheduleError>(())
    /// ```
    pub fn new(n: u32, block_bytes: u64) -> Result<Self, ScheduleError> {
        if n == 0 {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                rule: "a communicator needs at least one rank",
            }));
        }
        Ok(Bruck {
            n,
            k: ceil_log2(n),
            block_bytes,
        })
    }

    fn peer(&self, r: Rank, k: u32, up: bool) -> Rank {
        let d = (1u64 << k) % self.n as u64;
        let n = self.n as u64;
        let r = r as u64;
        (if up { (r + d) % n } else { (r + n - d) % n }) as u32
    }
}

impl Schedule for Bruck {
    fn ranks(&self) -> u32 {
        self.n
    }
    fn semantics(&self) -> Semantics {
        Semantics::Alltoall
    }
    fn layout(&self) -> DataLayout {
        DataLayout::uniform(self.n, self.block_bytes)
    }
    fn num_steps(&self) -> u32 {
        self.k
    }
    fn num_messages(&self) -> u64 {
        self.n as u64 * self.k as u64
    }
    fn for_each_message<F: FnMut(Message)>(&self, mut f: F) {
        for step in 1..=self.k {
            self.for_each_message_in_step(step, &mut f);
        }
    }
    fn for_each_message_in_step<F: FnMut(Message)>(&self, step: u32, mut f: F) {
        if step == 0 || step > self.k {
            return;
        }
        let bit = (step - 1) as u8;
        let blocks = Blocks::BitMask { bit };
        let bytes = (bitmask_count(self.n, bit) as u64).saturating_mul(self.block_bytes);
        let d = ((1u64 << (step - 1)) % self.n as u64) as u32;
        for r in 0..self.n {
            // (r + d) mod n without a division per message.
            let dst = if r >= self.n - d {
                r - (self.n - d)
            } else {
                r + d
            };
            f(Message {
                step,
                src: r,
                dst,
                blocks,
                bytes,
            });
        }
    }
    fn program_len(&self, r: Rank) -> usize {
        if r >= self.n {
            0
        } else {
            2 + 2 * self.k as usize
        }
    }
    fn program(&self, r: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        check_rank(r as u64, self.n as u64)?;
        let mut sink = OpSink::new(out);
        sink.push(Op::Permute {
            reflect: false,
            shift: r,
            after: Dep::None,
        })?;
        for k in 0..self.k {
            let blocks = Blocks::BitMask { bit: k as u8 };
            sink.push(Op::Send {
                peer: self.peer(r, k, true),
                blocks,
                after: Dep::Earlier,
            })?;
            sink.push(Op::Recv {
                peer: self.peer(r, k, false),
                blocks,
                after: Dep::Earlier,
            })?;
        }
        sink.push(Op::Permute {
            reflect: true,
            shift: r,
            after: Dep::Earlier,
        })?;
        Ok(sink.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_directions() {
        let b = Bruck::new(8, 4).unwrap();
        assert_eq!(b.num_messages(), 24);
        b.for_each_message(|m| {
            assert_eq!(m.dst, (m.src + (1 << (m.step - 1))) % 8);
            assert_eq!(m.bytes, 4 * 4); // n/2 blocks per message for power-of-two n
        });
        assert_eq!(Bruck::new(1024, 1).unwrap().num_messages(), 10240);
    }
}
