//! The busiest-channel objective (docs/mapping.md §2): hand-checked loads, incremental swaps
//! equal an independent full evaluation, and two-opt on it.

extern crate std;
use std::collections::HashMap;
use std::vec;
use std::vec::Vec;

use crate::mapping::testutil::*;
use crate::mapping::traffic::max_step;
use crate::mapping::*;
use crate::rng::Rng;

/// Independent (Σ over steps of the busiest channel's load, Σ max(0, load − 1)).
fn full_max_load<P: PathOracle>(paths: &P, msgs: &[Message], placement: &[u32]) -> (u64, u64) {
    let mut loads: HashMap<(u32, u32), u64> = HashMap::new();
    for m in msgs {
        let (a, b) = (
            placement[m.src_rank as usize],
            placement[m.dst_rank as usize],
        );
        paths.for_each_channel(a, b, |c| *loads.entry((m.step, c)).or_default() += 1);
    }
    let mut per_step: HashMap<u32, u64> = HashMap::new();
    for (&(step, _), &l) in &loads {
        let e = per_step.entry(step).or_default();
        *e = (*e).max(l);
    }
    let excess = loads.values().map(|&l| l.saturating_sub(1)).sum();
    (per_step.values().sum(), excess)
}

/// The objective's value from its two keys.
fn key((busiest, excess): (u64, u64)) -> u64 {
    (busiest << 32) | excess
}

fn storage<P: PathOracle>(msgs: &[Message], paths: &P) -> Vec<u32> {
    vec![0u32; MaxLoadObjective::<&P>::storage_needed(msgs, paths.num_channels())]
}

#[test]
fn busiest_channel_per_step_on_hand_checked_routes() {
    // 4×4 torus, DOR: 0→2 uses (0,+x),(1,+x); 1→3 uses (1,+x),(2,+x); 0→3 uses (0,-x).
    let paths = TorusDor { side: 4 };
    let placement = [0u32, 1, 2, 3];
    // Same step: (1,+x) carries both → 2; different steps: 1 + 1.
    for (steps, want) in [((0, 0), 2u64), ((0, 1), 2), ((0, 2), 2)] {
        let msgs = [msg(steps.0, 0, 2), msg(steps.1, 1, 3)];
        let (mut off, mut items) = ([0u32; 5], [0u32; 4]);
        let index = RankIndex::build(&msgs, 4, &mut off, &mut items).unwrap();
        let mut st = storage(&msgs, &paths);
        let mut obj = MaxLoadObjective::new(&paths, &msgs, index, &mut st).unwrap();
        let got = obj.evaluate(&placement).unwrap();
        // Step 1 is empty when the second message is in step 2: its busiest load is 0.
        assert_eq!(obj.busiest_sum(), want, "steps {steps:?}");
        let shared = u64::from(steps.0 == steps.1);
        assert_eq!((obj.excess(), got), (shared, key((want, shared))));
        assert_eq!(
            obj.step_max(steps.0),
            if steps.0 == steps.1 { 2 } else { 1 }
        );
    }
    // Three messages from rank 0 in one step: (0,+x) carries 0→1 and 0→2 → busiest 2.
    let msgs = [msg(0, 0, 1), msg(0, 0, 2), msg(0, 0, 3)];
    let (mut off, mut items) = ([0u32; 5], [0u32; 6]);
    let index = RankIndex::build(&msgs, 4, &mut off, &mut items).unwrap();
    let mut st = storage(&msgs, &paths);
    let mut obj = MaxLoadObjective::new(&paths, &msgs, index, &mut st).unwrap();
    assert_eq!(obj.evaluate(&placement).unwrap(), key((2, 1)));
    // Swapping ranks 2 and 3 (nodes 3 and 2): 0→1 and 0→3 (now node 2) share (0,+x): 2.
    let mut p = placement;
    assert_eq!(obj.apply_swap(&mut p, 2, 3), key((2, 1)));
    assert_eq!(obj.value(), key(full_max_load(&paths, &msgs, &p)));
}

