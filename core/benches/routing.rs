//! Routing benchmarks on a 1,024-switch random graph of degree 19 (ring + random shortcuts
//! built by edges, one terminal per switch — the [DISS] evaluation size):
//!
//! * `bfs_tables/all_switches`: all-pairs distance matrix + every switch's minimal-routing
//!   table (host variant; target < 0.5 s).
//! * `bfs_tables/one_switch`: one switch's table from O(n) scratch (device variant).
//! * `dfsssp/full`: DFSSSP paths, layers and balancing over 16 layers (target < 30 s).
//!
//! Before measuring, the table sizes (runs and image bytes per switch) and the DFSSSP layer
//! counts are printed once.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::cycle::Frame;
use jumpnet_core::routing::dfsssp::{dfsssp, DfssspConfig, DfssspSizes, DfssspStorage};
use jumpnet_core::routing::image::{encode, max_image_len};
use jumpnet_core::routing::minimal::{all_tables, switch_table, SwitchTableScratch};
use jumpnet_core::routing::{
    DistanceMatrix, MinimalRouting, RouteEntry, Run, RunTableBuilder, TableSetBuilder,
};
use jumpnet_core::topology::stored::{from_edges, Slot};
use jumpnet_core::topology::{StoredGraph, Topology};

const N: u32 = 1024;
const DEGREE: u16 = 19;

/// Ring plus random shortcuts between switches whose degree is still below `DEGREE`.
fn edges(seed: u64) -> Vec<(u32, u32)> {
    let n = N as usize;
    let mut e: Vec<(u32, u32)> = (0..N).map(|i| (i, (i + 1) % N)).collect();
    let mut deg = vec![2u16; n];
    let mut linked = std::collections::HashSet::new();
    for &(a, b) in &e {
        linked.insert((a.min(b), a.max(b)));
    }
    let mut rng = Rng::new(seed);
    let mut misses = 0;
    loop {
        let cand: Vec<u32> = (0..N).filter(|&v| deg[v as usize] < DEGREE).collect();
        if cand.len() < 2 || misses > 10_000 {
            break;
        }
        let Some((i, j)) = rng.distinct_pair(cand.len()) else {
            break;
        };
        let (a, b) = (cand[i], cand[j]);
        if !linked.insert((a.min(b), a.max(b))) {
            misses += 1;
            continue;
        }
        e.push((a, b));
        deg[a as usize] += 1;
        deg[b as usize] += 1;
    }
    e
}

struct Graph {
    slots: Vec<Slot>,
    deg: Vec<u16>,
    edges: Vec<(u32, u32)>,
}

impl Graph {
    fn new() -> Graph {
        Graph {
            slots: vec![Slot::EMPTY; N as usize * DEGREE as usize],
            deg: vec![0; N as usize],
            edges: edges(1),
        }
    }
    fn view(&mut self) -> StoredGraph<'_> {
        from_edges(
            N,
            DEGREE,
            1,
            self.edges.iter().copied(),
            &mut self.slots,
            &mut self.deg,
        )
        .expect("graph builds")
    }
}

fn bfs_all(
    g: &StoredGraph<'_>,
    dist: &mut [u16],
    q: &mut [u32],
    runs: &mut [Run<RouteEntry>],
    offs: &mut [u32],
) -> usize {
    let dm = DistanceMatrix::compute(g, dist, q).expect("distances");
    let r = MinimalRouting::new(g, dm).expect("routing");
    let mut b = TableSetBuilder::new(N, g.num_terminals(), runs, offs).expect("builder");
    let (mut bd, mut bp) = (vec![0u16; N as usize], vec![0u16; N as usize]);
    all_tables(&r, &mut bd, &mut bp, &mut b).expect("tables");
    b.finish().expect("finish").total_runs()
}

