//! Per-rank programs: the ordered operations a NIC executes (docs/collectives.md).
//!
//! A program is a slice of [`Op`]s. Each op names its peer, the blocks it moves and what it
//! waits for ([`Dep`]). Sends complete when handed to the network; a receive completes when
//! its message has arrived *and* its dependency is satisfied, at which point its data is
//! written (or reduced) into the buffer. MPICH's `sendrecv` is a `Send` and a receive that
//! both wait for the same earlier ops; the receive also waits for the send so the outgoing
//! data is taken before the incoming data lands. Programs are plain `Copy` data; their one
//! byte encoding is the versioned, CRC-protected program image (`image::program`).

use super::blocks::Blocks;
use super::message::Rank;
use super::schedule::ScheduleError;
use crate::error::CapacityError;
use serde::{Deserialize, Serialize};

/// What an op waits for before it may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dep {
    /// Nothing: may run at once.
    None,
    /// Op `i` of the same program (an earlier op) must have completed.
    Op(u32),
    /// Every earlier op of the program must have completed.
    Earlier,
}

/// One operation of a rank's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    /// Send `blocks` of the local buffer to `peer`.
    Send {
        /// Destination rank.
        peer: Rank,
        /// Blocks sent.
        blocks: Blocks,
        /// Dependency.
        after: Dep,
    },
    /// Receive `blocks` from `peer`, overwriting the local copies.
    Recv {
        /// Source rank.
        peer: Rank,
        /// Blocks received.
        blocks: Blocks,
        /// Dependency.
        after: Dep,
    },
    /// Receive `blocks` from `peer` and combine them into the local copies with the
    /// reduction operator.
    RecvReduce {
        /// Source rank.
        peer: Rank,
        /// Blocks received.
        blocks: Blocks,
        /// Dependency.
        after: Dep,
    },
    /// Local block permutation `new[i] = old[(shift + i) mod S]`, or with `reflect`
    /// `new[i] = old[(shift - i) mod S]` (Bruck's rotations, docs/collectives.md §3).
    Permute {
        /// Use `shift - i` instead of `shift + i`.
        reflect: bool,
        /// Rotation amount.
        shift: u32,
        /// Dependency.
        after: Dep,
    },
}

impl Op {
    /// The op's dependency.
    pub fn after(&self) -> Dep {
        match *self {
            Op::Send { after, .. }
            | Op::Recv { after, .. }
            | Op::RecvReduce { after, .. }
            | Op::Permute { after, .. } => after,
        }
    }

    /// Peer and blocks of a send.
    pub fn as_send(&self) -> Option<(Rank, Blocks)> {
        match *self {
            Op::Send { peer, blocks, .. } => Some((peer, blocks)),
            _ => None,
        }
    }

    /// Peer and blocks of a receive (plain or reducing).
    pub fn as_recv(&self) -> Option<(Rank, Blocks)> {
        match *self {
            Op::Recv { peer, blocks, .. } | Op::RecvReduce { peer, blocks, .. } => {
                Some((peer, blocks))
            }
            _ => None,
        }
    }
}

/// Appends ops to a caller buffer, failing cleanly when it is full.
#[derive(Debug)]
pub struct OpSink<'a> {
    out: &'a mut [Op],
    len: usize,
}

impl<'a> OpSink<'a> {
    /// An empty sink over `out`.
    pub fn new(out: &'a mut [Op]) -> Self {
        OpSink { out, len: 0 }
    }

    /// Index the next op will get.
    pub fn next_index(&self) -> u32 {
        self.len as u32
    }

    /// Appends `op`, returning its index.
    pub fn push(&mut self, op: Op) -> Result<u32, ScheduleError> {
        let available = self.out.len();
        match self.out.get_mut(self.len) {
            Some(slot) => {
                *slot = op;
                self.len += 1;
                Ok(self.len as u32 - 1)
            }
            None => Err(ScheduleError::Capacity(CapacityError {
                what: "program ops",
                needed: self.len as u64 + 1,
                available: available as u64,
            })),
        }
    }

    /// Number of ops written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
