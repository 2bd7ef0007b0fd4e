//! Baseline mappings (docs/mapping.md §1) against independent BFS and structural facts.

extern crate std;
use std::collections::VecDeque;
use std::vec;
use std::vec::Vec;

use proptest::prelude::*;

use crate::mapping::testutil::*;
use crate::mapping::*;
use crate::rng::Rng;
use crate::topology::Topology;

/// BFS discovery order from `root`, neighbours in ascending port order (independent).
fn bfs_order<T: Topology>(t: &T, root: u32) -> Vec<u32> {
    let mut seen = vec![false; t.num_switches() as usize];
    let mut order = vec![root];
    let mut q = VecDeque::from([root]);
    seen[root as usize] = true;
    while let Some(u) = q.pop_front() {
        for p in 0..t.radix() {
            if let Some(l) = t.port(u, p).link() {
                if !seen[l.peer as usize] {
                    seen[l.peer as usize] = true;
                    order.push(l.peer);
                    q.push_back(l.peer);
                }
            }
        }
    }
    order
}

#[test]
fn bfs_mapping_picks_nodes_in_bfs_order() {
    let mut eg = ring_with_shortcuts(60, 40, 3);
    let g = eg.view();
    let (mut queue, mut seen) = (vec![0u32; 60], vec![false; 60]);
    for (root, m) in [(0u32, 60usize), (0, 17), (33, 25)] {
        let mut out = vec![0u32; m];
        let scratch = BfsBuffers {
            queue: &mut queue,
            seen: &mut seen,
        };
        bfs_mapping(&g, FreeNodes::All, root, &mut out, scratch).unwrap();
        assert_eq!(out, bfs_order(&g, root)[..m]);
    }
}

#[test]
fn bfs_mapping_walks_through_busy_nodes() {
    let mut eg = ring_with_shortcuts(50, 30, 9);
    let g = eg.view();
    let mask: Vec<bool> = (0..50).map(|v| v % 4 != 1).collect();
    let want: Vec<u32> = bfs_order(&g, 2)
        .into_iter()
        .filter(|&v| mask[v as usize])
        .take(20)
        .collect();
    let (mut queue, mut seen) = (vec![0u32; 50], vec![false; 50]);
    let mut out = vec![0u32; 20];
    let scratch = BfsBuffers {
        queue: &mut queue,
        seen: &mut seen,
    };
    bfs_mapping(&g, FreeNodes::Mask(&mask), 2, &mut out, scratch).unwrap();
    assert_eq!(out, want);
}

#[test]
fn bfs_mapping_errors() {
    let mut eg = EdgeGraph::new(6, vec![(0, 1), (1, 2), (3, 4), (4, 5)]);
    let g = eg.view();
    let (mut queue, mut seen) = (vec![0u32; 6], vec![false; 6]);
    let mut out = vec![0u32; 4];
    let scratch = BfsBuffers {
        queue: &mut queue,
        seen: &mut seen,
    };
    assert_eq!(
        bfs_mapping(&g, FreeNodes::All, 0, &mut out, scratch),
        Err(MappingError::NotEnoughFree {
            requested: 4,
            free: 3
        })
    );
    let mask = [false, true, true, true, true, true];
    let scratch = BfsBuffers {
        queue: &mut queue,
        seen: &mut seen,
    };
    assert_eq!(
        bfs_mapping(&g, FreeNodes::Mask(&mask), 0, &mut out, scratch),
        Err(MappingError::NodeNotFree { node: 0 })
    );
    let scratch = BfsBuffers {
        queue: &mut queue[..3],
        seen: &mut seen,
    };
    assert!(matches!(
        bfs_mapping(&g, FreeNodes::All, 0, &mut out, scratch),
        Err(MappingError::Capacity(..))
    ));
}

