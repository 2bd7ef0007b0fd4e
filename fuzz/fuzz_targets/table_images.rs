//! Program, route-table and virtual-layer images as `sched inspect` reads them.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = jumpnet::io::image::inspect_bytes(data, "fuzz.img");
});
