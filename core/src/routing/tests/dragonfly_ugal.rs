//! UGAL Dragonfly routing: the candidate paths it reports are the paths the packet then
//! takes (walked hop by hop), minimal hops equal [`DragonflyMinimal`]'s, BookSim
//! `ugal_dragonflynew` VCs, and no decision without occupancies means minimal.

extern crate std;
use std::vec::Vec;

use crate::routing::adaptive::{Candidate, CongestionScope, MAX_CANDIDATES};
use crate::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use crate::routing::dragonfly::ugal::{DragonflyUgal, UgalChoice, UgalMode};
use crate::routing::{Hop, PacketState, Routing, RoutingError};
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
    assert_eq!(u.congestion_scope(), CongestionScope::Local);
    assert_eq!(m.congestion_scope(), CongestionScope::None);
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

/// The adaptive methods through a generic `R` (the tests pass a reference: the forwarding
/// `impl Routing for &R`).
fn scope_of<R: Routing>(r: R) -> CongestionScope {
    r.congestion_scope()
}

fn candidates_of<R: Routing>(
    r: R,
    at: u32,
    st: &PacketState,
    dst: u32,
    out: &mut [Candidate],
) -> Result<usize, RoutingError> {
    r.candidates(at, st, dst, out)
}

fn commit_with<R: Routing>(r: R, st: &mut PacketState, c: &Candidate) {
    r.commit_candidate(st, c);
}

#[test]
fn candidates_at_the_source_list_minimal_then_valiant() {
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap();
    let m = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    let mut out = [Candidate::default(); MAX_CANDIDATES];
    // Oblivious routings offer none.
    let st = m.inject(0, 70).unwrap();
    assert_eq!(m.candidates(0, &st, 70, &mut out), Ok(0));
    for (mode, scope) in [
        (UgalMode::Local, CongestionScope::Local),
        (UgalMode::Global, CongestionScope::Remote),
    ] {
        let u = DragonflyUgal::new(&df, mode, 3, 4);
        assert_eq!(u.congestion_scope(), scope);
        // Through a reference (the wrapper forwards).
        assert_eq!(scope_of::<&DragonflyUgal>(&u), scope);
        let nt = df.num_terminals();
        for (src, dst) in (0..nt).flat_map(|s| (0..nt).map(move |d| (s, d))) {
            if src == dst {
                continue;
            }
            let s = df.terminal_switch(src).unwrap();
            let st = u.inject(src, dst).unwrap();
            let n = candidates_of::<&DragonflyUgal>(&u, s, &st, dst, &mut out).unwrap();
            let Some(p) = u.paths(s, &st, dst).unwrap() else {
                assert_eq!(n, 0, "{src}->{dst}: nothing to decide");
                continue;
            };
            assert_eq!(n, 2);
            let (min, val) = (out[0], out[1]);
            assert_eq!((min.port, min.hops, min.bias), (p.min_port, p.min_hops, 0));
            assert_eq!((val.port, val.hops, val.bias), (p.val_port, p.val_hops, 4));
            match mode {
                UgalMode::Local => {
                    assert_eq!(min.weighed(), [(s, p.min_port)]);
                    assert_eq!(val.weighed(), [(s, p.val_port)]);
                }
                UgalMode::Global => {
                    assert_eq!(min.weighed(), [p.min_global]);
                    assert_eq!(val.weighed(), p.val_globals);
                }
            }
            // Committing a candidate is committing its choice.
            for (c, choice) in [(min, UgalChoice::Minimal), (val, UgalChoice::Valiant)] {
                let (mut a, mut b) = (st, st);
                commit_with::<&DragonflyUgal>(&u, &mut a, &c);
                u.commit(&mut b, choice);
                assert_eq!(a, b);
                assert_ne!(a.phase, DragonflyUgal::UNDECIDED);
                // Decided: no candidates any more.
                assert_eq!(u.candidates(s, &a, dst, &mut out), Ok(0));
            }
            let mut minimal = st;
            u.commit_candidate(&mut minimal, &min);
            assert_eq!((minimal.phase, minimal.via), (1, PacketState::NO_VIA));
            let mut valiant = st;
            u.commit_candidate(&mut valiant, &val);
            assert_eq!((valiant.phase, valiant.via), (0, st.via));
        }
    }
}

#[test]
fn cheapest_candidate_is_the_ugal_decision() {
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap();
    let u = DragonflyUgal::new(&df, UgalMode::Local, 3, 4);
    let st = u.inject(0, 70).unwrap();
    let p = u.paths(0, &st, 70).unwrap().unwrap();
    let mut out = [Candidate::default(); 2];
    assert_eq!(u.candidates(0, &st, 70, &mut out), Ok(2));
    for qmin in 0..40 {
        for qval in 0..40 {
            // Cheapest, the earlier one on ties.
            let pick = if out[0].cost(qmin) <= out[1].cost(qval) {
                UgalChoice::Minimal
            } else {
                UgalChoice::Valiant
            };
            assert_eq!(pick, u.decide(&p, qmin, qval), "{qmin} {qval}");
        }
    }
    // One slot is too few.
    assert!(matches!(
        u.candidates(0, &st, 70, &mut out[..1]),
        Err(RoutingError::Capacity(_))
    ));
}
