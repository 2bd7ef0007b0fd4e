//! Raw bindings to the C shims in `csrc/` (one block per design).

use core::ffi::{c_char, c_int, c_void};

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

/// Inputs of `rtl/sched_engine.v` (mirrors `JnEngineIn` in `csrc/sched_engine_shim.cpp`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EngineIn {
    pub load_ctrl: u64,
    pub load_blocks: u64,
    pub arr_blocks: u64,
    pub load_addr: u32,
    pub start_len: u32,
    pub arr_peer: u32,
    pub rst: u8,
    pub load_we: u8,
    pub start: u8,
    pub arr_valid: u8,
}

/// Outputs of `rtl/sched_engine.v` (mirrors `JnEngineOut`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EngineOut {
    pub act_blocks: u64,
    pub act_op: u32,
    pub act_peer: u32,
    pub err_op: u32,
    pub act_valid: u8,
    pub act_kind: u8,
    pub act_reduce: u8,
    pub act_reflect: u8,
    pub done: u8,
    pub err_code: u8,
}

/// Inputs of `rtl/table_router.v` (mirrors `JnRouterIn` in `csrc/table_router_shim.cpp`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RouterIn {
    pub run_word: u64,
    pub in_dst: u64,
    pub run_addr: u32,
    pub cfg_runs: u32,
    pub cfg_dests: u32,
    pub out_ready: u32,
    pub rst: u8,
    pub run_we: u8,
    pub cfg_we: u8,
    pub in_valid: u8,
}

/// Outputs of `rtl/table_router.v` (mirrors `JnRouterOut`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RouterOut {
    pub out_vc: u64,
    pub out_valid: u32,
    pub out_in: u32,
    pub lk_dst: u32,
    pub lk_port: u32,
    pub in_ready: u8,
    pub drop: u8,
    pub lk_valid: u8,
    pub lk_in: u8,
    pub lk_vc: u8,
}

#[allow(unsafe_code)]
unsafe extern "C" {
    pub(crate) fn jn_sched_engine_new() -> *mut c_void;
    pub(crate) fn jn_sched_engine_free(model: *mut c_void);
    pub(crate) fn jn_sched_engine_set(model: *mut c_void, inputs: *const EngineIn);
    pub(crate) fn jn_sched_engine_get(model: *const c_void, outputs: *mut EngineOut);
    pub(crate) fn jn_sched_engine_tick(model: *mut c_void);
    pub(crate) fn jn_sched_engine_edge(model: *mut c_void, level: u8);
    /// 0 open, 1 already open, 2 cannot open the file, 3 Verilator threw.
    pub(crate) fn jn_sched_engine_vcd_open(model: *mut c_void, path: *const c_char) -> c_int;
    pub(crate) fn jn_sched_engine_vcd_dump(model: *mut c_void, time: u64);
    pub(crate) fn jn_sched_engine_vcd_close(model: *mut c_void);

    pub(crate) fn jn_table_router_new() -> *mut c_void;
    pub(crate) fn jn_table_router_free(model: *mut c_void);
    pub(crate) fn jn_table_router_set(model: *mut c_void, inputs: *const RouterIn);
    pub(crate) fn jn_table_router_get(model: *const c_void, outputs: *mut RouterOut);
    pub(crate) fn jn_table_router_tick(model: *mut c_void);
}
