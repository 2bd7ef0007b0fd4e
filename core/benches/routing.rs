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
//!
//! A second group covers the Dragonfly and PARX (see the section at the end of the file).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use jumpnet_core::image::route_table::{encode, max_image_len};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::deadlock::cycle::Frame;
use jumpnet_core::routing::dfsssp::{dfsssp, DfssspBuffers, DfssspConfig, DfssspSizes};
use jumpnet_core::routing::minimal::{all_tables, switch_table, SwitchTableBuffers};
use jumpnet_core::routing::{
    DistanceMatrix, MinimalRouting, RouteEntry, Run, RunTableBuilder, TableSetBuilder,
};
use jumpnet_core::topology::stored::{from_edges, Slot};
use jumpnet_core::topology::{StoredGraph, Topology};

use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::dragonfly::valiant::{Arrival, DragonflyValiant, Intermediate};
use jumpnet_core::routing::parx::parx;
use jumpnet_core::routing::RunTable;
use jumpnet_core::topology::{Dragonfly, GlobalArrangement, HyperX};

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
    let z = DfssspSizes::of(g);
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
        DfssspBuffers {
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
                SwitchTableBuffers {
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

// ---------------------------------------------------------------------------------------
// Dragonfly and PARX (docs/routing.md §4, §7):
//
// * `dragonfly/minimal_tables_all_switches`: the minimal-routing forwarding tables of every
//   router, every destination terminal, of the [DF-BC] 16,512-terminal Dragonfly (g = 129,
//   a = 16, p = 8, h = 8, consecutive arrangement; target < 1 s).
// * `dragonfly/minimal_table_one_switch`: one router's table (device variant).
// * `parx/hx12x8`: PARX paths and layers on the [HX] 12×8 HyperX with 7 terminals per switch.
//
// Before measuring, table sizes per switch (runs, in-memory bytes, image bytes) are printed
// for minimal routing and for the per-arrival tables of destination-based Valiant routing
// (sampled on the routers of group 0), and the PARX layer count.

fn df_bc() -> Dragonfly {
    Dragonfly::new(129, 16, 8, 8, GlobalArrangement::Consecutive).expect("dragonfly")
}

/// Upper bound on the runs of one minimal table: one per remote group, per local router and
/// per own terminal.
fn df_runs_per_switch(df: &Dragonfly) -> usize {
    (df.g() + df.a() + df.p()) as usize
}

fn df_minimal_all(df: &Dragonfly, runs: &mut [Run<RouteEntry>], offs: &mut [u32]) -> usize {
    let r = DragonflyMinimal::new(df, MinimalVcs::Dateline);
    let mut b =
        TableSetBuilder::new(df.num_switches(), df.num_terminals(), runs, offs).expect("builder");
    r.tables(&mut b).expect("tables");
    b.finish().expect("finish").total_runs()
}

/// (runs, image bytes) of one table.
fn table_size(s: u32, t: &RunTable<'_, RouteEntry>, img: &mut [u8]) -> (usize, usize) {
    (t.runs().len(), encode(s, t, img).expect("encode"))
}

fn report_dragonfly(df: &Dragonfly) {
    let (n, nt) = (df.num_switches() as usize, df.num_terminals() as usize);
    let run_bytes = std::mem::size_of::<Run<RouteEntry>>();
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        n * df_runs_per_switch(df)
    ];
    let mut offs = vec![0u32; n + 1];
    let t0 = Instant::now();
    let r = DragonflyMinimal::new(df, MinimalVcs::Dateline);
    let mut b = TableSetBuilder::new(n as u32, nt as u32, &mut runs, &mut offs).expect("builder");
    r.tables(&mut b).expect("tables");
    let set = b.finish().expect("finish");
    let el = t0.elapsed();
    let mut img = vec![0u8; max_image_len(nt)];
    let (mut total_img, mut max_img, mut max_runs) = (0usize, 0usize, 0usize);
    for s in 0..n as u32 {
        let (k, bytes) = table_size(s, &set.table(s).expect("table"), &mut img);
        total_img += bytes;
        max_img = max_img.max(bytes);
        max_runs = max_runs.max(k);
    }
    eprintln!(
        "Dragonfly g=129 a=16 p=8 h=8 ({nt} terminals, {n} routers) minimal tables: one pass {el:?}; \
         {:.1} runs/switch (max {max_runs}), in-memory {:.0} bytes/switch ({run_bytes} B/run), \
         image {:.1} bytes/switch (max {max_img}); uncompressed {} bytes/switch",
        set.total_runs() as f64 / n as f64,
        (set.total_runs() * run_bytes) as f64 / n as f64,
        total_img as f64 / n as f64,
        nt * std::mem::size_of::<RouteEntry>(),
    );
    // Destination-based Valiant: four per-arrival tables per router, sampled on group 0.
    let v = DragonflyValiant::new(df, Intermediate::PerDestination, 1);
    let mut own = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        nt
    ];
    for arrival in [
        Arrival::Terminal,
        Arrival::Vc(0),
        Arrival::Vc(1),
        Arrival::Vc(2),
    ] {
        let (mut k_sum, mut img_sum) = (0usize, 0usize);
        for s in 0..df.a() {
            let mut tb = RunTableBuilder::new(&mut own);
            for d in 0..nt as u32 {
                tb.push(v.table_entry(s, arrival, d).expect("entry"))
                    .expect("push");
            }
            let (k, bytes) = table_size(s, &tb.finish(), &mut img);
            k_sum += k;
            img_sum += bytes;
        }
        let a = df.a() as f64;
        eprintln!(
            "  Valiant (per destination) {arrival:?} tables: {:.0} runs/switch, in-memory {:.0} \
             bytes/switch, image {:.0} bytes/switch (routers of group 0)",
            k_sum as f64 / a,
            (k_sum * run_bytes) as f64 / a,
            img_sum as f64 / a
        );
    }
}