fn report_sizes(g: &StoredGraph<'_>) {
    let n = N as usize;
    let nt = g.num_terminals() as usize;
    let mut dist = vec![0u16; n * n];
    let mut q = vec![0u32; n];
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        n * nt
    ];
    let mut offs = vec![0u32; n + 1];
    let t0 = Instant::now();
    let dm = DistanceMatrix::compute(g, &mut dist, &mut q).expect("distances");
    let r = MinimalRouting::new(g, dm).expect("routing");
    let mut b = TableSetBuilder::new(N, nt as u32, &mut runs, &mut offs).expect("builder");
    let (mut bd, mut bp) = (vec![0u16; n], vec![0u16; n]);
    all_tables(&r, &mut bd, &mut bp, &mut b).expect("tables");
    let set = b.finish().expect("finish");
    let el = t0.elapsed();
    let mut img = vec![0u8; max_image_len(nt)];
    let (mut bytes, mut max_bytes, mut max_runs) = (0usize, 0usize, 0usize);
    for s in 0..N {
        let t = set.table(s).expect("table");
        let len = encode(s, &t, &mut img).expect("encode");
        bytes += len;
        max_bytes = max_bytes.max(len);
        max_runs = max_runs.max(t.runs().len());
    }
    eprintln!(
        "BFS tables: {} switches, {} runs ({:.1} runs/switch, max {}), image {:.1} bytes/switch (max {}), \
         in-memory {} bytes/switch; one pass {:?}",
        N,
        set.total_runs(),
        set.total_runs() as f64 / n as f64,
        max_runs,
        bytes as f64 / n as f64,
        max_bytes,
        set.total_runs() * std::mem::size_of::<Run<RouteEntry>>() / n,
        el
    );
}

fn run_dfsssp(g: &StoredGraph<'_>, print: bool) {
    let z = DfssspSizes::for_topology(g);
    let mut w = vec![0u64; z.weights];
    let mut d = vec![0u64; z.dist];
    let mut s = vec![0u32; z.scratch];
    let mut np = vec![0u16; z.per_path];
    let mut l = vec![0u8; z.per_path];
    let mut t = vec![0u32; z.tree];
    let mut dc = vec![0u32; z.dep_count];
    let mut bc = vec![0u32; z.by_channel];
    let mut cs = vec![0u32; z.channel_start];
    let mut c = vec![0u32; z.channels];
    let mut st = vec![Frame::default(); z.channels];
    let t0 = Instant::now();
    // 16 layers (the most DFSSSP searches) so the bench reports how many this graph needs;
    // with the [HX] hardware limit of 8 the same call fails with `TooManyLayers`.
    let cfg = DfssspConfig {
        max_layers: 16,
        ..DfssspConfig::default()
    };
    let (_, rep) = dfsssp(
        g,
        &cfg,
        DfssspStorage {
            weights: &mut w,
            dist: &mut d,
            scratch: &mut s,
            next_port: &mut np,
            layer: &mut l,
            tree: &mut t,
            dep_count: &mut dc,
            by_channel: &mut bc,
            channel_start: &mut cs,
            color: &mut c,
            stack: &mut st,
        },
    )
    .expect("dfsssp");
    if print {
        eprintln!(
            "DFSSSP: {:?} for {} paths; layers needed {}, used {}; {} cycles broken, {} paths moved; \
             buffers {} MiB; per layer {:?}",
            t0.elapsed(),
            rep.paths,
            rep.layers_needed,
            rep.layers_used,
            rep.cycles_broken,
            rep.paths_moved,
            z.bytes() >> 20,
            &rep.paths_per_layer[..rep.layers_used as usize]
        );
    }
    black_box(rep);
}

fn benches(c: &mut Criterion) {
    let mut graph = Graph::new();
    let g = graph.view();
    report_sizes(&g);
    run_dfsssp(&g, true);

    let n = N as usize;
    let nt = g.num_terminals() as usize;
    let mut group = c.benchmark_group("bfs_tables");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let mut dist = vec![0u16; n * n];
    let mut q = vec![0u32; n];
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        n * nt
    ];
    let mut offs = vec![0u32; n + 1];
    group.bench_function("all_switches", |b| {
        b.iter(|| black_box(bfs_all(&g, &mut dist, &mut q, &mut runs, &mut offs)))
    });
    let (mut d, mut qq, mut bd, mut bp) =
        (vec![0u16; n], vec![0u32; n], vec![0u16; n], vec![0u16; n]);
    let mut own = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        nt
    ];
    group.bench_function("one_switch", |b| {
        b.iter(|| {
            let mut tb = RunTableBuilder::new(&mut own);
            switch_table(
                &g,
                black_box(17),
                SwitchTableScratch {
                    dist: &mut d,
                    queue: &mut qq,
                    best_dist: &mut bd,
                    best_port: &mut bp,
                },
                &mut tb,
            )
            .expect("table");
            black_box(tb.runs_used())
        })
    });
    group.finish();

    let mut group = c.benchmark_group("dfsssp");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("full", |b| b.iter(|| run_dfsssp(&g, false)));
    group.finish();
}

criterion_group!(routing, benches);
criterion_main!(routing);
