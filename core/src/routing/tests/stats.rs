extern crate std;
use std::vec;

use super::matrix_buf;
use crate::routing::minimal::distance::DistanceMatrix;
use crate::routing::minimal::MinimalRouting;
use crate::routing::paths::stats::{all_to_all, load_by_class, load_summary, LoadSummary};
use crate::routing::testgraphs::{bfs, build, ring_with_chords, torus_edges, Store};
use crate::topology::{LinkClass, Topology};

fn check<T: Topology>(g: &T) {
    let n = g.num_switches();
    let mut buf = matrix_buf(g);
    let mut q = vec![0u32; n as usize];
    let dm = DistanceMatrix::compute(g, &mut buf, &mut q).unwrap();
    let r = MinimalRouting::new(g, dm).unwrap();
    let mut loads = vec![0u64; (n * g.radix() as u32) as usize];
    let mut hist = vec![0u64; n as usize];
    let st = all_to_all(g, &r, 1000, &mut loads, &mut hist).unwrap();
    // Independent: hop histogram and path-length sum from plain BFS over terminal pairs.
    let mut ref_hist = vec![0u64; n as usize];
    let mut ref_sum = 0u64;
    let nt = g.num_terminals();
    for s in 0..nt {
        let ds = bfs(g, g.terminal_switch(s).unwrap());
        for d in 0..nt {
            if s != d {
                let h = ds[g.terminal_switch(d).unwrap() as usize];
                ref_hist[h as usize] += 1;
                ref_sum += h as u64;
            }
        }
    }
    assert_eq!(hist, ref_hist);
    assert_eq!(st.total_hops, ref_sum);
    assert_eq!(st.pairs, nt as u64 * (nt as u64 - 1));
    // Edge forwarding index: the loads sum to the total path length.
    assert_eq!(loads.iter().sum::<u64>(), ref_sum);
    let all = load_summary(g, &loads, None);
    assert_eq!(all.total, ref_sum);
    assert_eq!(all.max, *loads.iter().max().unwrap());
    let mut by = [(LinkClass::Local, LoadSummary::default()); 4];
    let k = load_by_class(g, &loads, &mut by).unwrap();
    assert_eq!(by[..k].iter().map(|(_, s)| s.total).sum::<u64>(), ref_sum);
    assert_eq!(
        by[..k].iter().map(|(_, s)| s.channels).sum::<u64>(),
        all.channels
    );
    assert!((all.mean() - ref_sum as f64 / all.channels as f64).abs() < 1e-12);
}

#[test]
fn loads_sum_to_path_lengths() {
    let edges = ring_with_chords(40, 30, 5, 3);
    let mut st = Store::default();
    check(&build(40, 5, 2, &edges, &mut st));
    let mut st = Store::default();
    check(&build(25, 4, 1, &torus_edges(5, 5), &mut st));
}

#[test]
fn ring_loads_match_closed_form() {
    // Odd ring of n = 2m + 1, one terminal per switch, minimal routing: every directed
    // channel carries m(m+1)/2 paths (sum of 1..m by symmetry).
    let n = 9u32;
    let edges: std::vec::Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
    let mut st = Store::default();
    let g = build(n, 2, 1, &edges, &mut st);
    let mut buf = matrix_buf(&g);
    let mut q = vec![0u32; n as usize];
    let dm = DistanceMatrix::compute(&g, &mut buf, &mut q).unwrap();
    let r = MinimalRouting::new(&g, dm).unwrap();
    let mut loads = vec![0u64; (n * 3) as usize];
    let mut hist = vec![0u64; 8];
    all_to_all(&g, &r, 100, &mut loads, &mut hist).unwrap();
    let s = load_summary(&g, &loads, Some(LinkClass::Local));
    assert_eq!(s.channels, 18);
    assert_eq!(s.max, 10);
    assert_eq!(s.total, 180);
    assert_eq!(
        load_summary(&g, &loads, Some(LinkClass::Global)).channels,
        0
    );
}
