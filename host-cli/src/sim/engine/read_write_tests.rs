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

/// Runs `b` on its network for 3000 cycles, stops every injection process and drains for
/// 3000 more; returns the ledger of what arrived.
fn run_and_drain(b: &crate::sim::config::booksim::BookSimConfig) -> super::read_write::Ledger {
    with_net(&b.topology.to_string(), b.algo, |net, r| {
        let mut s = State::new(net, r, &b.config).unwrap();
        for _ in 0..3000 {
            s.cycle().unwrap();
        }
        s.classes.as_deref_mut().unwrap().stop_injection();
        for _ in 0..3000 {
            s.cycle().unwrap();
        }
        assert_eq!((s.in_network, s.violations), (0, 0), "drained");
        let l = &s.classes.as_deref().unwrap().replies().unwrap().ledger;
        super::read_write::Ledger {
            packets: l.packets,
            owed: l.owed.clone(),
            wrong_size: l.wrong_size,
            by_class: l.by_class.clone(),
        }
    })
}

#[test]
fn with_classes_a_reply_has_the_size_of_the_class_that_sends_it() {
    // Class 1's replies are 5 (read) and 3 (write) flits, class 0's 1; BookSim2 queues the
    // replies of a terminal in one queue, so both classes send replies to both classes'
    // requests, each with its own sizes.
    for topology in ["mesh", "torus"] {
        let b = config(
            topology,
            &[
                "classes=2",
                "traffic={uniform,transpose}",
                "read_reply_size={1,5}",
                "write_reply_size={1,3}",
                "injection_rate={0.03,0.02}",
            ],
        );
        let l = run_and_drain(&b);
        assert_eq!(l.wrong_size, 0, "{topology}: every packet its class's size");
        assert!(l.owed.iter().all(|&o| o == 0), "{topology}: one reply each");
        let [rreq, wreq, rrep, wrep] = l.packets;
        assert_eq!((rrep, wrep), (rreq, wreq), "{topology}");
        for c in 0..2 {
            let [any, _, _, rrep, wrep] = l.by_class[c];
            assert!(
                any == 0 && rrep > 0 && wrep > 0,
                "{topology}: {:?}",
                l.by_class
            );
        }
        // Class 0 is first to take a reply: it sends most of them.
        let (r0, r1) = (l.by_class[0][3], l.by_class[1][3]);
        assert!(r0 > r1, "{topology}: {:?}", l.by_class);
    }
}

#[test]
fn a_class_without_read_write_traffic_sends_ordinary_packets_beside_one_with_it() {
    let b = config(
        "torus",
        &[
            "classes=2",
            "use_read_write={1,0}",
            "packet_size={1,3}",
            "write_request_size=4",
            "injection_rate={0.03,0.03}",
            "injection_process={on_off,bernoulli}",
        ],
    );
    assert_eq!(b.config.extras.classes[1].packet_size, 3);
    let l = run_and_drain(&b);
    assert_eq!(
        (l.wrong_size, l.packets[2], l.packets[3]),
        (0, l.packets[0], l.packets[1])
    );
    let ([any0, ..], [any1, rw1 @ ..]) = (l.by_class[0], l.by_class[1]);
    assert!(any0 == 0 && any1 > 500 && rw1 == [0; 4], "{:?}", l.by_class);
    assert!(l.owed.iter().all(|&o| o == 0));
}

#[test]
fn a_batch_counts_the_replies_a_terminal_sends_among_its_packets() {
    // BookSim2's batch source counts every packet a terminal issues, replies included: a
    // batch of 40 packets per terminal is about 20 requests and 20 replies, not 40 of each.
    for topology in ["mesh", "torus"] {
        let b = config(
            topology,
            &[
                "sim_type=batch",
                "batch_size=40",
                "batch_count=2",
                "max_outstanding_requests=4",
            ],
        );
        with_net(&b.topology.to_string(), b.algo, |net, r| {
            let res = run(net, r, &b.config).unwrap();
            assert_eq!(res.conservation_errors, 0);
            assert!(res.deadlock.is_none() && !res.saturated, "{topology}");
            let packets = res.packets_delivered as f64 / (16.0 * 40.0 * 2.0);
            assert!((1.0..1.1).contains(&packets), "{topology}: {packets}");
            assert_eq!(res.batch_time.map(|t| t.count), Some(2), "{topology}");
        });
    }
}
