//! Recursive-doubling allreduce, MPICH `MPIR_Allreduce_intra_recursive_doubling`
//! (docs/collectives.md §2).
//!
//! With `pof2` the largest power of two `≤ n` and `rem = n - pof2`: the first `2·rem` ranks
//! pair up (even sends its vector to odd, which reduces), the `pof2` remaining ranks run
//! `log2(pof2)` exchange steps with the partner `newrank XOR 2^j`, and the odd ranks return
//! the result to their even partners. Step numbering here is 1-based: when `rem > 0` the
//! pre-step (the spec's "step 0") is step 1, the exchanges are steps `2 ..= L + 1` and the
//! post-step is step `L + 2` (`L = log2(pof2)`); for a power of two `n` exchange step `j`
//! pairs `r ↔ r XOR 2^(j-1)`. Messages: `pof2·L + 2·rem`.

use super::blocks::{Blocks, DataLayout};
use super::message::{Message, Rank};
use super::program::{Dep, Op, OpSink};
use super::schedule::{check_rank, pof2_floor, Schedule, ScheduleError, Semantics};
use crate::error::InvalidParam;

/// Recursive-doubling allreduce of a `bytes`-byte vector over `n` ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecursiveDoubling {
    n: u32,
    pof2: u32,
    rem: u32,
    log: u32,
    bytes: u64,
}

impl RecursiveDoubling {
    /// A recursive-doubling allreduce; `n ≥ 1`.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::collective::{RecursiveDoubling, Schedule};
    ///
    /// // Power of two: n·log2 n messages; step j pairs r with r XOR 2^(j−1).
    /// let rd = RecursiveDoubling::new(8, 64)?;
    /// assert_eq!((rd.num_steps(), rd.num_messages()), (3, 24));
    /// rd.for_each_message_in_step(3, |m| assert_eq!(m.dst, m.src ^ 4));
    ///
    /// // 6 ranks: pof2 = 4, rem = 2. Ranks 0 and 2 hand their vectors to 1 and 3 (step 1), the
    /// // new ranks 0..4 = ranks 1, 3, 4, 5 exchange (steps 2–3), 1 and 3 return the result
    /// // (step 4): 4·2 + 2·2 = 12 messages.
    /// let rd6 = RecursiveDoubling::new(6, 64)?;
    /// assert_eq!((rd6.num_steps(), rd6.num_messages()), (4, 12));
    /// assert_eq!([0, 3, 5].map(|r| rd6.newrank(r)), [None, Some(1), Some(3)]);
    /// # Ok::<(), jumpnet_core::collective::ScheduleError>(())
    /// ```
    pub fn new(n: u32, bytes: u64) -> Result<Self, ScheduleError> {
        if n == 0 {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                rule: "a communicator needs at least one rank",
            }));
        }
        let pof2 = pof2_floor(n);
        Ok(RecursiveDoubling {
            n,
            pof2,
            rem: n - pof2,
            log: pof2.trailing_zeros(),
            bytes,
        })
    }

    /// Rank `r`'s index among the `pof2` exchanging ranks (`None` for even `r < 2·rem`).
    pub fn newrank(&self, r: Rank) -> Option<u32> {
        if r < 2 * self.rem {
            (r % 2 == 1).then_some(r / 2)
        } else {
            Some(r - self.rem)
        }
    }

    /// The real rank of exchange index `nr`.
    pub fn real(&self, nr: u32) -> Rank {
        if nr < self.rem {
            nr * 2 + 1
        } else {
            nr + self.rem
        }
    }

    fn msg(&self, step: u32, src: Rank, dst: Rank) -> Message {
        Message {
            step,
            src,
            dst,
            blocks: Blocks::All,
            bytes: self.bytes,
        }
    }
}

