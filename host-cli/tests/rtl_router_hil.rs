//! `jumpnet hil --rtl-router SWITCH`: the forwarding stage of one
//! switch is the Verilated table router loaded with that switch's compiled table. On the
//! 4×4 mesh (dimension order, 1 VC: deadlock-free, unlike 1-VC DOR on a torus, whose
//! alltoall can deadlock) and a small Dragonfly (g=9 a=4 p=1 h=2, minimal on one
//! VC), broadcast, allreduce and alltoall give the same traces as the in-process run, with
//! NIC engines in process or on the RTL, and the RTL does one lookup per head flit the
//! in-process routing routes at that switch; a wrong table entry is caught; routings that
//! need the packet's history are refused.
//!
//! Needs the `rtl` feature (and verilator): the RTL stage of `cargo xtask test` runs
//! `cargo test -p jumpnet --features rtl --test rtl_router_hil`.
#![cfg(feature = "rtl")]

mod hil_support;

use hil_support::{jumpnet_json, rtl_router_bcast, COLLECTIVES};

/// A test network: topology arguments, routing, traced nodes and the RTL router's switch.
struct Net {
    topology: &'static [&'static str],
    algo: &'static str,
    nodes: &'static str,
    switch: u64,
}

const MESH: Net = Net {
    topology: &["mesh", "k=4,4"],
    algo: "dor",
    nodes: "3,7",
    switch: 5,
};

const DRAGONFLY: Net = Net {
    topology: &["dragonfly", "g=9", "a=4", "p=1", "h=2"],
    algo: "df-minimal-1vc",
    nodes: "2,9",
    switch: 4,
};

/// `jumpnet hil` on `net` with the RTL router at `net.switch`; (exit code, JSON, stderr).
fn hil_rtl_router(
    net: &Net,
    collective: &str,
    engine: &str,
    extra: &[&str],
) -> (i32, serde_json::Value, String) {
    let switch = net.switch.to_string();
    let mut args: Vec<&str> = vec!["hil"];
    args.extend_from_slice(net.topology);
    args.extend_from_slice(&[
        "packet_size=4",
        "num_vcs=2",
        "--algo",
        net.algo,
        "--collective",
        collective,
        "--msg",
        "64",
        "--nodes",
        net.nodes,
        "--engine",
        engine,
        "--rtl-router",
        &switch,
        "--json",
        "-q",
    ]);
    args.extend_from_slice(extra);
    jumpnet_json(&args)
}

#[test]
fn the_rtl_router_at_one_switch_keeps_the_traces() {
    for (name, net) in [("mesh", &MESH), ("dragonfly", &DRAGONFLY)] {
        for engine in ["core", "rtl"] {
            for c in COLLECTIVES {
                let what = format!("{name} {c} --engine {engine}");
                let (code, report, err) = hil_rtl_router(net, c, engine, &[]);
                assert_eq!(code, 0, "{what}: {err}");
                assert!(report["divergence"].is_null(), "{what}: {report}");
                let events = report["hil"]["events"].as_u64().unwrap();
                assert!(events > 2, "{what}: {report}");
                assert_eq!(events, report["reference"]["events"].as_u64().unwrap());
                assert_eq!(
                    report["hil"]["makespan_cycles"], report["reference"]["makespan_cycles"],
                    "{what}"
                );
                let r = &report["rtl_router"];
                assert_eq!(r["switch"], net.switch, "{what}");
                assert!(r["hop_difference"].is_null(), "{what}: {r}");
                let lookups = r["rtl_lookups"].as_u64().unwrap();
                assert!(lookups > 0, "{what}: {r}");
                assert_eq!(lookups, r["reference_heads"].as_u64().unwrap(), "{what}");
                println!(
                    "{what}: {lookups} RTL lookups at switch {}, {events} events, makespan {}",
                    net.switch, report["hil"]["makespan_cycles"]
                );
            }
        }
    }
}

#[test]
fn a_wrong_table_entry_is_caught() {
    for (name, net) in [("mesh", &MESH), ("dragonfly", &DRAGONFLY)] {
        let (code, report, err) = hil_rtl_router(net, "allreduce", "core", &["--mutate-rtl-table"]);
        assert_eq!(code, 1, "{name}: {err}");
        let r = &report["rtl_router"];
        let m = r["mutation"].as_str().unwrap();
        // "switch S's table sends terminal D to port P instead of port Q"
        let dst = m
            .split("terminal ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let d = r["hop_difference"].as_str().unwrap();
        assert!(
            d.contains(&format!("the reference routed terminal {dst} ")),
            "{name}: {m} vs {d}"
        );
        // The ranks' traces may diverge first (exit 1 either way).
        assert!(
            err.contains("hops differ from the in-process run") || err.contains("traces differ"),
            "{err}"
        );
    }
}

/// An out-of-range switch is an error (the refusal of path-dependent routings such as the
/// dateline rule is checked in `cli_hil.rs`, which every CI run has).
#[test]
fn an_out_of_range_switch_is_refused() {
    let (code, err) = rtl_router_bcast("16");
    assert_eq!(code, 2);
    assert!(err.contains("--rtl-router 16 is out of range"), "{err}");
}