fn run_parx(hx: &HyperX, print: bool) {
    let z = DfssspSizes::of_parx(hx);
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
    let cfg = DfssspConfig {
        max_layers: 8,
        balance: false,
        base_weight: None,
    };
    let (_, rep) = parx(
        hx,
        &cfg,
        &[],
        DfssspBuffers {
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
    .expect("parx");
    if print {
        eprintln!(
            "PARX 12x8 HyperX (672 terminals, 4 LIDs each): {:?} for {} paths; layers needed {}; \
             {} cycles broken, {} paths moved; buffers {} MiB; per layer {:?}",
            t0.elapsed(),
            rep.paths,
            rep.layers_needed,
            rep.cycles_broken,
            rep.paths_moved,
            z.bytes() >> 20,
            &rep.paths_per_layer[..rep.layers_used as usize]
        );
    }
    black_box(rep);
}

fn dragonfly_parx_benches(c: &mut Criterion) {
    let df = df_bc();
    report_dragonfly(&df);
    let hx = HyperX::new(&[12, 8], 1, 7).expect("hyperx");
    run_parx(&hx, true);

    let (n, nt) = (df.num_switches() as usize, df.num_terminals() as usize);
    let mut group = c.benchmark_group("dragonfly");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        n * df_runs_per_switch(&df)
    ];
    let mut offs = vec![0u32; n + 1];
    group.bench_function("minimal_tables_all_switches", |b| {
        b.iter(|| black_box(df_minimal_all(&df, &mut runs, &mut offs)))
    });
    let mut own = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        nt
    ];
    let r = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    group.bench_function("minimal_table_one_switch", |b| {
        b.iter(|| {
            let mut tb = RunTableBuilder::new(&mut own);
            r.switch_table(black_box(1000), &mut tb).expect("table");
            black_box(tb.runs_used())
        })
    });
    group.finish();

    let mut group = c.benchmark_group("parx");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("hx12x8", |b| b.iter(|| run_parx(&hx, false)));
    group.finish();
}

criterion_group!(dragonfly_parx, dragonfly_parx_benches);
criterion_main!(routing, dragonfly_parx);
