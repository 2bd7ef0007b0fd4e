//! Background traffic tests: the exponential gaps, the arrival rate, isolation from the
//! collective's accounting, errors and determinism.

use jumpnet_core::collective::Schedule;
use jumpnet_core::rng::Rng;

use super::{exponential_gap, BackgroundConfig};
use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{build, RouteAlgo, RouteOptions, RouteStore};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::builder::topology::TopologySpec;
use crate::sim::workload::collective::{
    run_collective_with_background, CollectiveError, CollectiveInput, CollectiveResult, NicConfig,
};
use crate::sim::SimConfig;

#[test]
fn gaps_are_exponential() {
    let mut rng = Rng::new(7);
    let (n, mean) = (200_000, 50.0);
    let gaps: Vec<f64> = (0..n).map(|_| exponential_gap(&mut rng, mean)).collect();
    assert!(gaps.iter().all(|&g| g.is_finite() && g >= 0.0));
    let m = gaps.iter().sum::<f64>() / n as f64;
    // Standard error of the mean: mean / sqrt(n) ≈ 0.11; allow 5 of them.
    assert!((m - mean).abs() < 0.6, "mean {m}");
    // P(X > mean) = e^-1 for an exponential distribution.
    let above = gaps.iter().filter(|&&g| g > mean).count() as f64 / n as f64;
    assert!(
        (above - (-1f64).exp()).abs() < 0.005,
        "P(X > mean) = {above}"
    );
    // P(X > 3 mean) = e^-3.
    let tail = gaps.iter().filter(|&&g| g > 3.0 * mean).count() as f64 / n as f64;
    assert!(
        (tail - (-3f64).exp()).abs() < 0.003,
        "P(X > 3 mean) = {tail}"
    );
}

/// Binomial broadcast of `bytes` over ranks on terminals 0..ranks of a 4×4 mesh with DOR,
/// with background traffic `bg`.
fn run(
    ranks: u32,
    bytes: u64,
    bg: Option<&BackgroundConfig>,
) -> Result<CollectiveResult, CollectiveError> {
    let words: Vec<String> = ["mesh", "k=4,4"].iter().map(|s| s.to_string()).collect();
    let net = OwnedNetwork::build(&TopologySpec::parse(&words).unwrap()).unwrap();
    let n = net.network();
    let req = CollectiveRequest {
        algorithm: Algorithm::Bcast,
        ranks: Some(ranks),
        root: 0,
        bytes,
        elem_bytes: 4,
        placement: JobPlacement::Consecutive,
        seed: 1,
    };
    let sched = schedule::build(&req, None).unwrap();
    let s = sched.schedule().unwrap();
    let terms: Vec<u32> = (0..s.ranks()).collect();
    let mut store = RouteStore::default();
    let opts = RouteOptions {
        algo: RouteAlgo::Dor,
        max_layers: 8,
        seed: 1,
    };
    let (r, _) = build(&n, &opts, &mut store).unwrap();
    let mut cfg = SimConfig::booksim();
    cfg.packet_size = 5;
    let nic = NicConfig::default();
    let run = CollectiveInput {
        net: &n,
        routing: r.as_ref(),
        config: &cfg,
        nic: &nic,
        schedule: &s,
        terminals: &terms,
    };
    run_collective_with_background(&run, bg)
}

fn bg(mean_cycles: f64, seed: u64) -> BackgroundConfig {
    BackgroundConfig {
        mean_cycles,
        bytes: 256,
        seed,
    }
}

#[test]
fn background_does_not_enter_the_collectives_accounting() {
    let quiet = run(8, 4096, None).unwrap();
    let busy = run(8, 4096, Some(&bg(10.0, 3))).unwrap();
    let b = busy.background.as_ref().unwrap();
    assert_eq!(b.terminals, 8);
    assert!(b.messages_sent > 50, "{b:?}");
    assert!(b.messages_delivered > 0 && b.messages_delivered <= b.messages_sent);
    // 256 B with 16-byte flits, 1 header flit, 5-flit packets: 4 packets.
    assert_eq!(b.packets_per_message, 4);
    // The collective is the same collective: messages, packets, blocks delivered, and
    // (DOR: fixed paths) the hops of its own packets; the data flow was checked.
    assert!(busy.data_checked);
    assert_eq!(busy.messages, quiet.messages);
    assert_eq!(busy.packets, quiet.packets);
    assert_eq!(busy.received_blocks, quiet.received_blocks);
    assert_eq!(busy.hops_mean, quiet.hops_mean);
    assert!(quiet.background.is_none());
    // The background's flits are on the links too.
    assert!(busy.flits > quiet.flits);
}

#[test]
fn background_arrivals_follow_the_mean() {
    let mean = 40.0;
    let r = run(8, 64 * 1024, Some(&bg(mean, 5))).unwrap();
    let b = r.background.unwrap();
    // Poisson arrivals at 8 sources over the run (the makespan plus at most a cycle).
    let lambda = 8.0 * r.makespan_cycles as f64 / mean;
    let sent = b.messages_sent as f64;
    assert!(lambda > 1000.0, "run too short: {lambda}");
    assert!(
        (sent - lambda).abs() < 5.0 * lambda.sqrt() + 8.0,
        "sent {sent}, expected {lambda:.1}"
    );
}

#[test]
fn background_is_deterministic_per_seed() {
    let a = run(8, 4096, Some(&bg(15.0, 9))).unwrap();
    let b = run(8, 4096, Some(&bg(15.0, 9))).unwrap();
    assert_eq!(a.background, b.background);
    assert_eq!(a.makespan_cycles, b.makespan_cycles);
}

#[test]
fn background_needs_free_terminals_and_a_positive_mean() {
    for (ranks, mean, want) in [
        (16, 10.0, "at least 2 terminals"),
        (15, 10.0, "at least 2 terminals"),
        (8, 0.0, "positive and finite"),
        (8, f64::NAN, "positive and finite"),
    ] {
        match run(ranks, 64, Some(&bg(mean, 1))) {
            Err(CollectiveError::Config(e)) => assert!(e.contains(want), "{e}"),
            other => panic!("{ranks} ranks, mean {mean}: {other:?}"),
        }
    }
}
