//! libFuzzer entry of `fuzz/targets/device_image.rs` (the body is shared with the CI smoke test,
//! `host-cli/tests/fuzz_smoke.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../targets/device_image.rs"]
mod target;

fuzz_target!(|data: &[u8]| target::run(data));
