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
    let (code, out, _) = jumpnet_line("route check torus k=6,5 --algo dor-dateline --json");
    assert_eq!(code, 0, "{out}");
    let (code, _, _) = jumpnet_line("route check torus k=6,5 --algo dor-dateline --vcs 1");
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
    let (code, out, err) =
        jumpnet_line("route table hypercube dim=4 --algo ecube --json --switch 3");
    assert_eq!(code, 2, "no --json flag on route table: {out}{err}");
    let (code, out, err) =
        jumpnet_line("route table hypercube dim=4 --algo ecube -f json --switch 3");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["switches"].as_array().unwrap().len(), 1);
    assert_eq!(v["switches"][0]["switch"], 3);
    let (code, out, err) = jumpnet_line("route stats hypercube dim=4 --algo ecube --json");
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
    assert!(out.contains("VC rule") && out.contains("dateline"), "{out}");
    let (code, _, err) = jumpnet_line("route table dragonfly g=9 a=4 p=2 h=2 --algo df-valiant");
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
    // docs/routing.md §4: 2 VCs (minimal) and 3 VCs (Valiant) are deadlock-free; one VC is not.
    let (code, v) = run("df-minimal");
    assert_eq!((code, v["vcs"].as_u64()), (0, Some(2)));
    assert_eq!(v["max_hops"], 3);
    let (code, v) = run("df-valiant");
    assert_eq!((code, v["vcs"].as_u64()), (0, Some(3)));
    assert_eq!(v["max_hops"], 5);
    let (code, v) = run("df-minimal-1vc");
    assert_eq!(code, 1);
    assert_eq!(v["deadlock_free"], false);
    // Tables of the minimal routing carry their VC rule.
    let mut a = vec!["route", "table"];
    a.extend(df);
    a.extend(["--algo", "df-minimal", "-f", "lft", "--switch", "4"]);
    let (code, out, err) = jumpnet(&a);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nVCRule input-vc\n"), "{out}");
    assert!(out.contains("Switch 4\n"));
    // PARX on a small even HyperX: small-message routes are minimal and deadlock-free.
    let (code, out, err) = jumpnet(&[
        "route", "check", "hyperx", "s=4,4", "t=2", "--algo", "parx", "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = jumpnet_line("route stats hyperx s=4,4 t=2 --algo parx-large --json");
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

/// Expanded tables `[switch][destination] = Some((port, [vc class 0, vc class 1]))`.
type Expanded = Vec<Vec<Option<(u16, [u8; 2])>>>;

fn parse_hex_or_dec(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

/// Reads the three export formats of a VC-rule table (written for this test from the
/// format description in README/io::lft, not with the program's parser); returns the rule,
/// the number of VCs the file declares and the entries.
fn read_json(text: &str, n: usize, d: usize) -> (String, u64, Expanded) {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    let mut t: Expanded = vec![vec![None; d]; n];
    for sw in v["switches"].as_array().unwrap() {
        let s = sw["switch"].as_u64().unwrap() as usize;
        for r in sw["runs"].as_array().unwrap() {
            assert!(r.get("vc").is_none(), "rule tables have no single vc: {r}");
            let vc = r["vc_by_class"].as_array().unwrap();
            let vc = [vc[0].as_u64().unwrap() as u8, vc[1].as_u64().unwrap() as u8];
            for dst in r["first"].as_u64().unwrap()..=r["last"].as_u64().unwrap() {
                t[s][dst as usize] = r["port"].as_u64().map(|p| (p as u16, vc));
            }
        }
    }
    (
        v["routing"]["vc_rule"].as_str().unwrap().to_string(),
        v["routing"]["vcs"].as_u64().unwrap(),
        t,
    )
}

fn read_csv(text: &str, n: usize, d: usize) -> (String, u64, Expanded) {
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "switch,destination,port,vc_class0,vc_class1,vc_rule"
    );
    let mut t: Expanded = vec![vec![None; d]; n];
    let mut rule = String::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        rule = f[5].to_string();
        if !f[2].is_empty() {
            t[f[0].parse::<usize>().unwrap()][f[1].parse::<usize>().unwrap()] = Some((
                f[2].parse().unwrap(),
                [f[3].parse().unwrap(), f[4].parse().unwrap()],
            ));
        }
    }
    (rule, 2, t)
}

fn read_lft(text: &str, n: usize, d: usize) -> (String, u64, Expanded) {
    let mut t: Expanded = vec![vec![None; d]; n];
    let mut rule = String::new();
    let mut cur = 0usize;
    for l in text.lines() {
        let l = l.split('#').next().unwrap().trim();
        let f: Vec<&str> = l.split_whitespace().collect();
        match f.as_slice() {
            [] => {}
            ["VCRule", r] => rule = r.to_string(),
            ["Switch", s] => cur = s.parse().unwrap(),
            [dst, "-"] => t[cur][parse_hex_or_dec(dst) as usize] = None,
            [dst, port, a, b] => {
                t[cur][parse_hex_or_dec(dst) as usize] = Some((
                    port.parse().unwrap(),
                    [a.parse().unwrap(), b.parse().unwrap()],
                ))
            }
            other => panic!("unexpected line {other:?}"),
        }
    }
    let vcs = if text.lines().next().unwrap().contains("2 VC(s)") {
        2
    } else {
        1
    };
    (rule, vcs, t)
}

/// Walks every ordered terminal pair with core's routing (`TorusDor` with dateline VCs or
/// `DragonflyMinimal` with BookSim's VCs) and checks that the exported table gives the same
/// port, and for the packet's input class the same VC, at every hop. The input class is
/// computed here from the previous hop as a switch would see it: for the dateline rule,
/// class 1 iff the packet arrived in the same dimension on VC 1 or over that dimension's
/// wrap-around link; for the input-vc rule, the VC it arrived on.
fn assert_table_matches_core_walk(topology: &[&str], table: &Expanded, rule: &str) {
    use jumpnet::builder::network::OwnedNetwork;
    use jumpnet::builder::topology::TopologySpec;
    use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
    use jumpnet_core::routing::{Hop, Routing, TorusDor, TorusVcs};
    use jumpnet_core::topology::{Network, Topology};

    let words: Vec<String> = topology.iter().map(|w| w.to_string()).collect();
    let owned = OwnedNetwork::build(&TopologySpec::parse(&words).unwrap()).unwrap();
    let net = owned.network();
    let routing: Box<dyn Routing + '_> = match &net {
        Network::Torus(t) => Box::new(TorusDor::new(t, TorusVcs::Dateline).unwrap()),
        Network::Dragonfly(d) => Box::new(DragonflyMinimal::new(d, MinimalVcs::Dateline)),
        _ => unreachable!(),
    };
    assert_eq!(routing.num_vcs(), 2);
    let wraps = |from: u32, port: u16| -> bool {
        let Network::Torus(t) = &net else {
            return false;
        };
        let dim = (port / 2) as usize;
        let k = t.radices()[dim];
        let x = t.coord(from, dim).unwrap();
        if port.is_multiple_of(2) {
            x == k - 1
        } else {
            x == 0
        }
    };
    let nt = net.num_terminals();
    let mut hops_checked = 0u64;
    let mut vc1_hops = 0u64;
    for src in 0..nt {
        for dst in 0..nt {
            if src == dst {
                continue;
            }
            let mut at = net.terminal_switch(src).unwrap();
            let mut st = routing.inject(src, dst).unwrap();
            let mut prev: Option<(u32, u16, u8)> = None;
            loop {
                let entry = table[at as usize][dst as usize].expect("a route");
                match routing.next_hop(at, &mut st, dst).unwrap() {
                    Hop::Eject { port } => {
                        assert_eq!(entry.0, port, "eject port at {at} toward {dst}");
                        break;
                    }
                    Hop::Forward { port, vc } => {
                        let class = match (rule, prev) {
                            (_, None) => 0,
                            ("dateline", Some((pf, pp, pvc))) => {
                                (pp / 2 == port / 2 && (pvc == 1 || wraps(pf, pp))) as usize
                            }
                            ("input-vc", Some((_, _, pvc))) => pvc as usize,
                            _ => panic!("unknown rule {rule}"),
                        };
                        assert_eq!(entry.0, port, "port at {at} toward {dst}");
                        assert_eq!(
                            entry.1[class], vc,
                            "VC at {at} toward {dst} (src {src}, input class {class})"
                        );
                        hops_checked += 1;
                        vc1_hops += (vc == 1) as u64;
                        prev = Some((at, port, vc));
                        at = net.port(at, port).link().unwrap().peer;
                    }
                }
            }
        }
    }
    assert!(
        hops_checked > 0 && vc1_hops > 0,
        "VC 1 is used on some hops"
    );
}

