//! BookSim2's `fattree` as `--booksim` maps it (docs/booksim.md §3): jumpnet's k-ary n-tree
//! with BookSim2's router and port numbering, `nca` / `anca`, and single packets taking the
//! zero-load time counted by hand from BookSim2's pipeline (docs/booksim.md §4).

use super::{parse, parse_with};
use crate::builder::routing::RouteAlgo;
use crate::sim::tests::{hops, with_net};
use crate::sim::*;

const FATTREE: &str = "topology = fattree; k = 4; n = 2; routing_function = nca; num_vcs = 4;";

/// One packet of `len` flits `src → dst` created at cycle 3 on the network and routing
/// `--booksim` makes of `text` with `extra`: (packet latency, router-to-router hops).
fn single(extra: &[&str], src: u32, dst: u32, len: u16) -> (u64, u64) {
    let over: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    let b = parse_with(FATTREE, &over).unwrap();
    let mut cfg = b.config.clone();
    cfg.packet_size = len;
    with_net(&b.topology.to_string(), b.algo, |net, r| {
        let res = run_trace(net, r, &cfg, &[(src, dst, 3)]).unwrap();
        assert_eq!(res.conservation_errors, 0);
        assert_eq!(res.packet_latency.count, 1);
        assert_eq!(res.hops.max, hops(net, r, src, dst));
        (res.packet_latency.max, res.hops.max)
    })
}

/// Zero-load latency by hand with BookSim2's default delays: a cycle before the injection
/// channel starts (BookSim2 writes it at the end of the cycle), the 1-cycle injection
/// channel, `H + 1` routers of routing, VC allocation, switch allocation and traversal (4
/// cycles each), `H` 1-cycle channels, the 1-cycle ejection channel, `L − 1` body flits.
fn by_hand(h: u64, len: u64) -> u64 {
    1 + 1 + (h + 1) * 4 + h + 1 + (len - 1)
}

#[test]
fn fattree_maps_onto_the_k_ary_n_tree_with_nca_and_anca() {
    let b = parse(FATTREE).unwrap();
    assert_eq!(b.topology.to_string(), "fat-tree k=4 n=2");
    assert_eq!(b.algo, RouteAlgo::Nca);
    let b = parse_with(FATTREE, &["routing_function=anca_fattree".into()]).unwrap();
    assert_eq!(b.algo, RouteAlgo::Anca);
    // fattree.cpp: every channel 1 cycle, whatever use_noc_latency says.
    let b = parse_with(FATTREE, &["use_noc_latency=0".into()]).unwrap();
    assert_eq!(b.algo, RouteAlgo::Nca);
    let e = parse_with(FATTREE, &["routing_function=dim_order".into()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("dim_order") && e.contains("nca"), "{e}");
    let e = parse_with(FATTREE, &["traffic=tornado".into()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("tornado on fattree"), "{e}");
    let e = parse_with(FATTREE, &["k=1".into()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("fattree with k = 1"), "{e}");
}

#[test]
fn single_packets_take_booksim2s_zero_load_time() {
    // BookSim2 (28f4329) traced node 0 → node 4 on this 4-ary 2-tree
    // (`watch_packets = {0}`): created at 33, at leaf router 0 at 35, up to a root, down to
    // leaf router 1, retired at 50 with hops = 3 routers, 17 cycles.
    assert_eq!(by_hand(2, 1), 17);
    for algo in ["nca", "anca"] {
        let rf = format!("routing_function={algo}");
        assert_eq!(single(&[&rf], 0, 4, 1), (17, 2), "{algo}");
        // Same leaf: one router.
        assert_eq!(single(&[&rf], 0, 3, 1), (by_hand(0, 1), 0), "{algo}");
        // 4-ary 3-tree, 0 → 63: up two levels and down two, 4-flit packet.
        assert_eq!(
            single(&[&rf, "n=3"], 0, 63, 4),
            (by_hand(4, 4), 4),
            "{algo}"
        );
    }
    assert_eq!(by_hand(4, 4), 30);
}
