//! Schedule generation speed at 65,536 ranks: iterate every message of binomial broadcast,
//! recursive-doubling allreduce and Bruck alltoall, and generate every rank's program into one
//! reused buffer (O(1) extra memory per rank). Run with `cargo bench -p jumpnet-core --bench
//! schedules`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jumpnet_core::collective::{Binomial, Blocks, Bruck, Dep, Op, RecursiveDoubling, Schedule};
use std::hint::black_box;

const N: u32 = 65_536;

fn iterate<S: Schedule>(s: &S) -> u64 {
    let mut acc = 0u64;
    s.for_each_message(|m| acc = acc.wrapping_add(m.bytes ^ m.dst as u64 ^ m.step as u64));
    acc
}

fn programs<S: Schedule>(s: &S, buf: &mut [Op]) -> usize {
    (0..s.ranks())
        .map(|r| s.program(r, buf).expect("buffer fits one program"))
        .sum()
}

fn bench<S: Schedule>(c: &mut Criterion, name: &str, s: &S) {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.throughput(Throughput::Elements(s.num_messages()));
    g.bench_function("messages", |b| b.iter(|| black_box(iterate(black_box(s)))));
    let mut buf = [Op::Send {
        peer: 0,
        blocks: Blocks::All,
        after: Dep::None,
    }; 64];
    g.bench_function("programs", |b| {
        b.iter(|| black_box(programs(black_box(s), &mut buf)))
    });
    g.finish();
}

fn schedules(c: &mut Criterion) {
    bench(
        c,
        "binomial_65536",
        &Binomial::new(N, 0, 1 << 20).expect("valid"),
    );
    bench(
        c,
        "recursive_doubling_65536",
        &RecursiveDoubling::new(N, 1 << 20).expect("valid"),
    );
    bench(c, "bruck_65536", &Bruck::new(N, 1024).expect("valid"));
}

criterion_group!(benches, schedules);
criterion_main!(benches);