#[test]
fn vc_rule_tables_carry_the_vcs_of_core_routing_in_every_format() {
    let dir = tmpdir("route-vc-rule");
    for (topology, algo, rule, n, d) in [
        (&["torus", "k=4,4"][..], "dor-dateline", "dateline", 16, 16),
        (&["torus", "k=5,3"][..], "dor-dateline", "dateline", 15, 15),
        (
            &["dragonfly", "g=9", "a=4", "p=2", "h=2"][..],
            "df-minimal",
            "input-vc",
            36,
            72,
        ),
    ] {
        for (format, read) in [
            (
                "json",
                read_json as fn(&str, usize, usize) -> (String, u64, Expanded),
            ),
            ("csv", read_csv),
            ("lft", read_lft),
        ] {
            let f = dir.join(format!("{algo}.{format}"));
            let mut args = vec!["route", "table"];
            args.extend(topology);
            args.extend(["--algo", algo, "-f", format, "-o", f.to_str().unwrap()]);
            let (code, _, err) = jumpnet(&args);
            assert_eq!(code, 0, "{err}");
            let text = std::fs::read_to_string(&f).unwrap();
            let (got_rule, vcs, table) = read(&text, n, d);
            assert_eq!((got_rule.as_str(), vcs), (rule, 2), "{algo} -f {format}");
            assert_table_matches_core_walk(topology, &table, rule);
            // Round trip: the exported tables pass the check under their VC rule.
            let mut args = vec!["route", "check"];
            args.extend(topology);
            args.extend(["--table", f.to_str().unwrap(), "--json"]);
            let (code, out, err) = jumpnet(&args);
            assert_eq!(code, 0, "{algo} -f {format}: {out}{err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["vcs"], 2);
            assert_eq!(v["deadlock_free"], true);
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn tables_without_their_vc_rule_fail_the_check() {
    let dir = tmpdir("route-vc-strip");
    for (topology, algo) in [
        (&["torus", "k=4,4"][..], "dor-dateline"),
        (&["dragonfly", "g=9", "a=4", "p=2", "h=2"][..], "df-minimal"),
    ] {
        let f = dir.join("t.lft");
        let mut args = vec!["route", "table"];
        args.extend(topology);
        args.extend(["--algo", algo, "-f", "lft", "-o", f.to_str().unwrap()]);
        assert_eq!(jumpnet(&args).0, 0);
        let text = std::fs::read_to_string(&f).unwrap();
        let check = |text: &str| {
            std::fs::write(&f, text).unwrap();
            let mut args = vec!["route", "check"];
            args.extend(topology);
            args.extend(["--table", f.to_str().unwrap()]);
            jumpnet(&args)
        };
        let strip_columns = |text: &str| -> String {
            text.lines()
                .map(|l| {
                    let f: Vec<&str> = l.split_whitespace().collect();
                    if f.len() == 4 && f[0].starts_with("0x") {
                        format!("{} {}\n", f[0], f[1])
                    } else {
                        format!("{l}\n")
                    }
                })
                .collect()
        };
        // VC columns stripped, rule line kept: refused as malformed.
        let (code, _, err) = check(&strip_columns(&text));
        assert_eq!(code, 2, "{algo}: {err}");
        assert!(err.contains("needs 2 VC columns"), "{err}");
        // Rule and columns stripped: a 1-VC table whose routes deadlock.
        let (code, out, _) = check(&strip_columns(&text).replace("VCRule", "# VCRule"));
        assert_eq!(code, 1, "{algo}: {out}");
        assert!(out.contains("deadlock-free         NO"), "{out}");
        assert!(out.contains("declares no VC rule"), "{out}");
        // Rule kept but every VC 0: inconsistent with the rule's deadlock freedom.
        let zeros: String = text
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                if f.len() == 4 && f[0].starts_with("0x") {
                    format!("{} {} 0 0\n", f[0], f[1])
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let (code, out, _) = check(&zeros);
        assert_eq!(code, 1, "{algo}: {out}");
        assert!(out.contains("deadlocks"), "{out}");
        // A dateline rule on a network without datelines is refused.
        if algo == "df-minimal" {
            let (code, _, err) = check(&text.replace("VCRule input-vc", "VCRule dateline"));
            assert_eq!(code, 2);
            assert!(err.contains("needs a torus"), "{err}");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn oversized_route_tables_are_refused_before_allocating() {
    let (code, _, err) = jumpnet(&["route", "check", "torus", "k=300,300", "--algo", "minimal"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("all-pairs distances of 90000 switches")
            && err.contains("needed, more than the memory limit of"),
        "{err}"
    );
}
