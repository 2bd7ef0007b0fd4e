//! UGAL Dragonfly routing: the candidate paths it reports are the paths the packet then
//! takes (walked hop by hop), minimal hops equal [`DragonflyMinimal`]'s, BookSim
//! `ugal_dragonflynew` VCs, and no decision without occupancies means minimal.

extern crate std;
use std::vec::Vec;

use crate::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use crate::routing::dragonfly::ugal::{DragonflyUgal, UgalChoice, UgalMode};
use crate::routing::{Hop, PacketState, Routing};
use crate::topology::{Dragonfly, GlobalArrangement, LinkClass, Port, Topology};

/// Walks `state` from the source switch to `dst`: (ports, VCs, global channels, groups).
#[allow(clippy::type_complexity)]
fn walk(
    df: &Dragonfly,
    r: &dyn Routing,
    src_switch: u32,
    state: &mut PacketState,
    dst: u32,
) -> (Vec<u16>, Vec<u8>, Vec<(u32, u16)>, Vec<u32>) {
    let (mut ports, mut vcs, mut globals, mut groups) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut at = src_switch;
    for _ in 0..10 {
        groups.push(at / df.a());
        match r.next_hop(at, state, dst).unwrap() {
            Hop::Eject { .. } => return (ports, vcs, globals, groups),
            Hop::Forward { port, vc } => {
                let Port::Link(l) = df.port(at, port) else {
                    panic!("no link")
                };
                if l.class == LinkClass::Global {
                    globals.push((at, port));
                }
                ports.push(port);
                vcs.push(vc);
                at = l.peer;
            }
        }
    }
    panic!("route too long");
}

#[test]
fn reported_paths_are_the_paths_taken() {
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap();
    let u = DragonflyUgal::new(&df, UgalMode::Local, 3, 0);
    let m = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    assert!(u.ugal().is_some() && m.ugal().is_none());
    assert_eq!(u.num_vcs(), 3);
    let nt = df.num_terminals();
    let mut valiant_longer = 0;
    for src in 0..nt {
        for dst in 0..nt {
            if src == dst {
                continue;
            }
            let s = df.terminal_switch(src).unwrap();
            let st = u.inject(src, dst).unwrap();
            let (min_ports, min_vcs, min_globals, _) =
                walk(&df, &m, s, &mut m.inject(src, dst).unwrap(), dst);
            let Some(p) = u.paths(s, &st, dst).unwrap() else {
                // Same group: minimal, phase 1 (VC 1), nothing to decide.
                assert_eq!(s / 4, df.terminal_switch(dst).unwrap() / 4);
                assert_eq!(st.phase, 1);
                continue;
            };
            assert_eq!(st.phase, DragonflyUgal::UNDECIDED);
            // Minimal choice: DragonflyMinimal's ports, VCs 1 then 2 from the global hop.
            let mut a = st;
            u.commit(&mut a, UgalChoice::Minimal);
            let (ports, vcs, globals, _) = walk(&df, &u, s, &mut a, dst);
            assert_eq!(ports, min_ports);
            assert_eq!(ports.len() as u32, p.min_hops);
            assert_eq!(ports[0], p.min_port);
            assert_eq!(globals, min_globals);
            assert_eq!(globals, [p.min_global]);
            // VC 1 before the global hop, 2 from it on; DragonflyMinimal's are 0 and 1.
            let g = min_vcs.iter().position(|&v| v == 1).unwrap();
            let want: Vec<u8> = (0..vcs.len()).map(|k| if k < g { 1 } else { 2 }).collect();
            assert_eq!(vcs, want, "{src}->{dst}");
            // Undecided next_hop (no occupancies) = minimal.
            let mut b = st;
            let (ports_b, vcs_b, _, _) = walk(&df, &u, s, &mut b, dst);
            assert_eq!((ports_b, vcs_b), (ports, vcs));
            // Valiant choice: through group `via`, the reported first port, hops, globals.
            let mut c = st;
            u.commit(&mut c, UgalChoice::Valiant);
            let (ports, vcs, globals, groups) = walk(&df, &u, s, &mut c, dst);
            assert_eq!(ports.len() as u32, p.val_hops);
            assert_eq!(ports[0], p.val_port);
            assert_eq!(globals, p.val_globals);
            assert!(groups.contains(&st.via));
            // VCs never decrease: 0 … 0, 1 …, 2 … (BookSim ugal_dragonflynew phases).
            assert!(vcs.windows(2).all(|w| w[0] <= w[1]), "{vcs:?}");
            assert_eq!((vcs[0], *vcs.last().unwrap()), (0, 2), "{vcs:?}");
            if p.val_hops > p.min_hops {
                valiant_longer += 1;
            }
        }
    }
    assert!(valiant_longer > 1000, "{valiant_longer}");
}

#[test]
fn decision_weighs_occupancy_by_hops() {
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap();
    let u = DragonflyUgal::new(&df, UgalMode::Global, 3, 4);
    let st = u.inject(0, 70).unwrap();
    let p = u.paths(0, &st, 70).unwrap().unwrap();
    // q_min·h_min ≤ q_val·h_val + 4.
    let q = (p.val_hops * 10 + 4) / p.min_hops;
    assert_eq!(u.decide(&p, q, 10), UgalChoice::Minimal);
    assert_eq!(u.decide(&p, q + 1, 10), UgalChoice::Valiant);
    assert_eq!(u.decide(&p, 0, 0), UgalChoice::Minimal);
}
