//! Criterion benchmark of one simulated GA fitness evaluation:
//! a random gene on the 8×8 torus, patterns bcmp + shfl (two simulated batches of 4 packets
//! of 8 flits per node), the `ga` preset, one engine reused across evaluations. Target:
//! ≤ ~1.2 ms per evaluation per core (1,000 genes × 1,000 generations in 10 minutes on two
//! cores).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use jumpnet::ga::run::pattern_tables;
use jumpnet::ga::sim_fitness::GaTorus;
use jumpnet::sim::SimConfig;
use jumpnet_core::mapping::ga::{randomize, Address, Fitness, PatternSet, TrafficPattern};
use jumpnet_core::rng::Rng;

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`; `None` elsewhere). The
/// machine may be shared, so the CPU time per evaluation is printed beside criterion's
/// wall-clock figures.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn bench(c: &mut Criterion) {
    let torus = GaTorus::new(8).unwrap();
    let grid = torus.grid();
    let dest = pattern_tables(
        grid,
        &[TrafficPattern::BitComplement, TrafficPattern::Shuffle],
        1,
    )
    .unwrap();
    let set = PatternSet::new(grid.nodes(), &dest).unwrap();
    let mut rng = Rng::new(7);
    let genes: Vec<Vec<Address>> = (0..64)
        .map(|_| {
            let mut g = vec![0; grid.nodes()];
            randomize(&mut g, &mut rng);
            g
        })
        .collect();
    let mut g = c.benchmark_group("ga_fitness");
    g.sample_size(20);
    torus
        .with_fitness(&SimConfig::ga(), set, |fit| {
            if let Some(t0) = thread_cpu_ns() {
                let (mut cycles, reps) = (0, 2000);
                for k in 0..reps {
                    cycles += black_box(fit.evaluate(&genes[k % genes.len()])).duration;
                }
                if let Some(t1) = thread_cpu_ns() {
                    println!(
                        "ga_fitness: {:.1} us CPU per evaluation ({:.1} simulated cycles per \
                         evaluation, {:.2} us CPU per cycle)",
                        (t1 - t0) as f64 / 1e3 / reps as f64,
                        cycles as f64 / reps as f64,
                        (t1 - t0) as f64 / 1e3 / cycles as f64
                    );
                }
            }
            let mut i = 0;
            g.bench_function("sim_bcmp_shfl_random_gene", |b| {
                b.iter(|| {
                    i = (i + 1) % genes.len();
                    black_box(fit.evaluate(&genes[i]))
                })
            });
            let identity: Vec<Address> = (0..grid.nodes() as Address).collect();
            g.bench_function("sim_bcmp_shfl_identity", |b| {
                b.iter(|| black_box(fit.evaluate(&identity)))
            });
        })
        .unwrap();
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