#[test]
fn circulant_mapping_makes_every_doubling_partner_adjacent() {
    let n = 64u32;
    let mut eg = g_circulant_graph(n);
    let g = eg.view();
    assert!((0..n).all(|v| g.degree(v) == 2 * 6 - 1)); // A1: degree 2 log2 n - 1
    let dist = all_pairs(&g);
    let d = |a: u32, b: u32| dist[(a * n + b) as usize] as u64;
    let mut rng = Rng::new(17);
    for m in [2u32, 8, 16, 32, 64] {
        let start = rng.below(n as u64) as u32;
        let mut nodes = vec![0u32; m as usize];
        circulant_mapping(n, FreeNodes::All, start, &mut nodes).unwrap();
        apply_rank_order(MappingKind::Circulant.rank_order(), &mut nodes);
        let stride = n / m;
        for r in 0..m {
            let mut bit = 1;
            while bit < m {
                let (a, b) = (nodes[r as usize], nodes[(r ^ bit) as usize]);
                let jump = (b + n - a) % n;
                assert!(
                    jump == stride * bit || jump == n - stride * bit,
                    "m={m} r={r}"
                );
                assert_eq!(d(a, b), 1, "m={m} r={r} bit={bit}");
                bit <<= 1;
            }
        }
        // A2 with m in place of n: hops = number of messages.
        let hops = |msgs: &[Message]| -> u64 {
            msgs.iter()
                .map(|x| d(nodes[x.src_rank as usize], nodes[x.dst_rank as usize]))
                .sum()
        };
        let log = m.trailing_zeros() as u64;
        assert_eq!(hops(&binomial_bcast(m, 0)), m as u64 - 1);
        assert_eq!(hops(&recursive_doubling(m)), m as u64 * log);
        assert_eq!(hops(&bruck(m)), m as u64 * log);
    }
}

#[test]
fn rank_orders_follow_the_project_choice() {
    assert_eq!(MappingKind::Random.rank_order(), RankOrder::Ascending);
    assert_eq!(
        MappingKind::HierarchicalTree.rank_order(),
        RankOrder::Ascending
    );
    assert_eq!(
        MappingKind::RingConsecutive.rank_order(),
        RankOrder::Traversal
    );
    assert_eq!(MappingKind::Circulant.rank_order(), RankOrder::Traversal);
    // Ring mapping with wrap-around keeps ring order under traversal placement.
    let mut nodes = [0u32; 4];
    ring_mapping(10, FreeNodes::All, 8, &mut nodes).unwrap();
    apply_rank_order(MappingKind::RingConsecutive.rank_order(), &mut nodes);
    assert_eq!(nodes, [8, 9, 0, 1]);
}

fn distinct_in_range(nodes: &[u32], n: u32) -> bool {
    let mut inv = vec![0u32; n as usize];
    invert(nodes, &mut inv).is_ok()
}

proptest! {
    #[test]
    fn every_mapping_gives_distinct_free_nodes(seed in any::<u64>(), m in 1usize..=32) {
        let n = 64u32;
        let mut rng = Rng::new(seed);
        let mask: Vec<bool> = (0..n).map(|_| rng.below(5) != 0).collect();
        let free = FreeNodes::Mask(&mask);
        let room = free.count(n) as usize >= m;
        let mut out = vec![0u32; m];

        let r = random_mapping(n, free, &mut rng, &mut out);
        prop_assert_eq!(r.is_ok(), room);
        if room {
            prop_assert!(distinct_in_range(&out, n));
            prop_assert!(out.iter().all(|&v| mask[v as usize]));
        }

        let start = rng.below(n as u64) as u32;
        if room {
            ring_mapping(n, free, start, &mut out).unwrap();
            prop_assert!(distinct_in_range(&out, n));
            prop_assert!(out.iter().all(|&v| mask[v as usize]));
        }

        let mut eg = ring_with_shortcuts(n, 40, seed ^ 1);
        let g = eg.view();
        let (mut queue, mut seen) = (vec![0u32; 64], vec![false; 64]);
        if let Ok(root) = random_free_node(n, free, &mut rng) {
            let scratch = BfsBuffers { queue: &mut queue, seen: &mut seen };
            // Connected graph: fails only when there are too few free nodes.
            let r = bfs_mapping(&g, free, root, &mut out, scratch);
            prop_assert_eq!(r.is_ok(), room);
            if room {
                prop_assert_eq!(out[0], root);
                prop_assert!(distinct_in_range(&out, n));
                prop_assert!(out.iter().all(|&v| mask[v as usize]));
            }
        }

        let pm = 1usize << (m.trailing_zeros().min(5));
        let mut out = vec![0u32; pm];
        if circulant_mapping(n, FreeNodes::All, start, &mut out).is_ok() {
            prop_assert!(distinct_in_range(&out, n));
        } else {
            prop_assert!(false, "circulant mapping of m = {} failed", pm);
        }
    }
}
