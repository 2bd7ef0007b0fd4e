//! Benchmarks of the mapping optimisers (docs/mapping.md §3, §5).
//!
//! * `two_opt/allreduce_512_on_1024_d19`: 200,000 two-opt iterations, 512 ranks randomly
//!   mapped on a 1,024-node ring-based random shortcut graph of degree 19, recursive-doubling
//!   allreduce hop objective (target: under 1 s).
//! * `ga/proxy_8x8_1000x20`: GA S03-ml with the contention proxy on the 8×8 torus (DOR), three
//!   patterns, 1,000 genes × 20 generations; a full 1,000 × 1,000 run (target: under 60 s) is
//!   timed once when `JUMPNET_BENCH_FULL_GA=1`.
//! * `JUMPNET_BENCH_A5=1` prints start vs two-opt hop totals for the nine cases of
//!   docs/reference-results.md A5 on this graph (project rank orders), plus `random*` (random
//!   mapping, random rank order) and `tree-bfs` (tree mapping, ranks in BFS order).
//!
//! Run: `cargo bench -p jumpnet-core --bench mapping`.

use std::collections::{HashSet, VecDeque};
use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, Criterion};
use jumpnet_core::mapping::ga::{
    Address, AvgHop, Fitness, Ga, GaBuffers, GaConfig, GaProblem, Grid, NeighbourPick, PatternSet,
    ProxyFitness, Ranking, Score, Ties, TrafficPattern, Variant,
};
use jumpnet_core::mapping::{
    apply_rank_order, bfs_mapping, random_free_node, random_mapping, ring_mapping, two_opt,
    BfsBuffers, ChannelId, DistanceMatrix, DistanceOracle, FreeNodes, HopObjective, MappingKind,
    Message, NodeId, PathOracle, RankIndex, RankOrder, SwapObjective, TwoOptConfig,
};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::stored::from_edges;
use jumpnet_core::topology::{Slot, Topology};

const N: u32 = 1024;
const DEGREE: usize = 19;
const RANKS: u32 = 512;

/// Ring-based random shortcut graph (docs/topologies.md §3 reference algorithm): ring, then
/// random links between distinct non-adjacent nodes of degree below `d`.
fn random_shortcut_edges(n: u32, d: usize, seed: u64) -> Vec<(u32, u32)> {
    let mut rng = Rng::new(seed);
    let mut links = HashSet::new();
    let mut deg = vec![2usize; n as usize];
    let mut edges: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    for &(a, b) in &edges {
        links.insert((a.min(b), a.max(b)));
    }
    loop {
        let cand: Vec<u32> = (0..n).filter(|&v| deg[v as usize] < d).collect();
        if cand.len() < 2 {
            break;
        }
        let mut added = false;
        for _ in 0..1000 {
            let (i, j) = rng.distinct_pair(cand.len()).expect("two candidates");
            let (a, b) = (cand[i], cand[j]);
            if links.insert((a.min(b), a.max(b))) {
                edges.push((a, b));
                deg[a as usize] += 1;
                deg[b as usize] += 1;
                added = true;
                break;
            }
        }
        if !added {
            break; // the remaining candidates are (almost surely) pairwise adjacent
        }
    }
    edges
}

/// All-pairs BFS distances of the stored graph.
fn all_pairs<T: Topology>(t: &T) -> Vec<u16> {
    let n = t.num_switches() as usize;
    let mut out = vec![u16::MAX; n * n];
    let mut q = VecDeque::new();
    for s in 0..n {
        let row = &mut out[s * n..(s + 1) * n];
        row[s] = 0;
        q.push_back(s as u32);
        while let Some(u) = q.pop_front() {
            for p in 0..t.radix() {
                if let Some(l) = t.port(u, p).link() {
                    if row[l.peer as usize] == u16::MAX {
                        row[l.peer as usize] = row[u as usize] + 1;
                        q.push_back(l.peer);
                    }
                }
            }
        }
    }
    out
}

fn msg(step: u32, src_rank: u32, dst_rank: u32) -> Message {
    Message {
        step,
        src_rank,
        dst_rank,
    }
}

