//! The NIC engines of a collective run ([`crate::sim::workload::collective`]): what runs each rank's
//! program. By default every rank runs in process on `jumpnet_core::exec::Executor`
//! ([`CoreEngines`], all programs in one concatenated buffer); hardware-in-the-loop runs
//! (`crate::hil`) replace the engines of chosen ranks by anything implementing
//! [`NicEngine`] — the firmware under QEMU, the RTL under Verilator, or core's
//! cycle-stepped reference `TimedExecutor` — and watch every action through an
//! [`ActionObserver`].
//!
//! # The engine contract (what the simulator relies on)
//!
//! * [`NicEngine::arrive`] is called when a message for the rank has arrived (its tail was
//!   ejected at `arrived`; the NIC may see it from `visible` on). It returns the index of
//!   the receive op the message is matched to — the first pending receive from `peer` with
//!   the same blocks (`Executor::on_receive`'s rule, a function of the program and the
//!   arrivals so far; [`RecvMatcher`] computes it for engines that cannot answer at once).
//! * [`NicEngine::poll`] is called at the rank's wake-up times with the current cycle and
//!   returns the next action; untimed engines are polled until [`Action::Wait`] or
//!   [`Action::Done`]. A *clocked* engine ([`NicEngine::clocked`]) performs at most one
//!   action per cycle (core's timing contract, `jumpnet_core::exec::timing`): the simulator
//!   polls it once per cycle while it is busy ([`NicEngine::busy`]) and again whenever an
//!   arrival becomes visible.

use jumpnet_core::collective::{Blocks, Dep, Op, Rank, Schedule};
use jumpnet_core::exec::{match_receive, Action, ExecCursor, ExecError, Executor, OpStatus};

use crate::sim::workload::background::BackgroundConfig;
use crate::sim::workload::collective::CollectiveError;

/// Why a NIC engine failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NicError {
    /// The executor reported a protocol error (in-process engines and engines that report
    /// core's errors).
    Exec(ExecError),
    /// Anything else an engine reports (a device that does not answer, an RTL error code, a
    /// program the engine refuses), as a message naming the engine.
    Engine(String),
}

