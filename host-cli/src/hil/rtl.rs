//! The RTL schedule engine (`hdl-harness/rtl/sched_engine.v` under Verilator,
//! `jumpnet_hdl::SchedEngineRtl`) as a clocked NIC engine (cargo feature `rtl`; building it
//! needs `verilator`, `cargo xtask setup`), optionally writing a waveform
//! ([`super::waveform`]).

use std::rc::Rc;

use anyhow::anyhow;
use jumpnet_core::collective::{Blocks, Op, Rank};
use jumpnet_core::exec::timing::CycleOutput;
use jumpnet_hdl::{CycleWindow, SchedEngineRtl};

use super::engines::{ClockedEngine, CycleStepper};
use super::waveform::{CycleRange, DumpedCycles, EngineWaveform};

/// The Verilated engine of a HIL run. With a waveform, dropping it closes the file and
/// leaves the cycles the file holds in the run's [`DumpedCycles`].
#[derive(Debug)]
pub struct RtlStepper {
    rtl: SchedEngineRtl,
    dumped: Option<DumpedCycles>,
}

impl CycleStepper for RtlStepper {
    fn step(&mut self, arrival: Option<(Rank, Blocks)>) -> Result<CycleOutput, String> {
        self.rtl.step(arrival).map_err(|e| e.to_string())
    }
}

impl Drop for RtlStepper {
    fn drop(&mut self) {
        if let Some(dumped) = &self.dumped {
            let cycles = self.rtl.finish_vcd().map(|w| CycleRange {
                from: w.from,
                to: w.to,
            });
            dumped.set(cycles);
        }
    }
}

/// A fresh RTL engine with `program` loaded, started at cycle 0; `name` names it in errors.
/// With `vcd`, it writes that waveform and leaves its cycles in the [`DumpedCycles`] given.
pub fn engine(
    name: String,
    program: &[Op],
    vcd: Option<(&EngineWaveform, &DumpedCycles)>,
) -> anyhow::Result<ClockedEngine<RtlStepper>> {
    let mut rtl = SchedEngineRtl::new();
    rtl.load_program(program)
        .map_err(|e| anyhow!("{name}: load the program into the RTL: {e}"))?;
    let dumped = match vcd {
        Some((w, dumped)) => {
            let window = CycleWindow {
                from: w.window.from,
                to: w.window.to,
            };
            rtl.start_vcd(&w.path, window)
                .map_err(|e| anyhow!("{name}: {}: {e}", w.path.display()))?;
            Some(Rc::clone(dumped))
        }
        None => None,
    };
    Ok(ClockedEngine::new(
        name,
        RtlStepper { rtl, dumped },
        program,
    ))
}
