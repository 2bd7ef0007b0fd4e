//! Minimal Dragonfly routing (docs/routing.md §4) against BookSim's `dragonfly_port`
//! formula, BFS distances, and independent deadlock checks.

extern crate std;
use crate::error::InvalidParam;
use std::vec;
use std::vec::Vec;

use super::deps::{add_steps, cdg_cycle, has_cycle, Deps};
use super::{matrix_buf, steps};
use crate::routing::dragonfly::minimal::{
    step_toward_group, step_toward_router, DragonflyMinimal, MinimalVcs,
};
use crate::routing::minimal::distance::DistanceMatrix;
use crate::routing::paths::walk::check_all;
use crate::routing::tables::run_table::{RouteEntry, Run, RunTableBuilder};
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::{Routing, RoutingError};
use crate::topology::{Dragonfly, GlobalArrangement, LinkClass, Port, SwitchId, Topology};

const ARRANGEMENTS: [GlobalArrangement; 3] = [
    GlobalArrangement::Consecutive,
    GlobalArrangement::PalmTree,
    GlobalArrangement::RelativeMirror,
];

/// BookSim `dragonfly_port(rID, src, dest)` for `dragonflynew` (p terminals, p global ports,
/// a = 2p routers per group, consecutive arrangement), transcribed from its source.
fn booksim_port(p: u32, a: u32, r_id: u32, dest: u32) -> u16 {
    let grp_num_nodes = a * p;
    let grp_id = r_id / a;
    let dest_grp_id = dest / grp_num_nodes;
    let mut grp_output = 0;
    let grp_rid = if dest_grp_id == grp_id {
        dest / p
    } else {
        grp_output = if grp_id > dest_grp_id {
            dest_grp_id
        } else {
            dest_grp_id - 1
        };
        grp_output / p + grp_id * a
    };
    let port = if dest >= r_id * p && dest < (r_id + 1) * p {
        dest % p
    } else if grp_rid == r_id {
        p + (a - 1) + grp_output % p
    } else if r_id < grp_rid {
        (grp_rid % a) - 1 + p
    } else {
        (grp_rid % a) + p
    };
    port as u16
}

#[test]
fn ports_match_booksim_formula_and_vcs_follow_the_optical_dateline() {
    for p in [1u32, 2, 3, 4] {
        let (a, h) = (2 * p, p);
        let g = a * h + 1;
        let df = Dragonfly::new(g, a, p, h, GlobalArrangement::Consecutive).unwrap();
        let r = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
        for s in 0..df.num_switches() {
            for d in 0..df.num_terminals() {
                assert_eq!(
                    r.port(s, d).unwrap(),
                    booksim_port(p, a, s, d),
                    "p={p} s={s} d={d}"
                );
            }
        }
        // BookSim VCs: 0 until the global hop, 1 on the global channel and after it.
        let nt = df.num_terminals();
        for src in (0..nt).step_by(3) {
            for dst in 0..nt {
                if src == dst {
                    continue;
                }
                let path = steps(&df, &r, src, dst);
                let global = path.iter().position(|s| s.class == LinkClass::Global);
                for (i, st) in path.iter().enumerate() {
                    let want = global.is_some_and(|gi| i >= gi) as u8;
                    assert_eq!(st.vc, want, "p={p} {src}->{dst} hop {i}");
                }
            }
        }
    }
}

/// Ends of the lowest-index global link from group `g1` to `g2`, by scanning ports in
/// link-index order (router offset, then global port).
pub(super) fn scan_link(df: &Dragonfly, g1: u32, g2: u32) -> (SwitchId, SwitchId) {
    for r in 0..df.a() {
        for port in df.first_global_port()..df.radix() {
            let s = g1 * df.a() + r;
            if let Port::Link(l) = df.port(s, port) {
                if l.peer / df.a() == g2 {
                    return (s, l.peer);
                }
            }
        }
    }
    panic!("no link {g1}->{g2}");
}

