//! Host-side NIC engines of HIL runs (see [`crate::sim::workload::nic_engine`] for the contract):
//!
//! - [`ImageCoreEngine`]: the in-process `Executor` over a program read from a device image
//!   (`--engine core`: the whole HIL path without hardware);
//! - [`ClockedEngine`]: any engine stepped cycle by cycle under core's timing contract
//!   (`jumpnet_core::exec::timing`) through [`CycleStepper`] — core's `TimedExecutor` (the
//!   reference of RTL runs) and the Verilated RTL (`super::rtl`, feature `rtl`).

use std::collections::VecDeque;

use jumpnet_core::collective::{Blocks, Op, Rank};
use jumpnet_core::exec::timing::{CycleOutput, TimedExecutor};
use jumpnet_core::exec::{Action, ExecCursor, Executor, OpStatus};

use crate::sim::workload::nic_engine::{NicEngine, NicError, RecvMatcher};

/// Which ops of a program are done, from the actions seen (for deadlock reports).
#[derive(Debug, Clone)]
pub struct OpProgress {
    done: Vec<bool>,
    prefix: u32,
}

impl OpProgress {
    /// Nothing done of a program of `len` ops.
    pub fn new(len: usize) -> Self {
        OpProgress {
            done: vec![false; len],
            prefix: 0,
        }
    }

    /// Notes `action`.
    pub fn note(&mut self, action: &Action) {
        let op = match *action {
            Action::Send { op, .. } | Action::Deliver { op, .. } | Action::Permute { op, .. } => op,
            Action::Wait | Action::Done => return,
        };
        if let Some(d) = self.done.get_mut(op as usize) {
            *d = true;
        }
        while self.done.get(self.prefix as usize) == Some(&true) {
            self.prefix += 1;
        }
    }

    /// The first op not done.
    pub fn first_pending(&self) -> u32 {
        self.prefix
    }
}

/// The in-process executor over its own copy of a program (read from a device image).
#[derive(Debug)]
pub struct ImageCoreEngine {
    program: Vec<Op>,
    status: Vec<OpStatus>,
    cursor: ExecCursor,
}

impl ImageCoreEngine {
    /// Starts `program`.
    pub fn new(program: Vec<Op>) -> Result<Self, NicError> {
        let mut status = vec![OpStatus::Pending; program.len()];
        let cursor = Executor::new(&program, &mut status)?.cursor();
        Ok(ImageCoreEngine {
            program,
            status,
            cursor,
        })
    }

    fn with<T>(
        &mut self,
        f: impl FnOnce(&mut Executor<'_, '_>) -> Result<T, jumpnet_core::exec::ExecError>,
    ) -> Result<T, NicError> {
        let mut ex = Executor::resume(&self.program, &mut self.status, self.cursor);
        let out = f(&mut ex);
        self.cursor = ex.cursor();
        Ok(out?)
    }
}

impl NicEngine for ImageCoreEngine {
    fn arrive(&mut self, _: u64, _: u64, peer: Rank, blocks: Blocks) -> Result<u32, NicError> {
        self.with(|ex| ex.on_receive(peer, blocks))
    }
    fn poll(&mut self, now: u64) -> Result<Action, NicError> {
        self.with(|ex| ex.poll(now))
    }
    fn first_pending(&self) -> u32 {
        self.cursor.done_prefix
    }
}

/// One clocked engine: a cycle of the timing contract per call.
pub trait CycleStepper {
    /// Simulates one cycle with at most one `arrival` (as `TimedExecutor::step`).
    fn step(&mut self, arrival: Option<(Rank, Blocks)>) -> Result<CycleOutput, String>;
}

impl CycleStepper for TimedExecutor<'_, '_> {
    fn step(&mut self, arrival: Option<(Rank, Blocks)>) -> Result<CycleOutput, String> {
        Ok(TimedExecutor::step(self, arrival))
    }
}

/// A [`CycleStepper`] in the simulator: stepped once per simulator cycle from cycle 0 (the
/// idle cycles between polls are stepped when the next poll comes and must show no action),
/// arrivals presented one per cycle in arrival order once visible.
#[derive(Debug)]
pub struct ClockedEngine<S> {
    name: String,
    stepper: S,
    matcher: RecvMatcher,
    progress: OpProgress,
    queue: VecDeque<(u64, Rank, Blocks)>,
    next_cycle: u64,
    busy: bool,
}

impl<S: CycleStepper> ClockedEngine<S> {
    /// `stepper` runs `program` (used to match arrivals to receives); `name` names the
    /// engine in errors.
    pub fn new(name: String, stepper: S, program: &[Op]) -> Self {
        ClockedEngine {
            name,
            stepper,
            matcher: RecvMatcher::new(program),
            progress: OpProgress::new(program.len()),
            queue: VecDeque::new(),
            next_cycle: 0,
            busy: true,
        }
    }

    fn cycle(&mut self) -> Result<CycleOutput, NicError> {
        let cycle = self.next_cycle;
        let arrival = match self.queue.front() {
            Some(&(visible, peer, blocks)) if visible <= cycle => {
                self.queue.pop_front();
                Some((peer, blocks))
            }
            _ => None,
        };
        let out = self
            .stepper
            .step(arrival)
            .map_err(|e| NicError::Engine(format!("{}: {e}", self.name)))?;
        self.next_cycle += 1;
        if out.cycle != cycle {
            return Err(NicError::Engine(format!(
                "{}: stepped cycle {} where the simulator is in cycle {cycle}",
                self.name, out.cycle
            )));
        }
        if let Some((code, op)) = out.error {
            return Err(NicError::Engine(format!(
                "{}: error {code:?} (op {op}) in cycle {cycle}",
                self.name
            )));
        }
        self.busy = out.action.is_some() || arrival.is_some() || !self.queue.is_empty();
        Ok(out)
    }
}

impl<S: CycleStepper> NicEngine for ClockedEngine<S> {
    fn arrive(
        &mut self,
        _: u64,
        visible: u64,
        peer: Rank,
        blocks: Blocks,
    ) -> Result<u32, NicError> {
        self.queue.push_back((visible, peer, blocks));
        Ok(self.matcher.arrive(peer, blocks)?)
    }

    fn poll(&mut self, now: u64) -> Result<Action, NicError> {
        while self.next_cycle < now {
            let out = self.cycle()?;
            if let Some(a) = out.action {
                return Err(NicError::Engine(format!(
                    "{}: acted ({a:?}) in idle cycle {} (timing contract: no action without a \
                     completed op or an arrival in the cycle before)",
                    self.name, out.cycle
                )));
            }
        }
        if self.next_cycle > now {
            return Err(NicError::Engine(format!(
                "{}: polled twice in cycle {now}",
                self.name
            )));
        }
        let out = self.cycle()?;
        let action = match out.action {
            Some(a) => a,
            None if out.done => Action::Done,
            None => Action::Wait,
        };
        self.progress.note(&action);
        Ok(action)
    }

    fn clocked(&self) -> bool {
        true
    }

    fn busy(&self) -> bool {
        self.busy
    }

    fn first_pending(&self) -> u32 {
        self.progress.first_pending()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "engines_tests.rs"]
mod tests;
