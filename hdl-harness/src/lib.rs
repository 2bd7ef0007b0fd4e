//! # jumpnet-hdl
//!
//! Verilog RTL of jumpnet's hardware engines and a safe Rust API that steps their Verilator
//! models clock by clock, so tests can check the RTL against jumpnet-core cycle by cycle.
//!
//! - `rtl/xoshiro256ss.v` → [`xoshiro::Xoshiro256Rtl`]: the PRNG of `jumpnet_core::rng`.
//! - `rtl/sched_engine.v` → [`engine::SchedEngineRtl`]: the collective schedule engine,
//!   `jumpnet_core::exec::Executor` under the timing contract of `jumpnet_core::exec::timing`;
//!   it can write a waveform (VCD) of a window of cycles ([`SchedEngineRtl::start_vcd`]).
//! - `rtl/table_router.v` → [`router::TableRouterRtl`]: a switch's table-driven forwarding
//!   stage over a `jumpnet_core::routing::RunTable`.
//!
//! `build.rs` verilates every design and compiles it with a small C shim (`csrc/`); each model
//! owns its own `VerilatedContext`. Building needs `verilator` (`cargo xtask setup`).

pub mod engine;
mod ffi;
pub mod router;
pub mod xoshiro;

pub use engine::{CycleWindow, HdlError, SchedEngineRtl, VCD_PS_PER_CYCLE};
pub use router::{Lookup, RouterCycle, TableRouterRtl};

pub use xoshiro::{seed_state, Xoshiro256Rtl};
