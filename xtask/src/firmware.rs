//! `cargo xtask firmware`: builds the firmware ELFs for `thumbv7em-none-eabihf` (release,
//! defmt logs at `debug`) and runs them under QEMU `mps2-an386` through the HIL tests of
//! `host-cli/tests/` ([`QEMU_TESTS`]).

use std::path::PathBuf;

use crate::process::{self, cargo, Result};
use crate::setup::FIRMWARE_TARGET;

/// The HIL test targets of `host-cli/tests/` that run the firmware under QEMU (through the
/// library's QEMU transport, `jumpnet::device::qemu`).
pub const QEMU_TESTS: &[&str] = &[
    "qemu_selftest",
    "qemu_route_table",
    "qemu_device",
    "qemu_device_client",
    "qemu_hil",
    "qemu_heartbeat",
];

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

/// Builds every firmware binary (release), first with the `rtt` feature (the real-board
/// build: checks that it links), then the QEMU build that the tests run; returns the
/// self-test ELF.
pub fn build() -> Result<PathBuf> {
    let mut c = cargo();
    c.args(["build", "-p", "jumpnet-firmware", "--bins", "--release"])
        .args(["--features", "rtt", "--target", FIRMWARE_TARGET])
        .env("DEFMT_LOG", DEFMT_LOG);
    process::run(c)?;
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

/// The test (in `qemu_hil` and `rtl_hil`) that replays the shipped HIL regression suite
/// (`tests/hil-suite/`); it runs in its own stage ([`hil_suite_on_devices`]).
pub const SUITE_TEST: &str = "shipped_suite_replays_on";

/// Runs the QEMU HIL tests against `elf` (the shipped suite apart). `--workspace` keeps the
/// feature set of the workspace test build, so nothing is rebuilt after `cargo xtask test`'s
/// test stage.
pub fn run_under_qemu(elf: &std::path::Path) -> Result {
    let mut c = cargo();
    c.args(["test", "--workspace"]);
    for test in QEMU_TESTS {
        c.args(["--test", test]);
    }
    c.args(["--", "--ignored", "--skip", SUITE_TEST])
        .env("JUMPNET_FIRMWARE_ELF", elf);
    process::run(c)
}

/// The shipped HIL regression suite (`tests/hil-suite/`) on QEMU devices running the
/// self-test ELF: `jumpnet hil suite --engine device`, one case at a time and then in
/// parallel; the JUnit XML stays in `target/hil-suite-device.xml`.
pub fn hil_suite_on_devices() -> Result {
    let elf = elf_dir().join("selftest");
    if !elf.is_file() {
        return Err(format!(
            "firmware ELF {} is missing: run `cargo xtask firmware`",
            elf.display()
        ));
    }
    let mut c = cargo();
    c.args(["test", "--workspace", "--test", "qemu_hil", "--"])
        .args(["--ignored", "--nocapture", SUITE_TEST])
        .env("JUMPNET_FIRMWARE_ELF", &elf);
    process::run(c)
}

/// Flash and static RAM of a firmware ELF, from its section headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Footprint {
    /// Bytes stored in flash: allocated sections that occupy file space (`.vector_table`,
    /// `.text`, `.rodata`, `.data`'s initial values).
    pub flash: u64,
    /// Bytes of static RAM: writable allocated sections (`.data`, `.bss`, `.uninit`).
    pub ram: u64,
}

/// Reads the section headers of a 32-bit little-endian ELF (the firmware's format) and sums
/// the allocated sections: SHF_ALLOC (0x2) sections of type PROGBITS count for flash,
/// SHF_ALLOC | SHF_WRITE (0x1) sections for RAM (`.data` counts for both).
pub fn footprint(elf: &[u8]) -> Result<Footprint> {
    let u16_at = |o: usize| -> Result<u64> {
        elf.get(o..o + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as u64)
            .ok_or_else(|| format!("ELF truncated at byte {o}"))
    };
    let u32_at = |o: usize| -> Result<u64> {
        elf.get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64)
            .ok_or_else(|| format!("ELF truncated at byte {o}"))
    };
    if elf.get(..6) != Some(&[0x7f, b'E', b'L', b'F', 1, 1][..]) {
        return Err("not a 32-bit little-endian ELF".into());
    }
    let shoff = u32_at(0x20)? as usize;
    let shentsize = u16_at(0x2E)? as usize;
    let shnum = u16_at(0x30)? as usize;
    let (mut flash, mut ram) = (0, 0);
    for i in 0..shnum {
        let h = shoff + i * shentsize;
        let kind = u32_at(h + 4)?;
        let flags = u32_at(h + 8)?;
        let size = u32_at(h + 20)?;
        const PROGBITS: u64 = 1;
        const ALLOC: u64 = 0x2;
        const WRITE: u64 = 0x1;
        if flags & ALLOC == 0 {
            continue;
        }
        if kind == PROGBITS {
            flash += size;
        }
        if flags & WRITE != 0 {
            ram += size;
        }
    }
    Ok(Footprint { flash, ram })
}