/// Appends the routers after `s` of the route `[local] global [local]` (or one local hop)
/// from router `s` to router `t`, using the lowest-index link.
pub(super) fn minimal_routers(df: &Dragonfly, s: SwitchId, t: SwitchId, out: &mut Vec<SwitchId>) {
    let (gs, gt) = (s / df.a(), t / df.a());
    let mut at = s;
    if gs != gt {
        let (o, entry) = scan_link(df, gs, gt);
        if o != at {
            out.push(o);
        }
        out.push(entry);
        at = entry;
    }
    if at != t {
        out.push(t);
    }
}

#[test]
fn routes_take_local_global_local_paths_on_every_arrangement() {
    let cases: Vec<(u32, u32, u32, u32, GlobalArrangement)> = ARRANGEMENTS
        .iter()
        .flat_map(|&arr| [(9, 4, 2, 2, arr), (13, 3, 1, 4, arr), (5, 2, 2, 2, arr)])
        .chain([
            // Surplus global links (g < a·h + 1) and a single group.
            (6, 4, 2, 2, GlobalArrangement::Consecutive),
            (4, 3, 1, 3, GlobalArrangement::Consecutive),
            (1, 5, 2, 2, GlobalArrangement::Consecutive),
        ])
        .collect();
    let mut shorter_elsewhere = 0;
    for (g, a, p, h, arr) in cases {
        let df = Dragonfly::new(g, a, p, h, arr).unwrap();
        let r = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
        let mut buf = matrix_buf(&df);
        let mut q = vec![0u32; df.num_switches() as usize];
        let dm = DistanceMatrix::compute(&df, &mut buf, &mut q).unwrap();
        let rep = check_all(&df, &r, Some(&dm), false, 10).unwrap();
        assert!(rep.max_hops <= 3, "{arr:?} g={g}: {rep:?}");
        let mut case_longer = 0u64;
        for src in 0..df.num_terminals() {
            for dst in (0..df.num_terminals()).filter(|&d| d != src) {
                let path = steps(&df, &r, src, dst);
                let (s, t) = (
                    df.terminal_switch(src).unwrap(),
                    df.terminal_switch(dst).unwrap(),
                );
                let mut want = Vec::new();
                minimal_routers(&df, s, t, &mut want);
                let got: Vec<SwitchId> = path.iter().map(|st| st.to).collect();
                assert_eq!(got, want, "{arr:?} g={g} {src}->{dst}");
                let globals = path.iter().filter(|s| s.class == LinkClass::Global).count();
                assert_eq!(globals, (s / a != t / a) as usize);
                // Never longer than a shortest path that stays within one global hop; the
                // graph itself may be shorter through a third group (two global hops).
                if path.len() as u16 > dm.get(s, t) {
                    case_longer += 1;
                }
            }
        }
        assert_eq!(rep.non_minimal, case_longer);
        shorter_elsewhere += case_longer;
    }
    // E.g. (9, 4, 2, 2): router (0,1) reaches (1,1) through group 3 in two global hops.
    assert!(shorter_elsewhere > 0);
}

