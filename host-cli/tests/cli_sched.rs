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
    // docs/reference-results.md A3: n = 8, root 0: {0→4}, {0→2, 4→6}, {0→1, 2→3, 4→5, 6→7}.
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
    let images = |dir: &std::path::Path| {
        std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".jnpg")
            })
            .count()
    };
    assert_eq!(images(&progs), 12);
    assert!(progs.join(".jumpnet-output").is_file());
    // A second export into the directory jumpnet wrote replaces it whole: 4 ranks now.
    let (code, _, err) = jumpnet(&[
        "sched",
        "export",
        "alltoall",
        "-n",
        "4",
        "-o",
        progs.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(images(&progs), 4);
    // A directory of the user's with files in it is refused and left alone.
    let mine = dir.join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("keep.txt"), "x").unwrap();
    let (code, _, err) = jumpnet(&[
        "sched",
        "export",
        "alltoall",
        "-n",
        "4",
        "-o",
        mine.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("exists, is not empty and was not written by jumpnet"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&mine).unwrap().count(), 1);
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

/// docs/collectives.md §5: MPICH's broadcast selection (all comparisons strict).
fn mpich_bcast_pick(nbytes: u64, n: u32) -> &'static str {
    if nbytes < 12288 || n < 8 {
        "bcast"
    } else if nbytes < 524288 && n.is_power_of_two() {
        "bcast-scatter-rd"
    } else {
        "bcast-scatter-ring"
    }
}

#[test]
fn bcast_auto_names_its_pick_and_is_checked_by_its_rule() {
    for (n, bytes) in [
        (64u32, 12287u64),
        (64, 12288),
        (7, 1 << 20),
        (12, 100_000),
        (64, 524_288),
    ] {
        let (ns, bs) = (n.to_string(), bytes.to_string());
        let pick = mpich_bcast_pick(bytes, n);
        // Only the scatter + allgather broadcasts deliver pieces twice by design.
        let loose = pick != "bcast";
        let base = ["bcast-auto", "-n", &ns, "--bytes", &bs, "--json"];
        let mut show = vec!["sched", "show", "--limit", "0"];
        show.extend(base);
        let v = json(&show);
        assert_eq!(v["selected_algorithm"], pick, "n={n} bytes={bytes}");
        assert_eq!(v["redundant_allowed"], loose, "n={n} bytes={bytes}");
        assert!(
            v["algorithm"].as_str().unwrap().contains(pick),
            "the description names the pick: {}",
            v["algorithm"]
        );
        let mut verify = vec!["sched", "verify"];
        verify.extend(base);
        let v = json(&verify);
        assert_eq!(v["selected_algorithm"], pick);
        assert_eq!(v["redundant_allowed"], loose, "n={n} bytes={bytes}");
        if !loose {
            assert_eq!(v["redundant"], 0);
        }
        // The pick gets exactly the rule of the algorithm named directly.
        let direct = json(&["sched", "verify", pick, "-n", &ns, "--bytes", &bs, "--json"]);
        assert_eq!(direct["redundant_allowed"], loose);
        assert!(direct["selected_algorithm"].is_null());
        assert_eq!(direct["messages"], v["messages"]);
    }
    // The table names the pick too.
    let (code, out, err) = jumpnet(&["sched", "show", "bcast-auto", "-n", "64", "--limit", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("selected algorithm"), "{out}");
    assert!(out.contains("bcast"), "{out}");
    // Explicit algorithms that deliver nothing twice are checked strictly.
    for alg in [
        "bcast",
        "allreduce",
        "allreduce-ring",
        "allgather-ring",
        "alltoall",
    ] {
        let v = json(&["sched", "verify", alg, "-n", "12", "--json"]);
        assert_eq!(v["redundant_allowed"], false, "{alg}");
    }
}

#[test]
fn byte_totals_reaching_2_pow_64_are_errors_naming_bytes() {
    // Ring allreduce: every step of both phases sends each chunk once, so the messages
    // total 2(n − 1)·L bytes (docs/collectives.md §4): 4·2^61 = 2^63 fits, 4·2^62 = 2^64
    // does not.
    let v = json(&[
        "sched",
        "show",
        "allreduce-ring",
        "-n",
        "3",
        "--bytes",
        "2^61",
        "--limit",
        "0",
        "--json",
    ]);
    assert_eq!(v["buffer_bytes"], 1u64 << 61);
    assert_eq!(v["total_bytes"], 1u64 << 63);
    for cmd in ["show", "verify"] {
        for bytes in ["2^62", "9223372036854775808"] {
            let (code, out, err) =
                jumpnet(&["sched", cmd, "allreduce-ring", "-n", "3", "--bytes", bytes]);
            assert_eq!(code, 2, "{cmd} {bytes}: {out}");
            assert!(
                err.contains("--bytes") && err.contains("2^64"),
                "{cmd} {bytes}: {err}"
            );
            assert!(out.is_empty(), "nothing printed on error: {out}");
        }
    }
    // Bruck over 8 ranks with 2^62-byte blocks: one rank's 8 blocks are 2^65 bytes.
    let (code, _, err) = jumpnet(&["sched", "show", "alltoall", "-n", "8", "--bytes", "2^62"]);
    assert_eq!(code, 2);
    assert!(err.contains("--bytes") && err.contains("2^64"), "{err}");
    let dir = tmpdir("sched-huge");
    let out = dir.join("programs");
    let (code, _, err) = jumpnet(&[
        "sched",
        "export",
        "alltoall",
        "-n",
        "8",
        "--bytes",
        "2^62",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--bytes"), "{err}");
    assert!(!out.exists());
    // Bruck with 2^60-byte blocks: the buffer (2^63) fits, but 8 ranks × 3 steps × 4 blocks
    // of messages (96·2^60) do not.
    let (code, _, err) = jumpnet(&["sched", "show", "alltoall", "-n", "8", "--bytes", "2^60"]);
    assert_eq!(code, 2);
    assert!(err.contains("--bytes"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bytes_accepts_human_sizes() {
    for (text, value) in [
        ("1MiB", 1_048_576u64),
        ("64KiB", 65_536),
        ("2GiB", 2 << 30),
        ("64kB", 64_000),
        ("1MB", 1_000_000),
        ("2^20", 1 << 20),
        ("12345", 12_345),
    ] {
        // A binomial broadcast's buffer is the whole message (spec §1).
        let v = json(&[
            "sched", "show", "bcast", "-n", "4", "--bytes", text, "--json",
        ]);
        assert_eq!(v["buffer_bytes"], value, "{text}");
        assert_eq!(v["total_bytes"], 3 * value, "{text}");
    }
    for bad in ["1.5MiB", "1mib", "1KB", "MiB", "2^64", "-1"] {
        let arg = format!("--bytes={bad}");
        let (code, _, err) = jumpnet(&["sched", "show", "bcast", "-n", "4", &arg]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("--bytes"), "{bad}: {err}");
        assert!(
            err.contains("2^"),
            "{bad}: the accepted forms are listed: {err}"
        );
    }
}

#[test]
fn ring_allreduce_chunks_are_whole_elements() {
    // docs/collectives.md §4: chunk c holds elements floor(c·L/n) .. floor((c+1)·L/n).
    for (n, bytes, elem) in [
        (3u64, 65536u64, 4u64),
        (3, 65536, 8),
        (5, 1000, 4),
        (4, 12, 4),
    ] {
        let l = bytes / elem;
        let chunk = |c: u64| elem * ((c + 1) * l / n - c * l / n);
        let v = json(&[
            "sched",
            "show",
            "allreduce-ring",
            "-n",
            &n.to_string(),
            "--bytes",
            &bytes.to_string(),
            "--elem-bytes",
            &elem.to_string(),
            "--json",
        ]);
        let msgs = v["message_list"].as_array().unwrap();
        assert_eq!(msgs.len() as u64, 2 * n * (n - 1));
        for m in msgs {
            let c: u64 = m["blocks"].as_str().unwrap().parse().unwrap();
            assert_eq!(m["bytes"], chunk(c), "n={n} bytes={bytes} elem={elem} {m}");
        }
        assert_eq!(v["buffer_bytes"], bytes);
        assert_eq!(v["total_bytes"], 2 * (n - 1) * bytes);
    }
    // The case of the report: 16384 4-byte ints over 3 ranks.
    let v = json(&[
        "sched",
        "show",
        "allreduce-ring",
        "-n",
        "3",
        "--bytes",
        "65536",
        "--step",
        "1",
        "--json",
    ]);
    let sizes: Vec<u64> = v["message_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["bytes"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, vec![21844, 21844, 21848]);
    // --bytes must be whole elements; both flags are named.
    let (code, _, err) = jumpnet_line("sched show allreduce-ring -n 3 --bytes 10");
    assert_eq!(code, 2);
    assert!(
        err.contains("--bytes 10") && err.contains("--elem-bytes 4"),
        "{err}"
    );
    let (code, _, err) = jumpnet_line("sched show allreduce-ring -n 3 --elem-bytes 0");
    assert_eq!(code, 2);
    assert!(err.contains("--elem-bytes"), "{err}");
}

fn start_blocks(alg: &str, topology: &str, root: &str) -> (Vec<u64>, serde_json::Value) {
    let v = json(&[
        "sched",
        "show",
        alg,
        "--topology",
        topology,
        "--root",
        root,
        "--json",
    ]);
    let starts: Vec<u64> = v["start_blocks"]
        .as_array()
        .unwrap_or_else(|| panic!("{alg}: no start_blocks in {v}"))
        .iter()
        .map(|b| b.as_u64().unwrap())
        .collect();
    (starts, v)
}

fn assert_permutation(starts: &[u64]) {
    let mut sorted = starts.to_vec();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..starts.len() as u64).collect::<Vec<_>>());
}

#[test]
fn rfata_start_blocks_follow_the_spc_tree_preorder() {
    // docs/collectives.md §7, n = 3, q = 5, A = S8 (--root 7; supernode Sk is k − 1 here):
    // SPC tree S8 → {S5 → {S1, S4, S13}, S7 → {S3, S6, S14}, S9 → {S2, S10, S15},
    // S12 → {S11}}. RFATA numbers packets supernode by supernode in pre-order (children
    // ascending), router t of a supernode holding its packet t.
    let a = 4u64;
    let (starts, v) = start_blocks("rfata", "galaxyfly n=3 q=5 a=4", "7");
    let preorder = [8u64, 5, 1, 4, 13, 7, 3, 6, 14, 9, 2, 10, 15, 12, 11];
    assert_eq!(starts.len() as u64, 15 * a);
    assert_eq!(v["ranks"], 15 * a);
    for (idx, sk) in preorder.iter().enumerate() {
        for t in 0..a {
            let router = (sk - 1) * a + t;
            assert_eq!(
                starts[router as usize],
                idx as u64 * a + t,
                "router {t} of S{sk}"
            );
        }
    }
    assert_permutation(&starts);
}

#[test]
fn sfata_start_blocks_are_the_collection_tree_preorder() {
    // docs/collectives.md §7: SFATA collects every packet along one router-level tree
    // (SPC, then its reverse SPD); packets are numbered in pre-order of that tree, so every
    // router starts with its pre-order index, the root router (the lower median of the
    // root supernode's routers, pivot(S) = S[floor((|S| − 1)/2)]) with 0, and each router's
    // collection message carries its subtree: the range starting at its own block.
    let (a, root) = (4u64, 7u64);
    let (starts, v) = start_blocks("sfata", "galaxyfly n=3 q=5 a=4", "7");
    let n = starts.len();
    assert_eq!(n as u64, 15 * a);
    assert_eq!(v["ranks"], n);
    assert_permutation(&starts);
    let top = (root * a + (a - 1) / 2) as usize;
    assert_eq!(starts[top], 0);
    // Collection phase: the first N − 1 messages, one from every router but the top.
    let msgs = v["message_list"].as_array().unwrap();
    assert_eq!(msgs.len(), 2 * (n - 1));
    let mut parent = vec![usize::MAX; n];
    let mut range = vec![(starts[top], n as u64); n];
    for m in &msgs[..n - 1] {
        let (src, dst) = (
            m["src"].as_u64().unwrap() as usize,
            m["dst"].as_u64().unwrap() as usize,
        );
        assert_eq!(parent[src], usize::MAX, "router {src} collects once");
        parent[src] = dst;
        let text = m["blocks"].as_str().unwrap();
        let (s, e) = text.split_once("..").unwrap();
        let (s, e): (u64, u64) = (s.parse().unwrap(), e.parse().unwrap());
        assert_eq!(s, starts[src], "router {src} sends its subtree {text}");
        range[src] = (s, e);
    }
    assert_eq!(parent[top], usize::MAX);
    // Pre-order: a node's children's ranges tile its own range after its own block.
    for p in 0..n {
        let mut kids: Vec<(u64, u64)> = (0..n)
            .filter(|&c| parent[c] == p)
            .map(|c| range[c])
            .collect();
        kids.sort_unstable();
        let mut next = starts[p] + 1;
        for (s, e) in kids {
            assert_eq!(s, next, "children of router {p}");
            next = e;
        }
        assert_eq!(next, range[p].1, "subtree of router {p}");
    }
    // Non-allgather schedules have no start blocks.
    let v = json(&["sched", "show", "bcast", "-n", "4", "--json"]);
    assert!(v["start_blocks"].is_null());
}

#[test]
fn topology_aware_errors_say_what_was_being_built() {
    let gf = "galaxyfly n=3 q=5 a=4";
    let df = "dragonfly g=9 a=4 p=2 h=2";
    for (args, detail) in [
        (vec!["sfata", "--topology", gf, "--root", "99"], "--root 99"),
        (vec!["rfata", "--topology", gf, "--root", "15"], "--root 15"),
        (vec!["llf", "--topology", df, "-n", "9999"], "--ranks 9999"),
        (vec!["tree", "--topology", df, "-n", "9999"], "--ranks 9999"),
        (vec!["glf", "--topology", df, "--root", "72"], "--root 72"),
        (vec!["sfata", "--topology", df], "does not run on dragonfly"),
    ] {
        let alg = args[0];
        let mut a = vec!["sched", "show"];
        a.extend(args.iter().copied());
        let (code, _, err) = jumpnet(&a);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            err.contains(&format!("building {alg}:")) && err.contains(detail),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn inspect_reads_exported_images_back() {
    // Recursive-doubling allreduce over 8 ranks (docs/collectives.md §2): rank r exchanges
    // with r ^ 1, r ^ 2, r ^ 4 in that order, a send then a reducing receive each.
    let dir = tmpdir("inspect");
    let out = dir.join("images");
    let (code, _, err) = jumpnet(&[
        "sched",
        "export",
        "allreduce",
        "-n",
        "8",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    for r in 0..8u64 {
        let file = out.join(format!("rank-{r:05}.jnpg"));
        let (code, text, err) = jumpnet(&["sched", "inspect", file.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let img = &v[0];
        assert_eq!(img["kind"], "program");
        assert_eq!(img["format_version"], 2);
        assert_eq!(img["program"]["rank"], r);
        assert_eq!(img["program"]["ranks"], 8);
        let ops = img["program"]["ops"].as_array().unwrap();
        let got: Vec<(String, u64)> = ops
            .iter()
            .map(|o| {
                (
                    o["op"].as_str().unwrap().to_string(),
                    o["peer"].as_u64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(String, u64)> = [1u64, 2, 4]
            .iter()
            .flat_map(|d| {
                [
                    ("send".to_string(), r ^ d),
                    ("recv+reduce".to_string(), r ^ d),
                ]
            })
            .collect();
        assert_eq!(got, want, "rank {r}");
    }
    // A flipped payload byte breaks the CRC; a cut image is truncated: both refused, exit 2.
    let good = std::fs::read(out.join("rank-00003.jnpg")).unwrap();
    let mut bad = good.clone();
    bad[12] ^= 0x40;
    let flipped = dir.join("flipped.jnpg");
    std::fs::write(&flipped, &bad).unwrap();
    let (code, _, err) = jumpnet(&["sched", "inspect", flipped.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("flipped.jnpg is not a valid image") && err.contains("CRC"),
        "{err}"
    );
    let cut = dir.join("cut.jnpg");
    std::fs::write(&cut, &good[..good.len() - 5]).unwrap();
    let (code, _, err) = jumpnet(&["sched", "inspect", cut.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("truncated") || err.contains("length"), "{err}");
}
