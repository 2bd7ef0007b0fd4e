//! Violations reported by the symbolic checker.

use crate::collective::{Message, Rank, ScheduleError};
use crate::error::CapacityError;
use crate::exec::ExecError;
use core::fmt;

/// The first violation [`super::check()`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// A checker buffer is too small.
    Capacity(CapacityError),
    /// Program generation failed.
    Schedule {
        /// Rank whose program failed.
        rank: Rank,
        /// The error.
        error: ScheduleError,
    },
    /// A rank's executor reported a protocol error.
    Exec {
        /// Rank.
        rank: Rank,
        /// The error.
        error: ExecError,
    },
    /// `num_messages()` differs from the number of messages listed.
    MessageCount {
        /// What `num_messages()` claims.
        claimed: u64,
        /// What `for_each_message` yields.
        listed: u64,
    },
    /// The global list is not in ascending step order, or a step is outside `1..=num_steps`.
    StepOrder {
        /// Offending message.
        message: Message,
    },
    /// A listed message names a rank or block out of range.
    BadMessage {
        /// Offending message.
        message: Message,
    },
    /// A listed message's byte count differs from the layout's size of its blocks.
    Bytes {
        /// Offending message.
        message: Message,
        /// Size computed from the layout.
        expected: u64,
    },
    /// The sends (`sends = true`, compared in order) or the receives (as a multiset) of
    /// `rank`'s program differ from the global message list.
    ProgramMismatch {
        /// Rank.
        rank: Rank,
        /// Whether the sends (else the receives) differ.
        sends: bool,
    },
    /// `rank` sends `block`, which it does not hold (op `op`).
    NotHeld {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
        /// Block.
        block: u32,
    },
    /// `rank` received `block`, which it already held (op `op`).
    Redundant {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
        /// Block.
        block: u32,
    },
    /// A reduction at `rank` would count `contribution` twice in `block` (op `op`).
    DoubleCount {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
        /// Block.
        block: u32,
        /// Rank whose contribution is duplicated.
        contribution: Rank,
    },
    /// A reducing receive in an alltoall (blocks cannot be combined there).
    InvalidReduce {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
    },
    /// No rank can make progress; `rank` is the first unfinished rank, `op` its first
    /// unfinished op.
    Deadlock {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
    },
    /// Broadcast/allgather: `rank` ends without `block`.
    Missing {
        /// Rank.
        rank: Rank,
        /// Block.
        block: u32,
    },
    /// Allreduce: `rank`'s `block` lacks `contribution`.
    Incomplete {
        /// Rank.
        rank: Rank,
        /// Block.
        block: u32,
        /// Missing contribution.
        contribution: Rank,
    },
    /// Alltoall: slot `slot` of `rank` should hold the block sent by rank `slot` to `rank`
    /// but holds `found` (`(src, dst)`, or nothing).
    WrongBlock {
        /// Rank.
        rank: Rank,
        /// Slot.
        slot: u32,
        /// What it holds.
        found: Option<(Rank, Rank)>,
    },
    /// Allgather: the ranks' own blocks are not a permutation of the blocks (`rank` owns
    /// `block`, which is out of range or owned twice).
    OwnBlock {
        /// Rank.
        rank: Rank,
        /// Block.
        block: u32,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CheckError::*;
        match *self {
            Capacity(e) => e.fmt(f),
            Schedule { rank, .. } => write!(f, "program of rank {rank}"),
            Exec { rank, .. } => write!(f, "executing rank {rank}"),
            MessageCount { claimed, listed } => {
                write!(f, "num_messages() says {claimed}, the message list has {listed}")
            }
            StepOrder { message } => {
                write!(f, "message {message:?} breaks ascending step order or the step range")
            }
            BadMessage { message } => write!(f, "message {message:?} names a rank or block out of range"),
            Bytes { message, expected } => {
                write!(f, "message {message:?} should carry {expected} bytes")
            }
            ProgramMismatch { rank, sends } => write!(
                f,
                "the {} of rank {rank}'s program differ from the global message list",
                if sends { "sends" } else { "receives" }
            ),
            NotHeld { rank, op, block } => {
                write!(f, "rank {rank} op {op} sends block {block}, which it does not hold")
            }
            Redundant { rank, op, block } => {
                write!(f, "rank {rank} op {op} receives block {block}, which it already holds")
            }
            DoubleCount { rank, op, block, contribution } => write!(
                f,
                "rank {rank} op {op} would count rank {contribution}'s contribution to block {block} twice"
            ),
            InvalidReduce { rank, op } => {
                write!(f, "rank {rank} op {op} reduces alltoall blocks, which cannot be combined")
            }
            Deadlock { rank, op } => write!(
                f,
                "deadlock: no rank can progress; rank {rank} is stuck at op {op}"
            ),
            Missing { rank, block } => write!(f, "rank {rank} ends without block {block}"),
            Incomplete { rank, block, contribution } => write!(
                f,
                "rank {rank} ends with block {block} lacking rank {contribution}'s contribution"
            ),
            WrongBlock { rank, slot, found } => match found {
                Some((s, d)) => write!(
                    f,
                    "rank {rank} slot {slot} holds the block {s}→{d}, expected {slot}→{rank}"
                ),
                None => write!(f, "rank {rank} slot {slot} is empty, expected the block {slot}→{rank}"),
            },
            OwnBlock { rank, block } => write!(
                f,
                "rank {rank} owns block {block}, which is out of range or owned by another rank"
            ),
        }
    }
}

crate::error::from_shared!(CheckError, Capacity);

impl core::error::Error for CheckError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            CheckError::Schedule { error, .. } => Some(error),
            CheckError::Exec { error, .. } => Some(error),
            _ => None,
        }
    }
}
