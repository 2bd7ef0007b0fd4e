//! `cargo xtask fuzz [TARGET] [--seconds N]`: coverage-guided fuzzing of every decoder of
//! untrusted bytes with cargo-fuzz (libFuzzer), on the stable toolchain.
//!
//! cargo-fuzz passes nightly-only flags to rustc (`-Z sanitizer`, `-C passes=sancov-module`
//! …); `RUSTC_BOOTSTRAP=1` lets the stable compiler accept them. The targets are built
//! without a sanitizer (`-s none`): jumpnet's decoders are safe Rust (core forbids
//! `unsafe`), so what the fuzzer looks for is panics, aborts, endless loops and memory
//! blow-ups, which libFuzzer reports itself (`-rss_limit_mb`, `-timeout`).
//!
//! Each target starts from the seeds in `fuzz/seeds/TARGET/` (real files the CLI writes)
//! and keeps its corpus in `target/fuzz-corpus/TARGET/`; a crash leaves its input in
//! `fuzz/artifacts/TARGET/` and fails the command. The executions per target are printed.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::process::{self, Result};

/// The fuzz targets (`fuzz/fuzz_targets/NAME.rs`).
pub const TARGETS: &[&str] = &[
    "program_image",
    "table_images",
    "device_image",
    "uart_frame",
    "edge_list",
    "lft_table",
    "scenario_json",
    "booksim_config",
    "toml_config",
    "hil_trace",
    "sweep_shard",
];

/// Seconds per target when `--seconds` is not given.
const DEFAULT_SECONDS: u64 = 60;

/// What to fuzz and for how long.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    /// The targets (all by default).
    pub targets: Vec<&'static str>,
    /// Seconds per target.
    pub seconds: u64,
}

/// Parses `[TARGET] [--seconds N]`.
pub fn parse_args(args: &[String]) -> Result<Request> {
    let mut req = Request {
        targets: TARGETS.to_vec(),
        seconds: DEFAULT_SECONDS,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => {
                let v = it.next().ok_or("--seconds needs a number of seconds")?;
                req.seconds = v
                    .parse()
                    .ok()
                    .filter(|&s| s > 0)
                    .ok_or_else(|| format!("--seconds {v}: give a whole number above 0"))?;
            }
            t => {
                let target = TARGETS.iter().find(|&&n| n == t).ok_or_else(|| {
                    format!(
                        "unknown fuzz target `{t}`; the targets are {}",
                        TARGETS.join(", ")
                    )
                })?;
                req.targets = vec![target];
            }
        }
    }
    Ok(req)
}

/// Installs cargo-fuzz when it is missing.
fn ensure_cargo_fuzz() -> Result {
    let mut v = process::cargo();
    v.args(["fuzz", "--version"]);
    if process::output(v).is_some() {
        return Ok(());
    }
    let mut install = process::cargo();
    install.args(["install", "cargo-fuzz", "--locked"]);
    process::run(install)
}

/// `cargo fuzz` with the environment that makes the stable toolchain accept its flags.
fn cargo_fuzz() -> Command {
    let mut c = process::cargo();
    c.env("RUSTC_BOOTSTRAP", "1").arg("fuzz");
    c
}

/// The executions libFuzzer reports in its last "Done N runs" line.
fn executions(log: &str) -> Option<u64> {
    log.lines()
        .rev()
        .find_map(|l| l.strip_prefix("Done "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
}

/// Fuzzes one target for `seconds`; returns its executions.
fn fuzz_one(target: &str, seconds: u64) -> Result<u64> {
    let corpus = Path::new("target/fuzz-corpus").join(target);
    std::fs::create_dir_all(&corpus)
        .map_err(|e| format!("cannot create {}: {e}", corpus.display()))?;
    let seeds = Path::new("fuzz/seeds").join(target);
    let mut c = cargo_fuzz();
    c.args(["run", "-s", "none", target])
        .arg(&corpus)
        .arg(&seeds)
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .args(["-rss_limit_mb=4096", "-timeout=30", "-print_final_stats=1"]);
    println!("$ RUSTC_BOOTSTRAP=1 cargo fuzz run -s none {target} … -max_total_time={seconds}");
    let out = c
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
    let log = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let tail: Vec<&str> = log.lines().rev().take(40).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!(
            "fuzz target {target} failed ({}); the input is in fuzz/artifacts/{target}/ \
             (make it a regression test):\n{}",
            out.status,
            tail.join("\n")
        ));
    }
    executions(&log).ok_or_else(|| format!("{target}: no `Done N runs` line from libFuzzer"))
}

/// Builds every target, then fuzzes the requested ones; fails on the first crash.
pub fn run(req: &Request) -> Result {
    ensure_cargo_fuzz()?;
    let mut build = cargo_fuzz();
    build.args(["build", "-s", "none"]);
    process::run(build)?;
    let mut total = Vec::new();
    for target in &req.targets {
        let n = fuzz_one(target, req.seconds)?;
        println!(
            "fuzz {target}: {n} executions in {} s, no crash",
            req.seconds
        );
        total.push((target, n));
    }
    println!("\nfuzz summary ({} s per target):", req.seconds);
    for (t, n) in total {
        println!("  {t:<16} {n:>12} executions");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_and_libfuzzer_output_are_read() {
        let args = |a: &[&str]| parse_args(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(args(&[]).unwrap().targets.len(), TARGETS.len());
        let r = args(&["edge_list", "--seconds", "5"]).unwrap();
        assert_eq!((r.targets, r.seconds), (vec!["edge_list"], 5));
        assert!(args(&["nope"])
            .unwrap_err()
            .contains("unknown fuzz target `nope`"));
        assert!(args(&["--seconds", "0"]).is_err());
        let log = "#1024 pulse\nDone 123456 runs in 61 second(s)\nstat::number_of_executed_units: 123456\n";
        assert_eq!(executions(log), Some(123456));
    }
}
