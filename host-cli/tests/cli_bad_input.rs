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

/// Asserts that `args` ends in exit 2 with `message` on stderr, quickly and without panic.
fn refused(args: &[&str], message: &str) {
    let started = std::time::Instant::now();
    let (code, _, err) = jumpnet(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{args:?} took {:?}",
        started.elapsed()
    );
}

#[test]
fn endless_input_files_are_refused_with_their_name_and_limit() {
    refused(
        &[
            "sim",
            "torus",
            "k=4,4",
            "--algo",
            "dor",
            "--config",
            "/dev/zero",
        ],
        "error: /dev/zero is larger than 1.0 MiB, the most jumpnet reads as a simulator \
         configuration file",
    );
    refused(
        &["sim", "--booksim", "/dev/zero"],
        "error: /dev/zero is larger than 1.0 MiB, the most jumpnet reads as a BookSim2 \
         configuration file",
    );
    refused(
        &[
            "sim",
            "torus",
            "k=4,4",
            "--algo",
            "dor-dateline",
            "--collective",
            "allreduce",
            "--permutation",
            "/dev/zero",
        ],
        "/dev/zero is larger than 256 MiB, the most jumpnet reads as a permutation file",
    );
    refused(
        &["device", "flash", "--image", "/dev/zero"],
        "error: /dev/zero is larger than 64 MiB, the most jumpnet reads as an image",
    );
    refused(
        &["hil", "--check", "/dev/zero"],
        "error: /dev/zero is larger than 1.0 GiB, the most jumpnet reads as a HIL trace",
    );
    let dir = tmpdir("bad-endless-shard");
    let shard = dir.join("shard0");
    std::fs::create_dir_all(&shard).unwrap();
    std::os::unix::fs::symlink("/dev/zero", shard.join("results.json")).unwrap();
    let out = dir.join("merged");
    refused(
        &[
            "sweep",
            "merge",
            shard.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "results.json is larger than 256 MiB, the most jumpnet reads as a sweep results.json",
    );
    assert!(!out.exists(), "nothing written");
}

/// A `hil` run on the in-process engine only.
const HIL: &[&str] = &[
    "hil",
    "torus",
    "k=4,4",
    "--algo",
    "dor-dateline",
    "--nodes",
    "0",
    "--collective",
    "bcast",
];

#[test]
fn a_directory_or_bad_text_as_a_trace_names_the_file() {
    let dir = tmpdir("bad-trace");
    let d = dir.to_str().unwrap();
    refused(
        &["hil", "--check", d],
        &format!("error: {d} is a directory; give the file to read as a HIL trace"),
    );
    let t = dir.join("t.jsonl");
    std::fs::write(&t, b"{\"jumpnet_hil_trace\":1}\n\xff\xfe\n").unwrap();
    let t = t.to_str().unwrap();
    refused(
        &["hil", "--check", t],
        &format!("error: {t}:2: not UTF-8 text (read as a HIL trace)"),
    );
}

#[test]
fn absurd_thread_counts_are_clamped_to_the_work_and_the_machine() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sim = |threads: &str| {
        let started = std::time::Instant::now();
        let (code, out, err) = jumpnet(&[
            "sim",
            "torus",
            "k=4,4",
            "--algo",
            "dor-dateline",
            "rate=0.1",
            "seed=3",
            "warmup_periods=1",
            "sample_period=300",
            "max_samples=2",
            "--json",
            "-q",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        out
    };
    let one = sim("1");
    assert!(one.contains("\"packets_delivered\""), "{one}");
    assert_eq!(sim("1000000"), one);
    // The GA's simulated fitness reports the threads it started: at most the genes of a
    // generation and the cores.
    let (code, out, err) = jumpnet(&[
        "map",
        "ga",
        "--fitness",
        "sim",
        "--patterns",
        "bcmp",
        "--genes",
        "4",
        "--generations",
        "1",
        "--threads",
        "1000000",
        "--json",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["threads"].as_u64(), Some(cores.min(4) as u64));
}

#[test]
fn nonsense_parameters_are_refused_naming_the_parameter_and_the_range() {
    let sim_collective = [
        "sim",
        "torus",
        "k=4,4",
        "--algo",
        "dor-dateline",
        "--collective",
        "allreduce",
    ];
    refused(
        &[&sim_collective[..], &["--link-gbps", "0"]].concat(),
        "invalid value '0' for '--link-gbps <LINK_GBPS>': '0' must be a positive finite number",
    );
    refused(
        &["sim", "torus", "k=4,4", "--algo", "dor", "max_samples=0"],
        "max_samples",
    );
    refused(
        &["sim", "torus", "k=4,4", "--algo", "dor", "max_samples=0"],
        "an integer 1..=4294967295",
    );
    refused(
        &[
            "route", "check", "torus", "k=4,4", "--algo", "dor", "--vcs", "0",
        ],
        "invalid value '0' for '--vcs <VCS>': 0 is not in 1..=255",
    );
    refused(
        &["topo", "info", "fat-tree", "k=1000", "n=10"],
        "a k-ary n-tree has k^n terminals, at most 2^30, got n = 10",
    );
    refused(
        &["map", "ga", "--side", "100000"],
        "invalid value '100000' for '--side <SIDE>': 100000 is not in 2..=255",
    );
    refused(&["map", "ga", "--side", "1"], "1 is not in 2..=255");
    refused(
        &[HIL, &["--device-attempts", "0"]].concat(),
        "invalid value '0' for '--device-attempts <DEVICE_ATTEMPTS>': 0 is not in 1..=4294967295",
    );
    refused(
        &[HIL, &["--limit", "0"]].concat(),
        "invalid value '0' for '--limit <LIMIT>': 0 is not in 1..=4294967295",
    );
}

#[test]
fn tables_of_another_topology_are_refused() {
    let dir = tmpdir("bad-lft-header");
    let lft = dir.join("lft.txt");
    let (code, text, err) = jumpnet(&[
        "route", "table", "mesh", "k=4,4", "--algo", "dor", "-f", "lft",
    ]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(&lft, &text).unwrap();
    let l = lft.to_str().unwrap();
    refused(
        &["route", "check", "torus", "k=4,4", "--table", l],
        &format!("error: {l} holds the tables of `mesh k=4,4 t=1`, not of `torus k=4,4 t=1`"),
    );
    // On the mesh they were written for they pass.
    let (code, _, err) = jumpnet(&["route", "check", "mesh", "k=4,4", "--table", l]);
    assert_eq!(code, 0, "{err}");
    let (code, json, _) = jumpnet(&[
        "route", "table", "mesh", "k=4,4", "--algo", "dor", "-f", "json",
    ]);
    assert_eq!(code, 0);
    std::fs::write(&lft, json).unwrap();
    refused(
        &["route", "check", "torus", "k=4,4", "--table", l],
        "holds the tables of `mesh k=4,4 t=1`, not of `torus k=4,4 t=1`",
    );
}

#[test]
fn edge_lists_that_are_not_one_network_are_refused() {
    let dir = tmpdir("bad-edges");
    let f = dir.join("g.txt");
    let g = f.to_str().unwrap();
    std::fs::write(&f, "0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n").unwrap();
    refused(
        &["topo", "metrics", "arbitrary", "--edges", g],
        &format!("error: {g}: the network is not connected: switch 3 cannot reach switch 0"),
    );
    // 160 bytes naming switch 12,000,000: refused at once, not measured for minutes.
    std::fs::write(&f, "0 1\n1 2\n2 12000000\n").unwrap();
    refused(
        &["topo", "metrics", "arbitrary", "--edges", g],
        "switch ids go up to 12000000 but there are only 3 links",
    );
    std::fs::write(&f, "0 1\n1 2\n2 0\n1 2\n").unwrap();
    refused(
        &["topo", "info", "arbitrary", "--edges", g],
        &format!("error: {g}:4: link `1 2` is listed again (first on line 2)"),
    );
    // A second link between two switches is written as such.
    std::fs::write(&f, "0 1\n1 2\n2 0\n1 2 # parallel\n").unwrap();
    let (code, out, err) = jumpnet(&["topo", "info", "arbitrary", "--edges", g, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["links"], 4, "{out}");
}

#[test]
fn allocations_sized_by_input_are_refused_before_allocating() {
    refused(
        &["sched", "verify", "alltoall", "-n", "100000"],
        "error: the symbolic check of 100000 ranks (--ranks / -n) and 3600000 ops: 682 GiB \
         needed, more than the memory limit of",
    );
    // The largest rank count that fits is named (Bruck alltoall's buffers grow as
    // n² log n: 100,000 ranks need 682 GiB, a sixth of them fit in at most 16 GiB).
    let (_, _, err) = jumpnet(&["sched", "verify", "alltoall", "-n", "100000"]);
    let fits = largest_named(&err, "the largest --ranks that fits is ");
    assert!(fits > 1000 && fits < 100_000 / 4, "{err}");
    // A collective whose packets would not fit in memory: refused before the run, naming
    // --msg and the largest size that fits.
    let sim = |msg: &str| {
        jumpnet(&[
            "sim",
            "torus",
            "k=8",
            "--algo",
            "dor-dateline",
            "--preset",
            "ga",
            "--collective",
            "allreduce",
            "--ranks",
            "8",
            "--msg",
            msg,
            "-q",
            "--json",
        ])
    };
    let started = std::time::Instant::now();
    let (code, _, err) = sim("1TiB");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with("error: --msg 1099511627776 bytes (1.0 TiB) needs "),
        "{err}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let fits = largest_named(&err, "the largest --msg that fits is ");
    assert!(fits > 1 << 20, "{err}");
    let (code, _, err) = jumpnet(&[
        "map",
        "ga",
        "--side",
        "8",
        "--patterns",
        "bcmp",
        "--genes",
        "4294967295",
        "--generations",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    let fits: u64 = err
        .trim()
        .rsplit(' ')
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no largest value in: {err}"));
    assert!(
        err.starts_with(
            "error: --genes 4294967295 needs 624 GiB of memory, more than the memory limit of"
        ),
        "{err}"
    );
    assert!(err.contains("the largest --genes that fits is"), "{err}");
    // 64 nodes of 2 bytes + a 16-byte score + a 4-byte slot = 148 bytes per gene, within
    // 16 GiB.
    assert!(fits > 0 && fits * 148 <= 16 << 30, "{fits}");
}

/// The number after `prefix` in `err` (a "largest value that fits").
fn largest_named(err: &str, prefix: &str) -> u64 {
    err.rsplit(prefix)
        .next()
        .filter(|_| err.contains(prefix))
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no `{prefix}N` in: {err}"))
}
