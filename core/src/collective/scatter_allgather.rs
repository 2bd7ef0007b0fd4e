//! Scatter + allgather broadcast, MPICH `MPIR_Bcast_intra_scatter_recursive_doubling_allgather`
//! and `MPIR_Bcast_intra_scatter_ring_allgather` (docs/collectives.md §5).
//!
//! The `nbytes` buffer is cut into pieces of `ss = ceil(nbytes / n)` bytes; piece `x` belongs
//! to relative rank `x`. Blocks here are the `P = ceil(nbytes / ss)` non-empty pieces.
//!
//! * **Binomial scatter** (steps `1 ..= K`): the tree of §1; relative rank `c` receives the
//!   pieces of its subtree `[c, c + lowbit(c)) ∩ [0, P)` from `c - lowbit(c)`; the message
//!   exists only when it carries bytes (`c < P`), exactly as MPICH skips empty sends.
//! * **Recursive-doubling allgather** (power-of-two `n`, steps `K+1 ..= 2K`): in round `i`
//!   relative ranks `x` and `x XOR 2^i` swap their ranges of `2^i` pieces starting at
//!   `((x >> i) << i)` (clipped to `P`, possibly empty: MPICH still sends).
//! * **Ring allgather** (steps `K+1 ..= K+n-1`): §4 ring in absolute ranks carrying piece
//!   `rel(j)` (empty when `rel(j) ≥ P`).
//!
//! After the scatter a rank already holds its whole subtree, so the allgather phase delivers
//! some pieces a second time (MPICH behaviour; the checker counts them as redundant).

use super::blocks::{Blocks, DataLayout, SlotSizing};
use super::message::{Message, Rank};
use super::program::{Dep, Op, OpSink};
use super::ring_allgather::sub_mod;
use super::schedule::{ceil_log2, check_rank, Schedule, ScheduleError, Semantics};
use crate::error::InvalidParam;

/// Which allgather follows the scatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllgatherKind {
    /// Recursive doubling (power-of-two `n` only).
    RecursiveDoubling,
    /// Ring.
    Ring,
}

/// Scatter + allgather broadcast of `nbytes` bytes from `root` over `n` ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScatterAllgather {
    n: u32,
    root: u32,
    nbytes: u64,
    piece: u64,
    pieces: u32,
    k: u32,
    kind: AllgatherKind,
}

fn lowbit(x: u64) -> u64 {
    x & x.wrapping_neg()
}

impl ScatterAllgather {
    /// A scatter + allgather broadcast; `n ≥ 1`, `root < n`, and `n` a power of two for
    /// [`AllgatherKind::RecursiveDoubling`].
    pub fn new(
        n: u32,
        root: Rank,
        nbytes: u64,
        kind: AllgatherKind,
    ) -> Result<Self, ScheduleError> {
        if n == 0 {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "n",
                value: 0,
                rule: "a communicator needs at least one rank",
            }));
        }
        check_rank(root as u64, n as u64)?;
        if kind == AllgatherKind::RecursiveDoubling && !n.is_power_of_two() {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "recursive-doubling allgather needs a power-of-two communicator",
            }));
        }
        let piece = nbytes.div_ceil(n as u64);
        let pieces = if piece == 0 {
            0
        } else {
            nbytes.div_ceil(piece) as u32
        };
        Ok(ScatterAllgather {
            n,
            root,
            nbytes,
            piece,
            pieces,
            k: ceil_log2(n),
            kind,
        })
    }

    /// Piece size `ceil(nbytes / n)`.
    pub fn piece_bytes(&self) -> u64 {
        self.piece
    }

    /// Number of non-empty pieces `P`.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    fn abs(&self, x: u64) -> Rank {
        ((x + self.root as u64) % self.n as u64) as u32
    }

    fn rel(&self, r: Rank) -> u64 {
        sub_mod(r as u64, self.root as u64, self.n) as u64
    }

    /// Pieces `[start, start + len) ∩ [0, P)` as a (possibly empty) range.
    fn clip(&self, start: u64, len: u64) -> Blocks {
        let p = self.pieces as u64;
        let l = p.saturating_sub(start).min(len);
        Blocks::Range {
            start: start.min(u32::MAX as u64) as u32,
            len: l as u32,
        }
    }

    fn msg(&self, step: u32, src: Rank, dst: Rank, blocks: Blocks) -> Message {
        Message {
            step,
            src,
            dst,
            blocks,
            bytes: self.layout().bytes(blocks),
        }
    }

    fn allgather_steps(&self) -> u32 {
        match self.kind {
            AllgatherKind::RecursiveDoubling => self.k,
            AllgatherKind::Ring => self.n - 1,
        }
    }

    /// Scatter children of relative rank `x`: `f(c, mask)` for `c = x + mask`, mask
    /// descending, only those that receive bytes.
    fn scatter_children<F: FnMut(u64, u64)>(&self, x: u64, mut f: F) {
        let limit = if x == 0 { 1u64 << self.k } else { lowbit(x) };
        let mut mask = limit >> 1;
        while mask > 0 {
            let c = x + mask;
            if c < self.n as u64 && c < self.pieces as u64 {
                f(c, mask);
            }
            mask >>= 1;
        }
    }

    /// Ring piece (relative index) sent by absolute rank `r` in ring round `i ≥ 1`.
    fn ring_piece(&self, r: Rank, i: u32) -> u64 {
        let j = sub_mod(r as u64 + 1, i as u64, self.n);
        self.rel(j)
    }
}

