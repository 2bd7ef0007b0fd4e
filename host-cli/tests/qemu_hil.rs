//! `jumpnet hil --engine device` against the real firmware under QEMU ("Must
//! show"): broadcast, allreduce and alltoall on the 16-node 4×4 torus with nodes 3 and 7 on
//! two QEMU instances give traces identical to the in-process run; a device image whose
//! program sends to a wrong peer is caught as a divergence (exit 1); a device reset and a
//! link that damages every frame mid-run end in a clear error (exit 2), never a hang; a
//! trace recorded from the devices checks against the devices again.
//!
//! Ignored by default: `cargo xtask firmware` sets `JUMPNET_FIRMWARE_ELF` and runs it.

mod hil_support;

use hil_support::{assert_identical, assert_mutation_caught, hil, tmpdir, COLLECTIVES};

fn require_elf() {
    let elf = std::env::var_os("JUMPNET_FIRMWARE_ELF")
        .expect("JUMPNET_FIRMWARE_ELF is not set: run `cargo xtask firmware`");
    assert!(std::path::Path::new(&elf).is_file());
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn devices_trace_like_the_in_process_run() {
    require_elf();
    for c in COLLECTIVES {
        let (code, report, err) = hil(c, "device", &[]);
        assert_identical(c, code, &report, &err);
        println!(
            "HIL {c} (two QEMU devices): {} events, reference {:.4} s, HIL {:.4} s \
             (slowdown {:.0}x), start + flash {:.2} s",
            report["hil"]["events"],
            report["reference"]["wall_seconds"].as_f64().unwrap(),
            report["hil"]["wall_seconds"].as_f64().unwrap(),
            report["slowdown"].as_f64().unwrap(),
            report["setup_seconds"].as_f64().unwrap(),
        );
    }
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn a_wrong_device_program_is_a_divergence() {
    require_elf();
    let (code, report, err) = hil("allreduce", "device", &["--mutate-program"]);
    assert_mutation_caught(code, &report, &err);
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn a_device_reset_mid_run_is_a_clear_error() {
    require_elf();
    let (code, report, err) = hil("allreduce", "device", &["--reset-at-cycle", "20"]);
    assert_eq!(code, 2, "{report} {err}");
    assert!(err.contains("the HIL run failed after"), "{err}");
    assert!(err.contains("no program is running"), "{err}");
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn damaged_frames_from_the_start_of_the_run_are_retried() {
    require_elf();
    // Without --fault-from-cycle the damage starts with the run, not while flashing (a
    // 384-byte flash chunk would almost never get through at 5 %).
    let (code, report, err) = hil(
        "allreduce",
        "device",
        &["--fault-per-mille", "50", "--device-timeout-ms", "1000"],
    );
    assert_identical("allreduce", code, &report, &err);
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn frames_lost_mid_run_are_a_clear_error() {
    require_elf();
    let (code, report, err) = hil(
        "allreduce",
        "device",
        &[
            "--fault-per-mille",
            "1000",
            "--fault-from-cycle",
            "20",
            "--device-timeout-ms",
            "1000",
            "--device-attempts",
            "2",
        ],
    );
    assert_eq!(code, 2, "{report} {err}");
    assert!(
        err.contains("no valid answer from the device after 2 attempts"),
        "{err}"
    );
    assert!(err.contains("exec at cycle"), "{err}");
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn device_traces_record_and_check() {
    require_elf();
    let dir = tmpdir("qemu-hil-record");
    let f = dir.join("bcast.jsonl");
    let f = f.to_str().unwrap();
    let (code, report, err) = hil("alltoall", "device", &["--record", f]);
    assert_identical("alltoall", code, &report, &err);
    // `--check` replays the run the trace's header describes.
    let check = |engine: &str| {
        hil_support::jumpnet_json(&["hil", "--check", f, "--engine", engine, "--json", "-q"])
    };
    let (code, report, err) = check("device");
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["compared_with"], "recorded trace");
    // The in-process engines check against the devices' trace too.
    let (code, _, err) = check("core");
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shipped regression suite (`tests/hil-suite/`, recorded from the core engine): every
/// untimed trace replays on QEMU devices, serially and in parallel alike.
#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn shipped_suite_replays_on_devices() {
    require_elf();
    hil_support::assert_shipped_suite_passes("device", "untimed");
}
