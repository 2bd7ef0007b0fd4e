//! Bad input and hostile surroundings as a demanding user meets them: a closed or full
//! standard output or error, files that never end, absurd parameters. Every case ends in a
//! clean error naming what is wrong (exit 2), or quietly (exit 0) on a closed pipe — never a
//! panic (exit 101), an abort, or memory exhausted.

mod common;
use common::*;

use std::process::{Command, Stdio};

/// The result of one run of the binary with chosen standard output and error.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `jumpnet args` with stdout and stderr set by `out` and `err` (`None`: captured).
fn run_with(args: &[&str], out: Option<Stdio>, err: Option<Stdio>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jumpnet"));
    cmd.args(args).stdin(Stdio::null());
    let capture_out = out.is_none();
    let capture_err = err.is_none();
    cmd.stdout(out.unwrap_or_else(Stdio::piped));
    cmd.stderr(err.unwrap_or_else(Stdio::piped));
    let o = cmd.output().expect("run jumpnet");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: if capture_out {
            String::from_utf8_lossy(&o.stdout).into_owned()
        } else {
            String::new()
        },
        stderr: if capture_err {
            String::from_utf8_lossy(&o.stderr).into_owned()
        } else {
            String::new()
        },
    }
}

/// A pipe whose reading end is already closed: every write to it fails with EPIPE.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Stdio::from(writer)
}

/// `/dev/full`: every write fails with ENOSPC.
fn full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("open /dev/full"),
    )
}

fn device_image_args(out: &str) -> Vec<String> {
    [
        "device",
        "image",
        "gcirculant",
        "n=64",
        "--algo",
        "naf",
        "--switch",
        "5",
        "-o",
        out,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn device_output_to_a_closed_pipe_ends_quietly() {
    let dir = tmpdir("bad-closed-pipe");
    let img = dir.join("s5.img");
    let args = device_image_args(img.to_str().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = run_with(&args, Some(closed_pipe()), None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    // The image itself was written before the summary line.
    assert!(std::fs::metadata(&img).unwrap().len() > 0);
}

#[test]
fn device_output_to_a_full_disk_is_an_error() {
    let dir = tmpdir("bad-full-stdout");
    let img = dir.join("s5.img");
    let args = device_image_args(img.to_str().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = run_with(&args, Some(full()), None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("error: cannot write to standard output: No space left on device"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

#[test]
fn a_full_stderr_is_not_a_panic() {
    let r = run_with(&["topo", "info", "torus", "k=0"], None, Some(full()));
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    // Notes on stderr fail the same way, instead of panicking.
    let r = run_with(
        &[
            "sim",
            "torus",
            "k=4,4",
            "--algo",
            "dor-dateline",
            "--booksim",
            "/nonexistent",
        ],
        None,
        Some(full()),
    );
    assert_eq!(r.code, 2);
}
