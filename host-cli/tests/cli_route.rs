//! End-to-end tests of `jumpnet route` through the real binary.

mod common;

use common::*;

#[test]
fn torus_ring_deadlocks_with_one_vc_and_not_with_datelines() {
    let (code, out, _) = jumpnet(&["route", "check", "torus", "k=6", "--algo", "dor", "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["deadlock_free"], false);
    let cycle = v["cycle"].as_array().unwrap();
    assert_eq!(cycle.len(), 6);
    // The channels chain: each one leads to the switch the next one leaves.
    for (i, c) in cycle.iter().enumerate() {
        let next = &cycle[(i + 1) % cycle.len()];
        assert_eq!(c["to"], next["switch"]);
    }
    let (code, out, _) = jumpnet(&[
        "route",
        "check",
        "torus",
        "k=6,5",
        "--algo",
        "dor-dateline",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}");
    let (code, _, _) = jumpnet(&[
        "route",
        "check",
        "torus",
        "k=6,5",
        "--algo",
        "dor-dateline",
        "--vcs",
        "1",
    ]);
    assert_eq!(code, 1, "2 VCs exceed --vcs 1");
}

#[test]
fn every_algorithm_passes_on_its_family() {
    for args in [
        vec!["mesh", "k=4,3", "--algo", "dor"],
        vec!["hypercube", "dim=5", "--algo", "ecube"],
        vec!["hyperx", "s=4,3", "t=2", "--algo", "dor"],
        vec!["gcirculant", "n=64", "--algo", "naf"],
        vec!["fat-tree", "k=3", "n=3", "--algo", "dmodk"],
        vec!["random-shortcut", "n=64", "d=5", "--algo", "dfsssp"],
        vec!["slim-fly", "q=5", "p=1", "--algo", "dfsssp"],
        vec!["dragonfly", "g=9", "a=4", "p=1", "h=2", "--algo", "dfsssp"],
        vec!["galaxy", "n=3", "q=5", "--algo", "dfsssp"],
    ] {
        let mut a = vec!["route", "check"];
        a.extend(args.iter().copied());
        let (code, out, err) = jumpnet(&a);
        assert_eq!(code, 0, "{args:?}\n{out}\n{err}");
    }
}

#[test]
fn lft_dump_round_trips_and_bad_tables_are_caught() {
    let dir = tmpdir("route-lft");
    let f = dir.join("t.lft");
    let (code, _, err) = jumpnet(&[
        "route",
        "table",
        "mesh",
        "k=4,4",
        "--algo",
        "dor",
        "-f",
        "lft",
        "-o",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = jumpnet(&[
        "route",
        "check",
        "mesh",
        "k=4,4",
        "--table",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    // Point switch 0's route to destination 3 back along port 1 (the -x direction from the
    // corner is unconnected): the check must fail.
    let text = std::fs::read_to_string(&f).unwrap();
    let bad = text.replacen(
        "Switch 0\n0x0000 004\n0x0001 000\n",
        "Switch 0\n0x0000 004\n0x0001 001\n",
        1,
    );
    assert_ne!(bad, text);
    std::fs::write(&f, bad).unwrap();
    let (code, out, _) = jumpnet(&[
        "route",
        "check",
        "mesh",
        "k=4,4",
        "--table",
        f.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["delivery"], false);
    // Malformed lines are reported with their line number.
    std::fs::write(&f, "Switch 0\n0x0000 004\n0x0001 zz\n").unwrap();
    let (code, _, err) = jumpnet(&[
        "route",
        "check",
        "mesh",
        "k=4,4",
        "--table",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("t.lft:3: port `zz`"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn tables_json_and_stats() {
    let (code, out, err) = jumpnet(&[
        "route",
        "table",
        "hypercube",
        "dim=4",
        "--algo",
        "ecube",
        "--json",
        "--switch",
        "3",
    ]);
    assert_eq!(code, 2, "no --json flag on route table: {out}{err}");
    let (code, out, err) = jumpnet(&[
        "route",
        "table",
        "hypercube",
        "dim=4",
        "--algo",
        "ecube",
        "-f",
        "json",
        "--switch",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["switches"].as_array().unwrap().len(), 1);
    assert_eq!(v["switches"][0]["switch"], 3);
    let (code, out, err) = jumpnet(&[
        "route",
        "stats",
        "hypercube",
        "dim=4",
        "--algo",
        "ecube",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 16 terminals, 240 ordered pairs, mean distance over distinct pairs 4·8/15 = 32/15.
    assert_eq!(v["pairs"], 240);
    assert_eq!(v["total_hops"], 512);
    // Every channel of a hypercube carries the same number of e-cube paths: 512 / 64.
    let all = &v["channel_load"][0];
    assert_eq!(all[3], 8);
    let (code, out, err) = jumpnet(&["route", "table", "torus", "k=4,4", "--algo", "dor-dateline"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("VC1 after crossing its wrap-around link"),
        "{out}"
    );
    let (code, _, err) = jumpnet(&[
        "route",
        "table",
        "dragonfly",
        "g=9",
        "a=4",
        "p=2",
        "h=2",
        "--algo",
        "df-valiant",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not destination-based"), "{err}");
    let (code, _, err) = jumpnet(&["route", "check", "torus", "k=4,4", "--algo", "naf"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs a ring or circulant"), "{err}");
}

#[test]
fn dragonfly_and_parx() {
    let df = ["dragonfly", "g=9", "a=4", "p=2", "h=2"];
    let run = |algo: &str| {
        let mut a = vec!["route", "check"];
        a.extend(df);
        a.extend(["--algo", algo, "--json"]);
        let (code, out, err) = jumpnet(&a);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
        (code, v)
    };
    // spec/routing.md §4: 2 VCs (minimal) and 3 VCs (Valiant) are deadlock-free; one VC is not.
    let (code, v) = run("df-minimal");
    assert_eq!((code, v["vcs"].as_u64()), (0, Some(2)));
    assert_eq!(v["max_hops"], 3);
    let (code, v) = run("df-valiant");
    assert_eq!((code, v["vcs"].as_u64()), (0, Some(3)));
    assert_eq!(v["max_hops"], 5);
    let (code, v) = run("df-minimal-1vc");
    assert_eq!(code, 1);
    assert_eq!(v["deadlock_free"], false);
    // Port tables of the minimal routing carry the VC rule in the header.
    let mut a = vec!["route", "table"];
    a.extend(df);
    a.extend(["--algo", "df-minimal", "-f", "lft", "--switch", "4"]);
    let (code, out, err) = jumpnet(&a);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("VC0 until the global hop"));
    assert!(out.contains("Switch 4\n"));
    // PARX on a small even HyperX: small-message routes are minimal and deadlock-free.
    let (code, out, err) = jumpnet(&[
        "route", "check", "hyperx", "s=4,4", "t=2", "--algo", "parx", "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = jumpnet(&[
        "route",
        "stats",
        "hyperx",
        "s=4,4",
        "t=2",
        "--algo",
        "parx-large",
        "--json",
    ]);
    assert_eq!(code, 0);
    let large: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (_, out, _) = jumpnet(&[
        "route", "stats", "hyperx", "s=4,4", "t=2", "--algo", "parx", "--json",
    ]);
    let small: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        large["total_hops"].as_u64() > small["total_hops"].as_u64(),
        "large messages detour"
    );
    let (code, _, err) = jumpnet(&["route", "check", "hyperx", "s=3,4", "--algo", "parx"]);
    assert_eq!(code, 2);
    assert!(!err.is_empty());
}
