//! Valiant Dragonfly routing (docs/routing.md §4): intermediate choice, route structure
//! against an independent port scan, 3-VC deadlock freedom, and per-(VC, destination) tables
//! of the destination-based variant.

extern crate std;
use crate::error::InvalidParam;
use std::collections::{BTreeMap, BTreeSet};
use std::vec;
use std::vec::Vec;

use super::deps::{add_steps, cdg_cycle, has_cycle, Deps};
use super::dragonfly_minimal::{minimal_routers, scan_link};
use super::steps;
use crate::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use crate::routing::dragonfly::valiant::{Arrival, DragonflyValiant, Intermediate, VALIANT_VCS};
use crate::routing::tables::run_table::{RouteEntry, Run};
use crate::routing::tables::table_set::{TableSet, TableSetBuilder};
use crate::routing::{terminal_location, Hop, PacketState, Routing, RoutingError};
use crate::topology::{
    Dragonfly, GlobalArrangement, LinkClass, Port, SwitchId, TerminalId, Topology,
};

fn cases() -> Vec<Dragonfly> {
    vec![
        Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap(),
        Dragonfly::new(9, 4, 1, 2, GlobalArrangement::PalmTree).unwrap(),
        Dragonfly::new(7, 3, 1, 2, GlobalArrangement::RelativeMirror).unwrap(),
        Dragonfly::new(6, 4, 1, 2, GlobalArrangement::Consecutive).unwrap(),
    ]
}

#[test]
fn intermediate_groups_are_valid_spread_and_seeded() {
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap();
    let nt = df.num_terminals();
    let group = |t: TerminalId| df.terminal_switch(t).unwrap() / df.a();
    let v = DragonflyValiant::new(&df, Intermediate::PerPair, 7);
    let mut count: BTreeMap<u32, u32> = BTreeMap::new();
    for src in 0..nt {
        for dst in 0..nt {
            let (gs, gd) = (group(src), group(dst));
            match v.intermediate(src, dst).unwrap() {
                None => assert_eq!(gs, gd, "{src}->{dst}"),
                Some(gi) => {
                    assert!(gi < 9 && gi != gs && gi != gd, "{src}->{dst}: {gi}");
                    *count.entry(gi).or_insert(0) += 1;
                }
            }
        }
    }
    // 72·72 − 9·8·8 = 4608 inter-group pairs over 9 groups (512 each on average).
    assert_eq!(count.len(), 9);
    assert_eq!(count.values().sum::<u32>(), 4608);
    for (&g, &c) in &count {
        assert!((410..=614).contains(&c), "group {g}: {c}");
    }
    // Same seed, same choice; another seed changes some.
    let again = DragonflyValiant::new(&df, Intermediate::PerPair, 7);
    let other = DragonflyValiant::new(&df, Intermediate::PerPair, 8);
    let mut differs = 0;
    for src in 0..nt {
        for dst in 0..nt {
            assert_eq!(v.intermediate(src, dst), again.intermediate(src, dst));
            differs += (v.intermediate(src, dst) != other.intermediate(src, dst)) as u32;
        }
    }
    assert!(differs > 1000, "{differs}");

    // Destination-based: one intermediate per destination, minimal when it is the source
    // group (or the destination's own group sends).
    let v = DragonflyValiant::new(&df, Intermediate::PerDestination, 7);
    for dst in 0..nt {
        let gd = group(dst);
        let chosen: BTreeSet<u32> = (0..nt)
            .filter_map(|src| v.intermediate(src, dst).unwrap())
            .collect();
        assert_eq!(chosen.len(), 1, "dst {dst}");
        let gi = *chosen.iter().next().unwrap();
        assert_ne!(gi, gd);
        for src in 0..nt {
            let none = v.intermediate(src, dst).unwrap().is_none();
            assert_eq!(none, group(src) == gi || group(src) == gd, "{src}->{dst}");
        }
    }
}

#[test]
fn routes_go_minimally_through_the_intermediate_group_with_phase_vcs() {
    for df in cases() {
        for choice in [Intermediate::PerPair, Intermediate::PerDestination] {
            let v = DragonflyValiant::new(&df, choice, 3);
            let nt = df.num_terminals();
            let mut longest = 0;
            for src in 0..nt {
                for dst in (0..nt).filter(|&d| d != src) {
                    let (s, _) = terminal_location(&df, src).unwrap();
                    let (t, _) = terminal_location(&df, dst).unwrap();
                    let path = steps(&df, &v, src, dst);
                    let routers: Vec<SwitchId> = path.iter().map(|st| st.to).collect();
                    let mut want = Vec::new();
                    let via = v.intermediate(src, dst).unwrap();
                    match via {
                        Some(gi) => {
                            let (o, entry) = scan_link(&df, s / df.a(), gi);
                            if o != s {
                                want.push(o);
                            }
                            want.push(entry);
                            minimal_routers(&df, entry, t, &mut want);
                        }
                        None => minimal_routers(&df, s, t, &mut want),
                    }
                    assert_eq!(routers, want, "{choice:?} {src}->{dst} via {via:?}");
                    longest = longest.max(path.len());
                    // VC = phase: 0 until the intermediate group is reached, then 1 until
                    // the final global hop, 2 from it on.
                    let entered = via.map(|gi| path.iter().position(|st| st.to / df.a() == gi));
                    let last_global = path.iter().rposition(|st| st.class == LinkClass::Global);
                    for (i, st) in path.iter().enumerate() {
                        let phase = match entered {
                            Some(Some(e)) if i <= e => 0,
                            _ if last_global.is_some_and(|g| i >= g) => 2,
                            _ => 1,
                        };
                        assert_eq!(st.vc, phase, "{choice:?} {src}->{dst} hop {i}");
                    }
                }
            }
            assert!(longest <= 5);
        }
    }
}