impl Schedule for RecursiveDoubling {
    fn ranks(&self) -> u32 {
        self.n
    }
    fn semantics(&self) -> Semantics {
        Semantics::Allreduce
    }
    fn layout(&self) -> DataLayout {
        DataLayout::uniform(1, self.bytes)
    }
    fn num_steps(&self) -> u32 {
        self.log + if self.rem > 0 { 2 } else { 0 }
    }
    fn num_messages(&self) -> u64 {
        self.pof2 as u64 * self.log as u64 + 2 * self.rem as u64
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
        if self.rem > 0 && step == 1 {
            for i in 0..self.rem {
                f(self.msg(step, 2 * i, 2 * i + 1));
            }
        } else if self.rem > 0 && step == self.num_steps() {
            for i in 0..self.rem {
                f(self.msg(step, 2 * i + 1, 2 * i));
            }
        } else {
            let e = step - 1 - u32::from(self.rem > 0);
            let mask = 1u32 << e;
            for nr in 0..self.pof2 {
                f(self.msg(step, self.real(nr), self.real(nr ^ mask)));
            }
        }
    }
    fn program_len(&self, r: Rank) -> usize {
        if r >= self.n {
            0
        } else if r < 2 * self.rem {
            if r.is_multiple_of(2) {
                2
            } else {
                2 + 2 * self.log as usize
            }
        } else {
            2 * self.log as usize
        }
    }
    fn program(&self, r: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        check_rank(r as u64, self.n as u64)?;
        let mut sink = OpSink::new(out);
        let all = Blocks::All;
        let paired = r < 2 * self.rem;
        if paired && r.is_multiple_of(2) {
            let s = sink.push(Op::Send {
                peer: r + 1,
                blocks: all,
                after: Dep::None,
            })?;
            sink.push(Op::Recv {
                peer: r + 1,
                blocks: all,
                after: Dep::Op(s),
            })?;
            return Ok(sink.len());
        }
        if paired {
            sink.push(Op::RecvReduce {
                peer: r - 1,
                blocks: all,
                after: Dep::None,
            })?;
        }
        if let Some(nr) = self.newrank(r) {
            for e in 0..self.log {
                let dst = self.real(nr ^ (1 << e));
                sink.push(Op::Send {
                    peer: dst,
                    blocks: all,
                    after: Dep::Earlier,
                })?;
                sink.push(Op::RecvReduce {
                    peer: dst,
                    blocks: all,
                    after: Dep::Earlier,
                })?;
            }
        }
        if paired {
            sink.push(Op::Send {
                peer: r - 1,
                blocks: all,
                after: Dep::Earlier,
            })?;
        }
        Ok(sink.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_of_two_pairs_xor() {
        let s = RecursiveDoubling::new(16, 8).unwrap();
        assert_eq!(s.num_steps(), 4);
        assert_eq!(s.num_messages(), 64);
        for j in 1..=4 {
            let mut c = 0;
            s.for_each_message_in_step(j, |m| {
                assert_eq!(m.dst, m.src ^ (1 << (j - 1)));
                c += 1;
            });
            assert_eq!(c, 16);
        }
    }

    #[test]
    fn non_power_of_two_pre_and_post() {
        // n = 6: pof2 = 4, rem = 2: pre 0→1, 2→3; exchanges over {1, 3, 4, 5}; post 1→0, 3→2.
        let s = RecursiveDoubling::new(6, 8).unwrap();
        assert_eq!(s.num_messages(), 4 * 2 + 4);
        let mut pre = std::vec::Vec::new();
        s.for_each_message_in_step(1, |m| pre.push((m.src, m.dst)));
        assert_eq!(pre, [(0, 1), (2, 3)]);
        let mut post = std::vec::Vec::new();
        s.for_each_message_in_step(4, |m| post.push((m.src, m.dst)));
        assert_eq!(post, [(1, 0), (3, 2)]);
        let mut x = std::vec::Vec::new();
        s.for_each_message_in_step(2, |m| x.push((m.src, m.dst)));
        assert_eq!(x, [(1, 3), (3, 1), (4, 5), (5, 4)]);
    }
}