impl std::fmt::Display for NicError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NicError::Exec(e) => e.fmt(f),
            NicError::Engine(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for NicError {}

impl From<ExecError> for NicError {
    fn from(e: ExecError) -> Self {
        NicError::Exec(e)
    }
}

/// The engine of one rank's NIC (module documentation: the contract).
pub trait NicEngine {
    /// A message from `peer` carrying `blocks` arrived (tail ejected at cycle `arrived`,
    /// visible to the NIC from cycle `visible`). Returns the receive op it is matched to.
    fn arrive(
        &mut self,
        arrived: u64,
        visible: u64,
        peer: Rank,
        blocks: Blocks,
    ) -> Result<u32, NicError>;
    /// The next action at cycle `now`.
    fn poll(&mut self, now: u64) -> Result<Action, NicError>;
    /// Whether the engine is clocked (one action per cycle, polled once per cycle).
    fn clocked(&self) -> bool {
        false
    }
    /// For clocked engines: whether the next cycle may act (an action or an arrival in the
    /// last cycle, or arrivals still queued). An idle clocked engine is polled again only
    /// when an arrival becomes visible.
    fn busy(&self) -> bool {
        false
    }
    /// The first op not done (for deadlock reports).
    fn first_pending(&self) -> u32;
    /// Keeps the send op `op` just issued open until [`NicEngine::send_completed`]
    /// (`Executor::hold_send`); `false` when the engine completes its sends when it issues
    /// them (the default: device and RTL engines).
    fn hold_send(&mut self, _op: u32) -> Result<bool, NicError> {
        Ok(false)
    }
    /// Completes a send op held by [`NicEngine::hold_send`].
    fn send_completed(&mut self, _op: u32) -> Result<(), NicError> {
        Ok(())
    }
}

/// Something that watches every action of every rank as the simulator performs it; an
/// `Err` stops the run with [`crate::sim::workload::collective::CollectiveError::Stopped`].
pub trait ActionObserver {
    /// Rank `rank` performed `action` (including `Done`, reported once) at cycle `now`.
    fn action(&mut self, now: u64, rank: Rank, action: &Action) -> Result<(), String>;
}

/// Matches arrivals to receive ops by the executor's rule ([`match_receive`]: the first
/// pending receive from the peer with the same blocks), for engines that report the match
/// only when they deliver.
#[derive(Debug, Clone)]
pub struct RecvMatcher {
    recvs: Vec<(u32, Rank, Blocks)>,
    matched: Vec<bool>,
}

impl RecvMatcher {
    /// A matcher for `program`.
    pub fn new(program: &[Op]) -> Self {
        let recvs: Vec<(u32, Rank, Blocks)> = program
            .iter()
            .enumerate()
            .filter_map(|(i, op)| op.as_recv().map(|(p, b)| (i as u32, p, b)))
            .collect();
        RecvMatcher {
            matched: vec![false; recvs.len()],
            recvs,
        }
    }

    /// The receive op a message from `peer` with `blocks` is matched to (the executor's
    /// errors when none is).
    pub fn arrive(&mut self, peer: Rank, blocks: Blocks) -> Result<u32, ExecError> {
        let pending = self
            .recvs
            .iter()
            .zip(&self.matched)
            .filter(|(_, m)| !**m)
            .map(|(r, _)| *r);
        let op = match_receive(pending, peer, blocks)?;
        if let Ok(k) = self.recvs.binary_search_by_key(&op, |r| r.0) {
            self.matched[k] = true;
        }
        Ok(op)
    }
}

/// The programs of every rank, concatenated, with their in-process executor state.
#[derive(Debug)]
pub struct CoreEngines {
    ops: Vec<Op>,
    status: Vec<OpStatus>,
    starts: Vec<usize>,
    cursors: Vec<ExecCursor>,
}

impl CoreEngines {
    /// Loads every rank's program of `schedule` (errors name the rank).
    pub fn load<S: Schedule>(schedule: &S) -> Result<Self, CollectiveError> {
        let n = schedule.ranks();
        let total = schedule.total_program_len();
        let blank = Op::Permute {
            reflect: false,
            shift: 0,
            after: Dep::None,
        };
        let mut ops = vec![blank; total];
        let mut starts = vec![0usize; n as usize + 1];
        let mut at = 0;
        for r in 0..n {
            let len = schedule.program_len(r);
            let used = schedule
                .program(r, &mut ops[at..at + len])
                .map_err(|e| CollectiveError::Config(format!("program of rank {r}: {e}")))?;
            at += used;
            starts[r as usize + 1] = at;
        }
        ops.truncate(at);
        let mut status = vec![OpStatus::Pending; at];
        let mut cursors = Vec::with_capacity(n as usize);
        for r in 0..n as usize {
            let (a, b) = (starts[r], starts[r + 1]);
            let ex = Executor::new(&ops[a..b], &mut status[a..b]).map_err(|error| {
                CollectiveError::Exec {
                    rank: r as Rank,
                    error,
                }
            })?;
            cursors.push(ex.cursor());
        }
        Ok(CoreEngines {
            ops,
            status,
            starts,
            cursors,
        })
    }

    /// Rank `r`'s program.
    pub fn program(&self, r: Rank) -> &[Op] {
        let ru = r as usize;
        &self.ops[self.starts[ru]..self.starts[ru + 1]]
    }

    /// Total ops of all programs.
    pub fn total_ops(&self) -> usize {
        self.ops.len()
    }

    /// Index of op `op` of rank `r` in the concatenated buffer, if the rank has that op.
    pub fn global_index(&self, r: Rank, op: u32) -> Option<usize> {
        let ru = r as usize;
        let gi = self.starts.get(ru)? + op as usize;
        (gi < *self.starts.get(ru + 1)?).then_some(gi)
    }

    fn with<T>(
        &mut self,
        r: Rank,
        f: impl FnOnce(&mut Executor<'_, '_>) -> Result<T, ExecError>,
    ) -> Result<T, ExecError> {
        let ru = r as usize;
        let (a, b) = (self.starts[ru], self.starts[ru + 1]);
        let mut ex = Executor::resume(&self.ops[a..b], &mut self.status[a..b], self.cursors[ru]);
        let out = f(&mut ex);
        self.cursors[ru] = ex.cursor();
        out
    }
}

/// The engines of a run: the in-process executors, with some ranks replaced.
pub struct NicSet<'e> {
    /// In-process executors of every rank (also the programs' home).
    pub core: CoreEngines,
    custom: Vec<Option<Box<dyn NicEngine + 'e>>>,
}

