//! docs/reference-results.md A6 (R/D*): [DISS] chapter 5 hop totals at N = 1,024 with all nodes
//! participating and the ring-consecutive mapping (rank r on node r): circulant
//! `G(1024, 10)` against a Dragonfly of 64 groups × 16 routers × 4 global links (one node
//! per router, consecutive arrangement — the D* choice) and a random shortcut graph of
//! degree 19 (seed [`GRAPH_SEED`]). Minimal routing is BFS routing, as [DISS]'s SimGrid
//! Floyd routing (docs/routing.md §1). Implied paper values: Dragonfly ≈ 1,124 / 19,700 /
//! 21,300, random ≈ 1,705 / 24,976 / 24,976.

use jumpnet_core::analysis::{analyse, Outputs, RoutedNetwork};
use jumpnet_core::collective::{Binomial, Bruck, RecursiveDoubling, Schedule};
use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::{DistanceMatrix, MinimalRouting, Routing};
use jumpnet_core::topology::{Circulant, Dragonfly, GlobalArrangement, LinkClass, Topology};
use jumpnet_tests::{distances, Shortcut};

const N: u32 = 1024;
/// Seed of the random shortcut graph.
const GRAPH_SEED: u64 = 6_221_222;

/// Totals of binomial broadcast, recursive-doubling allreduce and Bruck alltoall over all
/// `N` ranks, rank r on terminal r, with minimal BFS routing.
fn totals<T: Topology>(t: &T) -> [u64; 3] {
    assert_eq!(t.num_terminals(), N);
    let d = distances(t);
    let routing = MinimalRouting::new(t, DistanceMatrix::new(N, &d).unwrap()).unwrap();
    let net = RoutedNetwork::new(t, &routing);
    let ring: Vec<u32> = (0..N).collect();
    [
        hops(&net, &Binomial::new(N, 0, 1024).unwrap(), &ring),
        hops(&net, &RecursiveDoubling::new(N, 1024).unwrap(), &ring),
        hops(&net, &Bruck::new(N, 64).unwrap(), &ring),
    ]
}

fn hops<T: Topology, R: Routing, S: Schedule>(
    net: &RoutedNetwork<'_, T, R>,
    s: &S,
    placement: &[u32],
) -> u64 {
    analyse(net, s, placement, Outputs::default())
        .unwrap()
        .hops
        .total_hops
}

fn dragonfly() -> Dragonfly {
    Dragonfly::new(64, 16, 1, 4, GlobalArrangement::Consecutive).unwrap()
}

#[test]
fn a6_circulant_below_dragonfly_and_random_shortcut() {
    let circulant = totals(&Circulant::g(N).unwrap());
    let df = totals(&dragonfly());
    let sc = Shortcut::build(N, 19, GRAPH_SEED);
    let random = totals(&sc.graph());
    let paper_df = [1124.0, 19_700.0, 21_300.0];
    let paper_random = [1705.0, 24_976.0, 24_976.0];
    for (i, name) in ["bcast", "allreduce", "alltoall"].iter().enumerate() {
        eprintln!(
            "A6 {name:9} circulant {:6}  dragonfly {:6} (paper ≈ {:6}, {:+5.1} %)  random {:6} (paper ≈ {:6}, {:+5.1} %)",
            circulant[i],
            df[i],
            paper_df[i],
            100.0 * (df[i] as f64 / paper_df[i] - 1.0),
            random[i],
            paper_random[i],
            100.0 * (random[i] as f64 / paper_random[i] - 1.0),
        );
    }
    assert_eq!(circulant, [1023, 10_240, 10_240]);
    for i in 0..3 {
        assert!(circulant[i] < df[i] && circulant[i] < random[i], "{i}");
        // Loose tolerances: the paper gives percentages only, the graphs are its own.
        let rel_df = df[i] as f64 / paper_df[i];
        assert!((0.8..=1.2).contains(&rel_df), "dragonfly {i}: {}", df[i]);
        let rel_random = random[i] as f64 / paper_random[i];
        assert!(
            (0.85..=1.15).contains(&rel_random),
            "random {i}: {}",
            random[i]
        );
    }
}

#[test]
fn a6_dragonfly_bfs_routes_are_never_longer_than_hierarchical_ones() {
    // Cross-check of the Dragonfly numbers: BFS minimal routing never takes more router hops
    // than the hierarchical local–global–local routing of docs/routing.md §4, and uses
    // global-global shortcuts where they exist.
    let df = dragonfly();
    let d = distances(&df);
    let bfs = MinimalRouting::new(&df, DistanceMatrix::new(N, &d).unwrap()).unwrap();
    let hier = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    let ring: Vec<u32> = (0..N).collect();
    let s = RecursiveDoubling::new(N, 8).unwrap();
    let a_bfs = analyse(
        &RoutedNetwork::new(&df, &bfs),
        &s,
        &ring,
        Outputs::default(),
    )
    .unwrap();
    let a_hier = analyse(
        &RoutedNetwork::new(&df, &hier),
        &s,
        &ring,
        Outputs::default(),
    )
    .unwrap();
    eprintln!(
        "A6 dragonfly allreduce: BFS {} hops ({} global, {} local), hierarchical {} hops ({} global, {} local)",
        a_bfs.hops.total_hops,
        a_bfs.links.get(LinkClass::Global),
        a_bfs.links.get(LinkClass::Local),
        a_hier.hops.total_hops,
        a_hier.links.get(LinkClass::Global),
        a_hier.links.get(LinkClass::Local),
    );
    assert!(a_bfs.hops.total_hops <= a_hier.hops.total_hops);
    assert!(a_hier.hops.max_hops <= 3);
    assert_eq!(a_bfs.links.terminal, a_hier.links.terminal);
}
