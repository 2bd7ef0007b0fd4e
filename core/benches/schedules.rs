//! Schedule generation speed at 65,536 ranks: iterate every message of binomial broadcast,
//! recursive-doubling allreduce and Bruck alltoall, and generate every rank's program into one
//! reused buffer (O(1) extra memory per rank). Run with `cargo bench -p jumpnet-core --bench
//! schedules`. Also: building the Dragonfly topology-aware broadcasts for 10,240 ranks.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jumpnet_core::collective::dragonfly::{self, Algorithm, GroupLinks, Placement};
use jumpnet_core::collective::{
    Binomial, Blocks, Bruck, Dep, Message, Op, RecursiveDoubling, Schedule,
};
use jumpnet_core::rng::Rng;
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

/// One global link per group pair: group `g1`'s `d`-th other group is reached from router
/// `d / h` (the B1 network: g = 129, a = 16, h = 8).
struct Links;
impl GroupLinks for Links {
    fn link(&self, g1: u32, g2: u32) -> (u32, u32) {
        let d = |x: u32, y: u32| (y + 129 - x - 1) % 129;
        (d(g1, g2) / 8, d(g2, g1) / 8)
    }
}

/// LLF / GLF / FOREST over a random 10,240-terminal allocation of the 16,512-terminal
/// Dragonfly of docs/reference-results.md B1.
fn dragonfly_broadcasts(c: &mut Criterion) {
    let mut terminals: Vec<u32> = (0..16_512).collect();
    Rng::new(1).shuffle(&mut terminals);
    let job: Vec<Placement> = terminals[..10_240]
        .iter()
        .map(|&t| Placement {
            group: t / 128,
            router: (t / 8) % 16,
        })
        .collect();
    let blank = Message {
        step: 0,
        src: 0,
        dst: 0,
        blocks: Blocks::All,
        bytes: 0,
    };
    let mut msgs = vec![blank; job.len() - 1];
    let mut scratch = vec![0u32; dragonfly::DragonflySizes::of_broadcast(job.len()).scratch];
    let mut g = c.benchmark_group("dragonfly_10240");
    g.sample_size(10);
    for (name, alg) in [
        ("llf", Algorithm::Llf),
        ("glf", Algorithm::Glf),
        ("forest", Algorithm::Forest),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let s = dragonfly::broadcast(
                    alg,
                    &job,
                    0,
                    &Links,
                    1024,
                    dragonfly::DragonflyBuffers {
                        msgs: &mut msgs,
                        scratch: &mut scratch,
                    },
                )
                .expect("valid job");
                black_box(s.num_steps())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, schedules, dragonfly_broadcasts);
criterion_main!(benches);
