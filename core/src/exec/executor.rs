//! The program executor state machine (docs/collectives.md; programs of
//! `collective::program`).
//!
//! Semantics: an op is *ready* when its [`Dep`] is satisfied (an `Op(i)` dependency when op
//! `i` is done, `Earlier` when every earlier op is done). [`Executor::poll`] returns the
//! lowest-index ready op that can act: a send or a permutation (done once returned), or a
//! receive whose message has already arrived (done once returned as
//! [`Action::Deliver`], at which point the caller writes or reduces the data). Arriving
//! messages are matched by [`Executor::on_receive`] to the first pending receive from that
//! peer with the same blocks, whether or not it is ready yet (MPI-style early arrival); the
//! host keeps the payload under the returned op index until `poll` delivers that op.
//! The executor holds no payload and no clock of its own: `now` only feeds the optional stall
//! watchdog ([`Executor::with_timeout`]) and [`Executor::finished_at`].

use crate::collective::{Blocks, Dep, Op, Rank};
use crate::error::CapacityError;
use core::fmt;
use serde::{Deserialize, Serialize};

/// Progress of one op.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OpStatus {
    /// Not run yet (a receive whose message has not arrived).
    #[default]
    Pending,
    /// A receive whose message has arrived but which is not ready yet.
    Arrived,
    /// Completed.
    Done,
    /// A send the host holds open ([`Executor::hold_send`]): issued, not completed yet.
    Sending,
}

/// The executor's matching rule: a message from `peer` carrying `blocks` belongs to the
/// first of the `pending` receives `(op, peer, blocks)` (in program order) from that peer
/// with the same blocks. Errors: the first pending receive from `peer` expects other blocks
/// ([`ExecError::BlocksMismatch`]), or none is from `peer` ([`ExecError::UnexpectedMessage`]).
pub fn match_receive(
    pending: impl IntoIterator<Item = (u32, Rank, Blocks)>,
    peer: Rank,
    blocks: Blocks,
) -> Result<u32, ExecError> {
    let mut first_from_peer = None;
    for (op, p, b) in pending {
        if p != peer {
            continue;
        }
        if b == blocks {
            return Ok(op);
        }
        first_from_peer.get_or_insert((op, b));
    }
    Err(match first_from_peer {
        Some((op, expected)) => ExecError::BlocksMismatch {
            op,
            peer,
            expected,
            got: blocks,
        },
        None => ExecError::UnexpectedMessage { peer, blocks },
    })
}

/// What the executor asks its host to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Transmit `blocks` of the local buffer to `peer` (op `op` is now done).
    Send {
        /// Op index.
        op: u32,
        /// Destination rank.
        peer: Rank,
        /// Blocks to send.
        blocks: Blocks,
    },
    /// The message from `peer` for receive op `op` may now be written (`reduce = false`)
    /// or reduced (`reduce = true`) into the local buffer.
    Deliver {
        /// Op index.
        op: u32,
        /// Source rank.
        peer: Rank,
        /// Blocks received.
        blocks: Blocks,
        /// Whether to reduce instead of overwrite.
        reduce: bool,
    },
    /// Apply the local permutation of op `op` (see `Op::Permute`).
    Permute {
        /// Op index.
        op: u32,
        /// Reflected permutation.
        reflect: bool,
        /// Rotation amount.
        shift: u32,
    },
    /// Nothing can run until a message arrives.
    Wait,
    /// Every op is done.
    Done,
}

/// Protocol and configuration errors of the executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecError {
    /// The status buffer is shorter than the program (`what` is "op status": `needed` ops,
    /// `available` status entries).
    Capacity(CapacityError),
    /// Op `op` depends on op `on`, which is not an earlier op.
    InvalidDependency {
        /// The op.
        op: u32,
        /// The op it names.
        on: u32,
    },
    /// A message arrived from `peer` and no pending receive expects anything from it.
    UnexpectedMessage {
        /// Sender.
        peer: Rank,
        /// Blocks it carried.
        blocks: Blocks,
    },
    /// A message from `peer` carried other blocks than the pending receive `op` expects.
    BlocksMismatch {
        /// The first pending receive from `peer`.
        op: u32,
        /// Sender.
        peer: Rank,
        /// What the receive expects.
        expected: Blocks,
        /// What arrived.
        got: Blocks,
    },
    /// No progress for longer than the configured timeout; `op` is the first unfinished op.
    Stalled {
        /// First unfinished op.
        op: u32,
        /// Time of the last progress.
        since: u64,
    },
    /// [`Executor::hold_send`] on an op that is not a completed send, or
    /// [`Executor::send_completed`] on one that is not held.
    NotHoldable {
        /// The op.
        op: u32,
    },
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExecError::Capacity(e) => e.fmt(f),
            ExecError::InvalidDependency { op, on } => {
                write!(f, "op {op} depends on op {on}: dependencies must name an earlier op")
            }
            ExecError::UnexpectedMessage { peer, blocks } => {
                write!(f, "unexpected message from rank {peer} ({blocks:?}): no pending receive from it")
            }
            ExecError::BlocksMismatch {
                op,
                peer,
                expected,
                got,
            } => write!(
                f,
                "message from rank {peer} carries {got:?}, pending receive op {op} expects {expected:?}"
            ),
            ExecError::Stalled { op, since } => {
                write!(f, "no progress since time {since}; op {op} is the first unfinished op")
            }
            ExecError::NotHoldable { op } => {
                write!(f, "op {op} is not a send that was issued (to hold) or is held (to complete)")
            }
        }
    }
}

