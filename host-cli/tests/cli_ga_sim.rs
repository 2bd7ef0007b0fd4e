//! End-to-end tests of `jumpnet map ga --fitness sim` and `jumpnet map ga-study` through the
//! real binary (docs/reference-results.md C1/C3).

mod common;

use common::*;

#[test]
fn ga_with_simulated_fitness_improves_on_the_identity() {
    let (code, out, err) = jumpnet_in(
        None,
        &[
            "map",
            "ga",
            "--fitness",
            "sim",
            "--patterns",
            "bcmp,brev",
            "--genes",
            "20",
            "--generations",
            "5",
            "--threads",
            "2",
            "--json",
            "--quiet",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["fitness"], "sim");
    assert_eq!(v["minimum_duration"], 68);
    let best = v["best"]["duration"].as_u64().unwrap();
    let identity = v["identity"]["duration"].as_u64().unwrap();
    assert!((68..identity).contains(&best), "{best} vs {identity}");
    // 20 initial genes + 4 generations of 15 mutants (S03 keeps 25 %).
    assert_eq!(v["evaluations"], 20 + 4 * 15);
    let (code, _, err) = jumpnet_in(None, &["map", "ga", "--fitness", "exact"]);
    assert_eq!(code, 2);
    assert!(err.contains("exact"), "{err}");
}

#[test]
fn ga_study_phys_lists_the_fifteen_pairs_beside_the_paper() {
    let (code, out, err) = jumpnet_in(None, &["map", "ga-study", "phys", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 15);
    // [GA] Table 2's first and last "phys dur" (docs/reference-results.md C3).
    assert_eq!(rows[0]["pair"], "bcmp-brev");
    assert_eq!(rows[0]["paper"], 283);
    assert_eq!(rows[14]["pair"], "torn-trns");
    assert_eq!(rows[14]["paper"], 265);
    for r in rows {
        let g = |k: &str| r[k].as_i64().unwrap();
        assert_eq!(g("sim"), g("first") + g("second"));
        assert_eq!(g("difference"), g("sim") - g("paper"));
    }
    let (code, _, err) = jumpnet_in(
        None,
        &[
            "map",
            "ga-study",
            "variants",
            "--variants",
            "S07",
            "--quiet",
        ],
    );
    assert_ne!(code, 0);
    assert!(err.contains("unknown variant `S07`"), "{err}");
}

#[test]
fn ga_study_table2_and_trace_run_one_pair() {
    // bcmp-brev on a tiny budget: the built conflict-free gene takes the 68-cycle bound
    // (2 · 34, docs/reference-results.md C1), the GA's best lies between it and the identity.
    let (code, out, err) = jumpnet_in(
        None,
        &[
            "map",
            "ga-study",
            "table2",
            "--pairs",
            "bcmp-brev",
            "--genes",
            "12",
            "--generations",
            "3",
            "--threads",
            "1",
            "--json",
            "--quiet",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["pair"], "bcmp-brev");
    assert_eq!(rows[0]["conflict_free"], 68);
    assert_eq!(rows[0]["paper_best"], 68.2);
    let best = rows[0]["best"].as_u64().unwrap();
    assert!((68..=rows[0]["identity"].as_u64().unwrap()).contains(&best));
    // Two runs searched with the contention proxy: each best gene simulated, their mean shown.
    let (code, out, err) = jumpnet_in(
        None,
        &[
            "map",
            "ga-study",
            "table2",
            "--pairs",
            "brot-trns",
            "--genes",
            "12",
            "--generations",
            "3",
            "--runs",
            "2",
            "--fitness",
            "proxy",
            "--threads",
            "1",
            "--json",
            "--quiet",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let row = &v["rows"][0];
    let d: Vec<u64> = row["durations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(d.len(), 2);
    assert!(d
        .iter()
        .all(|&x| (68..=row["identity"].as_u64().unwrap()).contains(&x)));
    assert_eq!(row["mean"].as_f64(), Some((d[0] + d[1]) as f64 / 2.0));
    assert_eq!(row["best"].as_u64(), d.iter().copied().min());
    assert!(v["run"].as_str().unwrap().contains("proxy fitness"));
    // 12 genes, 3 generations, 25 % survivors: 9 mutants in each of 2 steps.
    let (code, out, err) = jumpnet_in(
        None,
        &[
            "map",
            "ga-study",
            "trace",
            "--genes",
            "12",
            "--generations",
            "3",
            "--every",
            "1",
            "--threads",
            "1",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["mutants"], 0);
    assert_eq!(rows[1]["mutants"], 9);
    assert_eq!(v["conflict_free"], 68);
    // Bad input names the flag and what is allowed.
    let (code, _, err) = jumpnet_in(
        None,
        &["map", "ga", "--neighbour-pick", "nearest", "--quiet"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("not-adjacent, beyond-radius or closer"),
        "{err}"
    );
    let (code, _, err) = jumpnet_in(None, &["map", "ga", "--ties", "oldest", "--quiet"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown --ties `oldest`: use newest or slot"),
        "{err}"
    );
    let (code, _, err) = jumpnet_in(
        None,
        &[
            "map",
            "ga-study",
            "table2",
            "--pairs",
            "bcmp-bcmp",
            "--quiet",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("unknown --pairs entry `bcmp-bcmp`"), "{err}");
}
