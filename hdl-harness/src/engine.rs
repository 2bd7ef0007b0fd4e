//! Safe stepping API over the Verilator model of `rtl/sched_engine.v`.
//!
//! The engine runs one rank's program in the fixed-width form of
//! `jumpnet_core::exec::rtl_program` under the timing contract of
//! `jumpnet_core::exec::timing`. [`SchedEngineRtl::step`] returns the same
//! [`CycleOutput`] as `TimedExecutor::step`, so a test compares the two cycle by cycle.

use core::ffi::c_void;
use core::fmt;
use core::ptr::NonNull;

use jumpnet_core::collective::{Blocks, Op, Rank};
use jumpnet_core::exec::rtl_program::{decode_blocks, encode_blocks, encode_op, RtlCodecError};
use jumpnet_core::exec::timing::{CycleOutput, ErrorCode};
use jumpnet_core::exec::Action;

use crate::ffi::{self, EngineIn, EngineOut};

/// Errors of the RTL harness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HdlError {
    /// A program or table does not fit its RTL encoding.
    Codec(RtlCodecError),
    /// More entries than the Verilated model holds (`needed`, `available`).
    Capacity {
        /// What ran out.
        what: &'static str,
        /// Entries needed.
        needed: usize,
        /// Entries the model holds.
        available: usize,
    },
    /// The model put a value on its outputs that no valid state produces.
    BadOutput(&'static str),
}

impl fmt::Display for HdlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HdlError::Codec(e) => e.fmt(f),
            HdlError::Capacity {
                what,
                needed,
                available,
            } => write!(
                f,
                "{what}: {needed} needed, the RTL model holds {available}"
            ),
            HdlError::BadOutput(what) => write!(f, "RTL output out of range: {what}"),
        }
    }
}

impl std::error::Error for HdlError {}

impl From<RtlCodecError> for HdlError {
    fn from(e: RtlCodecError) -> Self {
        HdlError::Codec(e)
    }
}

/// One instance of the schedule engine RTL (`ADDR_W = 8`) under Verilator.
///
/// Not `Send`: a model stays on the thread that created it.
#[derive(Debug)]
pub struct SchedEngineRtl {
    model: NonNull<c_void>,
    cycle: u64,
}

#[allow(unsafe_code)]
impl SchedEngineRtl {
    /// Ops the Verilated engine holds (`2^ADDR_W`).
    pub const CAPACITY: usize = 256;

    /// Creates a model and resets it (one clock with `rst` high).
    ///
    /// # Panics
    /// If the C++ model cannot be allocated.
    pub fn new() -> Self {
        // SAFETY: the shim returns a fresh heap model or null; it has no preconditions.
        let raw = unsafe { ffi::jn_sched_engine_new() };
        let model = NonNull::new(raw).expect("allocate the Verilator model of sched_engine");
        let mut e = SchedEngineRtl { model, cycle: 0 };
        e.clock(&EngineIn {
            rst: 1,
            ..EngineIn::default()
        });
        e
    }

    fn clock(&mut self, inputs: &EngineIn) {
        let m = self.model.as_ptr();
        // SAFETY: `m` is a live model owned by `self` (freed only in Drop); `inputs` is a
        // valid repr(C) struct the shim reads during the call only.
        unsafe {
            ffi::jn_sched_engine_set(m, inputs);
            ffi::jn_sched_engine_tick(m);
            ffi::jn_sched_engine_set(m, &EngineIn::default());
        }
    }

    fn outputs(&self) -> EngineOut {
        let mut out = EngineOut::default();
        // SAFETY: as in `clock`; the shim writes the struct and does not modify the model.
        unsafe { ffi::jn_sched_engine_get(self.model.as_ptr(), &mut out) };
        out
    }

    /// Encodes `program`, writes it into program memory (one op per clock) and starts it:
    /// the next [`step`](Self::step) is cycle 0 of the timing contract.
    pub fn load_program(&mut self, program: &[Op]) -> Result<(), HdlError> {
        if program.len() > Self::CAPACITY {
            return Err(HdlError::Capacity {
                what: "program ops",
                needed: program.len(),
                available: Self::CAPACITY,
            });
        }
        for (i, op) in program.iter().enumerate() {
            let w = encode_op(op, i as u32)?;
            self.clock(&EngineIn {
                load_we: 1,
                load_addr: i as u32,
                load_ctrl: w.ctrl,
                load_blocks: w.blocks,
                ..EngineIn::default()
            });
        }
        self.clock(&EngineIn {
            start: 1,
            start_len: program.len() as u32,
            ..EngineIn::default()
        });
        self.cycle = 0;
        Ok(())
    }

    /// One cycle of the contract: reads the outputs of the current state, presents
    /// `arrival`, clocks. The result is what `TimedExecutor::step` returns for the same cycle.
    pub fn step(&mut self, arrival: Option<(Rank, Blocks)>) -> Result<CycleOutput, HdlError> {
        let mut inputs = EngineIn::default();
        if let Some((peer, blocks)) = arrival {
            inputs.arr_valid = 1;
            inputs.arr_peer = peer;
            inputs.arr_blocks = encode_blocks(blocks, 0)?;
        }
        // SAFETY: see `clock`.
        unsafe { ffi::jn_sched_engine_set(self.model.as_ptr(), &inputs) };
        let o = self.outputs();
        let out = CycleOutput {
            cycle: self.cycle,
            action: decode_action(&o)?,
            done: o.done != 0,
            error: match o.err_code {
                0 => None,
                1 => Some((ErrorCode::InvalidDependency, o.err_op)),
                2 => Some((ErrorCode::UnexpectedMessage, o.err_op)),
                3 => Some((ErrorCode::BlocksMismatch, o.err_op)),
                _ => return Err(HdlError::BadOutput("err_code")),
            },
        };
        self.clock(&inputs);
        self.cycle += 1;
        Ok(out)
    }

    /// The cycle the next [`step`](Self::step) simulates.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }
}

fn decode_action(o: &EngineOut) -> Result<Option<Action>, HdlError> {
    if o.act_valid == 0 {
        return Ok(None);
    }
    let op = o.act_op;
    Ok(Some(match o.act_kind {
        0 => Action::Send {
            op,
            peer: o.act_peer,
            blocks: decode_blocks(o.act_blocks, op)?,
        },
        1 => Action::Deliver {
            op,
            peer: o.act_peer,
            blocks: decode_blocks(o.act_blocks, op)?,
            reduce: o.act_reduce != 0,
        },
        2 => Action::Permute {
            op,
            reflect: o.act_reflect != 0,
            shift: o.act_peer,
        },
        _ => return Err(HdlError::BadOutput("act_kind")),
    }))
}

impl Default for SchedEngineRtl {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for SchedEngineRtl {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: the model was created by `jn_sched_engine_new` and is freed exactly once.
        unsafe { ffi::jn_sched_engine_free(self.model.as_ptr()) }
    }
}
