//! The [`Schedule`] trait shared by every collective algorithm, the collective
//! [`Semantics`] the symbolic checker verifies, and [`ScheduleError`].

use super::blocks::DataLayout;
use super::message::{Message, Rank};
use super::program::Op;
use crate::error::{CapacityError, InvalidParam};
use core::fmt;

/// What a schedule computes, i.e. what the symbolic checker (`exec::check`) verifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Semantics {
    /// `root` starts with all `blocks` blocks; every rank must end with all of them, each
    /// received exactly once.
    Broadcast {
        /// Root rank.
        root: Rank,
    },
    /// Rank `r` starts with block [`Schedule::own_block`]`(r)`; every rank must end with
    /// every block (allgather, all-to-all broadcast).
    Allgather,
    /// Every rank contributes to every block; every rank must end with each block reduced
    /// over all `n` contributions, each counted exactly once.
    Allreduce,
    /// Rank `r` starts with block `(r → j)` in slot `j`; rank `r` must end with block
    /// `(s → r)` in slot `s`.
    Alltoall,
}

/// Errors of schedule construction and program generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    /// A parameter is out of its allowed range.
    Invalid(InvalidParam),
    /// A rank (or router, node) index is outside `0..n`.
    RankOutOfRange {
        /// Index given.
        rank: u64,
        /// Number of ranks.
        n: u64,
    },
    /// A caller buffer is too small.
    Capacity(CapacityError),
    /// A graph given by an oracle is not connected.
    Disconnected {
        /// A node not reachable from the root.
        node: u64,
    },
    /// A pivot hook returned an index outside its list.
    Pivot {
        /// Index returned.
        index: u64,
        /// List length.
        len: u64,
    },
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScheduleError::Invalid(e) => e.fmt(f),
            ScheduleError::RankOutOfRange { rank, n } => {
                write!(f, "rank {rank} out of range: must be below {n}")
            }
            ScheduleError::Capacity(e) => e.fmt(f),
            ScheduleError::Disconnected { node } => {
                write!(f, "node {node} is not reachable from the root")
            }
            ScheduleError::Pivot { index, len } => {
                write!(f, "pivot index {index} outside a list of {len}")
            }
        }
    }
}

crate::error::from_shared!(ScheduleError, Capacity, Invalid);

impl core::error::Error for ScheduleError {}

/// A collective send schedule in rank space.
///
/// Implementations yield their messages without allocating, in ascending step order, and a
/// rank's messages in the order its program sends them. Programs (`program`) must send and
/// receive exactly the global messages (checked by `exec::check`).
pub trait Schedule {
    /// Number of ranks `n`.
    fn ranks(&self) -> u32;
    /// What the schedule computes.
    fn semantics(&self) -> Semantics;
    /// The data buffer: number of blocks and their sizes.
    fn layout(&self) -> DataLayout;
    /// Number of steps; message steps are `1..=num_steps()`.
    fn num_steps(&self) -> u32;
    /// Exact number of messages.
    fn num_messages(&self) -> u64;
    /// Calls `f` for every message, in ascending step order.
    fn for_each_message<F: FnMut(Message)>(&self, f: F);
    /// Calls `f` for every message of step `step`.
    fn for_each_message_in_step<F: FnMut(Message)>(&self, step: u32, mut f: F) {
        self.for_each_message(|m| {
            if m.step == step {
                f(m)
            }
        });
    }
    /// Number of ops of `rank`'s program (0 for ranks out of range).
    fn program_len(&self, rank: Rank) -> usize;
    /// Sum of all program lengths.
    fn total_program_len(&self) -> usize {
        (0..self.ranks()).map(|r| self.program_len(r)).sum()
    }
    /// Writes `rank`'s program into `out`, returning the number of ops.
    ///
    /// `out` needs [`Schedule::program_len`]`(rank)` entries; a shorter buffer is a
    /// [`ScheduleError::Capacity`] error, never a partial program.
    ///
    /// # Examples
    ///
    /// The program of rank 2 in a binomial broadcast over 8 ranks from root 0
    /// (docs/collectives.md §1): receive from `2 − lowbit(2) = 0`, then send to `2 + 1 = 3`.
    ///
    /// ```
    /// use jumpnet_core::collective::{Binomial, Blocks, Dep, Op, Schedule};
    ///
    /// let bcast = Binomial::new(8, 0, 4096)?;
    /// let len = bcast.program_len(2);
    /// let blank = Op::Permute { reflect: false, shift: 0, after: Dep::None };
    /// let mut ops = [blank; 8];
    /// let used = bcast.program(2, &mut ops[..len])?;
    /// assert_eq!(used, 2);
    /// assert!(matches!(ops[0], Op::Recv { peer: 0, blocks: Blocks::All, .. }));
    /// assert!(matches!(ops[1], Op::Send { peer: 3, blocks: Blocks::All, .. }));
    /// // Sizing comes first: a buffer one op short is refused.
    /// assert!(bcast.program(2, &mut ops[..len - 1]).is_err());
    /// # Ok::<(), jumpnet_core::collective::ScheduleError>(())
    /// ```
    fn program(&self, rank: Rank, out: &mut [Op]) -> Result<usize, ScheduleError>;
    /// The block rank `rank` starts with under [`Semantics::Allgather`].
    fn own_block(&self, rank: Rank) -> u32 {
        rank
    }
}

