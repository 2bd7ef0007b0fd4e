extern crate std;
use std::vec;

use super::{matrix_buf, steps};
use crate::routing::minimal::distance::DistanceMatrix;
use crate::routing::minimal::{all_tables, switch_table, MinimalRouting, SwitchTableBuffers};
use crate::routing::paths::walk::check_all;
use crate::routing::tables::compile::{compile_tables, VcMode};
use crate::routing::tables::run_table::{RouteEntry, Run, RunTableBuilder};
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::testgraphs::{bfs, build, ring_with_chords, torus_edges, Store};
use crate::routing::{default_hop_limit, RoutingError};
use crate::topology::{Port, Topology};

/// Checks every pair against an independent BFS: delivered, length = distance, and at every
/// hop the port is the lowest one whose peer is one step closer (docs/routing.md §1).
fn check_reference<T: Topology>(g: &T) {
    let mut buf = matrix_buf(g);
    let mut q = vec![0u32; g.num_switches() as usize];
    let dm = DistanceMatrix::compute(g, &mut buf, &mut q).unwrap();
    let r = MinimalRouting::new(g, dm).unwrap();
    let n = g.num_switches();
    let dist_to: std::vec::Vec<_> = (0..n).map(|t| bfs(g, t)).collect();
    for src in 0..g.num_terminals() {
        for dst in 0..g.num_terminals() {
            if src == dst {
                continue;
            }
            let s = g.terminal_switch(src).unwrap();
            let t = g.terminal_switch(dst).unwrap();
            let path = steps(g, &r, src, dst);
            assert_eq!(
                path.len() as u32,
                dist_to[t as usize][s as usize],
                "{src}->{dst}"
            );
            for st in &path {
                let du = dist_to[t as usize][st.from as usize];
                let lowest = (0..g.radix())
                    .find(|&p| match g.port(st.from, p) {
                        Port::Link(l) => dist_to[t as usize][l.peer as usize] + 1 == du,
                        _ => false,
                    })
                    .unwrap();
                assert_eq!(st.port, lowest, "tie-break at switch {}", st.from);
            }
        }
    }
    let rep = check_all(g, &r, Some(&dm), true, default_hop_limit(g)).unwrap();
    let nt = g.num_terminals() as u64;
    assert_eq!(rep.pairs, nt * (nt - 1));
    assert_eq!(rep.non_minimal, 0);
}

#[test]
fn minimal_routing_on_random_shortcut_graphs() {
    for (i, &(n, chords, width, tps)) in [
        (16u32, 10u32, 5u16, 1u16),
        (40, 40, 6, 1),
        (33, 20, 4, 2),
        (64, 100, 8, 1),
    ]
    .iter()
    .enumerate()
    {
        for seed in 0..3u64 {
            let edges = ring_with_chords(n, chords, width, seed * 31 + i as u64);
            let mut st = Store::default();
            let g = build(n, width, tps, &edges, &mut st);
            check_reference(&g);
        }
    }
}

#[test]
fn minimal_routing_on_tori_by_edges() {
    for (kx, ky) in [(4u32, 4u32), (5, 3), (6, 6), (2, 5)] {
        let mut st = Store::default();
        let g = build(kx * ky, 4, 1, &torus_edges(kx, ky), &mut st);
        check_reference(&g);
    }
}

#[test]
fn switch_table_with_small_scratch_equals_all_tables() {
    let n = 48u32;
    let edges = ring_with_chords(n, 50, 6, 7);
    let mut st = Store::default();
    let g = build(n, 6, 2, &edges, &mut st);
    let mut buf = matrix_buf(&g);
    let mut q = vec![0u32; n as usize];
    let dm = DistanceMatrix::compute(&g, &mut buf, &mut q).unwrap();
    let r = MinimalRouting::new(&g, dm).unwrap();
    let nt = g.num_terminals();
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        (n * nt) as usize
    ];
    let mut offs = vec![0u32; n as usize + 1];
    let mut b = TableSetBuilder::new(n, nt, &mut runs, &mut offs).unwrap();
    let (mut sd, mut sp) = (vec![0u16; n as usize], vec![0u16; n as usize]);
    all_tables(&r, &mut sd, &mut sp, &mut b).unwrap();
    let set = b.finish().unwrap();
    // The fast all-switch tables equal the per-hop reference answers of `MinimalRouting`
    // (checked against an independent BFS in `check_reference`).
    let mut runs2 = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        (n * nt) as usize
    ];
    let mut offs2 = vec![0u32; n as usize + 1];
    let mut b2 = TableSetBuilder::new(n, nt, &mut runs2, &mut offs2).unwrap();
    compile_tables(&g, &r, VcMode::InTable, &mut b2, None).unwrap();
    let set2 = b2.finish().unwrap();
    check_reference(&g);
    // One switch's table from O(n) scratch only.
    let (mut d, mut qq, mut bd, mut bp) = (
        vec![0u16; n as usize],
        vec![0u32; n as usize],
        vec![0u16; n as usize],
        vec![0u16; n as usize],
    );
    for s in 0..n {
        let mut own = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            nt as usize
        ];
        let mut tb = RunTableBuilder::new(&mut own);
        switch_table(
            &g,
            s,
            SwitchTableBuffers {
                dist: &mut d,
                queue: &mut qq,
                best_dist: &mut bd,
                best_port: &mut bp,
            },
            &mut tb,
        )
        .unwrap();
        let t = tb.finish();
        assert_eq!(t.runs(), set.table(s).unwrap().runs(), "switch {s}");
        assert_eq!(t.runs(), set2.table(s).unwrap().runs(), "switch {s}");
    }
}

#[test]
fn disconnected_graph_reports_unreachable() {
    let mut st = Store::default();
    let g = build(4, 2, 1, &[(0, 1), (2, 3)], &mut st);
    let mut buf = matrix_buf(&g);
    let mut q = vec![0u32; 4];
    let dm = DistanceMatrix::compute(&g, &mut buf, &mut q).unwrap();
    let r = MinimalRouting::new(&g, dm).unwrap();
    let err = check_all(&g, &r, None, false, 8).unwrap_err();
    assert_eq!(err, RoutingError::Unreachable { from: 0, to: 2 });
    assert_eq!(
        std::format!("{err}"),
        "switch 2 cannot be reached from switch 0 (graph is disconnected)"
    );
}
