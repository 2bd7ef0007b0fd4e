//! The bodies of the fuzz targets: one function per decoder of untrusted bytes, shared by
//! the libFuzzer binaries (`fuzz/fuzz_targets/`, `cargo xtask fuzz`) and the uninstrumented
//! smoke run in the test suite (`host-cli/tests/fuzz_smoke.rs`). docs/toolchain.md, "Fuzzing".

pub mod booksim_config;
pub mod device_image;
pub mod edge_list;
pub mod hil_trace;
pub mod lft_table;
pub mod program_image;
pub mod scenario_json;
pub mod sweep_shard;
pub mod table_images;
pub mod toml_config;
pub mod uart_frame;

/// A target's body: feeds the bytes to one decoder.
pub type Target = fn(&[u8]);

/// Every target by name, as `cargo xtask fuzz` names them.
pub const ALL: &[(&str, Target)] = &[
    ("booksim_config", booksim_config::run),
    ("device_image", device_image::run),
    ("edge_list", edge_list::run),
    ("hil_trace", hil_trace::run),
    ("lft_table", lft_table::run),
    ("program_image", program_image::run),
    ("scenario_json", scenario_json::run),
    ("sweep_shard", sweep_shard::run),
    ("table_images", table_images::run),
    ("toml_config", toml_config::run),
    ("uart_frame", uart_frame::run),
];
