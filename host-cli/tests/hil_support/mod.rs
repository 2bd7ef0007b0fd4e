//! `jumpnet hil` runs shared by the HIL CLI tests (in-process, QEMU and RTL engines): the
//! 16-node 4×4 torus (dimension order with the dateline, 4-flit packets), 64-byte messages,
//! nodes 3 and 7 on the engine under test.
#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;

#[allow(unused_imports)]
pub use common::{jumpnet, tmpdir};

/// The collectives every HIL engine is checked on.
pub const COLLECTIVES: [&str; 3] = ["bcast", "allreduce", "alltoall"];

/// `jumpnet hil --rtl-router switch` of a broadcast on a 4×4 torus with plain dimension
/// order (a table-routable routing), node 3 on the in-process engine; returns (exit code,
/// stderr).
pub fn rtl_router_bcast(switch: &str) -> (i32, String) {
    let (code, _, err) = jumpnet(&[
        "hil",
        "torus",
        "k=4,4",
        "--algo",
        "dor",
        "--collective",
        "bcast",
        "--nodes",
        "3",
        "--engine",
        "core",
        "--rtl-router",
        switch,
        "-q",
    ]);
    (code, err)
}

/// `jumpnet hil` on the test network with `--collective collective --engine engine`,
/// `--json`, plus `extra`; returns (exit code, parsed JSON report or Null, stderr).
pub fn hil(collective: &str, engine: &str, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let mut args = vec![
        "hil",
        "torus",
        "k=4,4",
        "packet_size=4",
        "num_vcs=2",
        "--algo",
        "dor-dateline",
        "--collective",
        collective,
        "--msg",
        "64",
        "--nodes",
        "3,7",
        "--engine",
        engine,
        "--json",
        "-q",
    ];
    args.extend_from_slice(extra);
    jumpnet_json(&args)
}

/// Runs `jumpnet args`; returns (exit code, its JSON report or Null, stderr).
pub fn jumpnet_json(args: &[&str]) -> (i32, serde_json::Value, String) {
    let (code, out, err) = jumpnet(args);
    let json = serde_json::from_str(&out).unwrap_or(serde_json::Value::Null);
    (code, json, err)
}

/// Asserts a run that matched its reference: exit 0, no divergence, as many events as the
/// reference, equal makespans, ranks 3 and 7 traced.
pub fn assert_identical(collective: &str, code: i32, report: &serde_json::Value, err: &str) {
    assert_eq!(code, 0, "{collective}: {err}");
    assert!(report["divergence"].is_null(), "{collective}: {report}");
    let events = report["hil"]["events"].as_u64().unwrap();
    assert_eq!(events, report["reference"]["events"].as_u64().unwrap());
    // At least one `done` per rank and an action.
    assert!(events > 2, "{collective}: {report}");
    assert_eq!(
        report["hil"]["makespan_cycles"], report["reference"]["makespan_cycles"],
        "{collective}"
    );
    assert_eq!(report["run"]["ranks"], serde_json::json!([3, 7]));
}

/// Asserts the deliberate wrong peer is caught at the first send of rank 3 (the lowest
/// traced rank): exit 1 and a divergence naming the expected and the wrong peer.
pub fn assert_mutation_caught(code: i32, report: &serde_json::Value, err: &str) {
    assert_eq!(code, 1, "{err}");
    let d = &report["divergence"];
    assert_eq!(d["expected"]["rank"], 3, "{report}");
    assert_eq!(d["expected"]["kind"], "send");
    assert_eq!(d["got"]["kind"], "send");
    assert_eq!(d["got"]["op"], d["expected"]["op"]);
    assert_ne!(d["got"]["peer"], d["expected"]["peer"]);
    assert!(err.contains("divergence at event"), "{err}");
    let m = report["mutation"].as_str().unwrap();
    assert!(
        m.contains(&format!("sends to rank {}", d["got"]["peer"])),
        "{m} vs {d}"
    );
}

/// The shipped regression suite (`tests/hil-suite/`).
pub fn shipped_suite() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/hil-suite")
}

/// Replays the shipped suite on `engine` one case at a time, then with the default
/// parallelism writing JUnit XML to `target/hil-suite-ENGINE.xml` (kept for CI); asserts
/// that both runs match every trace the engine keeps the timing contract of (`timing`),
/// skip the others and give the same results; prints both wall times.
pub fn assert_shipped_suite_passes(engine: &str, timing: &str) {
    let suite = shipped_suite();
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .to_path_buf();
    let junit = target.join(format!("hil-suite-{engine}.xml"));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "hil",
            "suite",
            suite.to_str().unwrap(),
            "--engine",
            engine,
            "--json",
            "-q",
        ];
        args.extend_from_slice(extra);
        let start = std::time::Instant::now();
        let (code, report, err) = jumpnet_json(&args);
        assert_eq!(code, 0, "{engine}: {err}");
        (report, start.elapsed().as_secs_f64())
    };
    let (serial, serial_s) = run(&["--jobs", "1"]);
    let (parallel, parallel_s) = run(&["--junit", junit.to_str().unwrap()]);
    let rows = |r: &serde_json::Value| -> Vec<(String, String, String)> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["timing"].as_str().unwrap().to_string(),
                    c["result"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let (s, p) = (rows(&serial), rows(&parallel));
    assert_eq!(s, p);
    assert_eq!(s.len(), 10);
    for (name, t, result) in &s {
        let want = if t == timing { "match" } else { "skipped" };
        assert_eq!(result, want, "{engine}: {name}");
    }
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("tests=\"10\" failures=\"0\" errors=\"0\" skipped=\"5\""),
        "{xml}"
    );
    println!(
        "shipped HIL suite on {engine} engines: 5 {timing} traces, serial (--jobs 1) {serial_s:.2} s, \
         parallel (--jobs {}) {parallel_s:.2} s; JUnit {}",
        parallel["jobs"],
        junit.display()
    );
}
