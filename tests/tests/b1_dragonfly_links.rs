//! docs/reference-results.md B1 (D formulas, R allocations) and B3 (qualitative makespan order):
//! [DF-BC] on the Dragonfly g = 129, a = 16, p = 8, h = 8 (16,512 terminals, one global
//! link per group pair, consecutive arrangement) with minimal routing.
//!
//! Routing: the Dragonfly minimal routing of docs/routing.md §4 (local → global → local,
//! [DF-BC]/CODES "minimal", `routing::dragonfly::minimal`), cross-checked route by route
//! against an independent implementation in the test crate
//! ([`ReferenceDragonflyMinimal`]). Generic BFS routing is *not* equivalent here: some router
//! pairs of different groups are joined by two global links (2 hops) where the minimal
//! Dragonfly path has 3, and BFS takes the shorter one (TREE, seed 1: 10,402 global and
//! 18,842 local link messages instead of 10,163 and 19,100).
//!
//! Allocations: 10,240 distinct terminals drawn uniformly (seeds [`SEEDS`]), rank i on the
//! i-th drawn terminal (random rank order, so every TREE message joins two uniformly random
//! terminals as the formulas assume). TREE = binomial broadcast over ranks 0..n from rank 0;
//! LLF, GLF and FOREST from rank 0 over the same allocation.

use jumpnet_core::analysis::{
    analyse, dragonfly_placement, makespan, Analysis, Outputs, RankClock, RoutedNetwork,
    StepBuffers,
};
use jumpnet_core::collective::dragonfly::formulas::DragonflyParams;
use jumpnet_core::collective::dragonfly::links::count_links;
use jumpnet_core::collective::dragonfly::{
    broadcast, Algorithm, DragonflyBuffers, DragonflySizes, Placement,
};
use jumpnet_core::collective::{Binomial, Schedule};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::Routing;
use jumpnet_core::topology::{Dragonfly, GlobalArrangement, LinkClass, Topology};
use jumpnet_tests::{blank_messages, check_schedule, ReferenceDragonflyMinimal};

const G: u32 = 129;
const A: u32 = 16;
const P: u32 = 8;
const H: u32 = 8;
const JOB: usize = 10_240;
/// Allocation seeds.
const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

const PARAMS: DragonflyParams = DragonflyParams {
    g: G as u64,
    a: A as u64,
    p: P as u64,
    h: H as u64,
};

fn network() -> Dragonfly {
    Dragonfly::new(G, A, P, H, GlobalArrangement::Consecutive).unwrap()
}

/// `n` distinct random terminals in draw order (rank i → i-th terminal).
fn allocation(df: &Dragonfly, n: usize, seed: u64) -> Vec<u32> {
    let mut all: Vec<u32> = (0..df.num_terminals()).collect();
    Rng::new(seed).shuffle(&mut all);
    all.truncate(n);
    all
}

/// Routes `s` and cross-checks the link counts against the [DF-BC] §III-E per-message rule
/// (`collective::dragonfly::links`) fed by the topology's own global links.
fn analysed<S: Schedule>(df: &Dragonfly, s: &S, terminals: &[u32], job: &[Placement]) -> Analysis {
    let routing = DragonflyMinimal::new(df, MinimalVcs::Dateline);
    let a = analyse(
        &RoutedNetwork::new(df, &routing),
        s,
        terminals,
        Outputs::default(),
    )
    .unwrap();
    let c = count_links(s, job, df).unwrap();
    assert_eq!(
        (a.links.global, a.links.local, a.links.terminal),
        (c.global, c.local, c.terminal)
    );
    assert_eq!(a.links.router_links(), a.links.global + a.links.local);
    a
}

fn makespan_of<S: Schedule>(df: &Dragonfly, s: &S, terminals: &[u32]) -> u64 {
    let routing = DragonflyMinimal::new(df, MinimalVcs::Dateline);
    let mut clocks = vec![RankClock::default(); terminals.len()];
    makespan(&RoutedNetwork::new(df, &routing), s, terminals, &mut clocks)
        .unwrap()
        .time
}

fn aware<'m>(
    df: &Dragonfly,
    alg: Algorithm,
    job: &[Placement],
    msgs: &'m mut [jumpnet_core::collective::Message],
) -> jumpnet_core::collective::ListSchedule<'m> {
    let mut scratch = vec![0u32; DragonflySizes::of_broadcast(job.len()).scratch];
    broadcast(
        alg,
        job,
        0,
        df,
        1024,
        DragonflyBuffers {
            msgs,
            scratch: &mut scratch,
        },
    )
    .unwrap()
}