/// Recursive-doubling allreduce, power-of-two m (docs/collectives.md §2).
fn allreduce(m: u32) -> Vec<Message> {
    let mut v = Vec::new();
    let mut bit = 1;
    let mut step = 1;
    while bit < m {
        v.extend((0..m).map(|r| msg(step, r, r ^ bit)));
        bit <<= 1;
        step += 1;
    }
    v
}

/// Binomial broadcast from rank 0 (docs/collectives.md §1).
fn bcast(m: u32) -> Vec<Message> {
    let k = 32 - (m - 1).leading_zeros();
    let mut v = Vec::new();
    for x in 0..m {
        let limit = if x == 0 { 1 << k } else { x & x.wrapping_neg() };
        let mut j = 0;
        while (1u32 << j) < limit {
            if x + (1 << j) < m {
                v.push(msg(k - j, x, x + (1 << j)));
            }
            j += 1;
        }
    }
    v
}

/// Bruck all-to-all, MPICH direction (docs/collectives.md §3).
fn alltoall(m: u32) -> Vec<Message> {
    let mut v = Vec::new();
    let mut bit = 1;
    let mut step = 0;
    while bit < m {
        v.extend((0..m).map(|r| msg(step, r, (r + bit) % m)));
        bit <<= 1;
        step += 1;
    }
    v
}

struct Network {
    dist: Vec<u16>,
    edges: Vec<(u32, u32)>,
}

fn network() -> Network {
    let edges = random_shortcut_edges(N, DEGREE, 2024);
    let mut slots = vec![Slot::EMPTY; (N as usize) * DEGREE];
    let mut degree = vec![0u16; N as usize];
    let g = from_edges(
        N,
        DEGREE as u16,
        1,
        edges.iter().copied(),
        &mut slots,
        &mut degree,
    )
    .expect("valid graph");
    Network {
        dist: all_pairs(&g),
        edges,
    }
}

/// Rank placement of `kind` on the network (seeded).
fn placement(net: &Network, kind: MappingKind, seed: u64) -> Vec<NodeId> {
    placement_with(net, kind, seed, Order::Project)
}

/// Rank order used for a benchmark placement.
#[derive(Clone, Copy, PartialEq)]
enum Order {
    /// The project's choice (`MappingKind::rank_order`).
    Project,
    /// The mapping's traversal order (BFS order for the tree mapping).
    Traversal,
    /// A random rank order.
    Shuffled,
}

/// Rank placement of `kind` with the given rank order.
fn placement_with(net: &Network, kind: MappingKind, seed: u64, order: Order) -> Vec<NodeId> {
    let mut rng = Rng::new(seed);
    let mut nodes = vec![0; RANKS as usize];
    match kind {
        MappingKind::Random => {
            random_mapping(N, FreeNodes::All, &mut rng, &mut nodes).expect("random mapping")
        }
        MappingKind::HierarchicalTree => {
            let mut slots = vec![Slot::EMPTY; (N as usize) * DEGREE];
            let mut degree = vec![0u16; N as usize];
            let g = from_edges(
                N,
                DEGREE as u16,
                1,
                net.edges.iter().copied(),
                &mut slots,
                &mut degree,
            )
            .expect("valid graph");
            let root = random_free_node(N, FreeNodes::All, &mut rng).expect("root");
            let (mut queue, mut seen) = (vec![0; N as usize], vec![false; N as usize]);
            let scratch = BfsBuffers {
                queue: &mut queue,
                seen: &mut seen,
            };
            bfs_mapping(&g, FreeNodes::All, root, &mut nodes, scratch).expect("bfs mapping")
        }
        _ => {
            let start = rng.below(N as u64) as u32;
            ring_mapping(N, FreeNodes::All, start, &mut nodes).expect("ring mapping")
        }
    }
    match order {
        Order::Project => apply_rank_order(kind.rank_order(), &mut nodes),
        Order::Traversal => apply_rank_order(RankOrder::Traversal, &mut nodes),
        Order::Shuffled => rng.shuffle(&mut nodes),
    }
    nodes
}

/// Start and two-opt totals for one case.
fn optimise(net: &Network, msgs: &[Message], start: &[NodeId], iterations: u64) -> (u64, u64) {
    let mut off = vec![0; RANKS as usize + 1];
    let mut items = vec![0; RankIndex::items_needed(msgs)];
    let index = RankIndex::build(msgs, RANKS, &mut off, &mut items).expect("index");
    let oracle = DistanceMatrix::new(N, &net.dist).expect("matrix");
    let mut obj = HopObjective::new(oracle, msgs, index).expect("objective");
    let mut p = start.to_vec();
    let cfg = TwoOptConfig {
        iterations,
        seed: 1,
        report_every: 0,
    };
    let out = two_opt(&mut obj, &mut p, &cfg, &mut |_, _| {}).expect("two-opt");
    (out.initial, out.best)
}

