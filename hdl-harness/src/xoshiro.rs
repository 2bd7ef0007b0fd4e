//! Safe stepping API over the Verilator model of `rtl/xoshiro256ss.v`.
//!
//! The RTL holds the 256-bit xoshiro256** state of `jumpnet_core::rng::Rng` (docs/topologies.md
//! §0). [`seed_state`] expands a seed exactly as `Rng::new` does (four SplitMix64 outputs), and
//! [`Xoshiro256Rtl::load_state`] loads any state, so the RTL stream can be compared with
//! `Rng::new(seed)` output by output.

use core::ffi::c_void;
use core::ptr::NonNull;

use jumpnet_core::rng::splitmix64;

use crate::ffi;

/// The 256-bit state `Rng::new(seed)` starts from: four consecutive SplitMix64 outputs.
pub fn seed_state(seed: u64) -> [u64; 4] {
    let mut st = seed;
    [
        splitmix64(&mut st),
        splitmix64(&mut st),
        splitmix64(&mut st),
        splitmix64(&mut st),
    ]
}

/// One instance of the xoshiro256** RTL under Verilator, with its own simulation context.
///
/// Inputs are applied before a clock edge; [`output`](Self::output) is the combinational output
/// of the current state. Not `Send`: a model stays on the thread that created it.
#[derive(Debug)]
pub struct Xoshiro256Rtl {
    model: NonNull<c_void>,
    cycles: u64,
}

#[allow(unsafe_code)]
impl Xoshiro256Rtl {
    /// Creates a model with all inputs low (state undefined until [`load_state`](Self::load_state)).
    ///
    /// # Panics
    /// If the C++ model cannot be allocated.
    pub fn new() -> Self {
        // SAFETY: the shim returns a fresh heap model or null; it has no preconditions.
        let raw = unsafe { ffi::jn_xoshiro256ss_new() };
        let model = NonNull::new(raw).expect("allocate the Verilator model of xoshiro256ss");
        Xoshiro256Rtl { model, cycles: 0 }
    }

    fn clock(&mut self, load: bool, advance: bool, state: [u64; 4]) {
        let m = self.model.as_ptr();
        // SAFETY: `m` is a live model owned by `self` (freed only in Drop); the shim only
        // touches that model.
        unsafe {
            ffi::jn_xoshiro256ss_set_inputs(
                m,
                load as u8,
                advance as u8,
                state[0],
                state[1],
                state[2],
                state[3],
            );
            ffi::jn_xoshiro256ss_tick(m);
            ffi::jn_xoshiro256ss_set_inputs(m, 0, 0, state[0], state[1], state[2], state[3]);
        }
        self.cycles += 1;
    }

    /// Loads the 256-bit state `[s0, s1, s2, s3]` (one clock with `load` high).
    pub fn load_state(&mut self, state: [u64; 4]) {
        self.clock(true, false, state);
    }

    /// Loads the state `Rng::new(seed)` starts from.
    pub fn load_seed(&mut self, seed: u64) {
        self.load_state(seed_state(seed));
    }

    /// The output of the current state (what `Rng::next` would return now).
    pub fn output(&self) -> u64 {
        // SAFETY: as in `clock`; reading the output does not modify the model.
        unsafe { ffi::jn_xoshiro256ss_out(self.model.as_ptr()) }
    }

    /// One clock with `advance` high: the state steps once.
    pub fn step(&mut self) {
        self.clock(false, true, [0; 4]);
    }

    /// One clock with `load` and `advance` low: the state must not change.
    pub fn hold(&mut self) {
        self.clock(false, false, [0; 4]);
    }

    /// Returns the current output and steps (the RTL counterpart of `Rng::next`).
    pub fn next_u64(&mut self) -> u64 {
        let out = self.output();
        self.step();
        out
    }

    /// Clock cycles simulated so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }
}

impl Default for Xoshiro256Rtl {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Xoshiro256Rtl {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: the model was created by `jn_xoshiro256ss_new` and is freed exactly once.
        unsafe { ffi::jn_xoshiro256ss_free(self.model.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_state_is_splitmix64() {
        // SplitMix64 from seed 0: Vigna's reference outputs.
        let s = seed_state(0);
        assert_eq!(s[0], 0xE220_A839_7B1D_CDAF);
        assert_eq!(s[1], 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(s[2], 0x06C4_5D18_8009_454F);
        assert_eq!(s[3], 0xF88B_B8A8_724C_81EC);
    }
}