fn used_groups(job: &[Placement]) -> u64 {
    let mut g: Vec<u32> = job.iter().map(|p| p.group).collect();
    g.sort_unstable();
    g.dedup();
    g.len() as u64
}

#[test]
fn b1_tree_and_topology_aware_link_counts() {
    let df = network();
    assert_eq!(df.num_terminals(), 16_512);
    let want_global = PARAMS.tree_global(JOB as u64).to_f64();
    let want_local = PARAMS.tree_local_paper(JOB as u64).to_f64();
    let (mut sum_global, mut sum_local) = (0.0, 0.0);
    for seed in SEEDS {
        let terminals = allocation(&df, JOB, seed);
        let mut job = vec![
            Placement {
                group: 0,
                router: 0
            };
            JOB
        ];
        dragonfly_placement(&df, &terminals, &mut job).unwrap();

        let tree = Binomial::new(JOB as u32, 0, 1024).unwrap();
        let t = analysed(&df, &tree, &terminals, &job);
        let (global, local) = (
            t.links.get(LinkClass::Global),
            t.links.get(LinkClass::Local),
        );
        eprintln!(
            "B1 seed {seed}: TREE global {global} ({:+.2} %), local {local} ({:+.2} %), terminal {}",
            100.0 * (global as f64 / want_global - 1.0),
            100.0 * (local as f64 / want_local - 1.0),
            t.links.terminal
        );
        assert!((global as f64 / want_global - 1.0).abs() < 0.03, "{global}");
        assert!((local as f64 / want_local - 1.0).abs() < 0.03, "{local}");
        assert_eq!(t.links.terminal, 2 * (JOB as u64 - 1));
        sum_global += global as f64;
        sum_local += local as f64;

        for alg in [Algorithm::Llf, Algorithm::Glf, Algorithm::Forest] {
            let mut msgs = blank_messages(JOB - 1);
            let s = aware(&df, alg, &job, &mut msgs);
            let a = analysed(&df, &s, &terminals, &job);
            eprintln!(
                "B1 seed {seed}: {alg:?} global {}, local {}, terminal {}",
                a.links.global, a.links.local, a.links.terminal
            );
            assert!(a.links.global <= PARAMS.aware_global_bound(), "{alg:?}");
            assert_eq!(a.links.global, used_groups(&job) - 1, "{alg:?}");
            assert!(a.links.local <= PARAMS.aware_local_bound(), "{alg:?}");
            assert_eq!(a.links.terminal, 2 * (JOB as u64 - 1), "{alg:?}");
        }
    }
    let k = SEEDS.len() as f64;
    let (mean_global, mean_local) = (sum_global / k, sum_local / k);
    eprintln!(
        "B1 TREE means over {} allocations: global {mean_global:.1} (formula {want_global:.2}), local {mean_local:.1} (formula {want_local:.2}, exact {:.2})",
        SEEDS.len(),
        PARAMS.tree_local_exact(JOB as u64).to_f64()
    );
    assert!((mean_global / want_global - 1.0).abs() < 0.01);
    assert!((mean_local / want_local - 1.0).abs() < 0.01);
}

/// Makespans `[TREE, LLF, GLF, FOREST]` of an `n`-terminal allocation.
fn makespans(df: &Dragonfly, n: usize, seed: u64) -> [u64; 4] {
    let terminals = allocation(df, n, seed);
    let mut job = vec![
        Placement {
            group: 0,
            router: 0
        };
        n
    ];
    dragonfly_placement(df, &terminals, &mut job).unwrap();
    let mut out = [0u64; 4];
    out[0] = makespan_of(df, &Binomial::new(n as u32, 0, 1024).unwrap(), &terminals);
    for (i, alg) in [Algorithm::Llf, Algorithm::Glf, Algorithm::Forest]
        .into_iter()
        .enumerate()
    {
        let mut msgs = blank_messages(n - 1);
        let s = aware(df, alg, &job, &mut msgs);
        out[i + 1] = makespan_of(df, &s, &terminals);
    }
    eprintln!(
        "B3 n {n:5} seed {seed}: TREE {:4}  LLF {:4}  GLF {:4}  FOREST {:4}",
        out[0], out[1], out[2], out[3]
    );
    out
}

