//! `cargo xtask pgo`: a profile-guided build of the `jumpnet` binary (docs/booksim.md §6).
//!
//! 1. `llvm-profdata` of the toolchain's own LLVM (rustup component `llvm-tools`, added
//!    when missing);
//! 2. an instrumented release build (`-Cprofile-generate`) in `target/pgo/gen`;
//! 3. training runs of that binary: every configuration of `tests/data/booksim/configs/`
//!    at its own load, the two side-by-side workloads of `cargo xtask bench` and one
//!    collective run, each short (one sample period of a few hundred cycles: the same code
//!    as a full run);
//! 4. the merged profile `target/pgo/jumpnet.profdata`, and the release build that uses
//!    it (`-Cprofile-use`) in `target/pgo/use`, copied to `target/pgo/jumpnet`;
//! 5. a check that the profile changed speed only: the optimised binary and the plain
//!    release binary (`target/release/jumpnet`, built too) print the same JSON, byte for
//!    byte, on every training run.
//!
//! The flags go through `RUSTFLAGS` with an explicit `--target`, so build scripts and
//! procedural macros are built without them; the two builds have target directories of
//! their own.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::{self, cargo, Result};

/// Where the builds, the profile and the optimised binary go.
const DIR: &str = "target/pgo";

/// Where the training runs run: BookSim2 opens an anynet `network_file` relative to its
/// working directory, and so does `jumpnet sim --booksim`.
const DATA: &str = "tests/data/booksim";

/// Overrides that make a run short: one warm-up and two sample periods of 300 cycles.
const SHORT: &[&str] = &["warmup_periods=1", "sample_period=300", "max_samples=2"];

/// One training run: the arguments of `jumpnet` after the program name.
#[derive(Debug, Clone, PartialEq)]
struct Run(Vec<String>);

/// The host's target triple (`rustc -vV`'s `host:` line).
fn host_triple() -> Result<String> {
    let mut c = Command::new("rustc");
    c.arg("-vV");
    let text = process::output(c).ok_or("cannot run `rustc -vV`")?;
    parse_host(&text).ok_or_else(|| format!("no `host:` line in `rustc -vV`: {text:?}"))
}

fn parse_host(rustc_vv: &str) -> Option<String> {
    rustc_vv
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(|h| h.trim().to_string())
}

/// `llvm-profdata` of the toolchain (`<sysroot>/lib/rustlib/<host>/bin`), adding the
/// rustup component `llvm-tools` when it is not there.
fn llvm_profdata(host: &str) -> Result<PathBuf> {
    let mut c = Command::new("rustc");
    c.args(["--print", "sysroot"]);
    let sysroot = process::output(c).ok_or("cannot run `rustc --print sysroot`")?;
    let tool = Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(host)
        .join("bin/llvm-profdata");
    if !tool.is_file() {
        let mut add = Command::new("rustup");
        add.args(["component", "add", "llvm-tools"]);
        process::run(add).map_err(|e| {
            format!("{e}: PGO needs the toolchain's llvm-profdata (rustup component llvm-tools)")
        })?;
    }
    if tool.is_file() {
        Ok(tool)
    } else {
        Err(format!(
            "{} is missing after adding llvm-tools",
            tool.display()
        ))
    }
}

/// The training runs, for the configurations in `configs` (file names, sorted).
fn training_runs(configs: &[String]) -> Vec<Run> {
    let sim = |cfg: &str, extra: &[&str]| {
        let mut a: Vec<String> = ["sim", "--booksim", cfg].map(String::from).to_vec();
        a.extend(extra.iter().map(|s| s.to_string()));
        a.extend(SHORT.iter().map(|s| s.to_string()));
        a.extend(["--json", "-q", "--threads", "1"].map(String::from));
        Run(a)
    };
    let mut runs: Vec<Run> = configs
        .iter()
        .map(|c| sim(&format!("configs/{c}"), &[]))
        .collect();
    for case in crate::bench_booksim::CASES {
        let cfg = case.config.strip_prefix(DATA).unwrap_or(case.config);
        runs.push(sim(cfg.trim_start_matches('/'), case.overrides));
    }
    runs.push(Run([
        "sim",
        "torus",
        "k=8,8",
        "--algo",
        "dor-dateline",
        "--collective",
        "allreduce",
        "--msg",
        "64KiB",
        "--nic",
        "mpi",
        "--switch-ns",
        "100",
        "--link-gbps",
        "100",
        "--json",
        "-q",
        "--threads",
        "1",
    ]
    .map(String::from)
    .to_vec()));
    runs
}

/// The `.cfg` files of the project's BookSim2 configurations, sorted.
fn configs() -> Result<Vec<String>> {
    let dir = Path::new(DATA).join("configs");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cfg"))
        .collect();
    names.sort();
    Ok(names)
}

/// A release build of `jumpnet` for `host` with `rustflags` into `target_dir`; the binary.
fn build(host: &str, target_dir: &Path, rustflags: &str) -> Result<PathBuf> {
    let mut c = cargo();
    c.args(["build", "--release", "-p", "jumpnet", "--bin", "jumpnet"])
        .args(["--target", host])
        .arg("--target-dir")
        .arg(target_dir)
        .env("RUSTFLAGS", rustflags);
    process::run(c)?;
    Ok(target_dir.join(host).join("release/jumpnet"))
}

