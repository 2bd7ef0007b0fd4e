//! Binomial-tree broadcast, MPICH `MPIR_Bcast_intra_binomial` (docs/collectives.md §1).
//!
//! Relative rank `x = (r - root) mod n` receives from `x - lowbit(x)` and sends to
//! `x + 2^j` for every `2^j < lowbit(x)` (for the root every `2^j < 2^K`) with `x + 2^j < n`,
//! largest subtree first. The message `x → x + 2^j` belongs to step `K - j`,
//! `K = ceil(log2 n)`; there are exactly `n - 1` messages in `K` steps.

use super::blocks::{Blocks, DataLayout};
use super::message::{Message, Rank};
use super::program::{Dep, Op, OpSink};
use super::schedule::{ceil_log2, check_rank, Schedule, ScheduleError, Semantics};
use crate::error::InvalidParam;

/// Binomial broadcast of `bytes` bytes from `root` over `n` ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binomial {
    n: u32,
    root: u32,
    bytes: u64,
    k: u32,
}

impl Binomial {
    /// A binomial broadcast; `n ≥ 1`, `root < n`.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::collective::{Binomial, Schedule};
    ///
    /// // n = 8, root 0 (docs/reference-results.md A3): {0→4}, {0→2, 4→6}, {0→1, 2→3, 4→5, 6→7}.
    /// let bcast = Binomial::new(8, 0, 1024)?;
    /// assert_eq!((bcast.num_steps(), bcast.num_messages()), (3, 7));
    /// let (mut msgs, mut len) = ([(0, 0, 0); 7], 0);
    /// bcast.for_each_message(|m| {
    ///     msgs[len] = (m.step, m.src, m.dst);
    ///     len += 1;
    /// });
    /// assert_eq!(
    ///     msgs,
    ///     [(1, 0, 4), (2, 0, 2), (2, 4, 6), (3, 0, 1), (3, 2, 3), (3, 4, 5), (3, 6, 7)]
    /// );
    /// // Root 2 of 6 ranks: rank 0 is relative rank 4 and hears from the root in step 1.
    /// assert_eq!(Binomial::new(6, 2, 1024)?.parent(0), Some(2));
    /// # Ok::<(), jumpnet_core::collective::ScheduleError>(())
    /// ```
    pub fn new(n: u32, root: Rank, bytes: u64) -> Result<Self, ScheduleError> {
        if n == 0 {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                rule: "a communicator needs at least one rank",
            }));
        }
        check_rank(root as u64, n as u64)?;
        Ok(Binomial {
            n,
            root,
            bytes,
            k: ceil_log2(n),
        })
    }

    /// Root rank.
    pub fn root(&self) -> Rank {
        self.root
    }

    /// Relative rank of `r`: `(r - root) mod n`.
    pub fn rel(&self, r: Rank) -> u32 {
        ((r as u64 + self.n as u64 - self.root as u64) % self.n as u64) as u32
    }

    /// Absolute rank of relative rank `x`: `(x + root) mod n`.
    pub fn abs(&self, x: u32) -> Rank {
        ((x as u64 + self.root as u64) % self.n as u64) as u32
    }

    /// The rank `r` receives from (`None` for the root or out-of-range ranks).
    pub fn parent(&self, r: Rank) -> Option<Rank> {
        if r >= self.n {
            return None;
        }
        let x = self.rel(r);
        (x != 0).then(|| self.abs(x - lowbit(x)))
    }

    /// Calls `f(child, step)` for every rank `r` sends to, in send order.
    pub fn for_each_child<F: FnMut(Rank, u32)>(&self, r: Rank, mut f: F) {
        if r >= self.n {
            return;
        }
        let x = self.rel(r) as u64;
        let limit = if x == 0 {
            1u64 << self.k
        } else {
            x & x.wrapping_neg()
        };
        let mut mask = limit >> 1;
        let mut j = limit.trailing_zeros().saturating_sub(1);
        while mask > 0 {
            if x + mask < self.n as u64 {
                f(self.abs((x + mask) as u32), self.k - j);
            }
            mask >>= 1;
            j = j.saturating_sub(1);
        }
    }

    fn message(&self, x: u64, mask: u64, step: u32) -> Message {
        Message {
            step,
            src: self.abs(x as u32),
            dst: self.abs((x + mask) as u32),
            blocks: Blocks::All,
            bytes: self.bytes,
        }
    }
}

