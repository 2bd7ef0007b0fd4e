//! End-to-end tests of collective sweeps, background traffic and `jumpnet study` through
//! the binary.

mod common;

use common::{json, jumpnet, jumpnet_line, tmpdir};

#[test]
fn collective_sweep_writes_csv_json_and_chart() {
    let dir = tmpdir("collective-sweep");
    let out = dir.join("out");
    let (code, stdout, err) = jumpnet(&[
        "sweep",
        "mesh",
        "k=4,4",
        "--algo",
        "dor",
        "packet_size=5",
        "--ranks",
        "8",
        "collective=bcast,allreduce",
        "msg=64B,1KiB",
        "background=none,50",
        "--out",
        out.to_str().unwrap(),
        "--json",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&stdout);
    let recs = v["records"].as_array().unwrap();
    assert_eq!(recs.len(), 8);
    assert_eq!(v["axes"][0]["key"], "msg");
    for r in recs {
        let bg = r["settings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s[1] == "50");
        assert_eq!(r["background_sent"].is_null(), !bg, "{r}");
        assert!(r["makespan_cycles"].as_u64().unwrap() > 0);
    }
    for f in ["results.csv", "results.json", "makespan.svg"] {
        assert!(out.join(f).is_file(), "{f}");
    }
}

#[test]
fn sim_with_background_reports_both_makespans() {
    let (code, stdout, err) = jumpnet_line(
        "sim mesh k=4,4 --algo dor packet_size=5 --collective bcast --ranks 8 \
            --msg 4KiB --background-mean 20 --json",
    );
    assert_eq!(code, 0, "{err}");
    let v = json(&stdout);
    assert!(v["makespan_without_background"].as_u64().unwrap() > 0);
    assert!(v["background"]["messages_sent"].as_u64().unwrap() > 0);
    assert_eq!(v["background"]["terminals"], 8);
}

#[test]
fn galaxyfly_study_reports_exact_delivery() {
    let (code, stdout, err) = jumpnet_line("study galaxyfly-a2a --config 3,5,4 --json -q");
    assert_eq!(code, 0, "{err}");
    let v = json(&stdout);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for r in rows {
        assert_eq!(r["complete_routers"], 60, "{r}");
    }
    assert_eq!(rows[0]["algorithm"], "sfata");
    assert_eq!(rows[0]["redundant"], 0);
    let (code, _, err) = jumpnet(&["study", "galaxyfly-a2a", "--config", "3,5"]);
    assert_eq!(code, 2);
    assert!(err.contains("n,q,a"), "{err}");
}
