//! Objectives (docs/mapping.md §2): incremental swap evaluation equals independent full
//! re-evaluation; contention on hand-checked examples.

extern crate std;
use std::collections::HashMap;
use std::vec;
use std::vec::Vec;

use crate::mapping::testutil::*;
use crate::mapping::*;
use crate::rng::Rng;

/// Independent total hops.
fn full_hops(dist: &[u16], n: u32, msgs: &[Message], placement: &[u32]) -> u64 {
    msgs.iter()
        .map(|m| {
            let (a, b) = (
                placement[m.src_rank as usize],
                placement[m.dst_rank as usize],
            );
            dist[(a * n + b) as usize] as u64
        })
        .sum()
}

/// Independent possible contention: Σ over (step, channel) of max(0, load - 1).
fn full_contention<P: PathOracle>(paths: &P, msgs: &[Message], placement: &[u32]) -> u64 {
    let mut loads: HashMap<(u32, u32), u64> = HashMap::new();
    for m in msgs {
        let (a, b) = (
            placement[m.src_rank as usize],
            placement[m.dst_rank as usize],
        );
        paths.for_each_channel(a, b, |c| *loads.entry((m.step, c)).or_default() += 1);
    }
    loads.values().map(|&l| l.saturating_sub(1)).sum()
}

/// A random job of `m` nodes on `n` with a shuffled placement.
fn random_placement(n: u32, m: usize, rng: &mut Rng) -> Vec<u32> {
    let mut p = vec![0u32; m];
    random_mapping(n, FreeNodes::All, rng, &mut p).unwrap();
    rng.shuffle(&mut p);
    p
}

fn index_storage(msgs: &[Message], m: usize) -> (Vec<u32>, Vec<u32>) {
    (vec![0; m + 1], vec![0; RankIndex::items_needed(msgs)])
}

#[test]
fn incremental_hops_equal_full_evaluation_after_many_swaps() {
    let n = 96u32;
    let mut eg = ring_with_shortcuts(n, 120, 4);
    let dist = all_pairs(&eg.view());
    let oracle = DistanceMatrix::new(n, &dist).unwrap();
    let mut rng = Rng::new(8);
    // Mixed traffic: allreduce, a bcast from rank 5 and some self messages.
    let m = 32u32;
    let mut msgs = recursive_doubling(m);
    msgs.extend(binomial_bcast(m, 5));
    msgs.push(msg(0, 3, 3));
    let (mut off, mut items) = index_storage(&msgs, m as usize);
    let index = RankIndex::build(&msgs, m, &mut off, &mut items).unwrap();
    let mut obj = HopObjective::new(oracle, &msgs, index).unwrap();
    let mut placement = random_placement(n, m as usize, &mut rng);
    assert_eq!(
        obj.evaluate(&placement).unwrap(),
        full_hops(&dist, n, &msgs, &placement)
    );
    for i in 0..3000 {
        let (a, b) = rng.distinct_pair(m as usize).unwrap();
        let before = obj.value();
        let v = obj.apply_swap(&mut placement, a as u32, b as u32);
        assert_eq!(v, full_hops(&dist, n, &msgs, &placement), "swap {i}");
        if i % 3 == 0 {
            obj.undo_swap(&mut placement, a as u32, b as u32, before);
            assert_eq!(obj.value(), full_hops(&dist, n, &msgs, &placement));
        }
    }
    // Same rank twice and out-of-range ranks change nothing.
    let v = obj.value();
    assert_eq!(obj.apply_swap(&mut placement, 4, 4), v);
    assert_eq!(obj.apply_swap(&mut placement, 4, 99), v);
}

/// One-way ring distance `(b - a) mod n`: asymmetric, so a message between the two swapped
/// ranks changes its hops when they swap and must be counted exactly once.
struct OneWayRing(u32);

impl DistanceOracle for OneWayRing {
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        (b + self.0 - a) % self.0
    }
}

#[test]
fn incremental_hops_count_messages_between_the_swapped_ranks_once() {
    let n = 40u32;
    let oracle = OneWayRing(n);
    let full = |msgs: &[Message], p: &[u32]| -> u64 {
        msgs.iter()
            .map(|m| oracle.distance(p[m.src_rank as usize], p[m.dst_rank as usize]) as u64)
            .sum()
    };
    let m = 16u32;
    // One-way traffic (a pair sending both ways would hide the double count: d(a,b) + d(b,a)
    // = n on the one-way ring).
    let mut msgs = bruck(m);
    msgs.extend(binomial_bcast(m, 3));
    let (mut off, mut items) = index_storage(&msgs, m as usize);
    let index = RankIndex::build(&msgs, m, &mut off, &mut items).unwrap();
    let mut obj = HopObjective::new(OneWayRing(n), &msgs, index).unwrap();
    let mut rng = Rng::new(6);
    let mut placement = random_placement(n, m as usize, &mut rng);
    obj.evaluate(&placement).unwrap();
    for _ in 0..2000 {
        // Half of the swaps exchange Bruck partners (ranks 2^k apart).
        let a = rng.below(m as u64) as u32;
        let b = if rng.below(2) == 0 {
            (a + (1 << rng.below(4))) % m
        } else {
            (a + 1 + rng.below(m as u64 - 1) as u32) % m
        };
        let v = obj.apply_swap(&mut placement, a, b);
        assert_eq!(v, full(&msgs, &placement));
    }
}