crate::error::from_shared!(ExecError, Capacity);

impl core::error::Error for ExecError {}

/// The executor's scalar state, so a host juggling many executors can store it compactly
/// and [`Executor::resume`] later.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExecCursor {
    /// Ops `0 .. done_prefix` are all done.
    pub done_prefix: u32,
    /// Number of ops not done yet.
    pub remaining: u32,
    /// Time of the last progress seen by `poll`.
    pub last_progress: u64,
    /// Whether something happened since the last `poll` (an arrival).
    pub progressed: bool,
    /// Stall timeout (0 = none).
    pub timeout: u64,
    /// Time at which `poll` first saw every op done (`u64::MAX` while running).
    pub finished_at: u64,
    /// One past the last op whose dependency is not [`Dep::Earlier`]: beyond it (and beyond
    /// the first unfinished op) nothing can be ready, so `poll` stops scanning there.
    pub scan_limit: u32,
}

/// Runs one rank's program.
#[derive(Debug)]
pub struct Executor<'p, 's> {
    program: &'p [Op],
    status: &'s mut [OpStatus],
    cur: ExecCursor,
}

impl<'p, 's> Executor<'p, 's> {
    /// Starts `program` with `status` as per-op state (at least `program.len()` entries;
    /// they are reset). Checks that every dependency names an earlier op.
    pub fn new(program: &'p [Op], status: &'s mut [OpStatus]) -> Result<Self, ExecError> {
        if status.len() < program.len() {
            return Err(ExecError::Capacity(CapacityError::new(
                "op status",
                program.len() as u64,
                status.len() as u64,
            )));
        }
        for (i, op) in program.iter().enumerate() {
            if let Dep::Op(on) = op.after() {
                if on as usize >= i {
                    return Err(ExecError::InvalidDependency { op: i as u32, on });
                }
            }
        }
        let status = &mut status[..program.len()];
        status.fill(OpStatus::Pending);
        let scan_limit = program
            .iter()
            .rposition(|op| op.after() != Dep::Earlier)
            .map_or(0, |i| i as u32 + 1);
        Ok(Executor {
            program,
            status,
            cur: ExecCursor {
                done_prefix: 0,
                remaining: program.len() as u32,
                last_progress: 0,
                progressed: false,
                timeout: 0,
                finished_at: u64::MAX,
                scan_limit,
            },
        })
    }

    /// Re-attaches to a program started earlier with [`Executor::new`] on the same
    /// `status` entries, continuing from `cursor`.
    pub fn resume(program: &'p [Op], status: &'s mut [OpStatus], cursor: ExecCursor) -> Self {
        let len = program.len().min(status.len());
        Executor {
            program: &program[..len],
            status: &mut status[..len],
            cur: cursor,
        }
    }

    /// Sets a stall timeout: `poll(now)` fails with [`ExecError::Stalled`] when nothing
    /// happened for more than `timeout` time units (0 disables it).
    pub fn with_timeout(mut self, timeout: u64, now: u64) -> Self {
        self.cur.timeout = timeout;
        self.cur.last_progress = now;
        self
    }

    /// The scalar state, for [`Executor::resume`].
    pub fn cursor(&self) -> ExecCursor {
        self.cur
    }

    /// Whether every op is done.
    pub fn is_done(&self) -> bool {
        self.cur.remaining == 0
    }

    /// Index of the first op not done yet.
    pub fn first_pending(&self) -> Option<u32> {
        (!self.is_done()).then_some(self.cur.done_prefix)
    }

    /// Time at which `poll` first reported [`Action::Done`].
    pub fn finished_at(&self) -> Option<u64> {
        (self.cur.finished_at != u64::MAX).then_some(self.cur.finished_at)
    }

    /// Status of op `i`.
    pub fn status(&self, i: u32) -> Option<OpStatus> {
        self.status.get(i as usize).copied()
    }

