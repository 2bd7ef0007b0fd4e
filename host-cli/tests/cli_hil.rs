//! `jumpnet hil` without hardware (`--engine core`: the in-process executor over the
//! programs read back from the nodes' device images): identical traces for the three
//! collectives, a deliberately wrong program caught as a divergence (exit 1), golden trace
//! record/check round trip, and the argument errors.

mod hil_support;

use hil_support::{assert_identical, assert_mutation_caught, hil, tmpdir, COLLECTIVES};

#[test]
fn image_programs_in_process_trace_like_the_reference() {
    for c in COLLECTIVES {
        let (code, report, err) = hil(c, "core", &[]);
        assert_identical(c, code, &report, &err);
    }
}

#[test]
fn a_wrong_peer_in_an_image_is_a_divergence() {
    let (code, report, err) = hil("allreduce", "core", &["--mutate-program"]);
    assert_mutation_caught(code, &report, &err);
    // Recursive doubling: rank 3 first exchanges with rank 3 xor 1 = 2 (docs/collectives.md).
    assert_eq!(report["divergence"]["expected"]["peer"], 2);
    assert_eq!(report["divergence"]["expected"]["cycle"], 0);
}

#[test]
fn record_then_check_round_trips_and_catches_an_edited_trace() {
    let dir = tmpdir("hil-record");
    let file = dir.join("allreduce.jsonl");
    let f = file.to_str().unwrap();
    let (code, report, err) = hil("allreduce", "core", &["--record", f]);
    assert_identical("allreduce", code, &report, &err);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len() as u64,
        1 + report["hil"]["events"].as_u64().unwrap()
    );
    // Every traced rank ends exactly once, and last.
    for rank in [3, 7] {
        let mine: Vec<serde_json::Value> = lines[1..]
            .iter()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|e| e["rank"] == rank)
            .collect();
        let dones = mine.iter().filter(|e| e["kind"] == "done").count();
        assert_eq!(dones, 1);
        assert_eq!(mine.last().unwrap()["kind"], "done");
    }

    // `--check` replays the run its header describes.
    let check = |file: &str| {
        hil_support::jumpnet_json(&["hil", "--check", file, "--engine", "core", "--json", "-q"])
    };
    let (code, report, err) = check(f);
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["compared_with"], "recorded trace");

    // Delay one event by a cycle: caught at exactly that event.
    let edited: String = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 3 {
                let mut e: serde_json::Value = serde_json::from_str(l).unwrap();
                e["cycle"] = serde_json::json!(e["cycle"].as_u64().unwrap() + 1);
                format!("{e}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let bad = dir.join("edited.jsonl");
    std::fs::write(&bad, edited).unwrap();
    let (code, report, err) = check(bad.to_str().unwrap());
    assert_eq!(code, 1, "{err}");
    assert_eq!(report["divergence"]["index"], 2);
    assert_eq!(
        report["divergence"]["expected"]["cycle"].as_u64().unwrap(),
        report["divergence"]["got"]["cycle"].as_u64().unwrap() + 1
    );

    // --check replays the run of the trace's header: the run's own arguments are refused.
    let (code, _, err) = hil("bcast", "core", &["--check", f]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot be used with '--check <FILE>'"),
        "{err}"
    );
    let (code, report, err) = check(f);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        report["run"]["collective"]["description"],
        "recursive-doubling allreduce"
    );
    assert_eq!(
        report["hil"]["events"].as_u64().unwrap() + 1,
        lines.len() as u64
    );
    // The diff of the edited trace shows the expected and the actual event.
    let (_, _, err) = hil_support::jumpnet(&[
        "hil",
        "--check",
        bad.to_str().unwrap(),
        "--engine",
        "core",
        "-q",
    ]);
    assert!(
        err.contains(&format!("--- expected {}", bad.display())),
        "{err}"
    );
    assert!(err.contains("+++ actual (core engine)"), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("-cycle")).count(),
        1,
        "{err}"
    );
    // A trace whose header describes a run that builds differently is refused, naming the
    // field.
    let other = dir.join("other.jsonl");
    std::fs::write(
        &other,
        text.replace("recursive-doubling allreduce", "ring allreduce"),
    )
    .unwrap();
    let (code, _, err) = hil_support::jumpnet(&[
        "hil",
        "--check",
        other.to_str().unwrap(),
        "--engine",
        "core",
        "-q",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("recorded for another run"), "{err}");
    assert!(
        err.contains("run.collective.description: trace \"ring allreduce\""),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_hil_arguments_are_clear_errors() {
    let (code, _, err) = hil("allreduce", "core", &["--reduce-cycles-per-byte", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--reduce-cycles-per-byte must be 0"), "{err}");
    let (code, _, err) = hil("allreduce", "core", &["--nodes", "16"]);
    assert_eq!(code, 2);
    assert!(err.contains("--nodes 16 is out of range"), "{err}");
    let (code, _, err) = hil("allreduce", "core", &["--fault-per-mille", "5"]);
    assert_eq!(code, 2);
    assert!(err.contains("apply to --engine device only"), "{err}");
    let (code, _, err) = hil("allreduce", "device", &["--fault-per-mille", "1001"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid value '1001' for '--fault-per-mille <FAULT_PER_MILLE>': 1001 is not in 0..=1000"),
        "{err}"
    );
    // The test network routes with the dateline rule: no table at one switch can do that.
    let (code, _, err) = hil("allreduce", "core", &["--rtl-router", "5"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--algo dor-dateline depends on the packet's path"),
        "{err}"
    );
    assert!(err.contains("allowed: minimal, dor,"), "{err}");
    // A waveform is the RTL engine's: refused on the in-process engine, in one run and in a
    // suite, before anything is written.
    let dir = tmpdir("hil-vcd-refused");
    let vcd = dir.join("w.vcd");
    let (code, _, err) = hil("allreduce", "core", &["--vcd", vcd.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--vcd writes the waveform of a Verilated RTL engine: it needs --engine rtl"),
        "{err}"
    );
    let suite = hil_support::shipped_suite();
    let (code, _, err) = hil_support::jumpnet(&[
        "hil",
        "suite",
        suite.to_str().unwrap(),
        "--vcd",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("it needs --engine rtl (this run's engine is core)"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let (code, _, err) = hil("allreduce", "core", &["--vcd-window", "10"]);
    assert_eq!(code, 2);
    assert!(err.contains("--vcd <FILE>"), "{err}");
    let (code, _, err) = hil(
        "allreduce",
        "rtl",
        &["--vcd", "w.vcd", "--vcd-window", "1,x"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("expected BEFORE[,AFTER]"), "{err}");
    // An unwritable place is refused before the run (with or without the `rtl` feature).
    let missing = dir.join("missing/w.vcd");
    let (code, _, err) = hil("allreduce", "rtl", &["--vcd", missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write the waveform"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    if cfg!(not(feature = "rtl")) {
        let (code, err) = hil_support::rtl_router_bcast("5");
        assert_eq!(code, 2);
        assert!(
            err.contains("--rtl-router needs a jumpnet built with the `rtl` feature"),
            "{err}"
        );
        let (code, _, err) = hil("allreduce", "rtl", &[]);
        assert_eq!(code, 2);
        assert!(
            err.contains("needs a jumpnet built with the `rtl` feature"),
            "{err}"
        );
    }
}
