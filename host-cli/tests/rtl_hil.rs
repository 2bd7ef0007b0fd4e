//! `jumpnet hil --engine rtl`: the NIC engines of nodes 3 and 7 of
//! the 16-node 4×4 torus run as the Verilated schedule-engine RTL inside the simulator; for
//! broadcast, allreduce and alltoall their traces equal the reference run where those nodes
//! run core's `TimedExecutor` (the timing contract), cycle for cycle; a wrong peer in the
//! image's program is caught as a divergence (exit 1). A golden trace with one changed event
//! diverges and `--vcd` writes a waveform of the diverging engine around it (alone and in a
//! suite); a matching run writes none.
//!
//! Needs the `rtl` feature (and verilator): the RTL stage of `cargo xtask test` runs
//! `cargo test -p jumpnet --features rtl --test rtl_hil`.
#![cfg(feature = "rtl")]

mod hil_support;

use std::path::Path;

use hil_support::{assert_identical, assert_mutation_caught, hil, jumpnet_json, tmpdir};
use hil_support::{shipped_suite, COLLECTIVES};

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

/// A VCD file read back: its header (up to `$enddefinitions`), the `$var` names by
/// identifier code, and every value change as (time, code, value).
struct Vcd {
    header: String,
    vars: std::collections::BTreeMap<String, String>,
    changes: Vec<(u64, String, String)>,
}

impl Vcd {
    fn read(path: &Path) -> Self {
        let text = std::fs::read_to_string(path).unwrap();
        let (header, body) = text.split_once("$enddefinitions $end").unwrap();
        let mut vars = std::collections::BTreeMap::new();
        for line in header.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.first() == Some(&"$var") && w.len() >= 6 {
                vars.insert(w[4].to_string(), w[3].to_string());
            }
        }
        let (mut changes, mut time) = (Vec::new(), None);
        for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(t) = line.strip_prefix('#') {
                time = Some(t.parse::<u64>().unwrap());
            } else if let Some(rest) = line.strip_prefix('b') {
                let (value, code) = rest.split_once(' ').unwrap();
                changes.push((time.unwrap(), code.to_string(), value.to_string()));
            } else if line.starts_with(['0', '1', 'x', 'z']) {
                let (value, code) = line.split_at(1);
                changes.push((time.unwrap(), code.to_string(), value.to_string()));
            }
        }
        Vcd {
            header: header.to_string(),
            vars,
            changes,
        }
    }

    /// The value of `name` at `time` as a number (the last change at or before it).
    fn value_at(&self, name: &str, time: u64) -> u64 {
        let code = &self.vars[name];
        let v = self
            .changes
            .iter()
            .rfind(|(t, c, _)| c == code && *t <= time)
            .unwrap_or_else(|| panic!("{name} has no value at {time}"));
        u64::from_str_radix(&v.2, 2).unwrap()
    }
}

/// Asserts a waveform of the engine with the VCD header GTKWave reads, the clock and named
/// engine signals, and timestamps only inside `from..=to` (cycle c at c ns, 1 ps units).
fn assert_waveform(path: &Path, from: u64, to: u64) -> Vcd {
    let vcd = Vcd::read(path);
    for key in [
        "$timescale 1ps $end",
        "$scope module",
        "$var wire",
        "$upscope",
    ] {
        assert!(vcd.header.contains(key), "{key} missing:\n{}", vcd.header);
    }
    for name in [
        "clk",
        "act_valid",
        "act_kind",
        "act_op",
        "done",
        "running",
        "done_r",
    ] {
        assert!(vcd.vars.contains_key(name), "{name}: {:?}", vcd.vars);
    }
    assert!(!vcd.changes.is_empty());
    for (t, _, _) in &vcd.changes {
        assert!(
            (from * 1000..=to * 1000 + 500).contains(t),
            "#{t} outside cycles {from}..={to}"
        );
    }
    vcd
}