/// Builds the `device` binary (a switch of `G(1024, 10)` with its table and allreduce
/// programs) with the size-optimised profile, reports its flash and static RAM against the
/// device targets (64 KiB flash, 32 KiB RAM), then runs `qemu_device` on it, which
/// prints the UART round-trip time.
pub fn device_sizes() -> Result {
    let mut c = cargo();
    c.args(["build", "-p", "jumpnet-firmware", "--bin", "device"])
        .args(["--profile", "firmware-size", "--target", FIRMWARE_TARGET])
        .env("DEFMT_LOG", "info");
    process::run(c)?;
    let elf = elf_dir()
        .parent()
        .map(|d| d.join("firmware-size").join("device"))
        .ok_or("no target directory")?;
    let bytes = std::fs::read(&elf).map_err(|e| format!("read {}: {e}", elf.display()))?;
    let f = footprint(&bytes)?;
    println!(
        "firmware device (G(1024, 10): 1,024 runs, 4 programs, 80 ops, 2 × 5 KiB image): \
         flash {} B ({:.1} KiB, target 64 KiB), static RAM {} B ({:.1} KiB, target 32 KiB)",
        f.flash,
        f.flash as f64 / 1024.0,
        f.ram,
        f.ram as f64 / 1024.0
    );
    if f.flash > 64 * 1024 || f.ram > 32 * 1024 {
        return Err("the device build exceeds its size targets".into());
    }
    // UART round-trip time of that build under QEMU (printed by the test).
    let mut c = cargo();
    c.args(["test", "-p", "jumpnet", "--test", "qemu_device", "--"])
        .args([
            "--ignored",
            "--nocapture",
            "images_flash_read_back_and_route_like_the_host",
        ])
        .env("JUMPNET_FIRMWARE_ELF", &elf);
    process::run(c)
}

/// `cargo xtask firmware`: the HIL tests on the self-test ELF, then the device-command
/// tests (`qemu_device`) once more on the `device` ELF (capacities of `G(1024, 10)`).
pub fn run() -> Result {
    let elf = build()?;
    run_under_qemu(&elf)?;
    // The host library (`jumpnet::device`) against the same firmware.
    let mut c = cargo();
    c.args([
        "test",
        "--workspace",
        "--test",
        "qemu_device_client",
        "--",
        "--ignored",
    ])
    .env("JUMPNET_FIRMWARE_ELF", &elf);
    process::run(c)?;
    let device = elf_dir().join("device");
    let mut c = cargo();
    c.args([
        "test",
        "--workspace",
        "--test",
        "qemu_device",
        "--",
        "--ignored",
    ])
    .env("JUMPNET_FIRMWARE_ELF", &device);
    process::run(c)
}

/// HIL slowdown figures: `jumpnet hil` with two QEMU devices (broadcast, allreduce,
/// alltoall on a 4×4 torus) against the pure simulation, printed by the `qemu_hil` test.
pub fn hil_slowdown() -> Result {
    let elf = build()?;
    let mut c = cargo();
    c.args(["test", "-p", "jumpnet", "--test", "qemu_hil", "--"])
        .args([
            "--ignored",
            "--nocapture",
            "devices_trace_like_the_in_process_run",
        ])
        .env("JUMPNET_FIRMWARE_ELF", &elf);
    process::run(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprint_rejects_what_is_not_an_elf32() {
        assert!(footprint(b"\x7fELF\x02\x01rest").is_err());
        assert!(footprint(b"").is_err());
        // A header that points its section table beyond the bytes is truncated, not a panic.
        let mut h = vec![0u8; 0x34];
        h[..6].copy_from_slice(&[0x7f, b'E', b'L', b'F', 1, 1]);
        h[0x20..0x24].copy_from_slice(&1000u32.to_le_bytes());
        h[0x2E..0x30].copy_from_slice(&40u16.to_le_bytes());
        h[0x30..0x32].copy_from_slice(&1u16.to_le_bytes());
        assert!(footprint(&h).unwrap_err().contains("truncated"));
    }

    /// `JUMPNET_DEVICE_ELF=target/thumbv7em-none-eabihf/firmware-size/device cargo test -p
    /// xtask -- --nocapture` prints the footprint of a built ELF.
    #[test]
    fn footprint_of_a_built_elf() {
        let Some(path) = std::env::var_os("JUMPNET_DEVICE_ELF") else {
            return;
        };
        let f = footprint(&std::fs::read(path).unwrap()).unwrap();
        println!("{f:?}");
        assert!(f.flash > 0 && f.ram > 0);
    }
}