/// What `jumpnet args…` printed on stdout, run in [`DATA`] (`jumpnet` an absolute path);
/// an error names the run.
fn run_jumpnet(jumpnet: &Path, run: &Run, env: Option<(&str, &Path)>) -> Result<Vec<u8>> {
    let mut c = Command::new(jumpnet);
    c.args(&run.0)
        .current_dir(DATA)
        .stdin(std::process::Stdio::null());
    if let Some((k, v)) = env {
        c.env(k, v);
    }
    let out = c
        .output()
        .map_err(|e| format!("cannot run {}: {e}", jumpnet.display()))?;
    if !out.status.success() {
        return Err(format!(
            "`jumpnet {}` failed ({}): {}",
            run.0.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}

/// The results of a run's JSON: every line but the run's own wall-clock time
/// (`"wall_seconds"`, which the collective runs report).
fn results(json: &[u8]) -> Vec<&[u8]> {
    json.split(|&b| b == b'\n')
        .filter(|line| !line.windows(14).any(|w| w == b"\"wall_seconds\""))
        .collect()
}

/// Builds the profile-guided binary; returns its path (`target/pgo/jumpnet`).
pub fn build_optimised() -> Result<PathBuf> {
    let host = host_triple()?;
    let profdata = llvm_profdata(&host)?;
    let dir = std::env::current_dir()
        .map_err(|e| format!("cannot read the current directory: {e}"))?
        .join(DIR);
    let raw = dir.join("raw");
    // A profile of an earlier build would mix in.
    let _ = std::fs::remove_dir_all(&raw);
    std::fs::create_dir_all(&raw).map_err(|e| format!("cannot create {}: {e}", raw.display()))?;
    let gen = build(
        &host,
        &dir.join("gen"),
        &format!("-Cprofile-generate={}", raw.display()),
    )?;
    let runs = training_runs(&configs()?);
    println!("pgo: {} training runs", runs.len());
    for run in &runs {
        // Each process writes its own profile (`%p`: its PID).
        let pattern = raw.join("jumpnet-%p.profraw");
        run_jumpnet(&gen, run, Some(("LLVM_PROFILE_FILE", &pattern)))?;
    }
    let merged = dir.join("jumpnet.profdata");
    let mut merge = Command::new(&profdata);
    merge.arg("merge").arg("-o").arg(&merged).arg(&raw);
    process::run(merge)?;
    // Cargo does not see a new profile behind the same flag: build from scratch.
    let _ = std::fs::remove_dir_all(dir.join("use"));
    let used = build(
        &host,
        &dir.join("use"),
        &format!("-Cprofile-use={}", merged.display()),
    )?;
    let mut c = cargo();
    c.args(["build", "--release", "-p", "jumpnet", "--bin", "jumpnet"]);
    process::run(c)?;
    let plain = std::env::current_dir()
        .map_err(|e| format!("cannot read the current directory: {e}"))?
        .join("target/release/jumpnet");
    println!("pgo: checking that the optimised binary gives the plain build's results");
    for run in &runs {
        let (a, b) = (
            run_jumpnet(&plain, run, None)?,
            run_jumpnet(&used, run, None)?,
        );
        if results(&a) != results(&b) {
            return Err(format!(
                "the profile-guided binary printed other results than the plain release \
                 build on `jumpnet {}`",
                run.0.join(" ")
            ));
        }
    }
    let out = dir.join("jumpnet");
    std::fs::copy(&used, &out).map_err(|e| format!("cannot copy to {}: {e}", out.display()))?;
    println!(
        "pgo: {} (the same results as target/release/jumpnet on {} runs)",
        out.display(),
        runs.len()
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_leave_out_the_wall_clock_only() {
        let a = b"{\n  \"cycles\": 12,\n  \"wall_seconds\": 0.15\n}";
        let b = b"{\n  \"cycles\": 12,\n  \"wall_seconds\": 0.11\n}";
        let c = b"{\n  \"cycles\": 13,\n  \"wall_seconds\": 0.15\n}";
        assert_eq!(results(a), results(b));
        assert_ne!(results(a), results(c));
    }

    #[test]
    fn the_host_triple_is_read_from_rustc() {
        let vv = "rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\nhost: x86_64-unknown-linux-gnu\nrelease: 1.95.0\n";
        assert_eq!(parse_host(vv).as_deref(), Some("x86_64-unknown-linux-gnu"));
        assert_eq!(parse_host("rustc 1.95.0\n"), None);
    }

    #[test]
    fn training_covers_every_configuration_and_the_bench_workloads_briefly() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let cfgs: Vec<String> = std::fs::read_dir(root.join("tests/data/booksim/configs"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".cfg"))
            .collect();
        let runs = training_runs(&cfgs);
        assert_eq!(
            runs.len(),
            cfgs.len() + crate::bench_booksim::CASES.len() + 1
        );
        for run in &runs[..runs.len() - 1] {
            assert!(
                SHORT.iter().all(|s| run.0.iter().any(|a| a == s)),
                "{run:?}"
            );
            assert!(root.join(DATA).join(&run.0[2]).is_file(), "{run:?}");
        }
    }
}
