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
        (&["classes=2"][..], "classes = 2"),
        (&["sim_type=batch"], "sim_type = batch"),
        (&["injection_process=on_off"], "injection_process = on_off"),
        (&["write_reply_subnet=1"], "write_reply_subnet = 1"),
        (&["write_fraction={0.1,0.2}"], "per-class lists"),
        (&["read_request_size={2}"], "per-class lists"),
        (&["read_request_size=0"], "read_request_size = 0"),
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
        if named.contains('=') && !named.contains("_vc") && !named.contains("size") {
            assert!(
                e.contains("injection_process = bernoulli"),
                "says what is allowed: {e}"
            );
        }
    }
    let e = with(&["use_read_write={1}"]).unwrap_err().to_string();
    assert!(
        e.contains("use_read_write") && e.contains("per-class lists"),
        "{e}"
    );
}
