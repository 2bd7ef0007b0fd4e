//! End-to-end tests of `jumpnet report`'s simulated makespans (docs/reference-results.md A8)
//! through the real binary.

mod common;

use common::*;

const SCENARIO: &str = r#"{
  "title": "small simulated comparison",
  "topologies": [
    { "label": "G(64,6)", "spec": "gcirculant n=64" },
    { "label": "random d=6", "spec": "random-shortcut n=64 d=6 seed=3" },
    { "label": "dragonfly 9x4", "spec": "dragonfly g=9 a=4 p=1 h=2" }
  ],
  "collectives": ["bcast", "allreduce", "alltoall"],
  "ranks": [32],
  "mappings": ["ring", "random", "circulant"],
  "two_opt_from": ["random"],
  "two_opt_iterations": 2000,
  "seed": 5,
  "simulation": {
    "ranks": 32,
    "collectives": ["bcast", "allreduce", "alltoall"],
    "messages": ["256B", "64KiB"],
    "mappings": ["ring", "random", "circulant", "two-opt"],
    "link_gbps": 100,
    "switch_latency_ns": 100,
    "nic": "mpi"
  }
}"#;

#[test]
fn report_simulates_makespans_and_says_whether_the_circulant_network_wins() {
    let dir = tmpdir("rs-report");
    let v = report_json(&dir, SCENARIO, "r", &[]);
    let m = &v["makespans"];
    let rows = m["rows"].as_array().unwrap();
    // 3 topologies × 3 collectives × 2 sizes × 4 mappings, every one simulated.
    assert_eq!(rows.len(), 72);
    for r in rows {
        let bytes = r["message_bytes"].as_u64().unwrap();
        let flit = r["flit_bytes"].as_u64().unwrap();
        let cycles = r["makespan_cycles"].as_u64().unwrap();
        // The largest message: the whole vector, or 16 blocks of a 32-rank Bruck round.
        let largest = if r["collective"] == "alltoall" {
            16 * bytes
        } else {
            bytes
        };
        // Flit size from the time scale: ⌈largest / 256⌉, at least 64 bytes.
        assert_eq!(flit, largest.div_ceil(256).max(64), "{r}");
        let packet = largest.div_ceil(flit);
        // Each of the 5 rounds (log2 32) has a whole message on the critical path, and one
        // message serialises `packet` flits: a lower bound no run may beat.
        assert!(cycles >= 5 * packet, "{r}");
        // Cycles → µs at 100 Gb/s: one flit per cycle.
        let us = r["makespan_us"].as_f64().unwrap();
        let expect = cycles as f64 * (flit as f64 * 8.0 / 100.0) / 1e3;
        assert!((us - expect).abs() < 1e-6 * expect.max(1.0), "{r}");
        // Every run moves every message.
        assert!(r["messages"].as_u64().unwrap() > 0);
    }
    // The verdicts: one per collective at the largest size, consistent with the rows.
    let verdicts = m["verdicts"].as_array().unwrap();
    assert_eq!(verdicts.len(), 3);
    for vd in verdicts {
        assert_eq!(vd["message_bytes"], 64 << 10);
        let coll = vd["collective"].as_str().unwrap();
        let best = |topo: &str| {
            rows.iter()
                .filter(|r| {
                    r["topology"] == topo
                        && r["collective"] == coll
                        && r["message_bytes"] == 64 << 10
                })
                .map(|r| r["makespan_us"].as_f64().unwrap())
                .fold(f64::INFINITY, f64::min)
        };
        let circ = best("G(64,6)");
        assert_eq!(vd["circulant_best"][0].as_f64().unwrap(), circ);
        let wins = best("random d=6") > circ && best("dragonfly 9x4") > circ;
        assert_eq!(vd["circulant_wins"].as_bool().unwrap(), wins, "{vd}");
    }
    let md = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
    assert!(md.contains("## Simulated makespans, 32 ranks"), "{md}");
    assert!(md.contains("Does the circulant network win"), "{md}");
    for c in ["bcast", "allreduce", "alltoall"] {
        for s in [256, 65536] {
            let svg = std::fs::read_to_string(dir.join(format!("r/makespan-{c}-{s}.svg"))).unwrap();
            assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{svg}");
        }
    }
    // The cell the report names is that one command's result, NIC model included.
    let (cmd, us) = (&m["reproduce"][0], m["reproduce"][1].as_f64().unwrap());
    let cmd = cmd.as_str().unwrap();
    assert!(cmd.ends_with("--nic mpi"), "{cmd}");
    let mut args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
    args.extend(["--json", "-q"]);
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 0, "{cmd}: {err}");
    let run = json(&out);
    let seconds = run["makespan_seconds"].as_f64().unwrap();
    assert!(
        (seconds * 1e6 - us).abs() <= 1e-9 * us,
        "{cmd}: {seconds} s vs {us} µs"
    );
    // --no-simulation leaves them out.
    let v = report_json(&dir, SCENARIO, "r2", &["--no-simulation"]);
    assert!(v["makespans"].is_null());
}

#[test]
fn bad_simulation_sections_are_named() {
    let dir = tmpdir("rs-bad");
    let cases = [
        (
            r#""mappings": ["ring", "spiral"]"#,
            "unknown mapping `spiral`",
        ),
        (r#""messages": ["lots"]"#, "message size `lots`"),
        (r#""collectives": ["forest"]"#, "topology-aware"),
        (r#""link_gbps": 0"#, "link bandwidth"),
        (r#""ranks": 16"#, "mapping `two-opt` needs 16"),
        (
            r#""nic": "smart""#,
            "unknown NIC model `smart` (allowed: simple, mpi)",
        ),
    ];
    for (i, (patch, expect)) in cases.iter().enumerate() {
        let key = patch.split(':').next().unwrap();
        let text: String = SCENARIO
            .lines()
            .map(|l| {
                if l.trim_start().starts_with(key) && l.starts_with("    ") {
                    let comma = if l.trim_end().ends_with(',') { "," } else { "" };
                    format!("    {patch}{comma}")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let name = format!("s{i}.json");
        std::fs::write(dir.join(&name), &text).unwrap();
        let (code, _, err) = jumpnet_in(
            Some(&dir),
            &["report", "--scenario", &name, "--out", "r", "--quiet"],
        );
        assert_ne!(code, 0, "{patch}");
        assert!(err.contains(expect), "{patch}: {err}");
        assert!(!dir.join("r").exists(), "{patch}: nothing written");
    }
}