#[test]
fn b3_makespan_model_orders_as_the_paper() {
    // docs/reference-results.md B3, in the [DF-BC] §IV-B link-count model (deterministic for a
    // given allocation): TREE is best for small allocations, FOREST lowest for large ones,
    // LLF long and variable for small allocations (the root group's holders send to every
    // remote group in series).
    let df = network();
    let seeds = [1u64, 2, 3];
    for n in [64usize, 256, 1024, 4096, JOB] {
        let runs: Vec<[u64; 4]> = seeds.iter().map(|&s| makespans(&df, n, s)).collect();
        for r in &runs {
            if n <= 256 {
                assert!(
                    r[0] < r[1] && r[0] < r[2] && r[0] < r[3],
                    "n = {n}: TREE best, {r:?}"
                );
            }
            if n >= 4096 {
                assert!(
                    r[3] < r[0] && r[3] < r[1] && r[3] < r[2],
                    "n = {n}: FOREST best, {r:?}"
                );
            }
        }
        if n == 64 {
            let spread = |i: usize| {
                let v = runs.iter().map(|r| r[i]);
                v.clone().max().unwrap() - v.min().unwrap()
            };
            for r in &runs {
                assert!(r[1] > 2 * r[0], "LLF long for small allocations: {r:?}");
            }
            assert!((0..4)
                .filter(|&i| i != 1)
                .all(|i| spread(1) > 4 * spread(i).max(1)));
        }
    }
}

#[test]
fn b1_schedules_pass_the_symbolic_checker() {
    let df = network();
    let terminals = allocation(&df, JOB, SEEDS[0]);
    let mut job = vec![
        Placement {
            group: 0,
            router: 0
        };
        JOB
    ];
    dragonfly_placement(&df, &terminals, &mut job).unwrap();
    assert_eq!(
        check_schedule(&Binomial::new(JOB as u32, 0, 1024).unwrap()).messages,
        JOB as u64 - 1
    );
    for alg in [Algorithm::Llf, Algorithm::Glf, Algorithm::Forest] {
        let mut msgs = blank_messages(JOB - 1);
        let s = aware(&df, alg, &job, &mut msgs);
        assert_eq!(check_schedule(&s).messages, JOB as u64 - 1, "{alg:?}");
    }
}

/// Analysis with channel loads and per-step hops.
fn detailed<R: Routing + ?Sized, S: Schedule>(
    df: &Dragonfly,
    routing: &R,
    s: &S,
    terminals: &[u32],
) -> (Analysis, Vec<u64>, Vec<u64>) {
    let mut loads = vec![0u64; (df.num_switches() * df.radix() as u32) as usize];
    let mut steps = vec![0u64; s.num_steps() as usize + 1];
    let a = analyse(
        &RoutedNetwork::new(df, routing),
        s,
        terminals,
        Outputs {
            steps: StepBuffers {
                hops: Some(&mut steps),
                ..StepBuffers::default()
            },
            channel_loads: Some(&mut loads),
        },
    )
    .unwrap();
    (a, loads, steps)
}

#[test]
fn b1_core_routing_matches_the_reference_route_by_route() {
    // Same channel loads, per-step hops and link classes for TREE and FOREST on one
    // allocation with the core's routing and the test crate's reference.
    let df = network();
    let terminals = allocation(&df, JOB, SEEDS[0]);
    let mut job = vec![
        Placement {
            group: 0,
            router: 0
        };
        JOB
    ];
    dragonfly_placement(&df, &terminals, &mut job).unwrap();
    let core = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    let reference = ReferenceDragonflyMinimal { df: &df };

    let tree = Binomial::new(JOB as u32, 0, 1024).unwrap();
    let a = detailed(&df, &core, &tree, &terminals);
    let b = detailed(&df, &reference, &tree, &terminals);
    assert_eq!(a.0, b.0);
    assert!(a.1 == b.1 && a.2 == b.2, "TREE routes differ");

    let mut msgs = blank_messages(JOB - 1);
    let forest = aware(&df, Algorithm::Forest, &job, &mut msgs);
    let a = detailed(&df, &core, &forest, &terminals);
    let b = detailed(&df, &reference, &forest, &terminals);
    assert_eq!(a.0, b.0);
    assert!(a.1 == b.1 && a.2 == b.2, "FOREST routes differ");
}
