//! docs/reference-results.md A4: the worked two-opt example of \[DISS\] Tables 3.1 / 3.2.

extern crate std;
use std::vec::Vec;

use crate::mapping::testutil::binomial_bcast;
use crate::mapping::*;

/// A symmetric distance table over nodes 0..8 with the listed pairs and `default` elsewhere.
struct Table {
    d: [[u32; 8]; 8],
}

impl Table {
    fn new(pairs: &[(u32, u32, u32)], default: u32) -> Self {
        let mut d = [[default; 8]; 8];
        for (i, row) in d.iter_mut().enumerate() {
            row[i] = 0;
        }
        for &(a, b, h) in pairs {
            d[a as usize][b as usize] = h;
            d[b as usize][a as usize] = h;
        }
        Table { d }
    }
}

impl DistanceOracle for Table {
    fn distance(&self, a: NodeId, b: NodeId) -> u32 {
        self.d[a as usize][b as usize]
    }
}

/// Table 3.1 distances (ascending placement).
fn table_3_1() -> Table {
    Table::new(
        &[
            (0, 4, 3),
            (0, 2, 2),
            (4, 6, 2),
            (0, 1, 1),
            (2, 3, 1),
            (4, 5, 1),
            (6, 7, 1),
        ],
        4,
    )
}

/// Table 3.2 distances (ranks of nodes 4 and 7 swapped); note d(6,4) = 1 here.
fn table_3_2() -> Table {
    Table::new(
        &[
            (0, 7, 2),
            (0, 2, 2),
            (7, 6, 1),
            (0, 1, 1),
            (2, 3, 1),
            (7, 5, 1),
            (6, 4, 1),
        ],
        4,
    )
}

#[test]
fn binomial_schedule_matches_a3() {
    let mut got: Vec<_> = binomial_bcast(8, 0)
        .iter()
        .map(|m| (m.step, m.src_rank, m.dst_rank))
        .collect();
    got.sort_unstable();
    let want = [
        (1, 0, 4),
        (2, 0, 2),
        (2, 4, 6),
        (3, 0, 1),
        (3, 2, 3),
        (3, 4, 5),
        (3, 6, 7),
    ];
    assert_eq!(got, want);
}

#[test]
fn table_3_1_total_is_11() {
    let msgs = binomial_bcast(8, 0);
    let placement: [NodeId; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
    let mut per_step = [0u64; 4];
    let total = hops_per_step(&table_3_1(), &msgs, &placement, &mut per_step);
    assert_eq!(total, 11);
    assert_eq!(per_step, [0, 3, 4, 4]);

    let (mut off, mut items) = ([0u32; 9], [0u32; 14]);
    let index = RankIndex::build(&msgs, 8, &mut off, &mut items).unwrap();
    let mut obj = HopObjective::new(table_3_1(), &msgs, index).unwrap();
    assert_eq!(obj.evaluate(&placement).unwrap(), 11);
}

#[test]
fn table_3_2_swap_of_nodes_4_and_7_gives_9() {
    let msgs = binomial_bcast(8, 0);
    let (mut off, mut items) = ([0u32; 9], [0u32; 14]);
    let index = RankIndex::build(&msgs, 8, &mut off, &mut items).unwrap();
    let mut obj = HopObjective::new(table_3_2(), &msgs, index).unwrap();
    let mut placement: [NodeId; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
    obj.evaluate(&placement).unwrap();
    // Ascending placement: node = rank, so nodes 4 and 7 hold ranks 4 and 7.
    assert_eq!(obj.apply_swap(&mut placement, 4, 7), 9);
    assert_eq!(placement, [0, 1, 2, 3, 7, 5, 6, 4]);
    assert_eq!(obj.value(), 9);

    let mut per_step = [0u64; 4];
    let total = hops_per_step(&table_3_2(), &msgs, &placement, &mut per_step);
    assert_eq!((total, per_step), (9, [0, 2, 3, 4]));
    let mut fresh = HopObjective::new(table_3_2(), &msgs, index).unwrap();
    assert_eq!(fresh.evaluate(&placement).unwrap(), 9);
}
