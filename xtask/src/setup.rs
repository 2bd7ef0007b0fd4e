//! `cargo xtask setup`: installs what is missing, idempotently, and says what it does.
//!
//! - the `thumbv7em-none-eabihf` target and the `rustfmt`/`clippy` components (rustup);
//! - Debian packages for QEMU, Verilator, Icarus Verilog and Yosys (checked with `dpkg -s`;
//!   `apt-get update` + `apt-get install -y` only when something is missing, through `sudo`
//!   when not root). The host's `probe` feature needs no system library: probe-rs is built
//!   without `cmsisdap_v1` (hidapi, which needs libudev) and reaches USB through `nusb`.

use std::process::Command;

use crate::process::{self, Result};

/// The firmware target.
pub const FIRMWARE_TARGET: &str = "thumbv7em-none-eabihf";

/// Debian packages jumpnet needs on the host.
const APT_PACKAGES: &[&str] = &[
    "qemu-system-arm",
    "verilator",
    "iverilog",
    "yosys",
    "pkg-config",
    "libsimgrid-dev",
    "simgrid",
];

/// Programs that must be runnable after setup (package → program).
const PROGRAMS: &[(&str, &str)] = &[
    ("qemu-system-arm", "qemu-system-arm"),
    ("verilator", "verilator"),
    ("iverilog", "iverilog"),
    ("iverilog", "vvp"),
    ("yosys", "yosys"),
    ("pkg-config", "pkg-config"),
    ("libsimgrid-dev", "smpicc"),
    ("libsimgrid-dev", "smpirun"),
];

/// Runs the whole setup.
pub fn run() -> Result {
    rust_tools()?;
    system_packages()?;
    for (package, program) in PROGRAMS {
        if !process::exists(program) {
            return Err(format!(
                "`{program}` is still not on PATH (Debian package `{package}`)"
            ));
        }
    }
    println!("setup: all tools present");
    Ok(())
}

fn rustup(args: &[&str]) -> Command {
    let mut c = Command::new("rustup");
    c.args(args);
    c
}

fn rust_tools() -> Result {
    let Some(targets) = process::output(rustup(&["target", "list", "--installed"])) else {
        // Not a rustup toolchain: we can only check what is there.
        println!("setup: rustup not found; checking the toolchain as it is");
        let sysroot = process::output({
            let mut c = Command::new("rustc");
            c.args(["--print", "sysroot"]);
            c
        })
        .unwrap_or_default();
        let lib = std::path::Path::new(sysroot.trim())
            .join("lib/rustlib")
            .join(FIRMWARE_TARGET);
        if !lib.is_dir() {
            return Err(format!(
                "the Rust target {FIRMWARE_TARGET} is missing and rustup is not available to add it"
            ));
        }
        return Ok(());
    };
    if targets.lines().any(|l| l.trim() == FIRMWARE_TARGET) {
        println!("setup: Rust target {FIRMWARE_TARGET} present");
    } else {
        println!("setup: adding Rust target {FIRMWARE_TARGET}");
        process::run(rustup(&["target", "add", FIRMWARE_TARGET]))?;
    }
    let components = process::output(rustup(&["component", "list", "--installed"]))
        .ok_or("`rustup component list --installed` failed")?;
    let missing: Vec<&str> = ["rustfmt", "clippy"]
        .into_iter()
        .filter(|c| !components.lines().any(|l| l.starts_with(&format!("{c}-"))))
        .collect();
    if missing.is_empty() {
        println!("setup: rustfmt and clippy present");
    } else {
        println!("setup: adding components {}", missing.join(" "));
        let mut args = vec!["component", "add"];
        args.extend(&missing);
        process::run(rustup(&args))?;
    }
    Ok(())
}

fn dpkg_installed(package: &str) -> bool {
    let mut c = Command::new("dpkg-query");
    c.args(["-W", "-f=${Status}", package]);
    process::output(c).is_some_and(|s| s.contains("install ok installed"))
}

fn is_root() -> bool {
    process::output({
        let mut c = Command::new("id");
        c.arg("-u");
        c
    })
    .is_some_and(|uid| uid.trim() == "0")
}

/// `apt-get ARGS`, through sudo when not root, non-interactive.
fn apt_get(args: &[&str]) -> Command {
    let mut c = if is_root() {
        Command::new("apt-get")
    } else {
        let mut c = Command::new("sudo");
        c.args(["-E", "apt-get"]);
        c
    };
    c.args(args).env("DEBIAN_FRONTEND", "noninteractive");
    c
}

fn system_packages() -> Result {
    if !process::exists("dpkg-query") || !process::exists("apt-get") {
        println!("setup: no dpkg/apt-get (not Debian?): install these yourself if missing:");
        println!("       {}", APT_PACKAGES.join(" "));
        return Ok(());
    }
    let missing: Vec<&str> = APT_PACKAGES
        .iter()
        .copied()
        .filter(|p| !dpkg_installed(p))
        .collect();
    if missing.is_empty() {
        println!("setup: Debian packages present: {}", APT_PACKAGES.join(" "));
        return Ok(());
    }
    println!("setup: installing Debian packages: {}", missing.join(" "));
    process::run(apt_get(&["update", "-qq"]))?;
    let mut args = vec!["install", "-y", "-qq"];
    args.extend(&missing);
    process::run(apt_get(&args))
}
