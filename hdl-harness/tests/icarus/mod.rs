//! Icarus Verilog drivers shared by the `iverilog_*` tests: compile a testbench with its RTL
//! (`iverilog -g2012`), run it with `vvp` and plusargs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `hdl-harness/` (testbenches in `tb/`, RTL in `rtl/`).
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `sources` (paths relative to `hdl-harness/`) with extra `flags` into
/// `dir/name.vvp`.
pub fn compile(dir: &Path, name: &str, flags: &[&str], sources: &[&str]) -> PathBuf {
    let sim = dir.join(format!("{name}.vvp"));
    let root = manifest_dir();
    let out = Command::new("iverilog")
        .arg("-g2012")
        .args(flags)
        .arg("-o")
        .arg(&sim)
        .args(sources.iter().map(|s| root.join(s)))
        .output()
        .expect("iverilog not found: run `cargo xtask setup`");
    assert!(
        out.status.success(),
        "iverilog failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    sim
}

/// Runs the compiled testbench `sim` on `vectors` with the plusargs `+key=value`; returns
/// its standard output.
pub fn run(sim: &Path, vectors: &Path, plusargs: &[(&str, usize)]) -> String {
    let out = Command::new("vvp")
        .arg("-n")
        .arg(sim)
        .arg(format!("+vectors={}", vectors.display()))
        .args(plusargs.iter().map(|(k, v)| format!("+{k}={v}")))
        .output()
        .expect("vvp not found: run `cargo xtask setup`");
    assert!(out.status.success(), "vvp failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}
