//! Helpers shared by the end-to-end CLI tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the `jumpnet` binary in `dir` (or the current directory); returns (exit code, stdout,
/// stderr).
pub fn jumpnet_in(dir: Option<&Path>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jumpnet"));
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let out = cmd.args(args).output().expect("run jumpnet");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the `jumpnet` binary in the current directory.
pub fn jumpnet(args: &[&str]) -> (i32, String, String) {
    jumpnet_in(None, args)
}

/// A fresh temporary directory named after the test and the process.
pub fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jumpnet-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create temp dir");
    d
}

/// Writes `scenario` to `dir/s.json` and runs `jumpnet report --scenario s.json --out out
/// --json --quiet` plus `extra` in `dir`; asserts exit 0 and returns the JSON report.
pub fn report_json(dir: &Path, scenario: &str, out: &str, extra: &[&str]) -> serde_json::Value {
    std::fs::write(dir.join("s.json"), scenario).expect("write the scenario");
    let mut args = vec![
        "report",
        "--scenario",
        "s.json",
        "--out",
        out,
        "--json",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let (code, stdout, err) = jumpnet_in(Some(dir), &args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// Runs the `jumpnet` binary with the whitespace-separated words of `line`.
pub fn jumpnet_line(line: &str) -> (i32, String, String) {
    let args: Vec<&str> = line.split_whitespace().collect();
    jumpnet(&args)
}

/// Parses a command's stdout as JSON, or fails the test showing the text.
pub fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}