fn bench_two_opt(c: &mut Criterion) {
    let net = network();
    let msgs = allreduce(RANKS);
    let start = placement(&net, MappingKind::Random, 7);
    let mut off = vec![0; RANKS as usize + 1];
    let mut items = vec![0; RankIndex::items_needed(&msgs)];
    let index = RankIndex::build(&msgs, RANKS, &mut off, &mut items).expect("index");
    let oracle = DistanceMatrix::new(N, &net.dist).expect("matrix");
    let mut obj = HopObjective::new(oracle, &msgs, index).expect("objective");
    let cfg = TwoOptConfig {
        iterations: 200_000,
        seed: 1,
        report_every: 0,
    };
    let mut group = c.benchmark_group("two_opt");
    group.sample_size(10);
    group.bench_function("allreduce_512_on_1024_d19", |b| {
        b.iter(|| {
            let mut p = start.clone();
            let out = two_opt(&mut obj, &mut p, &cfg, &mut |_, _| {}).expect("two-opt");
            black_box(out.best)
        })
    });
    group.finish();
    let _ = obj.value();
}

/// Dimension-order routing on the side × side torus (docs/routing.md §2, tie → +); channel id =
/// node · 4 + direction.
#[derive(Clone, Copy)]
struct TorusDor {
    side: u32,
}

impl PathOracle for TorusDor {
    fn num_channels(&self) -> u32 {
        self.side * self.side * 4
    }
    fn for_each_channel<F: FnMut(ChannelId)>(&self, a: NodeId, b: NodeId, mut f: F) {
        let k = self.side;
        let (mut x, mut y) = (a % k, a / k);
        let (tx, ty) = (b % k, b / k);
        while x != tx {
            let plus = (tx + k - x) % k;
            if plus <= k - plus {
                f((y * k + x) * 4);
                x = (x + 1) % k;
            } else {
                f((y * k + x) * 4 + 1);
                x = (x + k - 1) % k;
            }
        }
        while y != ty {
            let plus = (ty + k - y) % k;
            if plus <= k - plus {
                f((y * k + x) * 4 + 2);
                y = (y + 1) % k;
            } else {
                f((y * k + x) * 4 + 3);
                y = (y + k - 1) % k;
            }
        }
    }
}

/// Torus distance.
#[derive(Clone, Copy)]
struct TorusDistance {
    side: u32,
}

impl DistanceOracle for TorusDistance {
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        let k = self.side;
        let d = |p: u32, q: u32| {
            let t = (q + k - p) % k;
            t.min(k - t)
        };
        d(a % k, b % k) + d(a / k, b / k)
    }
}

const SIDE: u16 = 8;

/// Destination tables of bcmp, shfl and trns on the 8×8 grid.
fn ga_patterns(grid: Grid) -> Vec<Address> {
    let nodes = grid.nodes();
    let kinds = [
        TrafficPattern::BitComplement,
        TrafficPattern::Shuffle,
        TrafficPattern::Transpose,
    ];
    let mut dest = vec![0; nodes * kinds.len()];
    let mut scratch = vec![0; nodes];
    let mut rng = Rng::new(0);
    for (k, p) in kinds.iter().enumerate() {
        p.fill(
            grid,
            &mut rng,
            &mut scratch,
            &mut dest[k * nodes..(k + 1) * nodes],
        )
        .expect("pattern");
    }
    dest
}

/// Proxy score of the identity ("physical") mapping.
fn identity_score() -> Score {
    let grid = Grid::new(SIDE).expect("grid");
    let dest = ga_patterns(grid);
    let patterns = PatternSet::new(grid.nodes(), &dest).expect("patterns");
    let paths = TorusDor { side: SIDE as u32 };
    let (mut loads, mut inv) = (
        vec![0; paths.num_channels() as usize],
        vec![0; grid.nodes()],
    );
    let mut fitness = ProxyFitness::new(paths, patterns, &mut loads, &mut inv).expect("fitness");
    let identity: Vec<Address> = (0..grid.nodes() as Address).collect();
    fitness.evaluate(&identity)
}

