//! Program, route-table and virtual-layer images as `sched inspect` reads them.

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    let _ = jumpnet::io::image::inspect_bytes(data, "fuzz.img");
}
