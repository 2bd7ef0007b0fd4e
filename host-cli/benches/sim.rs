//! Criterion benchmarks of the simulator engine: router-cycles/s (the
//! criterion throughput: switches × simulated cycles per run) on one core for an 8×8 and a
//! 32×32 torus at 0.1 and 0.4 flits/node/cycle and a 16×16×16 torus at 0.1, dateline DOR,
//! uniform traffic, the `booksim` preset with 2 VCs and 4-flit packets; and the 32×32 torus
//! at 0.4 with its routers stepped on 2 threads (`run_parallel`, the speed-up of one large
//! simulation on every core), and once more with an internal speedup of 2 (the cost of the
//! internal steps and output queues). Flit-hops/s are printed once per case (flits carried
//! by network channels per wall-clock second).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jumpnet::builder::network::OwnedNetwork;
use jumpnet::builder::routing::{build, RouteAlgo, RouteOptions, RouteStore};
use jumpnet::builder::topology::TopologySpec;
use jumpnet::sim::router::speedup::Speedup;
use jumpnet::sim::{run_parallel, SimConfig};
use jumpnet_core::topology::Topology;

fn config(rate: f64, cycles: u32) -> SimConfig {
    let mut c = SimConfig::booksim();
    c.num_vcs = 2;
    c.packet_size = 4;
    c.rate_in_flits = true;
    c.injection_rate = rate;
    // One warm-up period and one measured period of `cycles / 2` each.
    c.warmup_periods = 1;
    c.sample_period = cycles / 2;
    c.max_samples = 1;
    c.drain = false;
    c
}

fn bench(c: &mut Criterion) {
    let cases: [(&str, f64, u32, usize, u32); 7] = [
        ("8,8", 0.1, 20_000, 1, 1),
        ("8,8", 0.4, 20_000, 1, 1),
        ("32,32", 0.1, 2_000, 1, 1),
        ("32,32", 0.4, 2_000, 1, 1),
        ("32,32", 0.4, 2_000, 2, 1),
        ("32,32", 0.4, 2_000, 1, 2),
        ("16,16,16", 0.1, 200, 1, 1),
    ];
    let mut g = c.benchmark_group("sim");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    for (k, rate, cycles, threads, speedup) in cases {
        let words = vec!["torus".to_string(), format!("k={k}")];
        let spec = TopologySpec::parse(&words).expect("torus spec");
        let owned = OwnedNetwork::build(&spec).expect("torus");
        let net = owned.network();
        let mut store = RouteStore::default();
        let opts = RouteOptions {
            algo: RouteAlgo::DorDateline,
            max_layers: 8,
            seed: 1,
        };
        let (routing, _) = build(&net, &opts, &mut store).expect("dateline DOR");
        let mut cfg = config(rate, cycles);
        cfg.internal_speedup = Speedup::integral(speedup).expect("speedup");
        let routers = u64::from(net.num_switches());
        // Flit-hops/s of one run, printed for the note (network-channel flits per cycle of
        // the measured period, times all cycles of the run).
        let t = Instant::now();
        let res = run_parallel(&net, routing.as_ref(), &cfg, threads).expect("sim");
        let secs = t.elapsed().as_secs_f64();
        let hops: f64 = res
            .channel_utilisation
            .iter()
            .zip(net_terminal_mask(&net))
            .filter(|(_, term)| !term)
            .map(|(u, _)| u * res.cycles as f64)
            .sum();
        eprintln!(
            "sim torus k={k} rate={rate} threads={threads} speedup={speedup}: {:.2e} router-cycles/s, {:.2e} flit-hops/s, accepted {:.3}",
            (routers * res.cycles) as f64 / secs,
            hops / secs,
            res.accepted
        );
        g.throughput(Throughput::Elements(routers * res.cycles));
        let name = match (threads, speedup) {
            (1, 1) => format!("torus_{k}_rate_{rate}"),
            (t, 1) => format!("torus_{k}_rate_{rate}_threads_{t}"),
            (_, s) => format!("torus_{k}_rate_{rate}_speedup_{s}"),
        };
        g.bench_function(name, |b| {
            b.iter(|| black_box(run_parallel(&net, routing.as_ref(), &cfg, threads).expect("sim")))
        });
    }
    g.finish();
}

/// Per channel (switch-major, port order): is it a terminal channel.
fn net_terminal_mask(net: &jumpnet_core::topology::Network<'_>) -> Vec<bool> {
    let mut m = Vec::new();
    for s in 0..net.num_switches() {
        for p in 0..net.radix() {
            m.push(matches!(
                net.port(s, p),
                jumpnet_core::topology::Port::Terminal(_)
            ));
        }
    }
    m
}

criterion_group!(benches, bench);
criterion_main!(benches);