/// One GA run (S03-ml, bcmp + shfl + trns) of `population × generations`; returns the best
/// score.
fn ga_run(population: usize, generations: u32, seed: u64) -> Score {
    let grid = Grid::new(SIDE).expect("grid");
    let nodes = grid.nodes();
    let dest = ga_patterns(grid);
    let patterns = PatternSet::new(nodes, &dest).expect("patterns");
    let paths = TorusDor { side: SIDE as u32 };
    let (mut loads, mut inv) = (vec![0; paths.num_channels() as usize], vec![0; nodes]);
    let fitness = ProxyFitness::new(paths, patterns, &mut loads, &mut inv).expect("fitness");
    let mut genes: Vec<Address> = vec![0; population * nodes];
    let zero = Score {
        duration: 0,
        avg_hop: AvgHop { hops: 0, pairs: 0 },
    };
    let mut scores = vec![zero; population];
    let (mut order, mut inverse) = (vec![0; population], vec![0; nodes]);
    let mut born = vec![0; population];
    let ga = Ga::new(
        GaConfig {
            variant: Variant::S03,
            ranking: Ranking::Product,
            seed,
            neighbour: NeighbourPick::NotAdjacent,
            ties: Ties::Slot,
        },
        GaProblem {
            grid,
            patterns,
            distance: TorusDistance { side: SIDE as u32 },
        },
        fitness,
        GaBuffers {
            genes: &mut genes,
            scores: &mut scores,
            order: &mut order,
            inverse: &mut inverse,
            born: &mut born,
        },
    )
    .expect("ga");
    let mut best = vec![0; nodes];
    ga.run(generations, &mut best, &mut |_, _| {})
        .expect("run")
        .best
}

fn bench_ga(c: &mut Criterion) {
    let mut group = c.benchmark_group("ga");
    group.sample_size(10);
    group.bench_function("proxy_8x8_1000x20", |b| {
        b.iter(|| black_box(ga_run(1000, 20, 3)))
    });
    group.finish();
}

/// One timed full GA run (1,000 genes × 1,000 generations).
fn full_ga_run() {
    let phys = identity_score();
    let t = Instant::now();
    let best = ga_run(1000, 1000, 3);
    println!(
        "full GA S03-ml 1000 genes x 1000 generations: {:.2} s, best proxy duration {} cycles, \
         avg.hop {:.3} (identity mapping: {} cycles, avg.hop {:.3})",
        t.elapsed().as_secs_f64(),
        best.duration,
        best.avg_hop.as_f64(),
        phys.duration,
        phys.avg_hop.as_f64()
    );
}

/// Start vs two-opt (200,000 iterations) hop totals, docs/reference-results.md A5 layout.
fn a5_table() {
    let net = network();
    for (name, msgs) in [
        ("bcast", bcast(RANKS)),
        ("allreduce", allreduce(RANKS)),
        ("alltoall", alltoall(RANKS)),
    ] {
        for (kind, order) in [
            (MappingKind::Random, Order::Project),
            (MappingKind::HierarchicalTree, Order::Project),
            (MappingKind::RingConsecutive, Order::Project),
            (MappingKind::Random, Order::Shuffled),
            (MappingKind::HierarchicalTree, Order::Traversal),
        ] {
            let start = placement_with(&net, kind, 7, order);
            let t = Instant::now();
            let (asc, opt) = optimise(&net, &msgs, &start, 200_000);
            println!(
                "A5 {name:9} {:9} start {asc:6} two-opt {opt:6} ({:.1} % lower, {:.2} s)",
                match order {
                    Order::Project => kind.name(),
                    Order::Shuffled => "random*",
                    Order::Traversal => "tree-bfs",
                },
                100.0 * (asc - opt) as f64 / asc as f64,
                t.elapsed().as_secs_f64()
            );
        }
    }
}

criterion_group!(benches, bench_two_opt, bench_ga);

fn main() {
    if std::env::var_os("JUMPNET_BENCH_A5").is_some() {
        a5_table();
    }
    if std::env::var_os("JUMPNET_BENCH_FULL_GA").is_some() {
        full_ga_run();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
