//! libFuzzer entry of `fuzz/targets/edge_list.rs` (the body is shared with the CI smoke test,
//! `host-cli/tests/fuzz_smoke.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../targets/edge_list.rs"]
mod target;

fuzz_target!(|data: &[u8]| target::run(data));
