//! # jumpnet-hdl
//!
//! Verilog RTL of jumpnet's hardware engines and a safe Rust API that steps their Verilator
//! models clock by clock, so tests can check the RTL against jumpnet-core cycle by cycle.
//!
//! - `rtl/xoshiro256ss.v` → [`xoshiro::Xoshiro256Rtl`]: the PRNG of `jumpnet_core::rng`.
//!
//! `build.rs` verilates every design and compiles it with a small C shim (`csrc/`); each model
//! owns its own `VerilatedContext`. Building needs `verilator` (`cargo xtask setup`).

mod ffi;
pub mod xoshiro;

pub use xoshiro::{seed_state, Xoshiro256Rtl};