/// Implements [`Schedule`] for an enum whose variants each hold one schedule, by
/// delegating every method to the held schedule (see `AnySchedule`, `Broadcast`).
macro_rules! delegate_schedule {
    ($ty:ty { $($variant:path),+ $(,)? }) => {
        const _: () = {
            use $crate::collective::blocks::DataLayout;
            use $crate::collective::message::{Message, Rank};
            use $crate::collective::program::Op;
            use $crate::collective::schedule::{Schedule as S, ScheduleError, Semantics};

            impl S for $ty {
                fn ranks(&self) -> u32 {
                    match self { $($variant(s) => S::ranks(s),)+ }
                }
                fn semantics(&self) -> Semantics {
                    match self { $($variant(s) => S::semantics(s),)+ }
                }
                fn layout(&self) -> DataLayout {
                    match self { $($variant(s) => S::layout(s),)+ }
                }
                fn num_steps(&self) -> u32 {
                    match self { $($variant(s) => S::num_steps(s),)+ }
                }
                fn num_messages(&self) -> u64 {
                    match self { $($variant(s) => S::num_messages(s),)+ }
                }
                fn for_each_message<F: FnMut(Message)>(&self, f: F) {
                    match self { $($variant(s) => S::for_each_message(s, f),)+ }
                }
                fn for_each_message_in_step<F: FnMut(Message)>(&self, step: u32, f: F) {
                    match self { $($variant(s) => S::for_each_message_in_step(s, step, f),)+ }
                }
                fn program_len(&self, rank: Rank) -> usize {
                    match self { $($variant(s) => S::program_len(s, rank),)+ }
                }
                fn total_program_len(&self) -> usize {
                    match self { $($variant(s) => S::total_program_len(s),)+ }
                }
                fn program(&self, rank: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
                    match self { $($variant(s) => S::program(s, rank, out),)+ }
                }
                fn own_block(&self, rank: Rank) -> u32 {
                    match self { $($variant(s) => S::own_block(s, rank),)+ }
                }
            }
        };
    };
}
pub(crate) use delegate_schedule;

/// `ceil(log2 n)` (0 for `n ≤ 1`).
pub const fn ceil_log2(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// Largest power of two `≤ n` (0 for `n = 0`).
pub const fn pof2_floor(n: u32) -> u32 {
    if n == 0 {
        0
    } else {
        1 << (31 - n.leading_zeros())
    }
}

/// Checks `rank < n`.
pub(crate) fn check_rank(rank: u64, n: u64) -> Result<(), ScheduleError> {
    if rank < n {
        Ok(())
    } else {
        Err(ScheduleError::RankOutOfRange { rank, n })
    }
}
