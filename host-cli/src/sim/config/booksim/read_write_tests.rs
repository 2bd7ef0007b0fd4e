//! BookSim2's read/write keys as `--booksim` reads them (docs/booksim.md §3.6): without
//! `use_read_write` they are without effect and listed so; with it they take effect with
//! BookSim2's defaults, and every combination jumpnet does not model is refused by name.

use super::parse_with;
use crate::sim::config::ReadWrite;

const MESH: &str = "topology = mesh; k = 4; n = 2; routing_function = dim_order;";

fn with(extra: &[&str]) -> anyhow::Result<super::BookSimConfig> {
    let over: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    parse_with(MESH, &over)
}

#[test]
fn without_use_read_write_the_keys_are_without_effect() {
    let b = with(&[
        "write_fraction=0.2",
        "read_reply_size=4",
        "use_read_write=0",
    ])
    .unwrap();
    assert_eq!(b.config.extras.read_write, None);
    assert_eq!(b.config.packet_size, 1);
    assert_eq!(b.ignored, ["write_fraction", "read_reply_size"]);
}

#[test]
fn use_read_write_takes_booksim2s_defaults_and_the_keys_given() {
    let b = with(&["use_read_write=1", "packet_size=8"]).unwrap();
    assert_eq!(
        b.config.extras.read_write,
        Some(ReadWrite::booksim_default())
    );
    // BookSim2's mean size (1 + 1 + 1 + 1) / 2 replaces packet_size, listed as ignored.
    assert_eq!(b.config.packet_size, 2);
    assert_eq!(b.ignored, ["packet_size"]);
    let b = with(&[
        "use_read_write=1",
        "write_fraction=0.25",
        "read_request_size=2",
        "write_request_size=5",
        "read_reply_size=5",
        "write_reply_size=2",
        "read_reply_begin_vc=-1",
        "write_reply_end_vc=-1",
        "read_request_subnet=0",
    ])
    .unwrap();
    let rw = b.config.extras.read_write.unwrap();
    assert_eq!(rw.write_fraction, 0.25);
    assert_eq!(rw.sizes, [2, 5, 5, 2]);
    assert_eq!(rw.vcs, [(0, 5), (2, 7), (0, 13), (10, 15)]);
    assert_eq!(b.config.packet_size, 7);
    assert!(b.ignored.is_empty(), "{:?}", b.ignored);
    // On a torus each kind's range needs two VCs, one per wrap class.
    let torus = "topology = torus; k = 4; n = 2; routing_function = dim_order;";
    let over = ["use_read_write=1".to_string()];
    assert!(parse_with(torus, &over).is_ok());
}

#[test]
fn combinations_jumpnet_does_not_model_are_refused_by_name() {
    let fattree = "topology = fattree; k = 2; n = 3; routing_function = nca; use_read_write = 1;";
    let e = parse_with(fattree, &[]).unwrap_err().to_string();
    assert!(
        e.contains("topology = fattree") && e.contains("mesh or a torus"),
        "{e}"
    );
    let torus = "topology = torus; k = 4; n = 2; routing_function = dim_order; \
                 use_read_write = 1; read_reply_begin_vc = 9; read_reply_end_vc = 9;";
    let e = parse_with(torus, &[]).unwrap_err().to_string();
    assert!(
        e.contains("read_reply_begin_vc") && e.contains("two wrap"),
        "{e}"
    );
    for (words, named) in [
        (&["write_reply_subnet=1"][..], "write_reply_subnet = 1"),
        (&["read_reply_begin_vc={2,3}"], "no {…} list"),
        (&["read_request_size=0"], "read_request_size = 0"),
        (
            &["classes=2", "read_request_size={2,0}"],
            "read_request_size = 0 (class 1)",
        ),
        (
            &["classes=2", "write_fraction={0.5,x}"],
            "write_fraction = x",
        ),
        (&["read_reply_end_vc=16"], "read_reply_end_vc = 16"),
        (&["num_vcs=8"], "num_vcs = 8"),
        (
            &["write_request_begin_vc=7", "write_request_end_vc=6"],
            "write_request",
        ),
    ] {
        let mut all = vec!["use_read_write=1"];
        all.extend_from_slice(words);
        let e = with(&all).unwrap_err().to_string();
        assert!(e.contains(named), "{words:?}: {e}");
        if named.contains("subnet") {
            assert!(
                e.contains("injection_process = bernoulli"),
                "says what is allowed: {e}"
            );
        }
    }
}

#[test]
fn the_per_class_keys_give_each_class_its_own_read_write_traffic() {
    // With one class a list's first item is the value.
    let b = with(&["use_read_write={1,0}", "write_fraction={0.3}"]).unwrap();
    assert_eq!(b.config.extras.read_write.unwrap().write_fraction, 0.3);
    assert!(with(&["use_read_write={0,1}"])
        .unwrap()
        .config
        .extras
        .read_write
        .is_none());
    let b = with(&[
        "classes=3",
        "use_read_write={0,1}",
        "write_fraction={0.5,0.25}",
        "read_reply_size={1,1,4}",
        "read_reply_begin_vc=6",
        "packet_size=3",
        "injection_process=on_off",
    ])
    .unwrap();
    let cl = &b.config.extras.classes;
    assert_eq!(cl[0].read_write, None, "class 0: ordinary packets");
    assert_eq!(cl[0].packet_size, 3);
    let (r1, r2) = (
        cl[1].read_write.clone().unwrap(),
        cl[2].read_write.clone().unwrap(),
    );
    assert_eq!((r1.write_fraction, r1.sizes), (0.25, [1, 1, 1, 1]));
    // The lists are padded with their last item: class 2 is class 1's but for its list item.
    assert_eq!((r2.write_fraction, r2.sizes), (0.25, [1, 1, 4, 1]));
    assert_eq!((cl[1].packet_size, cl[2].packet_size), (2, 3));
    // The VC ranges are read once for every class.
    assert_eq!((r1.vcs[2], r2.vcs[2]), ((6, 13), (6, 13)));
    assert_eq!(
        b.config.extras.read_write,
        Some(r1),
        "the first read/write class's"
    );
    assert_eq!(b.config.packet_size, 3, "class 0's own");
    assert!(
        b.ignored.is_empty(),
        "packet_size acts on class 0: {:?}",
        b.ignored
    );
    // A later plain value does not replace a list (BookSim2 keeps both, the list wins).
    let b = with(&[
        "classes=2",
        "use_read_write=1",
        "write_request_size={1,5}",
        "write_request_size=2",
    ])
    .unwrap();
    let sizes: Vec<u16> = (b.config.extras.classes.iter())
        .map(|c| c.read_write.as_ref().unwrap().sizes[1])
        .collect();
    assert_eq!(sizes, [1, 5]);
    assert_eq!(b.config.extras.classes[1].packet_size, 4);
}

#[test]
fn batch_mode_draws_writes_with_a_fair_coin() {
    let b = with(&[
        "use_read_write=1",
        "sim_type=batch",
        "write_fraction=0.1",
        "write_request_size=3",
    ])
    .unwrap();
    let rw = b.config.extras.read_write.unwrap();
    // BookSim2's batch source draws a write with probability 0.5 (write_fraction unread).
    assert_eq!((rw.write_fraction, rw.sizes), (0.5, [1, 3, 1, 1]));
    assert_eq!(b.ignored, ["write_fraction"]);
    let b = with(&["use_read_write=1", "sim_type=batch"]).unwrap();
    assert!(b.ignored.is_empty(), "{:?}", b.ignored);
}
