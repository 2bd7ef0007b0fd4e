//! The schedule engine's timing contract ("RTL": "define its timing contract
//! (cycles per op) once in core") and the cycle-by-cycle reference model built on
//! [`Executor`], the golden model the RTL (`hdl-harness/rtl/sched_engine.v`) is held to.
//!
//! # The contract
//!
//! The engine is clocked; cycle 0 is the first cycle after the program was loaded and
//! started. In every cycle `t`:
//!
//! 1. **Outputs are a function of the state at the start of `t`.** The engine performs at most
//!    one action, exactly the one [`Executor::poll`] returns on that state: the lowest-index
//!    ready op (a send descriptor `(op, peer, blocks)`, a delivery `(op, peer, blocks,
//!    reduce)` of an arrived receive, or a permutation `(op, reflect, shift)`). Every op kind
//!    takes one cycle ([`SEND_CYCLES`], [`DELIVER_CYCLES`], [`PERMUTE_CYCLES`]); the op is done
//!    from cycle `t + 1`, so an op whose dependency completes in cycle `t` acts in cycle
//!    `t + 1` at the earliest ([`DEP_LATENCY`]). `done` is high in the cycles where every op
//!    is done ([`Action::Done`]); the first such cycle is the finish time.
//! 2. **At most one arrival `(peer, blocks)` is accepted per cycle**, matched at the end of
//!    `t` as [`Executor::on_receive`] does (first pending receive from that peer with the same
//!    blocks, ready or not: early arrival). Its delivery comes in cycle `t + 1` at the
//!    earliest ([`ARRIVAL_LATENCY`]). A message that matches nothing is an error.
//! 3. **Errors are sticky.** An invalid dependency ([`ExecError::InvalidDependency`]) is
//!    reported from cycle 0; an arrival error from cycle `t + 1`. After an error the engine
//!    performs no action; the error's [`ErrorCode`] and op stay on the outputs.
//!
//! [`TimedExecutor`] is this contract in code; [`reference_trace`] runs it over a fixed
//! arrival list.

use super::executor::{Action, ExecError, Executor, OpStatus};
use crate::collective::{Blocks, Op, Rank};
use crate::error::InvalidParam;

/// Cycles a send occupies the engine (the descriptor is valid for exactly one cycle).
pub const SEND_CYCLES: u64 = 1;
/// Cycles a delivery occupies the engine.
pub const DELIVER_CYCLES: u64 = 1;
/// Cycles a permutation occupies the engine.
pub const PERMUTE_CYCLES: u64 = 1;
/// Cycles from an op's action to the first cycle its dependents may act.
pub const DEP_LATENCY: u64 = 1;
/// Cycles from accepting an arrival to the first cycle its receive may be delivered.
pub const ARRIVAL_LATENCY: u64 = 1;

/// The error codes the RTL puts on its `err_code` output (0 = no error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ErrorCode {
    /// [`ExecError::InvalidDependency`]; the error op is the offending op.
    InvalidDependency = 1,
    /// [`ExecError::UnexpectedMessage`]; the error op is 0.
    UnexpectedMessage = 2,
    /// [`ExecError::BlocksMismatch`]; the error op is the first pending receive from the peer.
    BlocksMismatch = 3,
    /// Anything else (capacity, stall): not produced by the RTL.
    Other = 7,
}

impl ErrorCode {
    /// The code and op index the RTL reports for `e`.
    pub fn of(e: &ExecError) -> (ErrorCode, u32) {
        match *e {
            ExecError::InvalidDependency { op, .. } => (ErrorCode::InvalidDependency, op),
            ExecError::UnexpectedMessage { .. } => (ErrorCode::UnexpectedMessage, 0),
            ExecError::BlocksMismatch { op, .. } => (ErrorCode::BlocksMismatch, op),
            _ => (ErrorCode::Other, 0),
        }
    }
}

/// What the engine shows in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CycleOutput {
    /// The cycle.
    pub cycle: u64,
    /// The action performed (only `Send`, `Deliver` or `Permute`), if any.
    pub action: Option<Action>,
    /// Every op is done.
    pub done: bool,
    /// The sticky error, if any (code and op as the RTL reports them).
    pub error: Option<(ErrorCode, u32)>,
}

/// One cycle-stepped engine under the contract (module docs): an [`Executor`] plus the clock.
#[derive(Debug)]
pub struct TimedExecutor<'p, 's> {
    exec: Option<Executor<'p, 's>>,
    cycle: u64,
    error: Option<(ErrorCode, u32)>,
}

impl<'p, 's> TimedExecutor<'p, 's> {
    /// Starts `program` at cycle 0 with `status` as per-op state (as [`Executor::new`]). An
    /// invalid program is not an `Err`: as in the RTL it shows as an error from cycle 0.
    pub fn new(program: &'p [Op], status: &'s mut [OpStatus]) -> Self {
        match Executor::new(program, status) {
            Ok(ex) => TimedExecutor {
                exec: Some(ex),
                cycle: 0,
                error: None,
            },
            Err(e) => TimedExecutor {
                exec: None,
                cycle: 0,
                error: Some(ErrorCode::of(&e)),
            },
        }
    }

    /// The current cycle (the one the next [`step`](Self::step) simulates).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Simulates one cycle: the action of the current state, then the arrival (if any).
    pub fn step(&mut self, arrival: Option<(Rank, Blocks)>) -> CycleOutput {
        let cycle = self.cycle;
        self.cycle += 1;
        let mut out = CycleOutput {
            cycle,
            action: None,
            done: false,
            error: self.error,
        };
        let Some(ex) = self.exec.as_mut().filter(|_| self.error.is_none()) else {
            return out;
        };
        match ex.poll(cycle) {
            Ok(Action::Done) => out.done = true,
            Ok(Action::Wait) => {}
            Ok(a) => out.action = Some(a),
            Err(e) => self.error = Some(ErrorCode::of(&e)),
        }
        if let Some((peer, blocks)) = arrival {
            if let Err(e) = ex.on_receive(peer, blocks) {
                self.error = Some(ErrorCode::of(&e));
            }
        }
        out
    }
}

