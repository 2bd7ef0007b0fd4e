//! `jumpnet hil suite` on the in-process engine: the shipped suite (`tests/hil-suite/`)
//! passes; a trace with one changed event fails naming that trace, with the diff and a JUnit
//! `failure`; a trace of the older format or with a missing key is refused (exit 2); cases
//! run in parallel give the results of one by one; re-recording needs `--update`.

mod hil_support;

use std::path::{Path, PathBuf};

use hil_support::{jumpnet, jumpnet_json, tmpdir};

/// The shipped suite.
fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/hil-suite")
}

/// The shipped suite's traces (name, text), sorted by name.
fn shipped_traces() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(shipped())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// A copy of the shipped suite in a fresh directory.
fn copy_of_shipped(name: &str) -> PathBuf {
    let dir = tmpdir(name);
    for entry in std::fs::read_dir(shipped()).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    dir
}

/// `jumpnet hil suite suite --json -q` plus `extra`.
fn suite(suite: &Path, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let mut args = vec!["hil", "suite", suite.to_str().unwrap(), "--json", "-q"];
    args.extend_from_slice(extra);
    jumpnet_json(&args)
}

/// (name, result, events) of every case of a suite report.
fn results(report: &serde_json::Value) -> Vec<(String, String, u64)> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["result"].as_str().unwrap().to_string(),
                c["events"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_shipped_suite_passes_on_the_core_engine() {
    let traces = shipped_traces();
    assert_eq!(traces.len(), 10);
    let dir = tmpdir("hil-suite-pass");
    let junit = dir.join("junit.xml");
    let (code, report, err) = suite(&shipped(), &["--junit", junit.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let got = results(&report);
    let want: Vec<(String, String, u64)> = traces
        .iter()
        .map(|(name, text)| {
            (
                name.clone(),
                "match".into(),
                text.lines().count() as u64 - 1,
            )
        })
        .collect();
    let mut sorted = got.clone();
    sorted.sort();
    assert_eq!(sorted, want);
    // The five collectives, each under both timing contracts.
    for name in [
        "torus-bcast",
        "torus-allreduce",
        "torus-alltoall",
        "dragonfly-glf",
        "galaxyfly-sfata",
    ] {
        for n in [name.to_string(), format!("{name}-clocked")] {
            assert!(got.iter().any(|(g, _, _)| *g == n), "{n} missing");
        }
    }
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    assert!(
        xml.contains("tests=\"10\" failures=\"0\" errors=\"0\" skipped=\"0\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 10);
    assert!(!xml.contains("<failure"));
    // The manifest lists the same cases in its own order.
    let (code, report, err) = suite(&shipped().join("suite.toml"), &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["cases"][0]["name"], "torus-bcast");
    assert_eq!(report["cases"].as_array().unwrap().len(), 10);
    // Progress on stderr, one line per case.
    let (code, _, err) = jumpnet(&["hil", "suite", shipped().to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    assert_eq!(
        err.lines().filter(|l| l.starts_with('[')).count(),
        10,
        "{err}"
    );
    assert!(err.contains("[10/10] "), "{err}");
    // A single trace replays with `jumpnet hil --check` from its header alone.
    let one = shipped().join("galaxyfly-sfata-clocked.jsonl");
    let (code, report, err) = jumpnet_json(&[
        "hil",
        "--check",
        one.to_str().unwrap(),
        "--engine",
        "core",
        "--json",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["run"]["timing"], "clocked");
    assert_eq!(report["compared_with"], "recorded trace");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_changed_event_fails_that_trace_with_a_diff_and_a_junit_failure() {
    let dir = copy_of_shipped("hil-suite-changed");
    let file = dir.join("torus-allreduce.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    // Event 4 (line 6) one cycle later.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut e: serde_json::Value = serde_json::from_str(&lines[5]).unwrap();
    let cycle = e["cycle"].as_u64().unwrap();
    e["cycle"] = serde_json::json!(cycle + 1);
    lines[5] = e.to_string();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let junit = dir.join("out.xml");
    let (code, report, err) = suite(&dir, &["--junit", junit.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let bad: Vec<(String, String, u64)> = results(&report)
        .into_iter()
        .filter(|(_, r, _)| r != "match")
        .collect();
    assert_eq!(bad.len(), 1, "{report}");
    assert_eq!(bad[0].0, "torus-allreduce");
    assert_eq!(bad[0].1, "diverged");
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "torus-allreduce")
        .unwrap();
    assert_eq!(case["divergence"]["index"], 4);
    assert_eq!(case["divergence"]["expected"]["cycle"], cycle + 1);
    assert_eq!(case["divergence"]["got"]["cycle"], cycle);
    // Stderr names the trace and shows the diff: the changed line out, the run's in.
    assert!(
        err.contains("torus-allreduce (") && err.contains("diverges on the core engine"),
        "{err}"
    );
    assert!(
        err.contains("1 of 10 cases failed: torus-allreduce"),
        "{err}"
    );
    let expected_line = format!("-cycle {} rank", cycle + 1);
    let actual_line = format!("+cycle {cycle} rank");
    assert_eq!(
        err.lines()
            .filter(|l| l.starts_with(&expected_line))
            .count(),
        1,
        "{err}"
    );
    assert_eq!(
        err.lines().filter(|l| l.starts_with(&actual_line)).count(),
        1,
        "{err}"
    );
    assert!(
        err.contains(&format!("--- expected {}", file.display())),
        "{err}"
    );
    // JUnit: one failure, on that testcase, with the diff.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("tests=\"10\" failures=\"1\" errors=\"0\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<failure ").count(), 1);
    let at = xml.find("<testcase name=\"torus-allreduce\"").unwrap();
    let failure = xml[at..].find("<failure ").unwrap();
    assert!(failure < xml[at..].find("</testcase>").unwrap());
    assert!(xml.contains("torus-allreduce diverges at event 4"), "{xml}");
    assert!(xml.contains(&expected_line), "{xml}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn older_format_and_missing_keys_are_refused_before_anything_runs() {
    let dir = copy_of_shipped("hil-suite-refused");
    let file = dir.join("dragonfly-glf.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    // The first format's header: version 1, no simulator keys.
    let v1 = "{\"jumpnet_hil_trace\":1,\"run\":{\"topology\":\"dragonfly g=5 a=2 p=2 h=2\",\"routing\":\"df-minimal\",\"collective\":\"glf\",\"mapping\":\"consecutive\",\"msg_bytes\":64,\"nodes\":[0,3],\"ranks\":[0,1,6,7],\"timing\":\"untimed\"}}";
    let events: Vec<&str> = text.lines().skip(1).collect();
    std::fs::write(&file, format!("{v1}\n{}\n", events.join("\n"))).unwrap();
    let (code, report, err) = suite(&dir, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(report.is_null());
    assert!(err.contains("dragonfly-glf.jsonl"), "{err}");
    assert!(
        err.contains("header field `jumpnet_hil_trace`: trace format version 1 is not supported"),
        "{err}"
    );
    assert!(
        err.contains("1 of 10 traces refused (nothing was run)"),
        "{err}"
    );
    // A missing header field and a missing simulator key, each named.
    std::fs::write(&file, text.replace("\"map_seed\":1,", "")).unwrap();
    let (code, _, err) = suite(&dir, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("missing field `map_seed`"), "{err}");
    std::fs::write(&file, text.replace("\"vc_buf_size\":\"8\",", "")).unwrap();
    let (code, _, err) = suite(&dir, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("lacks the simulator key `vc_buf_size`"),
        "{err}"
    );
    // And `jumpnet hil --check` refuses it the same way.
    let (code, _, err) = jumpnet(&["hil", "--check", file.to_str().unwrap(), "--engine", "core"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("lacks the simulator key `vc_buf_size`"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn parallel_cases_give_the_serial_results() {
    let dir = copy_of_shipped("hil-suite-parallel");
    // One diverging case too, so that the comparison covers a failure.
    let file = dir.join("galaxyfly-sfata.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(3);
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (code1, serial, err1) = suite(&dir, &["--jobs", "1"]);
    let (code4, parallel, err4) = suite(&dir, &["--jobs", "4"]);
    assert_eq!((code1, code4), (1, 1), "{err1}\n{err4}");
    assert_eq!(serial["jobs"], 1);
    assert_eq!(parallel["jobs"], 4);
    assert_eq!(results(&serial), results(&parallel));
    let divergence = |r: &serde_json::Value| {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["divergence"].clone(), c["diff"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(divergence(&serial), divergence(&parallel));
    assert_eq!(
        results(&serial)
            .iter()
            .filter(|(_, r, _)| r == "diverged")
            .map(|(n, _, _)| n.as_str())
            .collect::<Vec<_>>(),
        ["galaxyfly-sfata"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn recording_over_existing_traces_needs_update() {
    let dir = tmpdir("hil-suite-record");
    let manifest = dir.join("suite.toml");
    std::fs::write(
        &manifest,
        "[[case]]\nname = \"bcast\"\nwords = [\"torus\", \"k=4,4\", \"packet_size=4\", \"num_vcs=2\"]\n\
         algo = \"dor-dateline\"\ncollective = \"bcast\"\nmsg = \"64\"\nnodes = [3, 7]\n\n\
         [[case]]\nname = \"a2a-clocked\"\nwords = [\"torus\", \"k=4,4\", \"packet_size=4\", \"num_vcs=2\"]\n\
         algo = \"dor-dateline\"\ncollective = \"alltoall\"\nmsg = \"64\"\nnodes = [3, 7]\ntiming = \"clocked\"\n",
    )
    .unwrap();
    let m = manifest.to_str().unwrap();
    let (code, report, err) = suite(&manifest, &["--record"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["recorded"], true);
    let bcast = dir.join("bcast.jsonl");
    let first = std::fs::read_to_string(&bcast).unwrap();
    // The recorded traces equal the shipped ones of the same runs.
    let shipped_bcast = std::fs::read_to_string(shipped().join("torus-bcast.jsonl")).unwrap();
    assert_eq!(first, shipped_bcast);
    let a2a = std::fs::read_to_string(dir.join("a2a-clocked.jsonl")).unwrap();
    assert_eq!(
        a2a,
        std::fs::read_to_string(shipped().join("torus-alltoall-clocked.jsonl")).unwrap()
    );
    // Again without --update: refused, naming the file; nothing changes.
    std::fs::write(&bcast, "keep me\n").unwrap();
    let (code, _, err) = jumpnet(&["hil", "suite", m, "--record", "-q"]);
    assert_eq!(code, 2);
    assert!(err.contains("would be overwritten"), "{err}");
    assert!(err.contains(&bcast.display().to_string()), "{err}");
    assert!(err.contains("--update"), "{err}");
    assert_eq!(std::fs::read_to_string(&bcast).unwrap(), "keep me\n");
    // --update replaces it.
    let (code, _, err) = jumpnet(&["hil", "suite", m, "--record", "--update", "-q"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&bcast).unwrap(), first);
    // --update alone is not a replay option.
    let (code, _, err) = jumpnet(&["hil", "suite", m, "--update"]);
    assert_eq!(code, 2);
    assert!(err.contains("--record"), "{err}");
    // A directory cannot be recorded (the manifest lists the runs).
    let (code, _, err) = jumpnet(&["hil", "suite", dir.to_str().unwrap(), "--record"]);
    assert_eq!(code, 2);
    assert!(err.contains("--record needs a manifest file"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
