//! `jumpnet hil --engine rtl`: the NIC engines of nodes 3 and 7 of
//! the 16-node 4×4 torus run as the Verilated schedule-engine RTL inside the simulator; for
//! broadcast, allreduce and alltoall their traces equal the reference run where those nodes
//! run core's `TimedExecutor` (the timing contract), cycle for cycle; a wrong peer in the
//! image's program is caught as a divergence (exit 1).
//!
//! Needs the `rtl` feature (and verilator): the RTL stage of `cargo xtask test` runs
//! `cargo test -p jumpnet --features rtl --test rtl_hil`.
#![cfg(feature = "rtl")]

mod hil_support;

use hil_support::{assert_identical, assert_mutation_caught, hil, COLLECTIVES};

#[test]
fn rtl_engines_trace_like_the_timed_reference() {
    for c in COLLECTIVES {
        let (code, report, err) = hil(c, "rtl", &[]);
        assert_identical(c, code, &report, &err);
        assert_eq!(report["run"]["timing"], "clocked");
        println!(
            "HIL {c} (two RTL engines): {} events, reference {:.4} s, HIL {:.4} s (slowdown {:.1}x)",
            report["hil"]["events"],
            report["reference"]["wall_seconds"].as_f64().unwrap(),
            report["hil"]["wall_seconds"].as_f64().unwrap(),
            report["slowdown"].as_f64().unwrap(),
        );
    }
}

#[test]
fn a_wrong_rtl_program_is_a_divergence() {
    let (code, report, err) = hil("allreduce", "rtl", &["--mutate-program"]);
    assert_mutation_caught(code, &report, &err);
}

/// The shipped regression suite (`tests/hil-suite/`, recorded from the core engine): every
/// clocked trace replays on the RTL engines, serially and in parallel alike.
#[test]
fn shipped_suite_replays_on_rtl_engines() {
    hil_support::assert_shipped_suite_passes("rtl", "clocked");
}