    /// Records the arrival of a message from `peer` carrying `blocks`, matching it to the
    /// first pending receive from `peer` with the same blocks. Returns the receive's index.
    pub fn on_receive(&mut self, peer: Rank, blocks: Blocks) -> Result<u32, ExecError> {
        let start = self.cur.done_prefix as usize;
        let pending = self
            .program
            .iter()
            .zip(self.status.iter())
            .enumerate()
            .skip(start)
            .filter(|(_, (_, st))| **st == OpStatus::Pending)
            .filter_map(|(i, (op, _))| op.as_recv().map(|(p, b)| (i as u32, p, b)));
        let i = match_receive(pending, peer, blocks)?;
        if let Some(st) = self.status.get_mut(i as usize) {
            *st = OpStatus::Arrived;
        }
        self.cur.progressed = true;
        Ok(i)
    }

    /// Keeps the send op `op`, which [`Executor::poll`] has just returned, open until
    /// [`Executor::send_completed`]: ops that depend on it wait, as after a blocking
    /// `MPI_Send` (a send completes when it is handed over unless the host holds it).
    /// Errors when `op` is not a completed send.
    pub fn hold_send(&mut self, op: u32) -> Result<(), ExecError> {
        let i = op as usize;
        let is_send = matches!(self.program.get(i), Some(Op::Send { .. }));
        if !is_send || self.status[i] != OpStatus::Done {
            return Err(ExecError::NotHoldable { op });
        }
        self.status[i] = OpStatus::Sending;
        self.cur.remaining += 1;
        self.cur.done_prefix = self.cur.done_prefix.min(op);
        Ok(())
    }

    /// Completes the send op `op` held by [`Executor::hold_send`] (its message has been
    /// taken by the receiver). Errors when `op` is not held.
    pub fn send_completed(&mut self, op: u32) -> Result<(), ExecError> {
        if self.status.get(op as usize) != Some(&OpStatus::Sending) {
            return Err(ExecError::NotHoldable { op });
        }
        self.complete(op as usize);
        self.cur.progressed = true;
        Ok(())
    }

    fn ready(&self, i: usize) -> bool {
        match self.program[i].after() {
            Dep::None => true,
            Dep::Op(j) => self.status.get(j as usize) == Some(&OpStatus::Done),
            Dep::Earlier => i == self.cur.done_prefix as usize,
        }
    }

    fn complete(&mut self, i: usize) {
        self.status[i] = OpStatus::Done;
        self.cur.remaining = self.cur.remaining.saturating_sub(1);
        let mut p = self.cur.done_prefix as usize;
        while p < self.status.len() && self.status[p] == OpStatus::Done {
            p += 1;
        }
        self.cur.done_prefix = p as u32;
    }

    /// The next thing to do at time `now`: call repeatedly until it returns
    /// [`Action::Wait`] or [`Action::Done`].
    pub fn poll(&mut self, now: u64) -> Result<Action, ExecError> {
        if self.cur.progressed {
            self.cur.progressed = false;
            self.cur.last_progress = now;
        }
        if self.is_done() {
            if self.cur.finished_at == u64::MAX {
                self.cur.finished_at = now;
            }
            return Ok(Action::Done);
        }
        let first = self.cur.done_prefix as usize;
        for i in first..self.program.len() {
            if i > first && i >= self.cur.scan_limit as usize {
                break; // only `Earlier` ops remain, and an earlier op is unfinished
            }
            if matches!(self.status[i], OpStatus::Done | OpStatus::Sending) || !self.ready(i) {
                continue;
            }
            let action = match self.program[i] {
                Op::Send { peer, blocks, .. } => Action::Send {
                    op: i as u32,
                    peer,
                    blocks,
                },
                Op::Permute { reflect, shift, .. } => Action::Permute {
                    op: i as u32,
                    reflect,
                    shift,
                },
                Op::Recv { peer, blocks, .. } | Op::RecvReduce { peer, blocks, .. } => {
                    if self.status[i] != OpStatus::Arrived {
                        continue;
                    }
                    Action::Deliver {
                        op: i as u32,
                        peer,
                        blocks,
                        reduce: matches!(self.program[i], Op::RecvReduce { .. }),
                    }
                }
            };
            self.complete(i);
            self.cur.last_progress = now;
            return Ok(action);
        }
        if self.cur.timeout > 0 && now.saturating_sub(self.cur.last_progress) > self.cur.timeout {
            return Err(ExecError::Stalled {
                op: self.cur.done_prefix,
                since: self.cur.last_progress,
            });
        }
        Ok(Action::Wait)
    }
}

#[cfg(test)]
#[path = "executor_tests.rs"]
mod tests;
