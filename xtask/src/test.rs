//! `cargo xtask test`: the whole check, stage by stage, failing fast.

use std::process::Command;

use crate::firmware;
use crate::pipeline::Pipeline;
use crate::process::{self, cargo, Result};
use crate::setup::{self, FIRMWARE_TARGET};

/// Crates whose thumbv7em dependency tree must not enable any `std`/`alloc` feature.
const NO_STD_CRATES: &[&str] = &["jumpnet-core", "jumpnet-firmware"];
/// The RTL crate, tested in its own stage.
const RTL_CRATE: &str = "jumpnet-hdl";
/// The host crate; its feature `rtl` (`jumpnet hil --engine rtl`) needs verilator.
const HOST_CRATE: &str = "jumpnet";
/// The host's RTL-in-the-loop tests (feature `rtl`), run in the RTL stage.
const RTL_HIL_TEST: &str = "rtl_hil";
/// The host's RTL-router-in-the-loop tests (`jumpnet hil --rtl-router`), run in the RTL stage.
const RTL_ROUTER_HIL_TEST: &str = "rtl_router_hil";

fn cargo_with(args: &[&str]) -> Command {
    let mut c = cargo();
    c.args(args);
    c
}

fn nextest_available() -> bool {
    process::output(cargo_with(&["nextest", "--version"])).is_some()
}

