//! `jumpnet sim --booksim … --format booksim` prints, line for line, the statistics block
//! BookSim2 printed on deterministic runs (tests/data/booksim: exact.json, exact_results.json
//! recorded by record_exact.py from BookSim2 built from source; docs/booksim.md §5).
//!
//! A `sim_type = batch` run with permutation traffic, on a network whose routing draws
//! nothing at random and with allocators that draw nothing either, has one outcome: every
//! flit's every cycle follows from the router's rules. So has a run with BookSim2's
//! Bernoulli, on/off or batch sources (one traffic class or several) and uniform (or
//! another covered) traffic, since jumpnet makes BookSim2's draws in BookSim2's order
//! (docs/booksim.md §3.9). So each
//! number of the block — time
//! taken, the latencies and fragmentation with their minimum and maximum, the rates with
//! their extremes over the nodes, packet sizes, hops, batch durations — must be BookSim2's to
//! the last printed digit. A difference of one cycle anywhere (an allocator's pointer moved
//! once too often, a credit a cycle late) shows; the matrix's ±5 % bounds would hide it.

mod common;

use std::path::PathBuf;

use common::jumpnet_in;
use serde_json::Value;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/booksim")
}

fn read(file: &str) -> Value {
    let text = std::fs::read_to_string(data().join(file)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// jumpnet's block for `case`, without the lines BookSim2 does not print.
fn jumpnet_block(case: &Value) -> Vec<String> {
    let cfg = format!("configs/{}", case["config"].as_str().unwrap());
    let mut args = vec!["sim", "--booksim", cfg.as_str()];
    args.extend(
        case["overrides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap()),
    );
    args.extend(["--threads", "1", "--format", "booksim", "-q"]);
    let (code, out, err) = jumpnet_in(Some(&data()), &args);
    assert_eq!(code, 0, "jumpnet {args:?}: {err}");
    out.lines()
        .filter(|l| !l.starts_with("jumpnet router-to-router hops"))
        .map(String::from)
        .collect()
}

#[test]
fn deterministic_runs_print_booksim2s_block_line_for_line() {
    let cases = read("exact.json");
    let results = read("exact_results.json");
    let recorded = results["results"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut lines = 0;
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let theirs: Vec<&str> = recorded
            .iter()
            .find(|r| r["case"] == name)
            .unwrap_or_else(|| panic!("{name}: not in exact_results.json (run record_exact.py)"))
            ["block"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        let ours = jumpnet_block(case);
        lines += theirs.len();
        if ours.len() != theirs.len() {
            failures.push(format!(
                "{name}: {} lines, BookSim2 {}:\n{}",
                ours.len(),
                theirs.len(),
                ours.join("\n")
            ));
            continue;
        }
        for (o, t) in ours.iter().zip(&theirs) {
            if o != t {
                failures.push(format!("{name}: '{o}' where BookSim2 printed '{t}'"));
            }
        }
    }
    eprintln!(
        "{} cases, {lines} lines compared",
        cases["cases"].as_array().map_or(0, Vec::len)
    );
    assert!(lines >= 900, "only {lines} lines");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
