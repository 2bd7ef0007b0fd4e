//! Raw bindings to the C shims in `csrc/` (one block per design).

use core::ffi::c_void;

#[allow(unsafe_code)]
unsafe extern "C" {
    pub(crate) fn jn_xoshiro256ss_new() -> *mut c_void;
    pub(crate) fn jn_xoshiro256ss_free(model: *mut c_void);
    pub(crate) fn jn_xoshiro256ss_set_inputs(
        model: *mut c_void,
        load: u8,
        advance: u8,
        s0: u64,
        s1: u64,
        s2: u64,
        s3: u64,
    );
    pub(crate) fn jn_xoshiro256ss_tick(model: *mut c_void);
    pub(crate) fn jn_xoshiro256ss_out(model: *const c_void) -> u64;
}
