//! Safe stepping API over the Verilator model of `rtl/sched_engine.v`.
//!
//! The engine runs one rank's program in the fixed-width form of
//! `jumpnet_core::exec::rtl_program` under the timing contract of
//! `jumpnet_core::exec::timing`. [`SchedEngineRtl::step`] returns the same
//! [`CycleOutput`] as `TimedExecutor::step`, so a test compares the two cycle by cycle.
//!
//! [`SchedEngineRtl::start_vcd`] writes a waveform (VCD, Verilator's trace of the engine's
//! ports and registers) of a window of cycles, which GTKWave opens.

use core::ffi::c_void;
use core::fmt;
use core::ptr::NonNull;
use std::ffi::CString;
use std::path::Path;

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
    /// A waveform cannot be written (what went wrong).
    Waveform(&'static str),
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
            HdlError::Waveform(what) => write!(f, "waveform: {what}"),
        }
    }
}

impl std::error::Error for HdlError {}

impl From<RtlCodecError> for HdlError {
    fn from(e: RtlCodecError) -> Self {
        HdlError::Codec(e)
    }
}

/// Picoseconds per cycle of the timing contract in a waveform (the VCD's `$timescale` is
/// 1 ps): cycle `c` starts at `c` ns, where the clock falls; it rises half a cycle later.
pub const VCD_PS_PER_CYCLE: u64 = 1000;

/// Cycles `from..=to` of the timing contract (the cycles [`SchedEngineRtl::step`] counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleWindow {
    /// First cycle.
    pub from: u64,
    /// Last cycle.
    pub to: u64,
}

impl CycleWindow {
    /// Whether `cycle` is in the window.
    pub fn contains(&self, cycle: u64) -> bool {
        (self.from..=self.to).contains(&cycle)
    }
}

/// The waveform of an engine: the cycles to dump, those dumped, whether the file is open.
#[derive(Debug)]
struct Waveform {
    window: CycleWindow,
    dumped: Option<CycleWindow>,
    open: bool,
}

/// One instance of the schedule engine RTL (`ADDR_W = 8`) under Verilator.
///
/// Not `Send`: a model stays on the thread that created it.
#[derive(Debug)]
pub struct SchedEngineRtl {
    model: NonNull<c_void>,
    cycle: u64,
    waveform: Option<Waveform>,
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
        let mut e = SchedEngineRtl {
            model,
            cycle: 0,
            waveform: None,
        };
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

    /// [`clock`](Self::clock) with the waveform dumped after each edge: at cycle `cycle`'s
    /// start (clock low, the cycle's inputs and outputs) and half a cycle later (clock high,
    /// the registers of the next cycle). The file is closed after the window's last cycle.
    fn clock_dumped(&mut self, inputs: &EngineIn, cycle: u64) {
        let m = self.model.as_ptr();
        let t = cycle.saturating_mul(VCD_PS_PER_CYCLE);
        // SAFETY: as in `clock`; the dumps write the model's open waveform, if any.
        unsafe {
            ffi::jn_sched_engine_set(m, inputs);
            ffi::jn_sched_engine_edge(m, 0);
            ffi::jn_sched_engine_vcd_dump(m, t);
            ffi::jn_sched_engine_edge(m, 1);
            ffi::jn_sched_engine_vcd_dump(m, t.saturating_add(VCD_PS_PER_CYCLE / 2));
            ffi::jn_sched_engine_set(m, &EngineIn::default());
        }
        let Some(w) = self.waveform.as_mut() else {
            return;
        };
        w.dumped = Some(CycleWindow {
            from: w.dumped.map_or(cycle, |d| d.from),
            to: cycle,
        });
        if cycle >= w.window.to {
            self.finish_vcd();
        }
    }

    /// Starts a waveform of the engine (VCD: Verilator's trace of its ports and registers)
    /// in the file `path`, created or truncated now. Only the cycles of `window` are dumped,
    /// each at two time steps ([`VCD_PS_PER_CYCLE`]): at `c` ns the clock falls and the
    /// signals show cycle `c`'s inputs and outputs (what [`step`](Self::step) presents and
    /// returns), at `c` ns + 500 ps the clock rises and the registers take the next cycle's
    /// values. The file is complete after the window's last cycle has run, or after
    /// [`finish_vcd`](Self::finish_vcd) or dropping the engine.
    ///
    /// Errors: an empty window, a path that is not UTF-8 or holds a NUL byte, a waveform
    /// already open, a file that cannot be opened for writing.
    pub fn start_vcd(&mut self, path: &Path, window: CycleWindow) -> Result<(), HdlError> {
        if window.from > window.to {
            return Err(HdlError::Waveform("the cycle window is empty (from > to)"));
        }
        if self.waveform.as_ref().is_some_and(|w| w.open) {
            return Err(HdlError::Waveform("a waveform is already being written"));
        }
        let path = path
            .to_str()
            .and_then(|p| CString::new(p).ok())
            .ok_or(HdlError::Waveform(
                "the file name is not UTF-8 or holds a NUL byte",
            ))?;
        // SAFETY: `self.model` is live; `path` is a NUL-terminated string the shim reads
        // during the call only.
        let code = unsafe { ffi::jn_sched_engine_vcd_open(self.model.as_ptr(), path.as_ptr()) };
        match code {
            0 => {}
            1 => return Err(HdlError::Waveform("a waveform is already being written")),
            2 => return Err(HdlError::Waveform("cannot open the file for writing")),
            _ => return Err(HdlError::Waveform("Verilator failed to start the trace")),
        }
        self.waveform = Some(Waveform {
            window,
            dumped: None,
            open: true,
        });
        Ok(())
    }

    /// Flushes and closes the waveform [`start_vcd`](Self::start_vcd) began (if still open).
    /// Returns the cycles it holds: `None` when no waveform was started or no cycle of its
    /// window has run.
    pub fn finish_vcd(&mut self) -> Option<CycleWindow> {
        let w = self.waveform.as_mut()?;
        if w.open {
            // SAFETY: `self.model` is live; the shim closes the model's open waveform.
            unsafe { ffi::jn_sched_engine_vcd_close(self.model.as_ptr()) };
            w.open = false;
        }
        w.dumped
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
        let dump = self
            .waveform
            .as_ref()
            .is_some_and(|w| w.open && w.window.contains(self.cycle));
        if dump {
            self.clock_dumped(&inputs, self.cycle);
        } else {
            self.clock(&inputs);
        }
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