/// The shipped `torus-allreduce-clocked` trace in `dir` with event 6 (rank 3 delivers in
/// cycle 56) one cycle later; returns its path.
fn edited_allreduce(dir: &Path) -> std::path::PathBuf {
    let name = "torus-allreduce-clocked.jsonl";
    let text = std::fs::read_to_string(shipped_suite().join(name)).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut e: serde_json::Value = serde_json::from_str(&lines[7]).unwrap();
    assert_eq!(
        (e["cycle"].as_u64(), e["rank"].as_u64()),
        (Some(56), Some(3))
    );
    e["cycle"] = serde_json::json!(57);
    lines[7] = e.to_string();
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn a_diverging_rtl_run_writes_a_waveform_around_the_divergence() {
    let dir = tmpdir("rtl-vcd");
    let trace = edited_allreduce(&dir);
    let vcd = dir.join("allreduce.vcd");
    let check = |trace: &Path, extra: &[&str]| {
        let mut args = vec!["hil", "--check", trace.to_str().unwrap(), "--engine", "rtl"];
        args.extend_from_slice(&["--vcd", vcd.to_str().unwrap(), "--json", "-q"]);
        args.extend_from_slice(extra);
        jumpnet_json(&args)
    };
    let (code, report, err) = check(&trace, &["--vcd-window", "20,10"]);
    assert_eq!(code, 1, "{err}");
    // The run delivers in cycle 56 where the trace says 57: the window is around 56.
    assert_eq!(report["divergence"]["got"]["cycle"], 56);
    let w = &report["waveform"];
    assert_eq!(w["path"], vcd.to_str().unwrap(), "{report}");
    assert_eq!((w["rank"].as_u64(), w["node"].as_u64()), (Some(3), Some(3)));
    assert_eq!(w["divergence_cycle"], 56);
    assert_eq!(w["window"], serde_json::json!({"from": 36, "to": 66}));
    assert_eq!(w["cycles"], serde_json::json!({"from": 36, "to": 66}));
    assert!(
        err.contains(&format!("wrote the waveform {}", vcd.display())) && err.contains("gtkwave"),
        "{err}"
    );
    let wave = assert_waveform(&vcd, 36, 66);
    // Rank 3's engine delivers (kind 1) op 3 in cycle 56 and acts in no cycle before.
    assert_eq!(wave.value_at("act_valid", 56_000), 1);
    assert_eq!(wave.value_at("act_kind", 56_000), 1);
    assert_eq!(wave.value_at("act_op", 56_000), 3);
    assert_eq!(wave.value_at("act_valid", 55_000), 0);
    assert_eq!(wave.value_at("clk", 56_000), 0);
    assert_eq!(wave.value_at("clk", 56_500), 1);
    // Only the waveform and the trace: no temporary file left.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);

    // The untouched trace matches: no waveform, and the old one stays as it was.
    let before = std::fs::read(&vcd).unwrap();
    let (code, report, err) = check(&shipped_suite().join("torus-allreduce-clocked.jsonl"), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(report["waveform"].is_null());
    assert!(err.contains("no waveform needed"), "{err}");
    assert_eq!(std::fs::read(&vcd).unwrap(), before);

    // An unwritable place is refused before anything runs.
    let (code, _, err) = jumpnet_json(&[
        "hil",
        "--check",
        trace.to_str().unwrap(),
        "--engine",
        "rtl",
        "--vcd",
        dir.join("missing/x.vcd").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write the waveform"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_suite_writes_one_waveform_per_diverging_case() {
    let dir = tmpdir("rtl-vcd-suite");
    let suite = dir.join("suite");
    std::fs::create_dir(&suite).unwrap();
    for e in std::fs::read_dir(shipped_suite()).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().ends_with("-clocked.jsonl") {
            std::fs::copy(&p, suite.join(p.file_name().unwrap())).unwrap();
        }
    }
    edited_allreduce(&suite);
    let waves = dir.join("waves");
    let (code, report, err) = jumpnet_json(&[
        "hil",
        "suite",
        suite.to_str().unwrap(),
        "--engine",
        "rtl",
        "--vcd",
        waves.to_str().unwrap(),
        "--json",
        "-q",
    ]);
    assert_eq!(code, 1, "{err}");
    let names: Vec<_> = std::fs::read_dir(&waves)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["torus-allreduce-clocked.vcd"]);
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "torus-allreduce-clocked")
        .unwrap();
    // The default window: 200 cycles before (from cycle 0 here), 50 after.
    let w = &case["waveform"];
    assert_eq!(
        w["window"],
        serde_json::json!({"from": 0, "to": 106}),
        "{case}"
    );
    let to = w["cycles"]["to"].as_u64().unwrap();
    assert!(to > 56 && to <= 106, "{w}");
    assert_waveform(&waves.join("torus-allreduce-clocked.vcd"), 0, to);
    assert!(err.contains("wrote the waveform"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
