use jumpnet_core::routing::{Hop, PacketState, Routing, RunTable, TorusDor, TorusVcs};
use jumpnet_core::topology::{Network, Port, Topology, Torus};

use super::*;

fn torus_net() -> Network<'static> {
    Network::Torus(Torus::torus(&[4, 4], 1).unwrap())
}

#[test]
fn only_destination_based_single_table_routings_are_allowed() {
    for ok in [
        RouteAlgo::Dor,
        RouteAlgo::Minimal,
        RouteAlgo::DfMinimal1vc,
        RouteAlgo::Dmodk,
    ] {
        assert!(check_table_routable(ok).is_ok(), "{ok:?}");
    }
    for bad in [
        RouteAlgo::DorDateline,
        RouteAlgo::DfMinimal,
        RouteAlgo::DfValiant,
        RouteAlgo::DfUgalL,
        RouteAlgo::Dfsssp,
        RouteAlgo::Parx,
    ] {
        let e = check_table_routable(bad).unwrap_err().to_string();
        assert!(e.contains(&format!("--algo {}", bad.name())), "{e}");
        assert!(e.contains("allowed: minimal, dor, ecube"), "{e}");
        assert!(!e.contains(&format!(" {},", bad.name())), "{e}");
    }
}

#[test]
fn the_entries_and_their_runs_give_the_routings_first_hops() {
    let net = torus_net();
    let Network::Torus(t) = &net else {
        unreachable!()
    };
    let dor = TorusDor::new(t, TorusVcs::Single).unwrap();
    for s in [0, 5, 15] {
        let entries = switch_entries(&net, &dor, s).unwrap();
        assert_eq!(entries.len(), 16);
        let runs = entry_runs(&entries).unwrap();
        // DOR on a 4-ring: per row of 4 destinations at most 3 runs.
        assert!(runs.len() <= 12 && runs.len() >= 4, "{}", runs.len());
        let table = RunTable::new(&runs, 16).unwrap();
        for d in 0..16 {
            let want = match dor.next_hop(s, &mut PacketState::new(s), d).unwrap() {
                Hop::Forward { port, vc } => RouteEntry { port, vc },
                Hop::Eject { port } => RouteEntry { port, vc: 0 },
            };
            assert_eq!(entries[d as usize], want, "{s} -> {d}");
            assert_eq!(table.lookup(d), Some(want), "{s} -> {d}");
        }
    }
}

#[test]
fn the_mutation_moves_one_entry_to_another_link() {
    let net = torus_net();
    let Network::Torus(t) = &net else {
        unreachable!()
    };
    let dor = TorusDor::new(t, TorusVcs::Single).unwrap();
    let good = switch_entries(&net, &dor, 0).unwrap();
    let mut bad = good.clone();
    let text = mutate_entry(&net, 0, &mut bad, 2).unwrap();
    let changed: Vec<usize> = (0..16).filter(|&d| good[d] != bad[d]).collect();
    assert_eq!(changed, [2]);
    assert_ne!(bad[2].port, good[2].port);
    assert!(matches!(net.port(0, bad[2].port), Port::Link(_)));
    assert!(text.contains("terminal 2 to port"), "{text}");
}

#[test]
fn the_counter_counts_hops_at_its_switch_only() {
    let net = torus_net();
    let Network::Torus(t) = &net else {
        unreachable!()
    };
    let dor = TorusDor::new(t, TorusVcs::Single).unwrap();
    let counter = HeadCounter::new(&dor, 1, InProcess);
    // 0 -> 2 on the ring of row 0: a tie, which goes +: 0 -> 1 -> 2 (passes switch 1 once);
    // 1 -> 1's own terminal: one eject at 1; 4 -> 8: never at 1.
    for (src, dst) in [(0, 2), (1, 1), (4, 8)] {
        let mut st = counter.inject(src, dst).unwrap();
        let mut at = net.terminal_switch(src).unwrap();
        while let Hop::Forward { port, .. } = counter.next_hop(at, &mut st, dst).unwrap() {
            at = net.port(at, port).link().unwrap().peer;
        }
    }
    assert_eq!(counter.heads(), 2);
    assert_eq!(
        counter.hops(),
        [
            (2, Hop::Forward { port: 0, vc: 0 }),
            (1, Hop::Eject { port: 4 })
        ]
    );
    assert_eq!(counter.first_forward(), Some(2));
}

#[test]
fn hop_differences_name_the_first_differing_head() {
    let a = (4, Hop::Forward { port: 1, vc: 0 });
    let b = (4, Hop::Forward { port: 2, vc: 0 });
    let e = (5, Hop::Eject { port: 4 });
    assert_eq!(first_hop_difference(5, &[e, a], &[e, a]), None);
    let d = first_hop_difference(5, &[e, a, e], &[e, b, e]).unwrap();
    assert!(d.starts_with("head flit 1 at switch 5"), "{d}");
    assert!(d.contains("port: 1") && d.contains("port: 2"), "{d}");
    let d = first_hop_difference(5, &[e, a], &[e]).unwrap();
    assert!(
        d.contains("routed 2 head flits at switch 5, the RTL 1"),
        "{d}"
    );
}