#[test]
fn incremental_busiest_channel_equals_full_evaluation_after_many_swaps() {
    let n = 80u32;
    let mut eg = ring_with_shortcuts(n, 70, 12);
    let paths = BfsPaths::new(&eg.view());
    let mut rng = Rng::new(34);
    let m = 32u32;
    // Two collectives' steps interleaved: the messages are not in step order.
    let mut msgs = bruck(m);
    msgs.extend(recursive_doubling(m));
    let (mut off, mut items) = (
        vec![0u32; m as usize + 1],
        vec![0; RankIndex::items_needed(&msgs)],
    );
    let index = RankIndex::build(&msgs, m, &mut off, &mut items).unwrap();
    let mut st = storage(&msgs, &paths);
    let mut obj = MaxLoadObjective::new(&paths, &msgs, index, &mut st).unwrap();
    let mut placement = vec![0u32; m as usize];
    random_mapping(n, FreeNodes::All, &mut rng, &mut placement).unwrap();
    rng.shuffle(&mut placement);
    let first = obj.evaluate(&placement).unwrap();
    assert_eq!(first, key(full_max_load(&paths, &msgs, &placement)));
    for i in 0..2000 {
        let (a, b) = rng.distinct_pair(m as usize).unwrap();
        let before = obj.value();
        let v = obj.apply_swap(&mut placement, a as u32, b as u32);
        let want = full_max_load(&paths, &msgs, &placement);
        assert_eq!((obj.busiest_sum(), obj.excess()), want, "swap {i}");
        assert_eq!(v, key(want), "swap {i}");
        if i % 3 == 0 {
            obj.undo_swap(&mut placement, a as u32, b as u32, before);
            assert_eq!(obj.value(), before, "undo {i}");
        }
    }
}

#[test]
fn two_opt_lowers_the_busiest_channel_sum_and_respects_storage() {
    let paths = TorusDor { side: 8 };
    let m = 64u32;
    let msgs = bruck(m);
    let (mut off, mut items) = (
        vec![0u32; m as usize + 1],
        vec![0; RankIndex::items_needed(&msgs)],
    );
    let index = RankIndex::build(&msgs, m, &mut off, &mut items).unwrap();
    let needed = MaxLoadObjective::<TorusDor>::storage_needed(&msgs, 256);
    let mut short = vec![0u32; needed - 1];
    assert!(MaxLoadObjective::new(paths, &msgs, index, &mut short).is_err());
    let mut st = vec![0u32; needed];
    let mut obj = MaxLoadObjective::new(paths, &msgs, index, &mut st).unwrap();
    let mut rng = Rng::new(5);
    let mut placement: Vec<u32> = (0..m).collect();
    rng.shuffle(&mut placement);
    obj.evaluate(&placement).unwrap();
    let start = obj.busiest_sum();
    let cfg = TwoOptConfig {
        iterations: 3000,
        seed: 9,
        report_every: 1000,
    };
    let out = two_opt(&mut obj, &mut placement, &cfg, &mut |_, _| {}).unwrap();
    assert!(
        obj.busiest_sum() < start,
        "{} !< {start}",
        obj.busiest_sum()
    );
    assert_eq!(out.best, key(full_max_load(&paths, &msgs, &placement)));
    // Every step has at least one message on some channel: the sum is at least the steps.
    assert!(obj.busiest_sum() >= u64::from(max_step(&msgs) + 1));
}

#[test]
fn most_messages_per_step_in_and_out_of_step_order() {
    let sorted = [msg(0, 0, 1), msg(1, 0, 2), msg(1, 1, 3), msg(2, 2, 3)];
    assert_eq!(max_messages_per_step(&sorted), 2);
    let shuffled = [msg(1, 0, 2), msg(0, 0, 1), msg(2, 2, 3), msg(1, 1, 3)];
    assert_eq!(max_messages_per_step(&shuffled), 2);
    assert_eq!(max_messages_per_step(&[]), 0);
}