#[test]
fn two_vcs_are_deadlock_free_and_one_vc_deadlocks() {
    for arr in ARRANGEMENTS {
        let df = Dragonfly::new(9, 4, 1, 2, arr).unwrap();
        for (vcs, deadlocks) in [(MinimalVcs::Dateline, false), (MinimalVcs::Single, true)] {
            let r = DragonflyMinimal::new(&df, vcs);
            let mut deps = Deps::new();
            let nt = df.num_terminals();
            for src in 0..nt {
                for dst in (0..nt).filter(|&d| d != src) {
                    add_steps(&mut deps, &steps(&df, &r, src, dst));
                }
            }
            assert_eq!(has_cycle(&deps), deadlocks, "{arr:?} {vcs:?} (Kahn)");
            let cycle = cdg_cycle(&df, r.num_vcs(), &deps);
            assert_eq!(cycle.is_some(), deadlocks, "{arr:?} {vcs:?} (CDG)");
            if let Some(c) = cycle {
                // A real cycle of recorded dependencies, alternating local/global channels
                // through at least three groups.
                for k in 0..c.len() {
                    assert!(deps.contains(&(c[k], c[(k + 1) % c.len()])), "{c:?}");
                }
                let mut groups: Vec<u32> = c.iter().map(|ch| ch.0 / df.a()).collect();
                groups.sort_unstable();
                groups.dedup();
                assert!(groups.len() >= 3, "{c:?}");
            }
        }
    }
    // With one router per group there are no local channels: even one VC has no cycle.
    let df = Dragonfly::new(6, 1, 2, 5, GlobalArrangement::Consecutive).unwrap();
    let r = DragonflyMinimal::new(&df, MinimalVcs::Single);
    let mut deps = Deps::new();
    for src in 0..df.num_terminals() {
        for dst in (0..df.num_terminals()).filter(|&d| d != src) {
            add_steps(&mut deps, &steps(&df, &r, src, dst));
        }
    }
    assert!(deps.is_empty());
    assert!(cdg_cycle(&df, 1, &deps).is_none());
}

#[test]
fn tables_hold_the_routed_ports_and_compress_per_group() {
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::PalmTree).unwrap();
    let r = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    let (n, nt) = (df.num_switches(), df.num_terminals());
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        (n * nt) as usize
    ];
    let mut offs = vec![0u32; n as usize + 1];
    let mut b = TableSetBuilder::new(n, nt, &mut runs, &mut offs).unwrap();
    r.tables(&mut b).unwrap();
    let set = b.finish().unwrap();
    let mut own = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        nt as usize
    ];
    for s in 0..n {
        for d in 0..nt {
            let want = RouteEntry {
                port: r.port(s, d).unwrap(),
                vc: 0,
            };
            assert_eq!(set.lookup(s, d), Some(want));
        }
        let mut tb = RunTableBuilder::new(&mut own);
        r.switch_table(s, &mut tb).unwrap();
        assert_eq!(tb.finish().runs(), set.table(s).unwrap().runs());
        // Every remote group is one run at most; the own group has p terminal ports and
        // a − 1 routers: runs ≤ (g − 1) + p + (a − 1).
        assert!(set.table(s).unwrap().runs().len() <= 8 + 2 + 3);
    }
}

#[test]
fn steps_and_errors() {
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap();
    // Router (0,0) owns the link to group 1 (index 0): global port p + a − 1 = 5.
    let s = step_toward_group(&df, 0, 1).unwrap().unwrap();
    assert_eq!((s.port, s.global), (5, true));
    // Group 3 is link index 2 → router offset 1: local port to offset 1 from offset 0 is p.
    let s = step_toward_group(&df, 0, 3).unwrap().unwrap();
    assert_eq!((s.port, s.global), (2, false));
    assert_eq!(step_toward_group(&df, 0, 0).unwrap(), None);
    assert_eq!(step_toward_router(&df, 5, 5).unwrap(), None);
    assert!(matches!(
        step_toward_group(&df, 0, 9),
        Err(RoutingError::Invalid(InvalidParam { param: "group", .. }))
    ));
    assert!(matches!(
        step_toward_router(&df, 36, 0),
        Err(RoutingError::SwitchOutOfRange {
            switch: 36,
            switches: 36
        })
    ));
    let r = DragonflyMinimal::new(&df, MinimalVcs::Single);
    assert_eq!(r.num_vcs(), 1);
    assert!(matches!(
        r.inject(0, 72),
        Err(RoutingError::TerminalOutOfRange { terminal: 72, .. })
    ));
    assert!(matches!(
        r.port(0, 99),
        Err(RoutingError::TerminalOutOfRange { .. })
    ));
    assert_eq!(MinimalVcs::Dateline.out_vc(0, false), 0);
    assert_eq!(MinimalVcs::Dateline.out_vc(0, true), 1);
    assert_eq!(MinimalVcs::Dateline.out_vc(1, false), 1);
    assert_eq!(MinimalVcs::Single.out_vc(1, true), 0);
}
