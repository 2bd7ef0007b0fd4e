//! Read/write traffic in the engine (docs/booksim.md §3.6): every request that arrives gets
//! exactly one reply, of its kind's size, back at the request's source; replies take the
//! VCs of their kind only; and a whole `--booksim` run counts requests and replies in its
//! statistics.

use crate::sim::config::booksim::parse_with;
use crate::sim::engine::State;
use crate::sim::tests::with_net;
use crate::sim::*;

/// A 4×4 mesh (`topology`, `k = 4`) or torus with read/write traffic and the words `extra`.
fn config(topology: &str, extra: &[&str]) -> crate::sim::config::booksim::BookSimConfig {
    let file = format!(
        "topology = {topology}; k = 4; n = 2; routing_function = dim_order; use_read_write = 1;"
    );
    let over: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    parse_with(&file, &over).unwrap()
}

#[test]
fn every_request_gets_one_reply_of_its_size_back_at_its_source() {
    for topology in ["mesh", "torus"] {
        let b = config(
            topology,
            &[
                "read_request_size=1",
                "write_request_size=4",
                "read_reply_size=5",
                "write_reply_size=2",
                "write_fraction=0.3",
                "injection_rate=0.04",
            ],
        );
        with_net(&b.topology.to_string(), b.algo, |net, r| {
            let mut s = State::new(net, r, &b.config).unwrap();
            for _ in 0..3000 {
                s.cycle().unwrap();
            }
            s.classes.as_deref_mut().unwrap().stop_injection();
            for _ in 0..3000 {
                s.cycle().unwrap();
            }
            assert_eq!((s.in_network, s.violations), (0, 0), "{topology}: drained");
            let cl = s.classes.as_deref().unwrap();
            let l = &cl.replies().unwrap().ledger;
            let [rreq, wreq, rrep, wrep] = l.packets;
            assert_eq!(
                (rrep, wrep),
                (rreq, wreq),
                "{topology}: one reply per request"
            );
            assert!(l.owed.iter().all(|&o| o == 0), "{topology}: {:?}", l.owed);
            assert_eq!(l.wrong_size, 0, "{topology}");
            let writes = wreq as f64 / (rreq + wreq) as f64;
            assert!(
                rreq > 500 && (writes - 0.3).abs() < 0.05,
                "{topology}: {writes}"
            );
            // Every packet delivered was a request or a reply.
            assert_eq!(s.total_packets, rreq + wreq + rrep + wrep, "{topology}");
            assert_eq!(
                s.total_flits,
                rreq + 4 * wreq + 5 * rrep + 2 * wrep,
                "{topology}"
            );
        });
    }
}

#[test]
fn a_run_measures_requests_and_replies_and_drains() {
    let b = config("mesh", &["injection_rate=0.05", "max_samples=5"]);
    with_net(&b.topology.to_string(), b.algo, |net, r| {
        let res = run(net, r, &b.config).unwrap();
        assert_eq!(res.conservation_errors, 0);
        assert!(res.deadlock.is_none());
        // One class of its own: no per-class section.
        assert!(res.classes.is_empty());
        // Every request brings a reply of one flit: twice the offered flits are accepted.
        assert!(
            (res.accepted / 0.1 - 1.0).abs() < 0.08,
            "accepted {}",
            res.accepted
        );
    });
}

#[test]
fn a_narrow_reply_range_still_delivers_everything() {
    // Replies on one VC each, requests on two; a torus splits each request range in two.
    let b = config(
        "torus",
        &[
            "num_vcs=6",
            "read_request_begin_vc=0",
            "read_request_end_vc=1",
            "write_request_begin_vc=0",
            "write_request_end_vc=1",
            "read_reply_begin_vc=2",
            "read_reply_end_vc=3",
            "write_reply_begin_vc=4",
            "write_reply_end_vc=5",
            "injection_rate=0.08",
            "max_samples=4",
        ],
    );
    with_net(&b.topology.to_string(), b.algo, |net, r| {
        let res = run(net, r, &b.config).unwrap();
        assert_eq!(res.conservation_errors, 0);
        assert!(res.deadlock.is_none() && res.packets_delivered > 1000);
    });
}
