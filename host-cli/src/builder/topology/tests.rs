use super::*;
use jumpnet_core::topology::GlobalArrangement;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn arrangement_words_have_one_meaning() {
    // docs/topologies.md §7: "relative" is the palm tree (CAMINOS); the mirror image is
    // named relative-mirror on the command line and in core alike.
    let arrangement = |w: &str| {
        let spec = TopologySpec::parse(&words(&format!(
            "dragonfly g=9 a=4 p=2 h=2 arrangement={w}"
        )))
        .unwrap();
        match spec.network_spec() {
            Some(NetworkSpec::Dragonfly { arrangement, .. }) => *arrangement,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(arrangement("relative"), GlobalArrangement::PalmTree);
    assert_eq!(arrangement("palm-tree"), GlobalArrangement::PalmTree);
    assert_eq!(arrangement("absolute"), GlobalArrangement::Consecutive);
    // Every core arrangement's own name parses back to it.
    for a in [
        GlobalArrangement::Consecutive,
        GlobalArrangement::PalmTree,
        GlobalArrangement::RelativeMirror,
    ] {
        assert_eq!(arrangement(a.name()), a, "{}", a.name());
    }
    // The palm tree sends link i of group G to group (G − i − 1) mod g; the mirror to
    // (G + i + 1) mod g: group 0's link 0 reaches group 8 and group 1 respectively.
    let peer_group = |w: &str| {
        let spec = TopologySpec::parse(&words(&format!(
            "dragonfly g=9 a=4 p=2 h=2 arrangement={w}"
        )))
        .unwrap();
        let net = crate::builder::network::OwnedNetwork::build(&spec).unwrap();
        let t = net.network();
        use jumpnet_core::topology::Topology;
        // Router 0 of group 0: ports 0..p terminals, then a − 1 local ports, then global.
        let link = t.port(0, 2 + 3).link().unwrap();
        link.peer / 4
    };
    assert_eq!(peer_group("relative"), 8);
    assert_eq!(peer_group("relative-mirror"), 1);
}

#[test]
fn parses_and_prints_back() {
    for s in [
        "ring n=8",
        "circulant n=16 jumps=1,2,4,8",
        "gcirculant n=1024",
        "random-shortcut n=1024 d=19 seed=7",
        "torus k=8,8 t=1",
        "mesh k=4,3 t=2",
        "hypercube dim=6 t=1",
        "fat-tree k=4 n=3",
        "dragonfly g=9 a=4 p=2 h=2 arrangement=palm-tree",
        "hyperx s=12,8 k=1 t=7",
        "slim-fly q=5",
        "slim-fly q=5 p=3",
        "galaxy n=3 q=5",
        "galaxyfly n=3 q=5 a=4 p=1",
        "galaxyfly n=3 q=5 a=2 p=1 h=3 assignment=cluster-split",
        "arbitrary edges=g.txt t=1",
    ] {
        let spec = TopologySpec::parse(&words(s)).unwrap();
        assert_eq!(spec.to_string(), s);
        assert_eq!(
            TopologySpec::parse(&words(&spec.to_string())).unwrap(),
            spec
        );
    }
}

#[test]
fn defaults_and_aliases() {
    assert_eq!(
        TopologySpec::parse(&words("g n=16")).unwrap(),
        TopologySpec::Structured(NetworkSpec::CirculantG { n: 16 })
    );
    assert_eq!(
        TopologySpec::parse(&words("random n=64 d=5")).unwrap(),
        TopologySpec::RandomShortcut {
            n: 64,
            d: 5,
            seed: 1
        }
    );
}

#[test]
fn errors_say_what_is_allowed() {
    let e = |s: &str| format!("{:#}", TopologySpec::parse(&words(s)).unwrap_err());
    assert!(e("moebius n=3").contains("known families are ring"));
    assert!(e("torus").contains("torus needs `k=`"));
    assert!(e("torus k=8,x").contains("`x` is not a non-negative integer"));
    assert!(e("ring n=8 m=3").contains("allowed are n"));
    assert!(e("ring 8").contains("not a key=value"));
    assert!(e("ring n=8 n=9").contains("given twice"));
    assert!(e("dragonfly g=9 a=4 p=2 h=2 arrangement=x").contains("palm-tree"));
    assert!(e("ring n=-1").contains("not a non-negative integer"));
    assert!(e("").contains("missing topology"));
}

#[test]
fn json_is_the_family_tag_and_the_command_line_keys() {
    // The form the spec always had: `{"family": name, key: value, ...}`, keys in
    // command-line order, `auto` as null, default words written out.
    for (s, json) in [
        ("gcirculant n=1024", r#"{"family":"gcirculant","n":1024}"#),
        (
            "circulant n=16 jumps=1,2,4,8",
            r#"{"family":"circulant","n":16,"jumps":[1,2,4,8]}"#,
        ),
        (
            "random-shortcut n=1024 d=19 seed=7",
            r#"{"family":"random-shortcut","n":1024,"d":19,"seed":7}"#,
        ),
        ("torus k=8,8", r#"{"family":"torus","k":[8,8],"t":1}"#),
        ("mesh k=4,3 t=2", r#"{"family":"mesh","k":[4,3],"t":2}"#),
        ("hypercube dim=6", r#"{"family":"hypercube","dim":6,"t":1}"#),
        ("fat-tree k=4 n=3", r#"{"family":"fat-tree","k":4,"n":3}"#),
        (
            "dragonfly g=9 a=4 p=2 h=2 arrangement=relative",
            r#"{"family":"dragonfly","g":9,"a":4,"p":2,"h":2,"arrangement":"palm-tree"}"#,
        ),
        (
            "hyperx s=12,8 t=7",
            r#"{"family":"hyperx","s":[12,8],"k":1,"t":7}"#,
        ),
        ("slim-fly q=5", r#"{"family":"slim-fly","q":5,"p":null}"#),
        ("slim-fly q=5 p=3", r#"{"family":"slim-fly","q":5,"p":3}"#),
        ("galaxy n=3 q=5", r#"{"family":"galaxy","n":3,"q":5}"#),
        (
            "galaxyfly n=3 q=5 a=4",
            r#"{"family":"galaxyfly","n":3,"q":5,"a":4,"p":1,"h":null,"assignment":"round-robin"}"#,
        ),
        (
            "galaxyfly n=3 q=5 a=2 h=3 assignment=cluster-split",
            r#"{"family":"galaxyfly","n":3,"q":5,"a":2,"p":1,"h":3,"assignment":"cluster-split"}"#,
        ),
        (
            "arbitrary edges=g.txt",
            r#"{"family":"arbitrary","edges":"g.txt","t":1}"#,
        ),
    ] {
        let spec = TopologySpec::parse(&words(s)).unwrap();
        assert_eq!(serde_json::to_string(&spec).unwrap(), json, "{s}");
    }
}

#[test]
fn structured_families_are_cores_specs() {
    let spec = |s: &str| TopologySpec::parse(&words(s)).unwrap();
    assert_eq!(
        spec("hyperx s=12,8 k=2 t=7"),
        TopologySpec::Structured(NetworkSpec::hyperx(&[12, 8], 2, 7).unwrap())
    );
    assert_eq!(
        spec("galaxyfly n=3 q=5 a=2 p=1 h=3 assignment=cluster-split"),
        TopologySpec::Structured(NetworkSpec::Galaxyfly {
            n: 3,
            q: 5,
            a: 2,
            p: 1,
            h: Some(3),
            assignment: jumpnet_core::topology::galaxy::RouterAssignment::ClusterSplit,
        })
    );
    for s in ["ring n=8", "torus k=4,4", "slim-fly q=5", "galaxy n=3 q=5"] {
        let spec = spec(s);
        let core = spec.network_spec().unwrap();
        assert_eq!(spec.family(), core.family());
        assert_eq!(spec.family_name(), core.family().name());
    }
    assert_eq!(spec("random n=64 d=5").network_spec(), None);
    // Lists beyond core's capacity are refused while parsing, with the message building
    // them gave.
    let e = |s: &str| format!("{:#}", TopologySpec::parse(&words(s)).unwrap_err());
    assert_eq!(
        e("torus k=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2"),
        "invalid torus: capacity exceeded: dimensions needs 17 entries, 16 available"
    );
    let jumps: Vec<String> = (1..=33).map(|j| j.to_string()).collect();
    assert_eq!(
        e(&format!("circulant n=100000 jumps={}", jumps.join(","))),
        "invalid circulant: capacity exceeded: jumps needs 33 entries, 32 available"
    );
}
