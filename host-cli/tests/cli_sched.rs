//! End-to-end tests of `jumpnet sched` through the real binary.

mod common;

use common::*;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = jumpnet(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn binomial_example_of_reference_a3() {
    // reference-results.md A3: n = 8, root 0: {0→4}, {0→2, 4→6}, {0→1, 2→3, 4→5, 6→7}.
    let v = json(&["sched", "show", "bcast", "-n", "8", "--json"]);
    let msgs: Vec<(u64, u64, u64)> = v["message_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["step"].as_u64().unwrap(),
                m["src"].as_u64().unwrap(),
                m["dst"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        msgs,
        vec![
            (1, 0, 4),
            (2, 0, 2),
            (2, 4, 6),
            (3, 0, 1),
            (3, 2, 3),
            (3, 4, 5),
            (3, 6, 7)
        ]
    );
}

#[test]
fn message_counts_of_reference_a2() {
    for (alg, n, count) in [
        ("bcast", "1024", 1023),
        ("allreduce", "1024", 10240),
        ("alltoall", "1024", 10240),
    ] {
        let v = json(&["sched", "show", alg, "-n", n, "--limit", "0", "--json"]);
        assert_eq!(v["messages"], count, "{alg}");
    }
}

#[test]
fn verify_passes_for_every_algorithm() {
    let df = "dragonfly g=9 a=4 p=2 h=2";
    let gf = "galaxyfly n=3 q=5 a=4";
    let cases: Vec<Vec<&str>> = vec![
        vec!["bcast", "-n", "37", "--root", "5"],
        vec!["bcast-auto", "-n", "64", "--bytes", "100000"],
        vec!["bcast-scatter-ring", "-n", "23", "--bytes", "5000"],
        vec!["allreduce", "-n", "45"],
        vec!["allreduce-ring", "-n", "9", "--bytes", "100"],
        vec!["allgather-ring", "-n", "11"],
        vec!["alltoall", "-n", "21"],
        vec![
            "tree",
            "--topology",
            df,
            "--placement",
            "random",
            "-n",
            "30",
        ],
        vec![
            "llf",
            "--topology",
            df,
            "--placement",
            "random",
            "-n",
            "30",
            "--root",
            "7",
        ],
        vec!["glf", "--topology", df],
        vec![
            "forest",
            "--topology",
            df,
            "--placement",
            "random",
            "-n",
            "50",
        ],
        vec!["dragonfly-a2a", "--topology", df],
        vec!["gfa2a", "--topology", df],
        vec!["rfa2a", "--topology", df],
        vec!["sfata", "--topology", gf, "--root", "7"],
        vec!["rfata", "--topology", gf, "--root", "7"],
    ];
    for c in cases {
        let mut args = vec!["sched", "verify"];
        args.extend(c.iter().copied());
        args.push("--json");
        let v = json(&args);
        assert!(v["messages"].as_u64().unwrap() > 0, "{c:?}");
    }
    // SFATA never delivers a packet twice ([GF-A2A] AvgPacket = 0).
    let v = json(&[
        "sched",
        "verify",
        "sfata",
        "--topology",
        gf,
        "--root",
        "7",
        "--json",
    ]);
    assert_eq!(v["redundant"], 0);
}

#[test]
fn exported_program_images_decode() {
    let dir = std::env::temp_dir().join(format!("jumpnet-sched-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("r5.jnpg");
    let (code, _, err) = jumpnet(&[
        "sched",
        "export",
        "allreduce",
        "-n",
        "1024",
        "--rank",
        "5",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&file).unwrap();
    assert!(
        bytes.len() <= 1024,
        "one rank of a 1,024-rank allreduce fits in 1 KiB"
    );
    let mut ops = vec![
        jumpnet_core::collective::Op::Permute {
            reflect: false,
            shift: 0,
            after: jumpnet_core::collective::Dep::None
        };
        64
    ];
    let d = jumpnet_core::image::program::decode(&bytes, &mut ops).unwrap();
    // log2(1024) = 10 exchange steps, each a send and a receive-reduce.
    assert_eq!((d.rank, d.ranks, d.ops), (5, 1024, 20));
    let progs = dir.join("all");
    let (code, _, err) = jumpnet(&[
        "sched",
        "export",
        "alltoall",
        "-n",
        "12",
        "-o",
        progs.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_dir(&progs).unwrap().count(), 12);
    // A second export into the same directory is refused and changes nothing.
    let (code, _, err) = jumpnet(&[
        "sched",
        "export",
        "alltoall",
        "-n",
        "12",
        "-o",
        progs.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("exists"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_is_explained() {
    let (code, _, err) = jumpnet(&["sched", "show", "llf", "-n", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("llf is topology-aware"), "{err}");
    let (code, _, err) = jumpnet(&[
        "sched",
        "show",
        "sfata",
        "--topology",
        "dragonfly g=9 a=4 p=2 h=2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("sfata does not run on dragonfly"), "{err}");
    let (code, _, err) = jumpnet(&["sched", "show", "bcast", "-n", "8", "--step", "9"]);
    assert_eq!(code, 2);
    assert!(err.contains("steps are 1..=3"), "{err}");
    let (code, _, err) = jumpnet(&["sched", "show", "bcast", "-n", "8", "--root", "8"]);
    assert_eq!(code, 2);
    assert!(!err.is_empty());
}