fn lowbit(x: u32) -> u32 {
    x & x.wrapping_neg()
}

impl Schedule for Binomial {
    fn ranks(&self) -> u32 {
        self.n
    }
    fn semantics(&self) -> Semantics {
        Semantics::Broadcast { root: self.root }
    }
    fn layout(&self) -> DataLayout {
        DataLayout::uniform(1, self.bytes)
    }
    fn num_steps(&self) -> u32 {
        self.k
    }
    fn num_messages(&self) -> u64 {
        self.n as u64 - 1
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
        let mask = 1u64 << (self.k - step);
        let n = self.n as u64;
        // Senders of jump `mask` are the multiples of `2·mask` (their lowbit exceeds `mask`).
        let mut x = 0u64;
        while x + mask < n {
            f(self.message(x, mask, step));
            x += 2 * mask;
        }
    }
    fn program_len(&self, r: Rank) -> usize {
        if r >= self.n {
            return 0;
        }
        let mut len = usize::from(r != self.root);
        self.for_each_child(r, |_, _| len += 1);
        len
    }
    fn program(&self, r: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        check_rank(r as u64, self.n as u64)?;
        let mut sink = OpSink::new(out);
        let after = match self.parent(r) {
            Some(p) => {
                let i = sink.push(Op::Recv {
                    peer: p,
                    blocks: Blocks::All,
                    after: Dep::None,
                })?;
                Dep::Op(i)
            }
            None => Dep::None,
        };
        let mut res = Ok(());
        self.for_each_child(r, |c, _| {
            if res.is_ok() {
                res = sink
                    .push(Op::Send {
                        peer: c,
                        blocks: Blocks::All,
                        after,
                    })
                    .map(|_| ());
            }
        });
        res.map(|_| sink.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    fn steps(b: &Binomial) -> Vec<Vec<(u32, u32)>> {
        (1..=b.num_steps())
            .map(|s| {
                let mut v = Vec::new();
                b.for_each_message_in_step(s, |m| v.push((m.src, m.dst)));
                v.sort();
                v
            })
            .collect()
    }

    #[test]
    fn a3_n8_root0() {
        // docs/reference-results.md A3 / [DISS] Fig 2.13 (with the 6→7 typo fixed).
        let b = Binomial::new(8, 0, 1).unwrap();
        assert_eq!(
            steps(&b),
            [
                vec![(0, 4)],
                vec![(0, 2), (4, 6)],
                vec![(0, 1), (2, 3), (4, 5), (6, 7)]
            ]
        );
    }

    #[test]
    fn n6_root2() {
        // docs/collectives.md §1: step 1 2→0; step 2 2→4; step 3 2→3, 4→5, 0→1.
        let b = Binomial::new(6, 2, 1).unwrap();
        assert_eq!(
            steps(&b),
            [vec![(2, 0)], vec![(2, 4)], vec![(0, 1), (2, 3), (4, 5)]]
        );
    }

    #[test]
    fn children_match_messages_and_parents() {
        for n in 1..40 {
            for root in [0, n / 2, n - 1] {
                let b = Binomial::new(n, root, 3).unwrap();
                let mut count = 0;
                b.for_each_message(|m| {
                    count += 1;
                    assert_eq!(b.parent(m.dst), Some(m.src));
                    let mut found = false;
                    b.for_each_child(m.src, |c, s| found |= c == m.dst && s == m.step);
                    assert!(found);
                });
                assert_eq!(count, n as u64 - 1);
                assert_eq!(b.parent(root), None);
            }
        }
    }

    #[test]
    fn errors() {
        assert!(matches!(
            Binomial::new(0, 0, 1),
            Err(ScheduleError::Invalid(..))
        ));
        assert_eq!(
            Binomial::new(4, 4, 1),
            Err(ScheduleError::RankOutOfRange { rank: 4, n: 4 })
        );
    }
}
