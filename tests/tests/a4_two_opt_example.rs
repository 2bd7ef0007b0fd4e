//! docs/reference-results.md A4 (D given the distances): [DISS] Tables 3.1 / 3.2, the worked
//! two-opt example, through the analysis path with injected distance oracles (one oracle
//! per table, as the spec asks: the two tables disagree on d(4,6)). The mapping module
//! checks the totals 11 and 9; here the per-step hops (3 / 4 / 4 and 2 / 3 / 4) and largest
//! hops per step come out of `analysis::distance_hops`, and the swap found by the mapping
//! objective over the flattened schedule agrees with it.

use jumpnet_core::analysis::{distance_hops, flatten, StepBuffers};
use jumpnet_core::collective::{Binomial, Schedule};
use jumpnet_core::mapping::{
    DistanceOracle, HopObjective, Message, NodeId, RankIndex, SwapObjective,
};

/// Distances over nodes 0..8: the listed pairs, 4 elsewhere, 0 on the diagonal.
struct Injected([[u32; 8]; 8]);

impl Injected {
    fn new(pairs: &[(u32, u32, u32)]) -> Self {
        let mut d = [[4u32; 8]; 8];
        for (i, row) in d.iter_mut().enumerate() {
            row[i] = 0;
        }
        for &(a, b, h) in pairs {
            d[a as usize][b as usize] = h;
            d[b as usize][a as usize] = h;
        }
        Injected(d)
    }
}

impl DistanceOracle for Injected {
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        self.0[a as usize][b as usize]
    }
}

/// Table 3.1 (ascending placement, node = rank).
fn table_3_1() -> Injected {
    Injected::new(&[
        (0, 4, 3),
        (0, 2, 2),
        (4, 6, 2),
        (0, 1, 1),
        (2, 3, 1),
        (4, 5, 1),
        (6, 7, 1),
    ])
}

/// Table 3.2 (ranks of nodes 4 and 7 swapped; d(6,4) = 1 here).
fn table_3_2() -> Injected {
    Injected::new(&[
        (0, 7, 2),
        (0, 2, 2),
        (7, 6, 1),
        (0, 1, 1),
        (2, 3, 1),
        (7, 5, 1),
        (6, 4, 1),
    ])
}

fn per_step(oracle: &Injected, placement: &[NodeId]) -> (u64, [u64; 4], [u32; 4]) {
    let bcast = Binomial::new(8, 0, 1).unwrap();
    let (mut hops, mut max) = ([0u64; 4], [0u32; 4]);
    let s = distance_hops(
        oracle,
        &bcast,
        placement,
        StepBuffers {
            hops: Some(&mut hops),
            max_hops: Some(&mut max),
            messages: None,
        },
    )
    .unwrap();
    assert_eq!(s.messages, 7);
    (s.total_hops, hops, max)
}

#[test]
fn table_3_1_per_step_3_4_4() {
    let ascending: [NodeId; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
    let (total, hops, max) = per_step(&table_3_1(), &ascending);
    assert_eq!((total, hops), (11, [0, 3, 4, 4]));
    assert_eq!(max, [0, 3, 2, 1]);
}

#[test]
fn table_3_2_per_step_2_3_4() {
    // Node 7 holds rank 4, node 4 holds rank 7.
    let swapped: [NodeId; 8] = [0, 1, 2, 3, 7, 5, 6, 4];
    let (total, hops, max) = per_step(&table_3_2(), &swapped);
    assert_eq!((total, hops), (9, [0, 2, 3, 4]));
    assert_eq!(max, [0, 2, 2, 1]);
}

#[test]
fn the_objective_over_the_flattened_schedule_agrees() {
    let bcast = Binomial::new(8, 0, 1).unwrap();
    let mut msgs = vec![
        Message {
            step: 0,
            src_rank: 0,
            dst_rank: 0
        };
        bcast.num_messages() as usize
    ];
    assert_eq!(flatten(&bcast, &mut msgs).unwrap(), 7);
    let (mut off, mut items) = (vec![0u32; 9], vec![0u32; RankIndex::items_needed(&msgs)]);
    let index = RankIndex::build(&msgs, 8, &mut off, &mut items).unwrap();
    let mut obj = HopObjective::new(table_3_2(), &msgs, index).unwrap();
    let mut placement: Vec<NodeId> = (0..8).collect();
    obj.evaluate(&placement).unwrap();
    assert_eq!(obj.apply_swap(&mut placement, 4, 7), 9);
    let (total, _, _) = per_step(&table_3_2(), &placement);
    assert_eq!(total, obj.value());
}