/// Runs every stage; the error names the stage that failed.
pub fn run() -> Result {
    let mut p = Pipeline::new();
    let nextest = nextest_available();
    p.stage("setup", setup::run)?;
    p.stage("fmt", || {
        process::run(cargo_with(&["fmt", "--all", "--", "--check"]))
    })?;
    p.stage("clippy (host)", || {
        process::run(cargo_with(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))
    })?;
    p.stage("clippy (host, feature rtl)", || {
        process::run(cargo_with(&[
            "clippy",
            "-p",
            HOST_CRATE,
            "--features",
            "rtl",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))
    })?;
    p.stage("clippy (firmware)", || {
        for features in [&[][..], &["--features", "rtt"][..]] {
            let mut c = cargo_with(&["clippy", "-p", "jumpnet-firmware"]);
            c.args(features).args([
                "--target",
                FIRMWARE_TARGET,
                "--release",
                "--lib",
                "--bins",
                "--",
                "-D",
                "warnings",
            ]);
            c.env("DEFMT_LOG", firmware::DEFMT_LOG);
            process::run(c)?;
        }
        Ok(())
    })?;
    p.stage("rustdoc (links resolve)", rustdoc)?;
    p.stage("probe feature (host)", probe_feature)?;
    p.stage("build (firmware)", || firmware::build().map(|_| ()))?;
    p.stage("no_std (core)", no_std_check)?;
    p.stage("test", || workspace_tests(nextest))?;
    p.stage("firmware (QEMU)", firmware::run)?;
    p.stage("hil suite (QEMU)", firmware::hil_suite_on_devices)?;
    p.stage("rtl (Verilator)", || rtl_tests(nextest))?;
    p.stage("hil suite (RTL)", hil_suite_on_rtl)?;
    p.summary(None);
    println!("\nxtask test: all stages passed");
    Ok(())
}

/// API docs of every crate with warnings as errors: every intra-doc link resolves (the
/// `docs_citations` test checks the citations of `docs/`).
fn rustdoc() -> Result {
    let mut c = cargo_with(&["doc", "--workspace", "--no-deps"]);
    c.env("RUSTDOCFLAGS", "-D warnings");
    process::run(c)
}

/// The host's probe-rs transport (cargo feature `probe`, not in the default build): clippy,
/// then the library test build (compiles and links probe-rs) running the device-module unit
/// tests (chip names against probe-rs's registry, the no-probe error, RTT chunking). The
/// test build uses the `dev` profile: the library unoptimised compiles in a fraction of the
/// `test` profile's time, and these tests need no speed.
fn probe_feature() -> Result {
    process::run(cargo_with(&[
        "clippy",
        "-p",
        "jumpnet",
        "--features",
        "probe",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    process::run(cargo_with(&[
        "test",
        "--profile",
        "dev",
        "-p",
        "jumpnet",
        "--features",
        "probe",
        "--lib",
        "device::",
    ]))
}

/// Builds the core alone for the MCU target and checks that no dependency of the core or the
/// firmware enables `std`/`alloc` there. Release profile, like the firmware build before it,
/// so the large dependencies (e.g. `fixed`) are compiled once for the target.
fn no_std_check() -> Result {
    process::run(cargo_with(&[
        "build",
        "-p",
        "jumpnet-core",
        "--target",
        FIRMWARE_TARGET,
        "--release",
    ]))?;
    for krate in NO_STD_CRATES {
        let mut c = cargo_with(&[
            "tree",
            "-p",
            krate,
            "--target",
            FIRMWARE_TARGET,
            "-e",
            "normal,features,no-proc-macro",
            "--prefix",
            "none",
        ]);
        c.env("DEFMT_LOG", firmware::DEFMT_LOG);
        let tree = process::output(c).ok_or(format!("`cargo tree -p {krate}` failed"))?;
        let offending: Vec<&str> = tree
            .lines()
            .filter(|l| l.contains("feature \"std\"") || l.contains("feature \"alloc\""))
            .collect();
        if !offending.is_empty() {
            return Err(format!(
                "{krate} on {FIRMWARE_TARGET} pulls std/alloc features:\n  {}",
                offending.join("\n  ")
            ));
        }
        println!(
            "no_std: {krate} for {FIRMWARE_TARGET}: {} dependency lines, no std/alloc feature",
            tree.lines().count()
        );
    }
    Ok(())
}

/// Unit, integration and doc tests of the workspace (the RTL crate runs in its own stage).
fn workspace_tests(nextest: bool) -> Result {
    if nextest {
        let filter = format!("not package({RTL_CRATE})");
        process::run(cargo_with(&[
            "nextest",
            "run",
            "--workspace",
            "-E",
            &filter,
        ]))?;
        process::run(cargo_with(&["test", "--workspace", "--doc"]))
    } else {
        println!("cargo-nextest not installed: using cargo test");
        process::run(cargo_with(&["test", "--workspace", "--exclude", RTL_CRATE]))
    }
}

/// The RTL tests: Verilator models against the core, Icarus testbench, Yosys synthesis; then
/// the RTL engines inside the simulator (`jumpnet hil --engine rtl`, feature `rtl`).
fn rtl_tests(nextest: bool) -> Result {
    if nextest {
        let filter = format!("package({RTL_CRATE})");
        process::run(cargo_with(&[
            "nextest",
            "run",
            "--workspace",
            "-E",
            &filter,
        ]))?;
    } else {
        process::run(cargo_with(&["test", "-p", RTL_CRATE]))?;
    }
    process::run(cargo_with(&[
        "test",
        "-p",
        HOST_CRATE,
        "--features",
        "rtl",
        "--test",
        RTL_HIL_TEST,
        "--test",
        RTL_ROUTER_HIL_TEST,
        "--",
        "--skip",
        firmware::SUITE_TEST,
    ]))
}

/// The shipped HIL regression suite (`tests/hil-suite/`) on the RTL engines: `jumpnet hil
/// suite --engine rtl` (feature `rtl`), one case at a time and then in parallel; the JUnit
/// XML stays in `target/hil-suite-rtl.xml`.
fn hil_suite_on_rtl() -> Result {
    process::run(cargo_with(&[
        "test",
        "-p",
        HOST_CRATE,
        "--features",
        "rtl",
        "--test",
        RTL_HIL_TEST,
        "--",
        "--nocapture",
        firmware::SUITE_TEST,
    ]))
}

/// HIL slowdown figures of the RTL engines (printed by the `rtl_hil` test).
pub fn rtl_hil_slowdown() -> Result {
    process::run(cargo_with(&[
        "test",
        "-p",
        HOST_CRATE,
        "--features",
        "rtl",
        "--test",
        RTL_HIL_TEST,
        "--",
        "--nocapture",
        "rtl_engines_trace_like_the_timed_reference",
    ]))
}
