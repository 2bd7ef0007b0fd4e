//! docs/reference-results.md A2 (D): [DISS] Table 4.1 hop counts on `G(n, log2 n)` with minimal
//! routing — binomial broadcast `n − 1`, recursive-doubling allreduce and Bruck alltoall
//! `n log2 n` — for all n nodes (identity mapping) and for m nodes under the circulant
//! mapping (stride n/m), through the routed analysis (docs/collectives.md §10).

use jumpnet_core::analysis::{
    analyse, makespan, Analysis, Outputs, RankClock, RoutedNetwork, StepBuffers,
};
use jumpnet_core::collective::{Binomial, Bruck, RecursiveDoubling, Schedule};
use jumpnet_core::mapping::{circulant_mapping, FreeNodes};
use jumpnet_core::routing::{DistanceMatrix, MinimalRouting};
use jumpnet_core::topology::{Circulant, LinkClass, Topology};
use jumpnet_tests::{check_schedule, distances};

/// Routes `s` on `G(n, log2 n)` with minimal routing and checks the facts every
/// [DISS] collective has there: every message is one jump, so hops = messages, the largest
/// message is 1 hop in every step, and the makespan model gives 3 units per step.
fn one_hop_everywhere<S: Schedule>(
    g: &Circulant,
    routing: &MinimalRouting<'_, Circulant>,
    s: &S,
    placement: &[u32],
) -> Analysis {
    let net = RoutedNetwork::new(g, routing);
    let steps = s.num_steps() as usize;
    let mut max = vec![0u32; steps + 1];
    let mut count = vec![0u64; steps + 1];
    let a = analyse(
        &net,
        s,
        placement,
        Outputs {
            steps: StepBuffers {
                max_hops: Some(&mut max),
                messages: Some(&mut count),
                ..StepBuffers::default()
            },
            channel_loads: None,
        },
    )
    .unwrap();
    assert_eq!(a.hops.total_hops, s.num_messages());
    assert_eq!(a.hops.max_hops, 1);
    for step in 1..=steps {
        assert_eq!(max[step], u32::from(count[step] > 0), "step {step}");
    }
    assert_eq!(a.links.terminal, 2 * s.num_messages());
    let mut clocks = vec![RankClock::default(); placement.len()];
    let m = makespan(&net, s, placement, &mut clocks).unwrap();
    assert_eq!(m.time, 3 * s.num_steps() as u64);
    a
}

fn a2_all_nodes(n: u32, want: [u64; 3]) {
    let g = Circulant::g(n).unwrap();
    let d = distances(&g);
    let routing = MinimalRouting::new(&g, DistanceMatrix::new(n, &d).unwrap()).unwrap();
    let identity: Vec<u32> = (0..n).collect();
    let k = n.trailing_zeros();

    let bcast = Binomial::new(n, 0, 1024).unwrap();
    let a = one_hop_everywhere(&g, &routing, &bcast, &identity);
    assert_eq!(a.hops.total_hops, want[0]);
    // Step s sends 2^(s-1) messages over jump 2^(K-s), i.e. dimension class K - s.
    for j in 0..k {
        assert_eq!(a.links.get(LinkClass::Dim(j as u8)), 1 << (k - 1 - j));
    }

    let allreduce = RecursiveDoubling::new(n, 1024).unwrap();
    let a = one_hop_everywhere(&g, &routing, &allreduce, &identity);
    assert_eq!(a.hops.total_hops, want[1]);
    // Exchange step j pairs r with r XOR 2^(j-1): n messages over jump 2^(j-1).
    for j in 0..k {
        assert_eq!(a.links.get(LinkClass::Dim(j as u8)), n as u64);
    }

    let alltoall = Bruck::new(n, 64).unwrap();
    let a = one_hop_everywhere(&g, &routing, &alltoall, &identity);
    assert_eq!(a.hops.total_hops, want[2]);
    for j in 0..k {
        assert_eq!(a.links.get(LinkClass::Dim(j as u8)), n as u64);
    }
}

#[test]
fn a2_n16() {
    a2_all_nodes(16, [15, 64, 64]);
}

#[test]
fn a2_n512() {
    a2_all_nodes(512, [511, 4608, 4608]);
}

#[test]
fn a2_n1024() {
    a2_all_nodes(1024, [1023, 10_240, 10_240]);
}

#[test]
fn a2_circulant_mapping_on_g1024() {
    // m-node values: m − 1 and m log2 m, for any start node of the mapping.
    let n = 1024;
    let g = Circulant::g(n).unwrap();
    let d = distances(&g);
    let routing = MinimalRouting::new(&g, DistanceMatrix::new(n, &d).unwrap()).unwrap();
    for (m, want) in [(512u32, [511u64, 4608, 4608]), (128, [127, 896, 896])] {
        for start in [0u32, 7, 1000] {
            let mut placement = vec![0u32; m as usize];
            circulant_mapping(n, FreeNodes::All, start, &mut placement).unwrap();
            // One terminal per switch with the same id: the node list is the placement.
            assert_eq!(g.terminal_switch(placement[1]), Some((start + n / m) % n));
            let b = one_hop_everywhere(&g, &routing, &Binomial::new(m, 0, 8).unwrap(), &placement);
            let r = one_hop_everywhere(
                &g,
                &routing,
                &RecursiveDoubling::new(m, 8).unwrap(),
                &placement,
            );
            let a = one_hop_everywhere(&g, &routing, &Bruck::new(m, 8).unwrap(), &placement);
            assert_eq!(
                [b.hops.total_hops, r.hops.total_hops, a.hops.total_hops],
                want,
                "m = {m}, start = {start}"
            );
        }
    }
}

#[test]
fn a2_schedules_pass_the_symbolic_checker() {
    for n in [16u32, 128, 512, 1024] {
        let b = Binomial::new(n, 0, 1024).unwrap();
        assert_eq!(check_schedule(&b).messages, n as u64 - 1);
        let r = RecursiveDoubling::new(n, 1024).unwrap();
        assert_eq!(check_schedule(&r).messages, r.num_messages());
        let a = Bruck::new(n, 64).unwrap();
        assert_eq!(check_schedule(&a).messages, a.num_messages());
    }
}
