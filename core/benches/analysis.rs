//! Analysis speed: route every message of a collective hop by hop and count hops, link
//! classes and channel loads, and run the link-count makespan model. Cases: Bruck alltoall
//! over 1,024 ranks on `G(1024, 10)` with minimal BFS routing (10,240 messages), and a
//! 10,240-rank binomial broadcast over a random allocation on the 16,512-terminal
//! Dragonfly of docs/reference-results.md B1 with minimal BFS routing. Run with
//! `cargo bench -p jumpnet-core --bench analysis`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jumpnet_core::analysis::{analyse, makespan, Outputs, RankClock, RoutedNetwork, StepBuffers};
use jumpnet_core::collective::{Binomial, Bruck, Schedule};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::deadlock::channel::num_channels;
use jumpnet_core::routing::{DistanceMatrix, MinimalRouting};
use jumpnet_core::topology::{Circulant, Dragonfly, GlobalArrangement, Topology};
use std::hint::black_box;

fn distances<T: Topology>(t: &T) -> Vec<u16> {
    let n = t.num_switches() as usize;
    let mut buf = vec![0u16; n * n];
    let mut q = vec![0u32; n];
    DistanceMatrix::compute(t, &mut buf, &mut q).expect("distances");
    buf
}

fn bench_case<T: Topology, S: Schedule>(
    c: &mut Criterion,
    name: &str,
    topo: &T,
    s: &S,
    placement: &[u32],
) {
    let d = distances(topo);
    let dm = DistanceMatrix::new(topo.num_switches(), &d).expect("matrix");
    let routing = MinimalRouting::new(topo, dm).expect("routing");
    let net = RoutedNetwork::new(topo, &routing);
    let mut loads = vec![0u64; num_channels(topo) as usize];
    let mut step_hops = vec![0u64; s.num_steps() as usize + 1];
    let mut clocks = vec![RankClock::default(); placement.len()];
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.throughput(Throughput::Elements(s.num_messages()));
    g.bench_function("analyse", |b| {
        b.iter(|| {
            let out = Outputs {
                steps: StepBuffers {
                    hops: Some(&mut step_hops),
                    ..StepBuffers::default()
                },
                channel_loads: Some(&mut loads),
            };
            black_box(analyse(&net, s, placement, out).expect("analysis"))
        })
    });
    g.bench_function("makespan", |b| {
        b.iter(|| black_box(makespan(&net, s, placement, &mut clocks).expect("makespan")))
    });
    g.finish();
}

fn analysis(c: &mut Criterion) {
    let g = Circulant::g(1024).expect("G(1024, 10)");
    let identity: Vec<u32> = (0..1024).collect();
    bench_case(
        c,
        "bruck_1024_on_g1024",
        &g,
        &Bruck::new(1024, 64).expect("bruck"),
        &identity,
    );

    let df = Dragonfly::new(129, 16, 8, 8, GlobalArrangement::Consecutive).expect("dragonfly");
    let mut terminals: Vec<u32> = (0..df.num_terminals()).collect();
    Rng::new(1).shuffle(&mut terminals);
    terminals.truncate(10_240);
    bench_case(
        c,
        "binomial_10240_on_dragonfly_b1",
        &df,
        &Binomial::new(10_240, 0, 1024).expect("binomial"),
        &terminals,
    );
}

criterion_group!(benches, analysis);
criterion_main!(benches);
