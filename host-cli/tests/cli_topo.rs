//! End-to-end tests of `jumpnet topo` through the real binary.

mod common;

use common::*;

#[test]
fn metrics_json_matches_spec_table() {
    // docs/topologies.md §2: G(1024, 10) has degree 19, diameter 5, ASPL 3.4477.
    let (code, out, err) = jumpnet(&["topo", "metrics", "gcirculant", "n=1024", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["diameter"], 5);
    assert_eq!(v["info"]["degree_min"], 19);
    assert_eq!(v["info"]["degree_max"], 19);
    assert!((v["aspl"].as_f64().unwrap() - 3.4477).abs() < 5e-5);
}

#[test]
fn export_then_import_gives_same_metrics() {
    let dir = tmpdir("roundtrip");
    let file = dir.join("rs.edges");
    let (code, _, err) = jumpnet(&[
        "topo",
        "export",
        "random-shortcut",
        "n=300",
        "d=7",
        "seed=5",
        "-f",
        "edges",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let a = jumpnet_line("topo metrics random-shortcut n=300 d=7 seed=5 --json --check");
    let b = jumpnet(&[
        "topo",
        "metrics",
        "arbitrary",
        "--edges",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(a.0, 0, "{}", a.2);
    assert_eq!(b.0, 0, "{}", b.2);
    let va: serde_json::Value = serde_json::from_str(&a.1).unwrap();
    let vb: serde_json::Value = serde_json::from_str(&b.1).unwrap();
    for key in [
        "diameter",
        "distance_sum",
        "pairs",
        "distance_histogram",
        "eccentricity_histogram",
    ] {
        assert_eq!(va[key], vb[key], "{key}");
    }
    assert_eq!(va["reference_check"], true);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn malformed_edge_list_names_the_line() {
    let dir = tmpdir("bad");
    let file = dir.join("bad.edges");
    std::fs::write(&file, "0 1\n1 2\n2 x\n").unwrap();
    let (code, out, err) = jumpnet(&[
        "topo",
        "metrics",
        "arbitrary",
        "--edges",
        file.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert!(err.contains("bad.edges:3"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn slim_fly_takes_prime_powers() {
    // docs/topologies.md §9: q = 9 (δ = 1, GF(3²)) and q = 8 (δ = 0, GF(2³)); 2q² routers of
    // network degree (3q − δ)/2 and diameter 2.
    for (q, routers, degree) in [("q=9", 162, 13), ("q=8", 128, 12)] {
        let (code, out, err) = jumpnet(&["topo", "metrics", "slim-fly", q, "--json", "--quiet"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["info"]["switches"], routers, "{out}");
        assert_eq!(v["info"]["degree_min"], degree, "{out}");
        assert_eq!(v["info"]["degree_max"], degree, "{out}");
        assert_eq!(v["diameter"], 2, "{out}");
    }
}

#[test]
fn invalid_parameters_are_explained() {
    let (code, _, err) = jumpnet(&["topo", "info", "gcirculant", "n=1000"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("G(n, log2 n) needs n a power of two, got n = 1000"),
        "{err}"
    );
    let (code, _, err) = jumpnet(&["topo", "info", "slim-fly", "q=6"]);
    assert_eq!(code, 2);
    assert!(err.contains("q = 6"), "{err}");
    assert!(err.contains("a prime or a prime power"), "{err}");
    let (code, _, err) = jumpnet(&["topo", "info", "torus", "k=4,4", "bogus=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("allowed are k, t"), "{err}");
}

#[test]
fn failed_export_leaves_no_file() {
    let dir = tmpdir("noexport");
    let file = dir.join("out.dot");
    let (code, _, _) = jumpnet(&[
        "topo",
        "export",
        "hypercube",
        "dim=0",
        "-f",
        "dot",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(!file.exists());
    let (code, _, err) = jumpnet(&[
        "topo",
        "export",
        "hypercube",
        "dim=3",
        "-f",
        "graphml",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("<edge ").count(), 12);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn csv_and_table_outputs() {
    let (code, out, _) = jumpnet(&["topo", "info", "hyperx", "s=12,8", "t=7", "--csv"]);
    assert_eq!(code, 0);
    assert!(out.contains("switches,96"));
    assert!(out.contains("terminals,672"));
    let (code, out, _) = jumpnet(&["topo", "families"]);
    assert_eq!(code, 0);
    for f in [
        "ring",
        "gcirculant",
        "dragonfly",
        "galaxyfly",
        "slim-fly",
        "arbitrary",
    ] {
        assert!(out.contains(f));
    }
}

/// `distance_histogram` of `topo metrics --json` as (distance, pairs) pairs.
fn histogram(args: &[&str]) -> Vec<(u64, u64)> {
    let mut all = vec!["topo", "metrics"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "--quiet"]);
    let (code, out, err) = jumpnet(&all);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["distance_histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e[0].as_u64().unwrap(), e[1].as_u64().unwrap()))
        .collect()
}

#[test]
fn metrics_report_the_whole_distance_histogram() {
    // Ring of 1024: 2n ordered pairs at each distance 1..511, n at 512; nothing folded.
    let want: Vec<(u64, u64)> = (1..=512)
        .map(|k| (k, if k == 512 { 1024 } else { 2048 }))
        .collect();
    assert_eq!(histogram(&["ring", "n=1024"]), want);
    // 40 × 40 mesh: the 2-D histogram is the convolution of two paths' (n at 0, 2(n − d)
    // at d ≥ 1); distances up to 78.
    let path: Vec<u64> = (0..40u64)
        .map(|d| if d == 0 { 40 } else { 2 * (40 - d) })
        .collect();
    let mut want = vec![0u64; 79];
    for (a, x) in path.iter().enumerate() {
        for (b, y) in path.iter().enumerate() {
            want[a + b] += x * y;
        }
    }
    let want: Vec<(u64, u64)> = want
        .iter()
        .enumerate()
        .skip(1)
        .map(|(k, &c)| (k as u64, c))
        .collect();
    assert_eq!(histogram(&["mesh", "k=40,40"]), want);
}

fn notes(args: &[&str]) -> Vec<String> {
    let mut a = vec!["topo", "info"];
    a.extend(args);
    a.push("--json");
    let (code, out, err) = jumpnet(&a);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

fn diameter(args: &[&str]) -> u64 {
    let mut a = vec!["topo", "metrics"];
    a.extend(args);
    a.extend(["--json", "--quiet"]);
    let (code, out, err) = jumpnet(&a);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["diameter"].as_u64().unwrap()
}

#[test]
fn galaxyfly_round_robin_with_a2_notes_its_diameter() {
    // docs/topologies.md §10: router-level diameter 4 if q > 1 and a = 2. Round-robin
    // assignment of supernode links misses it on (n, q) = (3, 5); cluster-split meets it.
    let rr = ["galaxyfly", "n=3", "q=5", "a=2"];
    let cs = ["galaxyfly", "n=3", "q=5", "a=2", "assignment=cluster-split"];
    assert_eq!(diameter(&cs), 4);
    let d = diameter(&rr);
    assert_eq!(d, 5);
    let n = notes(&rr);
    assert_eq!(n.len(), 1, "{n:?}");
    assert!(n[0].contains("diameter is 5") && n[0].contains("assignment=cluster-split"));
    // The note also reaches `topo metrics`.
    let (_, out, _) = jumpnet_line("topo metrics galaxyfly n=3 q=5 a=2 --quiet");
    assert!(out.contains("assignment=cluster-split"), "{out}");
    // No note where the diameter is 4, nor for other a.
    assert!(notes(&cs).is_empty());
    assert_eq!(diameter(&["galaxyfly", "n=5", "q=11", "a=2"]), 4);
    assert!(notes(&["galaxyfly", "n=5", "q=11", "a=2"]).is_empty());
    assert!(notes(&["galaxyfly", "n=3", "q=5", "a=4"]).is_empty());
}

#[test]
fn dragonfly_with_surplus_global_ports_says_how_many_are_unconnected() {
    // [DISS] §5.2: g = 64, a = 16, h = 4: a·h = 64 global ports per group for 63 other
    // groups. Project choice (spec §7): link index i targets i mod (g − 1), so each group's
    // surplus port (i = 63) aims at the same group as its index 0 — group 0 for G ≥ 1,
    // group 1 for G = 0. Only groups 0 and 1 aim their surplus ports at each other, so
    // 64 − 2 = 62 of the 64 · 16 · 4 = 4096 global ports stay unconnected.
    let args = ["dragonfly", "g=64", "a=16", "p=1", "h=4"];
    let n = notes(&args);
    assert_eq!(n.len(), 1, "{n:?}");
    assert!(n[0].contains("a·h = 64 > g − 1 = 63"), "{}", n[0]);
    assert!(
        n[0].contains("62 of the 4096 global ports are unconnected"),
        "{}",
        n[0]
    );
    let (_, out, _) = jumpnet_line("topo info dragonfly g=64 a=16 p=1 h=4 --json");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let global = v["links_by_class"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c[0] == "global")
        .unwrap()[1]
        .as_u64()
        .unwrap();
    assert_eq!(global, (4096 - 62) / 2);
    // Balanced Dragonflies (g = a·h + 1) have no such note.
    assert!(notes(&["dragonfly", "g=9", "a=4", "p=2", "h=2"]).is_empty());
    assert!(notes(&["dragonfly", "g=3", "a=2", "p=1", "h=1"]).is_empty());
}

#[test]
fn sizes_that_cannot_fit_are_refused_not_aborted() {
    let started = std::time::Instant::now();
    // 10^9 switches of degree 19: 19·10^9 adjacency slots.
    let (code, _, err) = jumpnet(&["topo", "metrics", "random-shortcut", "n=1000000000", "d=19"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("random-shortcut n=1000000000 d=19")
            && err.contains("GiB needed, more than the memory limit of"),
        "{err}"
    );
    let dir = tmpdir("toolarge");
    let f = dir.join("big.txt");
    std::fs::write(&f, "0 1\n1 4000000000\n").unwrap();
    let (code, _, err) = jumpnet(&["topo", "info", "arbitrary", "--edges", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("big.txt:2: switch id 4000000000 is too large"),
        "{err}"
    );
    // A 10 MB line (and an endless one) is refused at the line limit.
    let long = dir.join("long.txt");
    let mut text = String::from("0 1\n");
    text.push_str(&"7".repeat(10 << 20));
    text.push('\n');
    std::fs::write(&long, text).unwrap();
    let (code, _, err) = jumpnet(&[
        "topo",
        "info",
        "arbitrary",
        "--edges",
        long.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("long.txt:2: line is longer than"), "{err}");
    let (code, _, err) = jumpnet(&["topo", "metrics", "arbitrary", "--edges", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/zero:1: line is longer than"), "{err}");
    // Refused before allocating: no multi-gigabyte work was done (generous bound; the
    // point is that the process neither aborts nor runs out of memory).
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    std::fs::remove_dir_all(dir).unwrap();
}

fn dev_full() -> std::fs::File {
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::metadata("/dev/full").expect("/dev/full exists");
    assert!(
        meta.file_type().is_char_device(),
        "/dev/full must be the device"
    );
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap()
}

#[test]
fn write_errors_are_reported() {
    use std::os::unix::fs::FileTypeExt;
    let _ = dev_full();
    // -o /dev/full: the device is written (never replaced by a renamed file) and the
    // failure names it.
    for args in [
        &["topo", "export", "torus", "k=4,4", "-o", "/dev/full"][..],
        &[
            "route",
            "table",
            "torus",
            "k=4,4",
            "-f",
            "lft",
            "-o",
            "/dev/full",
        ][..],
    ] {
        let (code, _, err) = jumpnet(args);
        assert_ne!(code, 0, "{args:?}");
        assert!(
            err.contains("cannot write /dev/full") && err.contains("No space left on device"),
            "{err}"
        );
        let meta = std::fs::metadata("/dev/full").unwrap();
        assert!(meta.file_type().is_char_device(), "/dev/full was replaced");
    }
    // Standard output on a full device.
    for args in [
        &["topo", "info", "torus", "k=4,4"][..],
        &["topo", "export", "torus", "k=4,4"][..],
        &["topo", "families"][..],
        &[
            "route",
            "table",
            "torus",
            "k=4,4",
            "--algo",
            "dor-dateline",
            "-f",
            "csv",
        ][..],
        &[
            "route",
            "check",
            "torus",
            "k=4,4",
            "--algo",
            "dor-dateline",
            "--json",
        ][..],
        &["report", "--print-scenario"][..],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jumpnet"))
            .args(args)
            .stdout(std::process::Stdio::from(dev_full()))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(
            err.contains("cannot write to standard output")
                && err.contains("No space left on device"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // `jumpnet topo export … | head -c 0`: the pipe closes while ~1.3 MB are still to be
    // written; the binary stops quietly with status 0, like the other tools of a pipeline.
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_jumpnet"))
        .args(["topo", "export", "ring", "n=100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("error"), "{err}");
}