impl std::fmt::Debug for NicSet<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let replaced: Vec<usize> = (0..self.custom.len())
            .filter(|&r| self.custom[r].is_some())
            .collect();
        f.debug_struct("NicSet")
            .field("core", &self.core)
            .field("replaced", &replaced)
            .finish()
    }
}

impl<'e> NicSet<'e> {
    /// Every rank in process.
    pub fn new(core: CoreEngines) -> Self {
        NicSet {
            core,
            custom: Vec::new(),
        }
    }

    /// Runs rank `r` on `engine` instead of in process.
    pub fn replace(&mut self, r: Rank, engine: Box<dyn NicEngine + 'e>) {
        let ru = r as usize;
        if self.custom.len() <= ru {
            self.custom.resize_with(ru + 1, || None);
        }
        self.custom[ru] = Some(engine);
    }

    /// Whether rank `r` runs on a replaced engine.
    pub fn is_replaced(&self, r: Rank) -> bool {
        self.custom.get(r as usize).is_some_and(Option::is_some)
    }

    fn custom(&mut self, r: Rank) -> Option<&mut Box<dyn NicEngine + 'e>> {
        self.custom.get_mut(r as usize).and_then(Option::as_mut)
    }

    /// See [`NicEngine::arrive`].
    pub fn arrive(
        &mut self,
        r: Rank,
        arrived: u64,
        visible: u64,
        peer: Rank,
        blocks: Blocks,
    ) -> Result<u32, NicError> {
        match self.custom(r) {
            Some(e) => e.arrive(arrived, visible, peer, blocks),
            None => Ok(self.core.with(r, |ex| ex.on_receive(peer, blocks))?),
        }
    }

    /// See [`NicEngine::poll`].
    pub fn poll(&mut self, r: Rank, now: u64) -> Result<Action, NicError> {
        match self.custom(r) {
            Some(e) => e.poll(now),
            None => Ok(self.core.with(r, |ex| ex.poll(now))?),
        }
    }

    /// See [`NicEngine::clocked`].
    pub fn clocked(&mut self, r: Rank) -> bool {
        self.custom(r).is_some_and(|e| e.clocked())
    }

    /// See [`NicEngine::busy`].
    pub fn busy(&mut self, r: Rank) -> bool {
        self.custom(r).is_some_and(|e| e.busy())
    }

    /// See [`NicEngine::hold_send`].
    pub fn hold_send(&mut self, r: Rank, op: u32) -> Result<bool, NicError> {
        match self.custom(r) {
            Some(e) => e.hold_send(op),
            None => Ok(self.core.with(r, |ex| ex.hold_send(op)).map(|()| true)?),
        }
    }

    /// See [`NicEngine::send_completed`].
    pub fn send_completed(&mut self, r: Rank, op: u32) -> Result<(), NicError> {
        match self.custom(r) {
            Some(e) => e.send_completed(op),
            None => Ok(self.core.with(r, |ex| ex.send_completed(op))?),
        }
    }

    /// See [`NicEngine::first_pending`].
    pub fn first_pending(&mut self, r: Rank) -> u32 {
        match self.custom(r) {
            Some(e) => e.first_pending(),
            None => self.core.cursors[r as usize].done_prefix,
        }
    }
}

/// The collective error of rank `rank`'s engine error.
pub fn nic_error(rank: Rank, e: NicError) -> CollectiveError {
    match e {
        NicError::Exec(error) => CollectiveError::Exec { rank, error },
        NicError::Engine(message) => CollectiveError::Engine { rank, message },
    }
}

/// What a run may change: the engines of some ranks, an observer of every action
/// (hardware-in-the-loop runs, `crate::hil`) and background traffic
/// ([`crate::sim::workload::background`]). The default changes nothing.
#[derive(Default)]
pub struct RunHooks<'h, 'e> {
    /// Ranks whose NIC runs on another engine than the in-process executor.
    pub engines: Vec<(Rank, Box<dyn NicEngine + 'e>)>,
    /// Sees every action.
    pub observer: Option<&'h mut dyn ActionObserver>,
    /// Random traffic on the terminals the collective does not use.
    pub background: Option<&'h BackgroundConfig>,
}

impl std::fmt::Debug for RunHooks<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ranks: Vec<Rank> = self.engines.iter().map(|(r, _)| *r).collect();
        f.debug_struct("RunHooks")
            .field("engines", &ranks)
            .field("observer", &self.observer.is_some())
            .field("background", &self.background)
            .finish()
    }
}