#[test]
fn three_vcs_are_deadlock_free() {
    for df in cases() {
        for choice in [Intermediate::PerPair, Intermediate::PerDestination] {
            let v = DragonflyValiant::new(&df, choice, 11);
            let mut deps = Deps::new();
            let nt = df.num_terminals();
            for src in 0..nt {
                for dst in (0..nt).filter(|&d| d != src) {
                    add_steps(&mut deps, &steps(&df, &v, src, dst));
                }
            }
            assert!(!has_cycle(&deps), "{choice:?} (Kahn)");
            assert_eq!(cdg_cycle(&df, VALIANT_VCS, &deps), None, "{choice:?} (CDG)");
            // The same routes on one VC would deadlock.
            let one: Deps = deps
                .iter()
                .map(|&(a, b)| ((a.0, a.1, 0), (b.0, b.1, 0)))
                .collect();
            assert!(has_cycle(&one), "{choice:?}");
        }
    }
}

#[test]
fn two_groups_fall_back_to_minimal_routing() {
    let df = Dragonfly::new(2, 3, 2, 1, GlobalArrangement::Consecutive).unwrap();
    let m = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    for choice in [Intermediate::PerPair, Intermediate::PerDestination] {
        let v = DragonflyValiant::new(&df, choice, 5);
        for src in 0..df.num_terminals() {
            for dst in (0..df.num_terminals()).filter(|&d| d != src) {
                assert_eq!(v.intermediate(src, dst).unwrap(), None);
                let a: Vec<_> = steps(&df, &v, src, dst).iter().map(|s| s.to).collect();
                let b: Vec<_> = steps(&df, &m, src, dst).iter().map(|s| s.to).collect();
                assert_eq!(a, b);
            }
        }
    }
}

/// Routing from the four per-arrival tables of every router: a packet's table is chosen by
/// where it came from (terminal, or the VC it arrived on).
struct ArrivalTables<'a> {
    df: &'a Dragonfly,
    sets: [TableSet<'a, RouteEntry>; 4],
}

/// `PacketState::phase` marker of a packet still at its source terminal.
const AT_TERMINAL: u8 = 255;

impl Routing for ArrivalTables<'_> {
    fn num_vcs(&self) -> u8 {
        VALIANT_VCS
    }
    fn inject(&self, src: TerminalId, _dst: TerminalId) -> Result<PacketState, RoutingError> {
        let mut st = PacketState::new(terminal_location(self.df, src)?.0);
        st.phase = AT_TERMINAL;
        Ok(st)
    }
    fn next_hop(
        &self,
        at: SwitchId,
        st: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let k = if st.phase == AT_TERMINAL {
            0
        } else {
            1 + st.vc as usize
        };
        let e = self.sets[k].lookup(at, dst).unwrap();
        st.phase = 0;
        match self.df.port(at, e.port) {
            Port::Terminal(_) => Ok(Hop::Eject { port: e.port }),
            _ => {
                st.vc = e.vc;
                Ok(Hop::Forward {
                    port: e.port,
                    vc: e.vc,
                })
            }
        }
    }
}

#[test]
fn destination_based_variant_fits_per_vc_tables() {
    for df in cases() {
        let v = DragonflyValiant::new(&df, Intermediate::PerDestination, 21);
        let (n, nt) = (df.num_switches(), df.num_terminals());
        let mut bufs: Vec<(Vec<Run<RouteEntry>>, Vec<u32>)> = (0..4)
            .map(|_| {
                (
                    vec![
                        Run {
                            first: 0,
                            value: RouteEntry::NONE
                        };
                        (n * nt) as usize
                    ],
                    vec![0u32; n as usize + 1],
                )
            })
            .collect();
        let arrivals = [
            Arrival::Terminal,
            Arrival::Vc(0),
            Arrival::Vc(1),
            Arrival::Vc(2),
        ];
        let mut sets = Vec::new();
        for ((runs, offs), arrival) in bufs.iter_mut().zip(arrivals) {
            let mut b = TableSetBuilder::new(n, nt, runs, offs).unwrap();
            v.tables(arrival, &mut b).unwrap();
            sets.push(b.finish().unwrap());
        }
        let tables = ArrivalTables {
            df: &df,
            sets: [sets[0], sets[1], sets[2], sets[3]],
        };
        for src in 0..nt {
            for dst in (0..nt).filter(|&d| d != src) {
                assert_eq!(steps(&df, &tables, src, dst), steps(&df, &v, src, dst));
            }
        }
    }
    let df = Dragonfly::new(9, 4, 1, 2, GlobalArrangement::Consecutive).unwrap();
    let v = DragonflyValiant::new(&df, Intermediate::PerPair, 1);
    assert!(matches!(
        v.table_entry(0, Arrival::Terminal, 5),
        Err(RoutingError::Invalid(InvalidParam {
            param: "intermediate choice",
            ..
        }))
    ));
    let v = DragonflyValiant::new(&df, Intermediate::PerDestination, 1);
    assert!(matches!(
        v.table_entry(0, Arrival::Vc(3), 5),
        Err(RoutingError::Invalid(InvalidParam {
            param: "arrival VC",
            ..
        }))
    ));
    assert!(matches!(
        v.inject(0, 36),
        Err(RoutingError::TerminalOutOfRange { .. })
    ));
}
