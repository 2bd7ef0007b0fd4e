//! End-to-end tests of `jumpnet sim` and `jumpnet sweep` through the binary.

mod common;

use common::{json, jumpnet, jumpnet_line, tmpdir};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// Short measurement so the tests stay fast.
const SHORT: [&str; 3] = ["sample_period=300", "max_samples=3", "warmup_periods=1"];

#[test]
fn small_torus_table_names_booksim_latencies() {
    let mut args = vec![
        "sim",
        "torus",
        "k=4,4",
        "--algo",
        "dor-dateline",
        "num_vcs=2",
        "injection_rate=0.05",
    ];
    args.extend(SHORT);
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 0, "{err}");
    for name in [
        "packet_latency",
        "network_latency",
        "flit_latency",
        "offered",
        "accepted",
        "utilisation by link class",
        "dim0",
        "terminal",
    ] {
        assert!(out.contains(name), "{name} missing:\n{out}");
    }
}

#[test]
fn json_fields_present_and_accepted_matches_offered_at_low_load() {
    let mut args = vec![
        "sim",
        "torus",
        "k=4,4",
        "--algo",
        "dor-dateline",
        "num_vcs=2",
        "packet_size=4",
        "rate_in_flits=true",
        "rate=0.1",
        "seed=5",
        "--json",
    ];
    args.extend(SHORT);
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["topology"], "torus k=4,4 t=1");
    assert_eq!(v["routing"], "dor-dateline");
    assert_eq!(v["config"]["packet_size"], 4);
    assert_eq!(v["config"]["seed"], 5);
    assert_eq!(v["config"]["injection_rate"], 0.1);
    for lat in ["packet_latency", "network_latency", "flit_latency"] {
        let s = &v[lat];
        let (mean, p50, p99, max) = (
            s["mean"].as_f64().unwrap(),
            s["p50"].as_u64().unwrap(),
            s["p99"].as_u64().unwrap(),
            s["max"].as_u64().unwrap(),
        );
        assert!(s["count"].as_u64().unwrap() > 0, "{lat}");
        assert!(
            p50 <= p99 && p99 <= max && mean <= max as f64 && mean > 0.0,
            "{lat}: {s}"
        );
    }
    // Queueing is included in packet latency, not in network latency.
    assert!(
        v["packet_latency"]["mean"].as_f64().unwrap()
            >= v["network_latency"]["mean"].as_f64().unwrap()
    );
    let (offered, accepted) = (
        v["offered"].as_f64().unwrap(),
        v["accepted"].as_f64().unwrap(),
    );
    assert!((offered - 0.1).abs() < 0.02, "offered {offered}");
    assert!(
        (accepted - offered).abs() < 0.02,
        "accepted {accepted} vs {offered}"
    );
    assert_eq!(v["saturated"], false);
    assert!(v["deadlock"].is_null());
    assert_eq!(v["conservation_errors"], 0);
    assert!(v.get("channel_utilisation").is_none());
    let classes: Vec<&str> = v["class_utilisation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["class"].as_str().unwrap())
        .collect();
    assert!(classes.contains(&"dim1"), "{classes:?}");
    // Same seed, same output, byte for byte.
    let (_, again, _) = jumpnet(&args);
    assert_eq!(out, again);
}

#[test]
fn csv_output_has_sections() {
    let mut args = vec!["sim", "mesh", "k=3,3", "--algo", "dor", "--csv"];
    args.extend(SHORT);
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("# latency (cycles)\nmetric,count,mean,p50,p99,max\npacket_latency,"));
}

