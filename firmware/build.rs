//! Link setup for the bare-metal firmware binaries: writes `memory.x` for QEMU `mps2-an386`
//! (or copies the file named by `JUMPNET_MEMORY_X`, the memory map of a real board for the
//! `rtt` build) and passes the cortex-m-rt and defmt linker scripts. Host builds get nothing.

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
    println!("cargo:rerun-if-env-changed=JUMPNET_MEMORY_X");
    let target = env::var("TARGET").unwrap_or_default();
    if !target.starts_with("thumb") {
        return;
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    match env::var_os("JUMPNET_MEMORY_X") {
        Some(path) => {
            println!("cargo:rerun-if-changed={}", PathBuf::from(&path).display());
            let map = fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!("JUMPNET_MEMORY_X={}: {e}", PathBuf::from(&path).display())
            });
            fs::write(out.join("memory.x"), map).expect("write memory.x");
        }
        None => fs::write(out.join("memory.x"), MEMORY_X).expect("write memory.x"),
    }
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=--nmagic");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-link-arg-bins=-Tdefmt.x");
}
