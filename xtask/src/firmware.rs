//! `cargo xtask firmware`: builds the firmware ELFs for `thumbv7em-none-eabihf` (release,
//! defmt logs at `debug`) and runs them under QEMU `mps2-an386` through the HIL tests of
//! `firmware/tests/` ([`QEMU_TESTS`]).

use std::path::PathBuf;

use crate::process::{self, cargo, Result};
use crate::setup::FIRMWARE_TARGET;

/// The HIL test targets of `firmware/tests/` that run the firmware under QEMU.
pub const QEMU_TESTS: &[&str] = &["qemu_selftest", "qemu_route_table", "qemu_device"];

/// defmt log level compiled into the firmware.
pub const DEFMT_LOG: &str = "debug";

/// Where cargo puts the release firmware ELFs.
fn elf_dir() -> PathBuf {
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join("target"));
    let target_dir = if target_dir.is_absolute() {
        target_dir
    } else {
        crate::workspace_root().join(target_dir)
    };
    target_dir.join(FIRMWARE_TARGET).join("release")
}

/// Builds every firmware binary (release) and returns the self-test ELF.
pub fn build() -> Result<PathBuf> {
    let mut c = cargo();
    c.args(["build", "-p", "jumpnet-firmware", "--bins", "--release"])
        .args(["--target", FIRMWARE_TARGET])
        .env("DEFMT_LOG", DEFMT_LOG);
    process::run(c)?;
    let elf = elf_dir().join("selftest");
    if !elf.is_file() {
        return Err(format!("firmware ELF {} was not produced", elf.display()));
    }
    let size = std::fs::metadata(&elf).map(|m| m.len()).unwrap_or(0);
    println!("firmware: {} ({size} bytes with debug info)", elf.display());
    Ok(elf)
}

/// Runs the QEMU HIL tests against `elf`. `--workspace` keeps the feature set of the
/// workspace test build, so nothing is rebuilt after `cargo xtask test`'s test stage.
pub fn run_under_qemu(elf: &std::path::Path) -> Result {
    let mut c = cargo();
    c.args(["test", "--workspace"]);
    for test in QEMU_TESTS {
        c.args(["--test", test]);
    }
    c.args(["--", "--ignored"]).env("JUMPNET_FIRMWARE_ELF", elf);
    process::run(c)
}

/// `cargo xtask firmware`.
pub fn run() -> Result {
    let elf = build()?;
    run_under_qemu(&elf)
}
