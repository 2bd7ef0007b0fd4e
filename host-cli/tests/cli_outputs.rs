//! Output directories as a careful user meets them: a directory of the user's is never
//! written into, two runs never write the same directory at once, an interrupted run
//! leaves nothing behind (and what a killed one left is removed by the next), and a sweep
//! shard changed by hand is refused by `sweep merge` (docs/architecture.md; the rule is
//! `jumpnet::io::outdir`).

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A small two-point sweep writing into `out`, plus `extra`.
fn sweep<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "sweep",
        "torus",
        "k=4,4",
        "--algo",
        "dor-dateline",
        "rate=0.05,0.1",
        "warmup_periods=1",
        "sample_period=300",
        "max_samples=2",
        "-q",
        "--out",
        out,
    ];
    v.extend_from_slice(extra);
    v
}

/// Starts `jumpnet args` in the background.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_jumpnet"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start jumpnet")
}

/// Waits (at most a minute) until `ready()` holds; panics naming `what` otherwise.
fn wait_for(what: &str, ready: impl Fn() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Sends SIGINT to `child` and returns its exit code and stderr.
fn interrupt(child: Child) -> (i32, String) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
    let out = child.wait_with_output().expect("wait for jumpnet");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn directories_of_the_user_are_never_written_into() {
    let dir = tmpdir("out-mine");
    let mine = dir.join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("results.csv"), "my notes").unwrap();
    let m = mine.to_str().unwrap();
    let refused = format!(
        "error: --out {m} exists, is not empty and was not written by jumpnet (it has no \
         .jumpnet-output): choose a new or empty directory"
    );
    for args in [
        sweep(m, &[]),
        vec![
            "study",
            "galaxyfly-a2a",
            "--config",
            "3,5,4",
            "-q",
            "--out",
            m,
        ],
        vec!["sweep", "merge", m, "--out", m],
    ] {
        let (code, _, err) = jumpnet(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(&refused), "{args:?}: {err}");
        assert_eq!(entries(&mine), ["results.csv"], "{args:?}");
        assert_eq!(
            std::fs::read_to_string(mine.join("results.csv")).unwrap(),
            "my notes"
        );
    }
    let (code, _, err) = jumpnet(&["sched", "export", "bcast", "-n", "4", "-o", m]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error: -o "), "{err}");
    // A new directory is written; so is an empty one; a second run replaces jumpnet's own
    // output whole.
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    for _ in 0..2 {
        let (code, _, err) = jumpnet(&sweep(o, &[]));
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            entries(&out),
            [
                ".jumpnet-output",
                "latency.svg",
                "results.csv",
                "results.json",
                "throughput.svg"
            ]
        );
    }
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, _, err) = jumpnet(&sweep(empty.to_str().unwrap(), &[]));
    assert_eq!(code, 0, "{err}");
    assert!(empty.join("results.json").is_file());
    assert_eq!(
        entries(&dir),
        ["empty", "mine", "out"],
        "no lock or staging left"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_output_fails_before_the_run() {
    let started = Instant::now();
    let (code, _, err) = jumpnet(&["study", "dragonfly-bcast", "--out", "/dev/full", "-q"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("error: --out /dev/full exists and is not a directory"),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

/// A sweep long enough to be caught running (minutes if left alone).
fn long_sweep(out: &str) -> Vec<&str> {
    vec![
        "sweep",
        "torus",
        "k=8,8",
        "--algo",
        "dor-dateline",
        "rate=0.01:0.3:0.01",
        "sample_period=100000",
        "max_samples=20",
        "--no-stop",
        "--threads",
        "1",
        "-q",
        "--out",
        out,
    ]
}

#[test]
fn a_second_run_on_the_same_output_is_refused_and_an_interrupt_cleans_up() {
    let dir = tmpdir("out-lock");
    let out = dir.join("o");
    let o = out.to_str().unwrap();
    let lock = dir.join(".o.lock");
    let first = spawn(&long_sweep(o));
    wait_for("the first sweep's lock", || lock.exists());
    let (code, _, err) = jumpnet(&sweep(o, &[]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "error: {o} is being written by another jumpnet run (process {} ",
            first.id()
        )),
        "{err}"
    );
    let (code, err) = interrupt(first);
    assert_eq!(code, 130, "{err}");
    assert_eq!(
        entries(&dir),
        Vec::<String>::new(),
        "lock removed, nothing written"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `.NAME.tmp-PID` staging directories beside `out`.
fn staging_dirs(out: &Path) -> Vec<PathBuf> {
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!(".{name}.tmp-"))
        })
        .collect()
}

#[test]
fn an_interrupted_export_leaves_nothing_and_a_killed_ones_leftovers_go() {
    let dir = tmpdir("out-export");
    let out = dir.join("D");
    let o = out.to_str().unwrap();
    let child = spawn(&["sched", "export", "allreduce", "-n", "300000", "-o", o]);
    let staging = dir.join(format!(".D.tmp-{}", child.id()));
    wait_for("the export's first images", || {
        std::fs::read_dir(&staging).is_ok_and(|mut e| e.next().is_some())
    });
    let (code, err) = interrupt(child);
    assert_eq!(code, 130, "{err}");
    assert!(err.contains("jumpnet: interrupted"), "{err}");
    assert_eq!(entries(&dir), Vec::<String>::new());
    // What a killed run left (a PID above the kernel's pid_max never runs) is removed by
    // the next export to the same directory.
    let stale = dir.join(".D.tmp-4999999");
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("rank-00000.jnpg"), b"x").unwrap();
    let (code, _, err) = jumpnet(&["sched", "export", "bcast", "-n", "4", "-o", o]);
    assert_eq!(code, 0, "{err}");
    assert!(staging_dirs(&out).is_empty());
    assert_eq!(entries(&dir), ["D"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shard_changed_by_hand_is_refused_by_merge() {
    let dir = tmpdir("out-shards");
    let d = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let (s0, s1, merged) = (d("s0"), d("s1"), d("merged"));
    for (i, s) in [(0, &s0), (1, &s1)] {
        let shard = format!("{i}/2");
        let (code, _, err) = jumpnet(&sweep(s, &["--shard", &shard]));
        assert_eq!(code, 0, "{err}");
    }
    let (code, _, err) = jumpnet(&["sweep", "merge", &s0, &s1, "--out", &merged]);
    assert_eq!(code, 0, "{err}");
    let results = dir.join("s0/results.json");
    let text = std::fs::read_to_string(&results).unwrap();
    let edited = text.replacen("\"accepted\": 0.", "\"accepted\": 0.9", 1);
    assert_ne!(edited, text);
    std::fs::write(&results, edited).unwrap();
    let merged2 = d("merged2");
    let (code, _, err) = jumpnet(&["sweep", "merge", &s0, &s1, "--out", &merged2]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "error: {} was changed after jumpnet wrote it",
            results.display()
        )),
        "{err}"
    );
    assert!(!dir.join("merged2").exists());
    // A shard without its manifest cannot be verified.
    std::fs::write(&results, text).unwrap();
    std::fs::remove_file(dir.join("s0/.jumpnet-output")).unwrap();
    let (code, _, err) = jumpnet(&["sweep", "merge", &s0, &s1, "--out", &merged2]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no checksum to verify it by"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