impl Schedule for ScatterAllgather {
    fn ranks(&self) -> u32 {
        self.n
    }
    fn semantics(&self) -> Semantics {
        Semantics::Broadcast { root: self.root }
    }
    fn layout(&self) -> DataLayout {
        DataLayout {
            slots: self.pieces,
            sizing: SlotSizing::Pieces {
                total: self.nbytes,
                piece: self.piece,
            },
        }
    }
    fn num_steps(&self) -> u32 {
        self.k + self.allgather_steps()
    }
    fn num_messages(&self) -> u64 {
        // Scatter: one message per relative rank 1 ≤ c < min(n, P).
        let scatter = (self.n.min(self.pieces) as u64).saturating_sub(1);
        scatter + self.n as u64 * self.allgather_steps() as u64
    }
    fn for_each_message<F: FnMut(Message)>(&self, mut f: F) {
        for step in 1..=self.num_steps() {
            self.for_each_message_in_step(step, &mut f);
        }
    }
    fn for_each_message_in_step<F: FnMut(Message)>(&self, step: u32, mut f: F) {
        let n = self.n as u64;
        if step == 0 || step > self.num_steps() {
        } else if step <= self.k {
            let mask = 1u64 << (self.k - step);
            let mut x = 0u64;
            while x + mask < n {
                let c = x + mask;
                if c < self.pieces as u64 {
                    f(self.msg(step, self.abs(x), self.abs(c), self.clip(c, mask)));
                }
                x += 2 * mask;
            }
        } else {
            let i = step - self.k;
            for r in 0..self.n {
                let m = match self.kind {
                    AllgatherKind::RecursiveDoubling => {
                        let x = self.rel(r);
                        let mask = 1u64 << (i - 1);
                        let root = (x >> (i - 1)) << (i - 1);
                        self.msg(step, r, self.abs(x ^ mask), self.clip(root, mask))
                    }
                    AllgatherKind::Ring => {
                        let blocks = self.clip(self.ring_piece(r, i), 1);
                        self.msg(step, r, (r + 1) % self.n, blocks)
                    }
                };
                f(m);
            }
        }
    }
    fn program_len(&self, r: Rank) -> usize {
        if r >= self.n {
            return 0;
        }
        let x = self.rel(r);
        let mut len = usize::from(x != 0 && x < self.pieces as u64);
        self.scatter_children(x, |_, _| len += 1);
        len + 2 * self.allgather_steps() as usize
    }
    fn program(&self, r: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        check_rank(r as u64, self.n as u64)?;
        let mut sink = OpSink::new(out);
        let x = self.rel(r);
        let mut after = Dep::None;
        if x != 0 && x < self.pieces as u64 {
            let lb = lowbit(x);
            let i = sink.push(Op::Recv {
                peer: self.abs(x - lb),
                blocks: self.clip(x, lb),
                after: Dep::None,
            })?;
            after = Dep::Op(i);
        }
        let mut res = Ok(0);
        self.scatter_children(x, |c, mask| {
            if res.is_ok() {
                res = sink.push(Op::Send {
                    peer: self.abs(c),
                    blocks: self.clip(c, mask),
                    after,
                });
            }
        });
        res?;
        for i in 1..=self.allgather_steps() {
            let (to, send, from, recv) = match self.kind {
                AllgatherKind::RecursiveDoubling => {
                    let mask = 1u64 << (i - 1);
                    let p = x ^ mask;
                    let mine = (x >> (i - 1)) << (i - 1);
                    let theirs = (p >> (i - 1)) << (i - 1);
                    let peer = self.abs(p);
                    (peer, self.clip(mine, mask), peer, self.clip(theirs, mask))
                }
                AllgatherKind::Ring => {
                    let left = sub_mod(r as u64, 1, self.n);
                    (
                        (r + 1) % self.n,
                        self.clip(self.ring_piece(r, i), 1),
                        left,
                        self.clip(self.ring_piece(left, i), 1),
                    )
                }
            };
            sink.push(Op::Send {
                peer: to,
                blocks: send,
                after: Dep::Earlier,
            })?;
            sink.push(Op::Recv {
                peer: from,
                blocks: recv,
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
    fn scatter_sizes_follow_mpich() {
        // 97 bytes over 16 ranks: ss = 7, pieces 0..13 non-empty, ranks 14 and 15 get nothing.
        let s = ScatterAllgather::new(16, 0, 97, AllgatherKind::RecursiveDoubling).unwrap();
        assert_eq!((s.piece_bytes(), s.pieces()), (7, 14));
        let mut scatter = std::vec::Vec::new();
        s.for_each_message(|m| {
            if m.step <= 4 {
                scatter.push((m.src, m.dst, m.bytes));
            }
        });
        // Root sends bytes [56, 97) to 8, [28, 56) to 4, [14, 28) to 2, [7, 14) to 1.
        assert!(scatter.contains(&(0, 8, 41)));
        assert!(scatter.contains(&(0, 4, 28)));
        assert!(scatter.contains(&(8, 12, 13)));
        assert!(scatter.contains(&(12, 13, 6)));
        assert!(!scatter.iter().any(|&(_, d, _)| d == 14 || d == 15));
        assert_eq!(scatter.len(), 13);
        assert_eq!(s.num_messages(), 13 + 64);
    }

    #[test]
    fn rd_needs_power_of_two() {
        assert!(ScatterAllgather::new(12, 0, 1 << 20, AllgatherKind::RecursiveDoubling).is_err());
        assert!(ScatterAllgather::new(12, 0, 1 << 20, AllgatherKind::Ring).is_ok());
    }
}
