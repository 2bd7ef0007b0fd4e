//! The table router RTL under Verilator against core routing: every
//! destination of every switch of G(64, 6), a 4×4 torus and a small Dragonfly is looked up by
//! the RTL and must give core's port and VC; the arbiter is round-robin and honours
//! back-pressure.

mod common;

use std::collections::VecDeque;

use common::{compiled_runs, core_entry};
use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::RunTable;
use jumpnet_core::routing::{
    CirculantNaf, DistanceMatrix, MinimalRouting, RouteEntry, Routing, Run, TorusDor, TorusVcs,
};
use jumpnet_core::topology::{Circulant, Dragonfly, GlobalArrangement, Topology, Torus};
use jumpnet_hdl::TableRouterRtl;

/// Loads each switch's compiled table into one RTL router and streams every destination
/// through the four inputs; checks each lookup and each move against core. Returns the
/// number of (switch, destination) pairs checked.
fn check_every_route<T: Topology, R: Routing>(topo: &T, routing: &R, what: &str) -> usize {
    let dests = topo.num_terminals();
    let mut checked = 0;
    let mut seen_vcs = [false; 16];
    for s in 0..topo.num_switches() {
        let runs = compiled_runs(topo, routing, s);
        let table = RunTable::new(&runs, dests).expect("table");
        let mut rtl = TableRouterRtl::new();
        rtl.load_table(&table).expect("load");
        let mut queues: Vec<VecDeque<u32>> = (0..4)
            .map(|i| (0..dests).filter(|d| d % 4 == i).collect())
            .collect();
        let mut looked_up = vec![false; dests as usize];
        let mut cycles = 0;
        while queues.iter().any(|q| !q.is_empty()) {
            cycles += 1;
            assert!(cycles < 4 * dests + 16, "{what}: switch {s} stalls");
            let valid = (0..4).fold(0u8, |m, i| m | u8::from(!queues[i].is_empty()) << i);
            let dst: [u32; 4] = core::array::from_fn(|i| queues[i].front().copied().unwrap_or(0));
            let c = rtl.step(valid, dst, 0xFFFF);
            if let Some(lk) = c.lookup {
                let want = core_entry(routing, s, lk.dst);
                assert_eq!(lk.dst, dst[lk.input], "{what}");
                assert_eq!(lk.entry, want, "{what}: switch {s} -> {}", lk.dst);
                assert_eq!(table.lookup(lk.dst), Some(want), "{what}: core table");
                assert!(
                    !looked_up[lk.dst as usize],
                    "{what}: {} looked up twice",
                    lk.dst
                );
                looked_up[lk.dst as usize] = true;
                seen_vcs[usize::from(want.vc)] = true;
            }
            for (i, q) in queues.iter_mut().enumerate() {
                if c.in_ready >> i & 1 == 0 {
                    continue;
                }
                let d = q.pop_front().expect("a head moved");
                let want = core_entry(routing, s, d);
                if c.drop >> i & 1 == 1 {
                    assert!(usize::from(want.port) >= TableRouterRtl::OUTPUTS, "{what}");
                } else {
                    let port = usize::from(want.port);
                    assert_eq!(c.requests[port], Some((i, want.vc)), "{what}: {s} -> {d}");
                }
                checked += 1;
            }
        }
        assert!(
            looked_up.iter().all(|&l| l),
            "{what}: switch {s} skipped a lookup"
        );
    }
    assert!(seen_vcs[0], "{what}");
    checked
}

#[test]
fn g64_circulant_naf_routes_match_core() {
    let g = Circulant::g(64).unwrap();
    let naf = CirculantNaf::new(&g).unwrap();
    assert_eq!(check_every_route(&g, &naf, "G(64, 6) NAF"), 64 * 64);
}

#[test]
fn g64_minimal_routes_match_core() {
    let g = Circulant::g(64).unwrap();
    let mut d = vec![0u16; 64 * 64];
    let mut q = vec![0u32; 64];
    let dm = DistanceMatrix::compute(&g, &mut d, &mut q).unwrap();
    let minimal = MinimalRouting::new(&g, dm).unwrap();
    assert_eq!(check_every_route(&g, &minimal, "G(64, 6) minimal"), 64 * 64);
}

#[test]
fn torus_4x4_dor_routes_match_core() {
    let t = Torus::torus(&[4, 4], 1).unwrap();
    for vcs in [TorusVcs::Single, TorusVcs::Dateline] {
        let dor = TorusDor::new(&t, vcs).unwrap();
        assert_eq!(check_every_route(&t, &dor, "4x4 torus DOR"), 16 * 16);
    }
}

#[test]
fn small_dragonfly_minimal_routes_match_core() {
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap();
    let r = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    assert_eq!(check_every_route(&df, &r, "Dragonfly(9,4,2,2)"), 36 * 72);
}

#[test]
fn arbiter_is_round_robin_and_honours_back_pressure() {
    // One run: every destination leaves on port 5, VC 3.
    let runs = [Run {
        first: 0,
        value: RouteEntry { port: 5, vc: 3 },
    }];
    let table = jumpnet_core::routing::RunTable::new(&runs, 100).unwrap();
    let mut rtl = TableRouterRtl::new();
    rtl.load_table(&table).unwrap();
    // Four lookups, one per cycle, in input order (pointer starts before input 0... wraps).
    let mut order = Vec::new();
    for _ in 0..4 {
        let c = rtl.step(0xF, [10, 11, 12, 13], 0);
        order.push(c.lookup.expect("one lookup per cycle").input);
        assert_eq!(
            c.in_ready, 0,
            "nothing moves without a route and a ready output"
        );
    }
    order.sort_unstable();
    assert_eq!(order, [0, 1, 2, 3]);
    // Back-pressure: output 5 requests but is not ready, so nothing moves.
    for _ in 0..3 {
        let c = rtl.step(0xF, [10, 11, 12, 13], !(1 << 5));
        assert!(c.requests[5].is_some());
        assert_eq!(c.in_ready, 0);
    }
    // Ready: one grant per cycle, rotating over the inputs; each moved input is refilled
    // with a new head that is looked up again, so the rotation continues.
    let mut grants = Vec::new();
    for _ in 0..12 {
        let c = rtl.step(0xF, [20, 21, 22, 23], 0xFFFF);
        if let Some((i, vc)) = c.requests[5] {
            assert_eq!(vc, 3);
            assert_eq!(c.in_ready, 1 << i);
            grants.push(i);
        }
    }
    assert!(grants.len() >= 8, "{grants:?}");
    for w in grants.windows(2) {
        assert_ne!(
            w[0], w[1],
            "round robin never grants the same input twice in a row here"
        );
    }
    // No route beyond the destination count: the head is dropped.
    let mut rtl = TableRouterRtl::new();
    rtl.load_table(&table).unwrap();
    let c = rtl.step(1, [100, 0, 0, 0], 0xFFFF);
    assert_eq!(c.lookup.map(|l| l.entry), Some(RouteEntry::NONE));
    let c = rtl.step(1, [100, 0, 0, 0], 0xFFFF);
    assert_eq!((c.drop, c.in_ready), (1, 1));
}
