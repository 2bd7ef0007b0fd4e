//! Two-opt (docs/mapping.md §3) and simulated annealing (§4).

extern crate std;
use std::vec;
use std::vec::Vec;

use crate::mapping::testutil::*;
use crate::mapping::*;
use crate::rng::Rng;

struct Setup {
    n: u32,
    dist: Vec<u16>,
    msgs: Vec<Message>,
    placement: Vec<u32>,
}

/// Random graph, random mapping of `m` ranks with a shuffled (random) placement.
fn setup(n: u32, m: u32, seed: u64) -> Setup {
    let mut eg = ring_with_shortcuts(n, n as usize, seed);
    let dist = all_pairs(&eg.view());
    let mut rng = Rng::new(seed);
    let mut placement = vec![0u32; m as usize];
    random_mapping(n, FreeNodes::All, &mut rng, &mut placement).unwrap();
    rng.shuffle(&mut placement);
    Setup {
        n,
        dist,
        msgs: recursive_doubling(m),
        placement,
    }
}

fn full_hops(s: &Setup, placement: &[u32]) -> u64 {
    s.msgs
        .iter()
        .map(|m| {
            let (a, b) = (
                placement[m.src_rank as usize],
                placement[m.dst_rank as usize],
            );
            s.dist[(a * s.n + b) as usize] as u64
        })
        .sum()
}

#[test]
fn two_opt_never_increases_and_improves_a_random_placement() {
    let s = setup(128, 64, 5);
    let m = 64;
    let (mut off, mut items) = (vec![0; m + 1], vec![0; RankIndex::items_needed(&s.msgs)]);
    let index = RankIndex::build(&s.msgs, m as u32, &mut off, &mut items).unwrap();
    let mut obj =
        HopObjective::new(DistanceMatrix::new(s.n, &s.dist).unwrap(), &s.msgs, index).unwrap();
    let mut placement = s.placement.clone();
    let initial = full_hops(&s, &placement);
    let mut reports = Vec::new();
    let cfg = TwoOptConfig {
        iterations: 20_000,
        seed: 1,
        report_every: 500,
    };
    let out = two_opt(&mut obj, &mut placement, &cfg, &mut |i, b| {
        reports.push((i, b))
    })
    .unwrap();
    assert_eq!(out.initial, initial);
    assert_eq!(out.best, full_hops(&s, &placement));
    assert_eq!(obj.value(), out.best);
    assert!(out.best < initial, "{} !< {}", out.best, initial);
    assert!(out.best >= s.msgs.len() as u64); // lower bound: every message >= 1 hop
    assert!(reports.windows(2).all(|w| w[1].1 <= w[0].1));
    assert_eq!(reports.len(), 41);
    assert_eq!(*reports.last().unwrap(), (20_000, out.best));
    // Still a placement of the same nodes.
    let (mut a, mut b) = (placement.clone(), s.placement.clone());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
}

#[test]
fn two_opt_lowers_contention_too() {
    let n = 64u32;
    let mut eg = ring_with_shortcuts(n, 64, 77);
    let paths = BfsPaths::new(&eg.view());
    let m = 32u32;
    let msgs = bruck(m);
    let (mut off, mut items) = (vec![0; 33], vec![0; RankIndex::items_needed(&msgs)]);
    let index = RankIndex::build(&msgs, m, &mut off, &mut items).unwrap();
    let mut loads =
        vec![0; ContentionObjective::<&BfsPaths>::loads_needed(&msgs, paths.num_channels())];
    let mut obj = ContentionObjective::new(&paths, &msgs, index, &mut loads).unwrap();
    let mut rng = Rng::new(3);
    let mut placement = vec![0u32; m as usize];
    random_mapping(n, FreeNodes::All, &mut rng, &mut placement).unwrap();
    rng.shuffle(&mut placement);
    let cfg = TwoOptConfig {
        iterations: 5_000,
        seed: 9,
        report_every: 0,
    };
    let out = two_opt(&mut obj, &mut placement, &cfg, &mut |_, _| {}).unwrap();
    assert!(out.best < out.initial);
    let mut fresh_loads = vec![0; loads_len(&msgs, &paths)];
    let mut fresh = ContentionObjective::new(&paths, &msgs, index, &mut fresh_loads).unwrap();
    assert_eq!(fresh.evaluate(&placement).unwrap(), out.best);
}

fn loads_len(msgs: &[Message], paths: &BfsPaths) -> usize {
    ContentionObjective::<&BfsPaths>::loads_needed(msgs, paths.num_channels())
}

fn run_sa(s: &Setup, steps: u32, seed: u64) -> (OptimiseOutcome, Vec<u32>) {
    let m = s.placement.len();
    let (mut off, mut items) = (vec![0; m + 1], vec![0; RankIndex::items_needed(&s.msgs)]);
    let index = RankIndex::build(&s.msgs, m as u32, &mut off, &mut items).unwrap();
    let mut obj =
        HopObjective::new(DistanceMatrix::new(s.n, &s.dist).unwrap(), &s.msgs, index).unwrap();
    let mut placement = s.placement.clone();
    let mut scratch = vec![0; m];
    let mut cfg = AnnealConfig::new(steps, seed);
    cfg.report_every = 10;
    let mut last = u64::MAX;
    let out = anneal(&mut obj, &mut placement, &mut scratch, &cfg, &mut |_, b| {
        assert!(b <= last, "best never increases");
        last = b;
    })
    .unwrap();
    assert_eq!(obj.value(), out.best);
    assert_eq!(full_hops(s, &placement), out.best);
    (out, placement)
}

#[test]
fn annealing_is_deterministic_per_seed_and_improves() {
    let s = setup(96, 32, 41);
    let (a, pa) = run_sa(&s, 60, 7);
    let (b, pb) = run_sa(&s, 60, 7);
    assert_eq!((a, &pa), (b, &pb));
    assert!(a.best < a.initial);
    assert!(a.accepted > 0);
    let (c, pc) = run_sa(&s, 60, 8);
    assert!(
        c != a || pc != pa,
        "different seeds should explore differently"
    );
}

#[test]
fn optimisers_handle_tiny_jobs() {
    let s = setup(16, 1, 1);
    let (off, items) = (&mut [0u32; 2][..], &mut [0u32; 0][..]);
    let index = RankIndex::build(&s.msgs, 1, off, items).unwrap();
    let mut obj =
        HopObjective::new(DistanceMatrix::new(s.n, &s.dist).unwrap(), &s.msgs, index).unwrap();
    let mut placement = s.placement.clone();
    let cfg = TwoOptConfig {
        iterations: 10,
        seed: 0,
        report_every: 1,
    };
    let out = two_opt(&mut obj, &mut placement, &cfg, &mut |_, _| {}).unwrap();
    assert_eq!((out.initial, out.best), (0, 0));
    let mut scratch = [0u32; 1];
    let out = anneal(
        &mut obj,
        &mut placement,
        &mut scratch,
        &AnnealConfig::new(5, 0),
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(out.best, 0);
    assert!(anneal(
        &mut obj,
        &mut placement,
        &mut [],
        &AnnealConfig::new(5, 0),
        &mut |_, _| {}
    )
    .is_err());
}
