//! Traffic classes in BookSim2's batch mode as whole `--booksim` runs (docs/booksim.md §3.5):
//! one batch source per terminal for all its classes, as BookSim2's `_packet_seq_no` and
//! `_requestsOutstanding` are per node.

use crate::sim::config::booksim::parse_with;
use crate::sim::config::Injection;
use crate::sim::tests::with_net;
use crate::sim::*;

#[test]
fn a_batch_counts_the_packets_of_every_class() {
    // 10 packets per terminal and batch over both classes, 2 batches, 16 terminals: 320
    // packets, not 320 per class.
    let file = "topology = mesh; k = 4; n = 2; routing_function = dim_order; num_vcs = 4;";
    let words = [
        "classes=2",
        "traffic={uniform,transpose}",
        "packet_size={1,4}",
        "sim_type=batch",
        "batch_size=10",
        "batch_count=2",
    ];
    let b = parse_with(file, &words.map(String::from)).unwrap();
    let classes = &b.config.extras.classes;
    assert!(classes
        .iter()
        .all(|c| c.injection == Injection::BookSimBatch));
    let res = with_net(&b.topology.to_string(), b.algo, |net, r| {
        run(net, r, &b.config).unwrap()
    });
    assert_eq!(res.conservation_errors, 0);
    assert!(res.deadlock.is_none());
    assert_eq!(res.packets_delivered, 16 * 10 * 2);
    assert_eq!(res.batch_time.map(|t| t.count), Some(2));
    // Both classes send; class 0's 1-flit packets leave sooner, so it sends more of them.
    let per_class: Vec<f64> = (res.classes.iter())
        .map(|c| c.rates.accepted_packets.mean)
        .collect();
    assert!(
        per_class[0] > per_class[1] && per_class[1] > 0.0,
        "{per_class:?}"
    );
}
