//! The RTL schedule engine (`hdl-harness/rtl/sched_engine.v` under Verilator,
//! `jumpnet_hdl::SchedEngineRtl`) as a clocked NIC engine (cargo feature `rtl`; building it
//! needs `verilator`, `cargo xtask setup`).

use jumpnet_core::collective::{Blocks, Op, Rank};
use jumpnet_core::exec::timing::CycleOutput;
use jumpnet_hdl::SchedEngineRtl;

use super::engines::{ClockedEngine, CycleStepper};

impl CycleStepper for SchedEngineRtl {
    fn step(&mut self, arrival: Option<(Rank, Blocks)>) -> Result<CycleOutput, String> {
        SchedEngineRtl::step(self, arrival).map_err(|e| e.to_string())
    }
}

/// A fresh RTL engine with `program` loaded, started at cycle 0; `name` names it in errors.
pub fn engine(name: String, program: &[Op]) -> anyhow::Result<ClockedEngine<SchedEngineRtl>> {
    let mut rtl = SchedEngineRtl::new();
    rtl.load_program(program)
        .map_err(|e| anyhow::anyhow!("{name}: load the program into the RTL: {e}"))?;
    Ok(ClockedEngine::new(name, rtl, program))
}
