//! End-to-end tests of `jumpnet report` and `jumpnet map` through the real binary.

mod common;

use common::*;

const SCENARIO: &str = r#"{
  "title": "small comparison",
  "topologies": [
    { "label": "G(64,6)", "spec": "gcirculant n=64" },
    { "label": "random d=11", "spec": "random-shortcut n=64 d=11 seed=3" }
  ],
  "collectives": ["bcast", "allreduce", "alltoall"],
  "ranks": [32, 64],
  "mappings": ["ring", "random", "tree", "circulant"],
  "two_opt_from": ["random"],
  "two_opt_iterations": 3000,
  "seed": 5
}"#;

#[test]
fn report_reproduces_circulant_hop_counts_and_writes_all_files() {
    let dir = tmpdir("rm-report");
    let v = report_json(&dir, SCENARIO, "r", &[]);
    let hop = |topo: &str, coll: &str, ranks: u64, mapping: &str| -> &serde_json::Value {
        v["hops"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| {
                h["topology"] == topo
                    && h["collective"] == coll
                    && h["ranks"] == ranks
                    && h["mapping"] == mapping
            })
            .unwrap()
    };
    // docs/reference-results.md A2: all m nodes of G(m, log2 m) — or the circulant mapping of m
    // nodes — give n − 1, m·log2 m, m·log2 m hops.
    for (ranks, mapping) in [(64, "ring"), (64, "circulant"), (32, "circulant")] {
        let lg = (ranks as f64).log2() as u64;
        assert_eq!(
            hop("G(64,6)", "bcast", ranks, mapping)["total_hops"],
            ranks - 1
        );
        assert_eq!(
            hop("G(64,6)", "allreduce", ranks, mapping)["total_hops"],
            ranks * lg
        );
        assert_eq!(
            hop("G(64,6)", "alltoall", ranks, mapping)["total_hops"],
            ranks * lg
        );
    }
    // Two-opt from the random mapping never makes it worse, and stays above the lower bound.
    for h in v["hops"].as_array().unwrap() {
        if let Some(after) = h["two_opt"].as_u64() {
            assert!(after <= h["total_hops"].as_u64().unwrap());
            assert!(after >= h["messages"].as_u64().unwrap());
        }
    }
    assert_eq!(v["topologies"][0]["diameter"], 3);
    for f in [
        "report.md",
        "results.json",
        "distances.svg",
        "hops-bcast-32.svg",
        "hops-alltoall-64.svg",
    ] {
        assert!(dir.join("r").join(f).exists(), "{f}");
    }
    let md = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
    assert!(md.contains("| bcast | G(64,6) | 63 | 63 |"), "{md}");
    // Re-running replaces the report; a foreign directory is refused and left alone.
    let (code, _, err) = jumpnet_in(
        Some(&dir),
        &["report", "--scenario", "s.json", "--out", "r", "--quiet"],
    );
    assert_eq!(code, 0, "{err}");
    std::fs::create_dir_all(dir.join("mine")).unwrap();
    std::fs::write(dir.join("mine/keep.txt"), "x").unwrap();
    let (code, _, err) = jumpnet_in(
        Some(&dir),
        &["report", "--scenario", "s.json", "--out", "mine", "--quiet"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("exists, is not empty and was not written by jumpnet"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("mine/keep.txt")).unwrap(),
        "x"
    );
    // Bad scenarios are explained.
    std::fs::write(
        dir.join("bad.json"),
        SCENARIO.replace("\"ring\", \"random\"", "\"ring\", \"spiral\""),
    )
    .unwrap();
    let (code, _, err) = jumpnet_in(
        Some(&dir),
        &["report", "--scenario", "bad.json", "--out", "r2"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("unknown mapping `spiral`"), "{err}");
    assert!(!dir.join("r2").exists());
    let (code, out, _) = jumpnet_in(Some(&dir), &["report", "--print-scenario"]);
    assert_eq!(code, 0);
    assert!(out.contains("gcirculant n=1024"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn map_place_outputs_a_permutation_and_improves() {
    let dir = tmpdir("rm-map");
    let (code, out, err) = jumpnet_in(
        Some(&dir),
        &[
            "map",
            "place",
            "random-shortcut",
            "n=256",
            "d=7",
            "-c",
            "allreduce",
            "-n",
            "128",
            "-m",
            "random",
            "--iterations",
            "20000",
            "-o",
            "perm.csv",
            "--json",
            "--quiet",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let before = v["before"]["total_hops"].as_u64().unwrap();
    let after = v["after"]["total_hops"].as_u64().unwrap();
    assert!(
        after < before,
        "two-opt lowers the random placement: {before} -> {after}"
    );
    assert_eq!(v["lower_bound"], 128 * 7);
    let per_step: u64 = v["after"]["hops_per_step"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(per_step, after);
    let csv = std::fs::read_to_string(dir.join("perm.csv")).unwrap();
    let mut nodes: Vec<u32> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(nodes.len(), 128);
    nodes.sort_unstable();
    nodes.dedup();
    assert_eq!(nodes.len(), 128, "distinct nodes");
    // The circulant mapping of m nodes on G(n, log2 n) is optimal (A2).
    let (code, out, _) = jumpnet_in(
        Some(&dir),
        &[
            "map",
            "place",
            "gcirculant",
            "n=1024",
            "-c",
            "alltoall",
            "-n",
            "512",
            "-m",
            "circulant",
            "--optimise",
            "none",
            "--json",
        ],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["before"]["total_hops"], 4608);
    // Multi-terminal switches are outside the mapping model and are refused with a reason.
    let (code, _, err) = jumpnet_in(Some(&dir), &["map", "place", "torus", "k=4,4", "t=2"]);
    assert_eq!(code, 2);
    assert!(err.contains("one compute node per switch"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn map_ga_beats_the_identity_mapping() {
    let dir = tmpdir("rm-ga");
    let (code, out, err) = jumpnet_in(
        Some(&dir),
        &[
            "map",
            "ga",
            "--side",
            "8",
            "--patterns",
            "bcmp,shfl",
            "--genes",
            "60",
            "--generations",
            "40",
            "--json",
            "--quiet",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["minimum_duration"], 68,
        "34 cycles per pattern (docs/reference-results.md C1)"
    );
    let best = v["best"]["duration"].as_u64().unwrap();
    assert!(best >= 68);
    assert!(best < v["identity"]["duration"].as_u64().unwrap());
    let mut gene: Vec<u64> = v["gene"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    gene.sort_unstable();
    assert_eq!(gene, (0..64).collect::<Vec<u64>>());
    let (code, _, err) = jumpnet_in(Some(&dir), &["map", "ga", "--patterns", "spiral"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown pattern `spiral`"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn report_shows_topology_notes() {
    // docs/topologies.md §10: Galaxyfly with q > 1, a = 2 has diameter 4 — not with the
    // round-robin assignment on (n, q) = (3, 5); the report must say so. The balanced
    // Dragonfly has nothing to note.
    let dir = tmpdir("rm-notes");
    let v = report_json(
        &dir,
        r#"{
  "title": "notes",
  "topologies": [
    { "label": "galaxyfly rr", "spec": "galaxyfly n=3 q=5 a=2" },
    { "label": "dragonfly", "spec": "dragonfly g=9 a=4 p=1 h=2" }
  ],
  "collectives": ["bcast"],
  "ranks": [16],
  "mappings": ["random"],
  "two_opt_from": [],
  "two_opt_iterations": 10,
  "seed": 1
}"#,
        "r",
        &[],
    );
    let notes = |label: &str| -> Vec<String> {
        let t = v["topologies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["label"] == label)
            .unwrap();
        t["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    };
    let g = notes("galaxyfly rr");
    assert_eq!(g.len(), 1, "{g:?}");
    assert!(g[0].contains("diameter is 5") && g[0].contains("assignment=cluster-split"));
    assert!(notes("dragonfly").is_empty());
    let md = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
    assert!(
        md.contains("galaxyfly rr: router-level diameter is 5"),
        "{md}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// The channel objectives (docs/mapping.md §2) place a 32-rank allreduce on G(64, 6)
/// without any channel shared within a step: the busiest-channel sum reaches its lower
/// bound, one message per step over 5 steps, and possible contention 0; the simulated
/// allreduce is then faster than with the hop objective's placement.
#[test]
fn channel_objectives_remove_contention_and_shorten_the_allreduce() {
    let place = |objective: &str| {
        let (code, out, err) = jumpnet_in(
            None,
            &[
                "map",
                "place",
                "gcirculant",
                "n=64",
                "-c",
                "allreduce",
                "-n",
                "32",
                "-m",
                "random",
                "--objective",
                objective,
                "--iterations",
                "3000",
                "--quiet",
                "--json",
            ],
        );
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["objective"], objective);
        let values = v["objective_values"].as_array().unwrap().clone();
        (values[0].as_u64().unwrap(), values[1].as_u64().unwrap())
    };
    let (before, after) = place("max-link-load");
    assert_eq!(after, 5, "recursive doubling over 32 ranks has 5 steps");
    assert!(before > after);
    assert_eq!(place("contention").1, 0);
    let hops = place("hops");
    assert!(hops.1 < hops.0);

    let makespan = |objective: &str| {
        let (code, out, err) = jumpnet_in(
            None,
            &[
                "sim",
                "gcirculant",
                "n=64",
                "--algo",
                "minimal",
                "--collective",
                "allreduce",
                "--ranks",
                "32",
                "--mapping",
                "two-opt",
                "--map-objective",
                objective,
                "--map-iterations",
                "3000",
                "--msg",
                "64KiB",
                "--link-gbps",
                "100",
                "--switch-ns",
                "100",
                "--json",
            ],
        );
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["makespan_seconds"].as_f64().unwrap()
    };
    let (by_hops, by_load) = (makespan("hops"), makespan("max-link-load"));
    assert!(
        by_load < 0.8 * by_hops,
        "max-link-load {by_load} s against hops {by_hops} s"
    );
}
