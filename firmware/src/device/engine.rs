//! The program engine: runs one program of the active image with the core's [`Executor`],
//! step by step as the host reports time and arrivals, counting the actions it emits.

use heapless::Vec;
use jumpnet_core::collective::Op;
use jumpnet_core::exec::{Action, ExecCursor, Executor};
use jumpnet_core::image::device::{program_ops, ProgramEntry};

use super::loading::Active;
use super::DeviceService;
use jumpnet_core::wire::device::{Arrival, DeviceReply, ExecFault, ExecReport};
use jumpnet_core::wire::message::Rejection;

/// A program being run: which one, and the executor's scalar state.
#[derive(Clone, Copy, Debug)]
pub(super) struct Running {
    pub(super) program: u32,
    pub(super) cursor: ExecCursor,
}

/// Program `index` of the active image (programs and ops are the decoded buffers).
fn active_program<'a>(
    active: Option<&Active>,
    programs: &'a [ProgramEntry],
    ops: &'a [Op],
    index: u32,
) -> Result<&'a [Op], Rejection> {
    let caps = active.ok_or(Rejection::NoActiveImage)?.header.capacities;
    let programs = programs.get(..caps.programs as usize).unwrap_or(&[]);
    let ops = ops.get(..caps.ops as usize).unwrap_or(&[]);
    program_ops(programs, ops, index as usize)
        .map(|(_, ops)| ops)
        .ok_or(Rejection::NoSuchProgram {
            program: index,
            programs: caps.programs,
        })
}

impl<const RUNS: usize, const PROGRAMS: usize, const OPS: usize, const IMAGE: usize>
    DeviceService<RUNS, PROGRAMS, OPS, IMAGE>
{
    pub(super) fn exec_start(&mut self, index: u32, now: u64) -> Result<DeviceReply, Rejection> {
        self.running.clear();
        let Self {
            active,
            programs,
            ops,
            status,
            ..
        } = self;
        let program = active_program(active.get(), programs, ops, index)?;
        let exec = Executor::new(program, status)
            .map_err(|e| Rejection::Exec(ExecFault::from(e)))?
            .with_timeout(0, now);
        self.running.put(Running {
            program: index,
            cursor: exec.cursor(),
        });
        self.exec_step(now, &[])
    }

    pub(super) fn exec_step(
        &mut self,
        now: u64,
        arrivals: &[Arrival],
    ) -> Result<DeviceReply, Rejection> {
        let running = *self.running.get().ok_or(Rejection::NotRunning)?;
        let Self {
            active,
            programs,
            ops,
            status,
            counters,
            ..
        } = self;
        let program = active_program(active.get(), programs, ops, running.program)?;
        let mut exec = Executor::resume(program, status, running.cursor);
        let mut result = Ok(());
        for a in arrivals {
            if let Err(e) = exec.on_receive(a.peer, a.blocks) {
                result = Err(Rejection::Exec(e.into()));
                break;
            }
        }
        let mut report = ExecReport {
            actions: Vec::new(),
            done: false,
            more: false,
        };
        if result.is_ok() {
            loop {
                if report.actions.is_full() {
                    report.more = true;
                    break;
                }
                match exec.poll(now) {
                    Ok(Action::Wait) => break,
                    Ok(Action::Done) => {
                        report.done = true;
                        break;
                    }
                    Ok(action) => {
                        match action {
                            Action::Send { .. } => {
                                counters.sends = counters.sends.saturating_add(1)
                            }
                            Action::Deliver { .. } => {
                                counters.deliveries = counters.deliveries.saturating_add(1)
                            }
                            _ => counters.permutes = counters.permutes.saturating_add(1),
                        }
                        let _ = report.actions.push(action);
                    }
                    Err(e) => {
                        result = Err(Rejection::Exec(e.into()));
                        break;
                    }
                }
            }
        }
        let cursor = exec.cursor();
        self.running.put(Running { cursor, ..running });
        result.map(|()| DeviceReply::Exec(report))
    }
}