#[test]
fn incremental_contention_equals_full_evaluation_after_many_swaps() {
    let n = 80u32;
    let mut eg = ring_with_shortcuts(n, 70, 12);
    let paths = BfsPaths::new(&eg.view());
    let mut rng = Rng::new(21);
    let m = 32u32;
    let mut msgs = bruck(m);
    msgs.extend(recursive_doubling(m));
    let (mut off, mut items) = index_storage(&msgs, m as usize);
    let index = RankIndex::build(&msgs, m, &mut off, &mut items).unwrap();
    let mut loads =
        vec![0u32; ContentionObjective::<&BfsPaths>::loads_needed(&msgs, paths.num_channels())];
    let mut obj = ContentionObjective::new(&paths, &msgs, index, &mut loads).unwrap();
    let mut placement = random_placement(n, m as usize, &mut rng);
    let first = obj.evaluate(&placement).unwrap();
    assert_eq!(first, full_contention(&paths, &msgs, &placement));
    assert!(
        first > 0,
        "random placement of all-to-all traffic must contend"
    );
    for i in 0..1500 {
        let (a, b) = rng.distinct_pair(m as usize).unwrap();
        let v = obj.apply_swap(&mut placement, a as u32, b as u32);
        assert_eq!(v, full_contention(&paths, &msgs, &placement), "swap {i}");
    }
}

#[test]
fn incremental_contention_on_torus_dor() {
    let side = 8;
    let paths = TorusDor { side };
    let mut rng = Rng::new(2);
    let m = 64u32;
    let msgs = recursive_doubling(m);
    let (mut off, mut items) = index_storage(&msgs, m as usize);
    let index = RankIndex::build(&msgs, m, &mut off, &mut items).unwrap();
    let mut loads = vec![0u32; ContentionObjective::<TorusDor>::loads_needed(&msgs, 256)];
    let mut obj = ContentionObjective::new(paths, &msgs, index, &mut loads).unwrap();
    let mut placement: Vec<u32> = (0..m).collect();
    obj.evaluate(&placement).unwrap();
    for _ in 0..1000 {
        let (a, b) = rng.distinct_pair(m as usize).unwrap();
        let v = obj.apply_swap(&mut placement, a as u32, b as u32);
        assert_eq!(v, full_contention(&paths, &msgs, &placement));
    }
}

#[test]
fn contention_counts_shared_channels_per_step() {
    // 4×4 torus, DOR: 0→2 uses (0,+x),(1,+x); 1→3 uses (1,+x),(2,+x) (tie → +).
    let paths = TorusDor { side: 4 };
    let placement = [0u32, 1, 2, 3];
    for (steps, want) in [((0, 0), 1u64), ((0, 1), 0)] {
        let msgs = [msg(steps.0, 0, 2), msg(steps.1, 1, 3)];
        let (mut off, mut items) = ([0u32; 5], [0u32; 4]);
        let index = RankIndex::build(&msgs, 4, &mut off, &mut items).unwrap();
        let mut loads = [0u32; 128];
        let mut obj = ContentionObjective::new(paths, &msgs, index, &mut loads).unwrap();
        assert_eq!(obj.evaluate(&placement).unwrap(), want);
        assert_eq!(obj.load(steps.0, 4), if want == 1 { 2 } else { 1 });
    }
    // Three messages over one channel in one step: max(0, 3 - 1) = 2.
    let msgs = [msg(0, 0, 1), msg(0, 0, 2), msg(0, 0, 3)];
    let (mut off, mut items) = ([0u32; 5], [0u32; 6]);
    let index = RankIndex::build(&msgs, 4, &mut off, &mut items).unwrap();
    let mut loads = [0u32; 64];
    let mut obj = ContentionObjective::new(paths, &msgs, index, &mut loads).unwrap();
    // 0→1: (0,+x); 0→2: (0,+x),(1,+x); 0→3: (0,-x).  (0,+x) load 2 → 1.
    assert_eq!(obj.evaluate(&placement).unwrap(), 1);
}

#[test]
fn objectives_reject_mismatched_inputs() {
    let msgs = recursive_doubling(4);
    let (mut off, mut items) = index_storage(&msgs, 4);
    let index = RankIndex::build(&msgs, 4, &mut off, &mut items).unwrap();
    let dist = vec![0u16; 16];
    let mut obj = HopObjective::new(DistanceMatrix::new(4, &dist).unwrap(), &msgs, index).unwrap();
    assert!(matches!(
        obj.evaluate(&[0, 1, 2]),
        Err(MappingError::Capacity(..))
    ));
    assert!(HopObjective::new(DistanceMatrix::new(4, &dist).unwrap(), &msgs[..3], index).is_err());
    assert!(DistanceMatrix::new(5, &dist).is_err());
    let mut loads = [0u32; 10];
    assert!(matches!(
        ContentionObjective::new(TorusDor { side: 2 }, &msgs, index, &mut loads),
        Err(MappingError::Capacity(..))
    ));
}
