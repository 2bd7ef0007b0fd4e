//! Link setup for the bare-metal firmware binaries: writes `memory.x` for QEMU `mps2-an386`
//! and passes the cortex-m-rt and defmt linker scripts. Host builds get nothing.

use std::env;
use std::fs;
use std::path::PathBuf;

/// Memory map of QEMU `mps2-an386`: 4 MiB code SRAM at 0x0, 4 MiB SSRAM at 0x2000_0000.
const MEMORY_X: &str = "\
MEMORY
{
  FLASH : ORIGIN = 0x00000000, LENGTH = 4M
  RAM   : ORIGIN = 0x20000000, LENGTH = 4M
}
";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target = env::var("TARGET").unwrap_or_default();
    if !target.starts_with("thumb") {
        return;
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("memory.x"), MEMORY_X).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=--nmagic");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-link-arg-bins=-Tdefmt.x");
}