/// An arrival presented to the engine in `cycle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrival {
    /// Cycle in which it is presented.
    pub cycle: u64,
    /// Sender.
    pub peer: Rank,
    /// Blocks carried.
    pub blocks: Blocks,
}

/// How a [`reference_trace`] run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceEnd {
    /// `done` first rose in this cycle.
    Done(u64),
    /// The error first showed in this cycle.
    Error(u64, ErrorCode, u32),
    /// Neither within the cycle budget.
    Timeout,
}

/// Runs `program` under the contract with `arrivals` (ascending cycles, at most one per
/// cycle) for at most `max_cycles`, calling `on_action` for every cycle with an action.
/// Stops at the first `done` or error cycle.
pub fn reference_trace<F: FnMut(u64, Action)>(
    program: &[Op],
    status: &mut [OpStatus],
    arrivals: &[Arrival],
    max_cycles: u64,
    mut on_action: F,
) -> Result<TraceEnd, InvalidParam> {
    if let Some(w) = arrivals.windows(2).find(|w| w[1].cycle <= w[0].cycle) {
        return Err(InvalidParam {
            param: "arrival cycle",
            value: w[1].cycle,
            rule: "arrivals must be in strictly increasing cycles (one per cycle)",
        });
    }
    let mut engine = TimedExecutor::new(program, status);
    let mut next = arrivals.iter().peekable();
    for _ in 0..max_cycles {
        let arrival = next
            .next_if(|a| a.cycle == engine.cycle())
            .map(|a| (a.peer, a.blocks));
        let out = engine.step(arrival);
        if let Some((code, op)) = out.error {
            return Ok(TraceEnd::Error(out.cycle, code, op));
        }
        if out.done {
            return Ok(TraceEnd::Done(out.cycle));
        }
        if let Some(a) = out.action {
            on_action(out.cycle, a);
        }
    }
    Ok(TraceEnd::Timeout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::Dep;

    const ALL: Blocks = Blocks::All;

    #[test]
    fn exact_trace_with_early_and_late_arrivals() {
        // 0: recv from 1; 1: send to 2 after 0; 2: reduce from 3 (no dep); 3: permute after all.
        let prog = [
            Op::Recv {
                peer: 1,
                blocks: ALL,
                after: Dep::None,
            },
            Op::Send {
                peer: 2,
                blocks: ALL,
                after: Dep::Op(0),
            },
            Op::RecvReduce {
                peer: 3,
                blocks: Blocks::Single(4),
                after: Dep::None,
            },
            Op::Permute {
                reflect: false,
                shift: 1,
                after: Dep::Earlier,
            },
        ];
        let arrivals = [
            Arrival {
                cycle: 0,
                peer: 3,
                blocks: Blocks::Single(4),
            },
            Arrival {
                cycle: 4,
                peer: 1,
                blocks: ALL,
            },
        ];
        let mut st = [OpStatus::Pending; 4];
        let mut trace = [(0u64, Action::Wait); 4];
        let mut n = 0;
        let end = reference_trace(&prog, &mut st, &arrivals, 100, |c, a| {
            trace[n] = (c, a);
            n += 1;
        });
        assert_eq!(end, Ok(TraceEnd::Done(8)));
        assert_eq!(n, 4);
        assert_eq!(
            trace,
            [
                (
                    1,
                    Action::Deliver {
                        op: 2,
                        peer: 3,
                        blocks: Blocks::Single(4),
                        reduce: true
                    }
                ),
                (
                    5,
                    Action::Deliver {
                        op: 0,
                        peer: 1,
                        blocks: ALL,
                        reduce: false
                    }
                ),
                (
                    6,
                    Action::Send {
                        op: 1,
                        peer: 2,
                        blocks: ALL
                    }
                ),
                (
                    7,
                    Action::Permute {
                        op: 3,
                        reflect: false,
                        shift: 1
                    }
                ),
            ]
        );
    }

    #[test]
    fn errors_are_sticky_and_timed() {
        let prog = [Op::Recv {
            peer: 1,
            blocks: Blocks::Single(0),
            after: Dep::None,
        }];
        let mut st = [OpStatus::Pending; 1];
        let bad = [Arrival {
            cycle: 2,
            peer: 1,
            blocks: Blocks::Single(9),
        }];
        assert_eq!(
            reference_trace(&prog, &mut st, &bad, 10, |_, _| {}),
            Ok(TraceEnd::Error(3, ErrorCode::BlocksMismatch, 0))
        );
        let stray = [Arrival {
            cycle: 0,
            peer: 2,
            blocks: ALL,
        }];
        assert_eq!(
            reference_trace(&prog, &mut st, &stray, 10, |_, _| {}),
            Ok(TraceEnd::Error(1, ErrorCode::UnexpectedMessage, 0))
        );
        assert_eq!(
            reference_trace(&prog, &mut st, &[], 10, |_, _| {}),
            Ok(TraceEnd::Timeout)
        );
        let loops = [Op::Send {
            peer: 0,
            blocks: ALL,
            after: Dep::Op(0),
        }];
        assert_eq!(
            reference_trace(&loops, &mut st, &[], 10, |_, _| {}),
            Ok(TraceEnd::Error(0, ErrorCode::InvalidDependency, 0))
        );
        let twice = [bad[0], bad[0]];
        assert!(reference_trace(&prog, &mut st, &twice, 10, |_, _| {}).is_err());
    }
}