#[test]
fn booksim_config_file_run() {
    let file = format!("{DATA}/booksim_torus88");
    let (code, out, err) = jumpnet(&[
        "sim",
        "--booksim",
        &file,
        "injection_rate=0.02",
        "sample_period=200",
        "max_samples=5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["topology"], "torus k=8,8 t=1");
    // BookSim2's torus dim_order, its 2-cycle torus channels and terminals.
    assert_eq!(v["routing"], "dor-booksim");
    assert_eq!(v["config"]["dim_latency"], 2);
    assert_eq!(v["config"]["self_packets"], true);
    assert_eq!(v["config"]["injection_delay"], 1);
    assert_eq!(v["config"]["num_vcs"], 2);
    // The override on the command line wins over the file's 0.15.
    assert_eq!(v["config"]["injection_rate"], 0.02);
    assert_eq!(v["config"]["sample_period"], 200);
    assert!(v["packet_latency"]["count"].as_u64().unwrap() > 0);
    // BookSim2 keys override the file as on BookSim2's command line; --algo replaces its
    // routing.
    let (code, out, err) = jumpnet(&[
        "sim",
        "--booksim",
        &file,
        "k=4",
        "use_noc_latency=0",
        "sample_period=200",
        "--algo",
        "dor-dateline",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["topology"], "torus k=4,4 t=1");
    assert_eq!(v["routing"], "dor-dateline");
    assert_eq!(v["config"]["dim_latency"], 1);
    // A behaviour jumpnet does not model is refused by name, also on the command line.
    let (code, _, err) = jumpnet(&["sim", "--booksim", &file, "noq=1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("noq = 0"), "{err}");
    // A topology word with --booksim is refused.
    let (code, _, err) = jumpnet(&["sim", "--booksim", &file, "torus"]);
    assert_eq!(code, 2);
    assert!(err.contains("'torus'"), "{err}");
}

#[test]
fn toml_config_file_with_preset() {
    let dir = tmpdir("sim-toml");
    let cfg = dir.join("ga.toml");
    std::fs::write(
        &cfg,
        "preset = \"ga\"\nnum_vcs = 2\nbatch_size = 2\ntraffic = \"neighbor\"\n",
    )
    .unwrap();
    let (code, out, err) = jumpnet(&[
        "sim",
        "ring",
        "n=6",
        "--algo",
        "minimal",
        "--config",
        cfg.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["config"]["routing_delay"], 0);
    assert_eq!(v["config"]["num_vcs"], 2);
    assert_eq!(v["config"]["batch_size"], 2);
    // 6 nodes × 2 packets of 8 flits delivered.
    assert_eq!(v["packets_delivered"], 12);
    std::fs::write(&cfg, "preset = \"ga\"\nnum_vc = 2\n").unwrap();
    let (code, out, err) = jumpnet(&[
        "sim",
        "ring",
        "n=6",
        "--algo",
        "minimal",
        "--config",
        cfg.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("'num_vc'") && err.contains("num_vcs") && err.contains("ga.toml"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unknown_keys_exit_2_and_are_named() {
    let (code, out, err) = jumpnet(&["sim", "torus", "k=4,4", "--algo", "dor", "num_vc=2"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("'num_vc'")
            && err.contains("num_vcs")
            && err.contains("topology keys of torus"),
        "{err}"
    );
    let dir = tmpdir("sim-booksim-bad");
    let f = dir.join("bad");
    std::fs::write(
        &f,
        "topology = torus;\nk = 4;\nn = 2;\nrouting_function = dim_order;\nbogus_key = 3;\n",
    )
    .unwrap();
    let (code, _, err) = jumpnet(&["sim", "--booksim", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("'bogus_key'") && err.contains("line 5"),
        "{err}"
    );
    let (code, _, err) = jumpnet(&["sim", "torus", "k=4,4", "--algo", "dor", "traffic=zigzag"]);
    assert_eq!(code, 2);
    assert!(err.contains("zigzag") && err.contains("tornado"), "{err}");
    let (code, _, err) = jumpnet(&["sim", "torus", "k=4,4", "injection_rate=0.1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--algo"), "{err}");
    let (code, out, err) = jumpnet_line("sim torus k=4,4 --algo dor-dateline internal_speedup=0.5");
    assert_eq!((code, out.is_empty()), (2, true));
    assert!(
        err.contains("internal_speedup") && err.contains("'0.5'") && err.contains("1..=255"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_vc_ring_deadlock_exits_1_with_the_cycle() {
    let heavy = [
        "vc_buf_size=2",
        "packet_size=8",
        "rate_in_flits=1",
        "injection_rate=0.8",
        "traffic=tornado",
        "watchdog_cycles=200",
        "sample_period=500",
        "max_samples=3",
    ];
    let mut args = vec![
        "sim",
        "torus",
        "k=8",
        "--algo",
        "dor",
        "num_vcs=1",
        "--json",
    ];
    args.extend(heavy);
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 1, "{err}");
    let v = json(&out);
    let ch = v["deadlock"]["channels"]
        .as_array()
        .expect("deadlock channels");
    assert!(ch.len() >= 2);
    for (i, c) in ch.iter().enumerate() {
        // Each waits for the next: the cycle closes.
        assert_eq!(c["peer"], ch[(i + 1) % ch.len()]["switch"], "{ch:?}");
        assert_eq!(c["vc"], 0);
    }
    assert!(
        err.contains("deadlock") && err.contains("channel cycle"),
        "{err}"
    );
    assert!(err.contains(&format!(
        "switch {} port {} vc 0 -> switch {}",
        ch[0]["switch"], ch[0]["port"], ch[0]["peer"]
    )));
    // Dateline VCs on the same traffic run clean.
    let mut args = vec![
        "sim",
        "torus",
        "k=8",
        "--algo",
        "dor-dateline",
        "num_vcs=2",
        "--json",
    ];
    args.extend(heavy);
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 0, "{err}");
    assert!(json(&out)["deadlock"].is_null());
}

fn sweep_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "sweep",
        "torus",
        "k=4,4",
        "--algo",
        "dor-dateline",
        "num_vcs=2",
        "packet_size=4",
        "rate_in_flits=1",
        "sample_period=300",
        "max_samples=3",
        "rate=0.1:0.9:0.2",
        "-q",
        "--out",
        out,
    ];
    v.extend(extra);
    v
}

#[test]
fn sweep_stops_at_saturation_and_two_shards_merge_byte_for_byte() {
    let dir = tmpdir("sweep");
    let d = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let (whole, s0, s1, merged) = (d("whole"), d("s0"), d("s1"), d("merged"));
    let (code, out, err) = jumpnet(&sweep_args(&whole, &["--threads", "2"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("packet_latency_mean"));
    assert!(out.contains("first saturated at"), "{out}");
    let v: Value = json(&std::fs::read_to_string(dir.join("whole/results.json")).unwrap());
    let recs = v["records"].as_array().unwrap();
    // Rates 0.1, 0.3, … : the last record is the first saturated one, none before it is.
    assert!(recs.len() >= 2 && recs.len() <= 5, "{}", recs.len());
    let last = recs.last().unwrap();
    assert_eq!(last["saturated"], true, "the 4x4 torus saturates below 0.9");
    assert!(recs[..recs.len() - 1]
        .iter()
        .all(|r| r["saturated"] == false));
    let r0 = &recs[0];
    assert!((r0["accepted"].as_f64().unwrap() - r0["offered"].as_f64().unwrap()).abs() < 0.02);
    let csv = std::fs::read_to_string(dir.join("whole/results.csv")).unwrap();
    assert!(csv.starts_with("point,injection_rate,offered,accepted,"));
    assert_eq!(csv.lines().count(), recs.len() + 1);
    for svg in ["latency.svg", "throughput.svg"] {
        let s = std::fs::read_to_string(dir.join("whole").join(svg)).unwrap();
        assert!(s.starts_with("<svg") && s.contains("<polyline"), "{svg}");
    }
    for (i, o) in [(0, &s0), (1, &s1)] {
        let shard = format!("{i}/2");
        let (code, _, err) = jumpnet(&sweep_args(o, &["--shard", &shard, "--threads", "1"]));
        assert_eq!(code, 0, "{err}");
    }
    // A single shard is refused by merge with the missing one named.
    let (code, _, err) = jumpnet(&["sweep", "merge", &s0, "--out", &merged]);
    assert_eq!(code, 2);
    assert!(err.contains("1/2"), "{err}");
    assert!(!dir.join("merged").exists());
    let (code, _, err) = jumpnet(&["sweep", "merge", &s1, &s0, "--out", &merged]);
    assert_eq!(code, 0, "{err}");
    for f in [
        "results.csv",
        "results.json",
        "latency.svg",
        "throughput.svg",
    ] {
        assert_eq!(
            std::fs::read(dir.join("whole").join(f)).unwrap(),
            std::fs::read(dir.join("merged").join(f)).unwrap(),
            "{f} differs"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sweep_bad_input_exits_2_and_writes_nothing() {
    let dir = tmpdir("sweep-bad");
    let out = dir.join("o");
    let o = out.to_str().unwrap();
    let cases: [(&[&str], &str); 3] = [
        (&["rate=0.5:0.1:0.1"], "below its start"),
        (&["ratez=0.1,0.2"], "'ratez'"),
        (&["rate=0.1,0.2", "--shard", "2/2"], "0 <= i < N"),
    ];
    for (extra, expect) in cases {
        let mut args = vec![
            "sweep",
            "torus",
            "k=4,4",
            "--algo",
            "dor-dateline",
            "--out",
            o,
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = jumpnet(&args);
        assert_eq!(code, 2, "{extra:?}");
        assert!(err.contains(expect), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sweep_over_another_key_runs_every_point() {
    let dir = tmpdir("sweep-seed");
    let o = dir.join("o");
    let (code, _, err) = jumpnet(&[
        "sweep",
        "torus",
        "k=4,4",
        "--algo",
        "dor-dateline",
        "num_vcs=2",
        "packet_size=4",
        "rate_in_flits=1",
        "injection_rate=0.9",
        "sample_period=300",
        "max_samples=2",
        "seed=1,2,3",
        "-q",
        "--out",
        o.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&std::fs::read_to_string(o.join("results.json")).unwrap());
    let recs = v["records"].as_array().unwrap();
    // Every seed saturates at 0.9, and every one is still run: saturation ends a series
    // only along the injection rate.
    assert_eq!(recs.len(), 3);
    assert!(recs.iter().all(|r| r["saturated"] == true));
    assert_eq!(v["stop_at_saturation"], false);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `jumpnet sim --collective`: the hand-computed binomial broadcast of the unit tests
/// (ring `torus k=8`, `ga` preset, 64-byte one-packet messages) through the CLI, as JSON;
/// table and CSV name the makespan and the link classes; a permutation file places ranks.
#[test]
fn collective_broadcast_json_table_csv_and_permutation_file() {
    let base = [
        "sim",
        "--collective",
        "bcast",
        "--ranks",
        "8",
        "--msg",
        "64",
        "torus",
        "k=8",
        "--algo",
        "dor-dateline",
        "--preset",
        "ga",
    ];
    let mut args = base.to_vec();
    args.push("--json");
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["makespan_cycles"], 37);
    assert_eq!(
        v["finish"],
        serde_json::json!([0, 27, 20, 31, 14, 33, 26, 37])
    );
    assert_eq!(v["data_checked"], true);
    assert_eq!(v["messages"], 7);
    assert!(v["makespan_seconds"].as_f64().unwrap() > 0.0);
    assert!(v["class_utilisation"].as_array().unwrap().len() >= 2);

    let (code, out, err) = jumpnet(&base);
    assert_eq!(code, 0, "{err}");
    for name in [
        "makespan_cycles",
        "finish times",
        "utilisation by link class",
        "critical path",
        "dim0",
    ] {
        assert!(out.contains(name), "{name} missing: {out}");
    }
    let mut args = base.to_vec();
    args.push("--csv");
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("makespan_cycles"), "{out}");

    // Reversed placement from a file: rank r on terminal 7 − r mirrors the ring, so the
    // makespan is the same.
    let dir = tmpdir("collective-perm");
    let perm = dir.join("perm.txt");
    std::fs::write(&perm, "# rank -> terminal\n7 6 5 4\n3,2,1,0\n").unwrap();
    let mut args = base.to_vec();
    args.extend(["--permutation", perm.to_str().unwrap(), "--json"]);
    let (code, out, err) = jumpnet(&args);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["terminals"], serde_json::json!([7, 6, 5, 4, 3, 2, 1, 0]));
    assert_eq!(v["makespan_cycles"], 37);
}

/// Mappings of the placement builders and a 1 MiB allreduce; bad input is a clear error.
#[test]
fn collective_mappings_and_errors() {
    for mapping in ["ring", "random", "tree", "circulant", "two-opt", "anneal"] {
        let (code, out, err) = jumpnet(&[
            "sim",
            "--collective",
            "allreduce",
            "--mapping",
            mapping,
            "--msg",
            "1KiB",
            "--map-iterations",
            "200",
            "torus",
            "k=4,4",
            "--algo",
            "dor-dateline",
            "packet_size=4",
            "--json",
        ]);
        assert_eq!(code, 0, "{mapping}: {err}");
        let v = json(&out);
        assert_eq!(v["ranks"], 16, "{mapping}");
        assert_eq!(v["data_checked"], true, "{mapping}");
        let mut t: Vec<u64> = v["terminals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        t.sort_unstable();
        assert_eq!(t, (0..16).collect::<Vec<u64>>(), "{mapping}");
    }
    let (code, _, err) =
        jumpnet_line("sim --collective bcast --msg lots torus k=4 --algo dor-dateline");
    assert_ne!(code, 0);
    assert!(err.contains("KiB"), "{err}");
    let (code, _, err) = jumpnet_line(
        "sim --collective llf --ranks 8 --mapping ring dragonfly g=5 a=2 p=2 \
            h=2 --algo df-minimal packet_size=4",
    );
    assert_ne!(code, 0);
    assert!(err.contains("places its own job"), "{err}");
    // Topology-aware broadcast on a random job of a dragonfly.
    let (code, out, err) = jumpnet_line(
        "sim --collective glf --ranks 8 --mapping random dragonfly g=5 a=2 p=2 \
            h=2 --algo df-minimal packet_size=4 --json",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["data_checked"], true);
    // One-flit packets with a header flit carry nothing.
    let (code, _, err) = jumpnet_line("sim --collective bcast torus k=4 --algo dor-dateline");
    assert_ne!(code, 0);
    assert!(err.contains("carry no payload"), "{err}");
}

#[test]
fn dragonfly_ugal_runs_from_the_cli_and_from_a_booksim_file() {
    for algo in ["df-ugal-l", "df-ugal-g"] {
        let mut args = vec![
            "sim",
            "dragonfly",
            "g=5",
            "a=2",
            "p=2",
            "h=2",
            "--algo",
            algo,
            "num_vcs=3",
            "injection_rate=0.05",
            "--json",
        ];
        args.extend(SHORT);
        let (code, out, err) = jumpnet(&args);
        assert_eq!(code, 0, "{algo}: {err}");
        let v = json(&out);
        assert_eq!(v["routing"], algo);
        assert_eq!(v["conservation_errors"], 0);
        assert!(v["packet_latency"]["count"].as_u64().unwrap() > 0);
    }
    let dir = tmpdir("ugal_booksim");
    let file = dir.join("df_ugal");
    std::fs::write(
        &file,
        "topology = dragonflynew;\nk = 2;\nn = 1;\nrouting_function = ugal;\nnum_vcs = 3;\n",
    )
    .unwrap();
    let (code, out, err) = jumpnet(&[
        "sim",
        "--booksim",
        file.to_str().unwrap(),
        "injection_rate=0.02",
        "sample_period=200",
        "max_samples=5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["routing"], "df-ugal-booksim");
}

#[test]
fn booksim_file_with_internal_speedup_runs_with_faster_routers() {
    // BookSim2's own Dragonfly example sets `internal_speedup = 2.0`: its routers take
    // ⌈3/2⌉ = 2 cycles for their 3 one-cycle stages (lookahead routing) instead of 3, so at
    // low load every packet is faster than with the speedup overridden to 1.
    let file = format!("{DATA}/booksim_dragonfly");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "sim",
            "--booksim",
            &file,
            "injection_rate=0.05",
            "sample_period=300",
            "max_samples=5",
            "--json",
        ];
        args.extend(extra);
        let (code, out, err) = jumpnet(&args);
        assert_eq!(code, 0, "{err}");
        json(&out)
    };
    let two = run(&[]);
    assert_eq!(two["config"]["internal_speedup"], 2);
    assert_eq!(two["conservation_errors"], 0);
    let one = run(&["internal_speedup=1"]);
    assert_eq!(one["config"]["internal_speedup"], 1);
    let mean = |v: &Value| v["network_latency"]["mean"].as_f64().unwrap();
    assert!(
        mean(&two) < mean(&one) - 2.0,
        "{} vs {}",
        mean(&two),
        mean(&one)
    );
    let half = run(&["internal_speedup=1.5"]);
    assert_eq!(half["config"]["internal_speedup"], 1.5);
    assert!(mean(&two) <= mean(&half) && mean(&half) <= mean(&one));
}

#[test]
fn threads_give_byte_identical_json() {
    let run = |threads: &str| {
        let mut args = vec![
            "sim",
            "torus",
            "k=6,6",
            "--algo",
            "dor-dateline",
            "num_vcs=2",
            "packet_size=4",
            "rate_in_flits=true",
            "rate=0.4",
            "seed=11",
            "--json",
            "-q",
            "--threads",
            threads,
        ];
        args.extend(SHORT);
        let (code, out, err) = jumpnet(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = run("1");
    assert!(
        json(&one)["packets_delivered"].as_u64().unwrap() > 1000,
        "{one}"
    );
    for threads in ["2", "3", "0"] {
        assert_eq!(run(threads), one, "--threads {threads}");
    }
}
