//! Packet size distributions as whole `--booksim` runs (docs/booksim.md §3.5): sizes drawn
//! at their rates with the injection rate divided by their mean, each class with its own
//! distribution, in latency and in batch mode.

use crate::sim::config::booksim::{parse_with, BookSimConfig};
use crate::sim::engine::stats::SimResult;
use crate::sim::tests::with_net;
use crate::sim::*;

/// A 4×4 mesh with 4 VCs and the words `extra`, run.
fn run_mesh(extra: &[&str]) -> (BookSimConfig, SimResult) {
    let file = "topology = mesh; k = 4; n = 2; routing_function = dim_order; num_vcs = 4;";
    let over: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    let b = parse_with(file, &over).unwrap();
    let res = with_net(&b.topology.to_string(), b.algo, |net, r| {
        run(net, r, &b.config).unwrap()
    });
    assert_eq!(res.conservation_errors, 0);
    assert!(res.deadlock.is_none() && !res.unstable);
    (b, res)
}

/// Flits per packet sent, from BookSim2's injected rates.
fn sent_size(r: &crate::sim::engine::node_counts::NodeRates) -> f64 {
    r.injected_flits.mean / r.injected_packets.mean
}

#[test]
fn sizes_are_drawn_at_their_rates_and_the_rate_is_divided_by_their_mean() {
    // 1, 4 and 8 flits at 3 : 1 : 1: a mean of (3 + 4 + 8) / 5 = 3 flits (the longest, 8,
    // were every packet that long); 0.15 flits per node and cycle are 0.05 packets.
    let (b, res) = run_mesh(&[
        "packet_size={{1,4,8}}",
        "packet_size_rate={{3,1,1}}",
        "injection_rate_uses_flits=1",
        "injection_rate=0.15",
    ]);
    assert_eq!(b.config.packet_size, 8);
    let size = sent_size(&res.rates);
    assert!((size - 3.0).abs() < 0.15, "mean size {size}");
    assert!(
        (res.offered - 0.15).abs() < 0.0075,
        "offered {}",
        res.offered
    );
    assert!(
        (res.rates.injected_packets.mean - 0.05).abs() < 0.0025,
        "{:?}",
        res.rates.injected_packets
    );
}

#[test]
fn each_class_draws_from_its_own_distribution() {
    // Class 0: 1 or 4 flits at 3 : 1 (mean 1.75); class 1: 2 or 6 flits, equally likely
    // (mean 4); rates in packets.
    let (_, res) = run_mesh(&[
        "classes=2",
        "traffic={uniform,transpose}",
        "packet_size={{1,4},{2,6}}",
        "packet_size_rate={{3,1},{1}}",
        "injection_rate={0.05,0.03}",
    ]);
    let sizes: Vec<f64> = res.classes.iter().map(|c| sent_size(&c.rates)).collect();
    assert!((sizes[0] - 1.75).abs() < 0.1, "{sizes:?}");
    assert!((sizes[1] - 4.0).abs() < 0.2, "{sizes:?}");
    let packets: Vec<f64> = (res.classes.iter())
        .map(|c| c.rates.injected_packets.mean)
        .collect();
    assert!(
        (packets[0] - 0.05).abs() < 0.003 && (packets[1] - 0.03).abs() < 0.002,
        "{packets:?}"
    );
}

#[test]
fn a_size_distribution_in_batch_mode_draws_as_in_latency_mode() {
    let (_, res) = run_mesh(&["packet_size={{2,6}}", "sim_type=batch", "batch_size=50"]);
    assert_eq!(res.packets_delivered, 16 * 50);
    let size = sent_size(&res.rates);
    assert!((size - 4.0).abs() < 0.3, "mean size {size}");
}
