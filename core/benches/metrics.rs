//! Criterion benchmarks of the graph metrics (sample counts kept small: each all-pairs run
//! on 32,768 switches takes seconds).
//!
//! * all-pairs diameter + ASPL of a 32,768-switch random shortcut graph of degree 29
//!   (bit-parallel BFS, 256 sources per pass; target < 10 s on one core);
//! * diameter + ASPL of `G(32768, 15)` via the single BFS of the vertex-transitive path
//!   (target < 0.1 s), and the CSR compilation it needs;
//! * all-pairs of the 4,096-switch random shortcut graph of degree 23 (seed 1) — the graph
//!   `examples/write_edge_list.rs` exports for `xtask/scripts/networkx_baseline.py` — with the
//!   bit-parallel BFS (W = 1, 4, 8) and the reference BFS per source;
//! * construction of the 32,768-switch random shortcut graph.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use jumpnet_core::metrics::{bfs, bit_bfs, csr_size, transitive, Csr, DistanceOutputs};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::stored::from_edges;
use jumpnet_core::topology::{random_shortcut, Slot, StoredGraph};

/// Compiles `g` into a CSR in fresh buffers and hands it to `f`.
fn with_csr<R>(g: &StoredGraph<'_>, f: impl FnOnce(&Csr<'_>) -> R) -> R {
    let size = csr_size(g);
    let mut offsets = vec![0; size.offsets];
    let mut targets = vec![0; size.targets];
    let csr = Csr::build(g, &mut offsets, &mut targets).expect("CSR buffers sized by csr_size");
    f(&csr)
}

/// Builds the random shortcut graph `(n, d, seed)` and hands its CSR to `f`.
fn with_random_shortcut<R>(n: u32, d: u16, seed: u64, f: impl FnOnce(&Csr<'_>) -> R) -> R {
    let need = random_shortcut::RandomShortcutSizes::of(n, d);
    let mut slots = vec![Slot::EMPTY; need.slots];
    let mut degree = vec![0u16; need.degree];
    let (g, _) = random_shortcut::build(n, d, &mut Rng::new(seed), &mut slots, &mut degree)
        .expect("valid random shortcut parameters");
    with_csr(&g, f)
}

/// Edges of `G(n, log2 n)`: `a ~ a + 2^i` (the `n/2` jump once per pair).
fn g_edges(n: u32) -> impl Iterator<Item = (u32, u32)> {
    let k = n.trailing_zeros();
    (0..n).flat_map(move |a| {
        (0..k)
            .map(|i| 1u32 << i)
            .filter(move |&j| !(j == n / 2 && a >= n / 2))
            .map(move |j| (a, (a + j) % n))
    })
}

fn bench_all_pairs<const W: usize>(c: &mut Criterion, name: &str, csr: &Csr<'_>) {
    let n = csr.num_vertices();
    let mut words = vec![[0u64; W]; bit_bfs::words_needed(n)];
    c.bench_function(name, |b| {
        b.iter(|| {
            let s = bit_bfs::all_pairs(csr, &mut words, DistanceOutputs::none(), &mut |_, _| {})
                .expect("buffers sized by words_needed");
            black_box((s.diameter, s.aspl()))
        })
    });
}

fn large_random_shortcut(c: &mut Criterion) {
    with_random_shortcut(32_768, 29, 1, |csr| {
        bench_all_pairs::<4>(c, "all_pairs/random_shortcut_n32768_d29/bit_bfs_w4", csr)
    });
}

fn g_circulant_single_bfs(c: &mut Criterion) {
    let n = 32_768;
    let mut slots = vec![Slot::EMPTY; n as usize * 29];
    let mut degree = vec![0u16; n as usize];
    let g = from_edges(n, 29, 1, g_edges(n), &mut slots, &mut degree).expect("G(n) edges");
    c.bench_function("csr/g_n32768_k15", |b| {
        let size = csr_size(&g);
        let mut offsets = vec![0; size.offsets];
        let mut targets = vec![0; size.targets];
        b.iter(|| black_box(Csr::build(&g, &mut offsets, &mut targets).map(|c| c.num_arcs())))
    });
    with_csr(&g, |csr| {
        let mut dist = vec![0u32; n as usize];
        let mut queue = vec![0u32; n as usize];
        c.bench_function("diameter_aspl/g_n32768_k15/single_bfs", |b| {
            b.iter(|| {
                let s = transitive::summary_from_switch_zero(
                    csr,
                    &mut dist,
                    &mut queue,
                    DistanceOutputs::none(),
                )
                .expect("buffers of n entries");
                black_box((s.diameter, s.aspl()))
            })
        });
    });
}

fn networkx_comparison_graph(c: &mut Criterion) {
    with_random_shortcut(4096, 23, 1, |csr| {
        bench_all_pairs::<1>(c, "all_pairs/random_shortcut_n4096_d23/bit_bfs_w1", csr);
        bench_all_pairs::<4>(c, "all_pairs/random_shortcut_n4096_d23/bit_bfs_w4", csr);
        bench_all_pairs::<8>(c, "all_pairs/random_shortcut_n4096_d23/bit_bfs_w8", csr);
        let mut dist = vec![0u32; 4096];
        let mut queue = vec![0u32; 4096];
        c.bench_function("all_pairs/random_shortcut_n4096_d23/reference_bfs", |b| {
            b.iter(|| {
                let s = bfs::all_pairs(csr, &mut dist, &mut queue, DistanceOutputs::none())
                    .expect("n entries");
                black_box((s.diameter, s.aspl()))
            })
        });
    });
}

fn random_shortcut_construction(c: &mut Criterion) {
    let need = random_shortcut::RandomShortcutSizes::of(32_768, 29);
    let mut slots = vec![Slot::EMPTY; need.slots];
    let mut degree = vec![0u16; need.degree];
    c.bench_function("build/random_shortcut_n32768_d29", |b| {
        b.iter(|| {
            let (_, info) =
                random_shortcut::build(32_768, 29, &mut Rng::new(1), &mut slots, &mut degree)
                    .expect("valid parameters");
            black_box(info)
        })
    });
}

fn quick() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
}

criterion_group! {
    name = large;
    config = quick();
    targets = large_random_shortcut
}
criterion_group! {
    name = small;
    config = quick();
    targets = g_circulant_single_bfs, networkx_comparison_graph, random_shortcut_construction
}
criterion_main!(small, large);
