//! Compiled route tables of the arithmetic routings route exactly like the algorithms.
//! All of them are destination-based except the dateline VCs of torus DOR, whose tables
//! hold ports only while [`DatelineVcs`] adds the VCs hop by hop.

extern crate std;
use crate::error::InvalidParam;
use std::vec;
use std::vec::Vec;

use super::super::steps;
use crate::routing::circulant::greedy::CirculantGreedy;
use crate::routing::circulant::naf::CirculantNaf;
use crate::routing::dimension_order::dateline::DatelineVcs;
use crate::routing::dimension_order::hypercube::HypercubeEcube;
use crate::routing::dimension_order::hyperx::HyperXDor;
use crate::routing::dimension_order::torus::{TorusDor, TorusVcs};
use crate::routing::fat_tree::FatTreeDmodK;
use crate::routing::paths::walk::Step;
use crate::routing::tables::compile::{compile_tables, VcMode};
use crate::routing::tables::run_table::{RouteEntry, Run};
use crate::routing::tables::table_routing::TableRouting;
use crate::routing::tables::table_set::{TableSet, TableSetBuilder};
use crate::routing::{Routing, RoutingError};
use crate::topology::{Circulant, FatTree, HyperX, Hypercube, Topology, Torus};

/// Buffers of a compiled table set.
#[derive(Default)]
struct Buffers {
    runs: Vec<Run<RouteEntry>>,
    offs: Vec<u32>,
}

/// Compiles `r` on `topo` (VCs in the entries) into `buf`.
fn compile<'b, T: Topology, R: Routing>(
    topo: &T,
    r: &R,
    buf: &'b mut Buffers,
) -> TableSet<'b, RouteEntry> {
    let (n, nt) = (topo.num_switches(), topo.num_terminals());
    buf.runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        (n * nt) as usize
    ];
    buf.offs = vec![0; n as usize + 1];
    let mut b = TableSetBuilder::new(n, nt, &mut buf.runs, &mut buf.offs).unwrap();
    compile_tables(topo, r, VcMode::InTable, &mut b, None).unwrap();
    b.finish().unwrap()
}

/// Compiles `r` and checks that the table routing follows the same routes.
fn tables_route_like<T: Topology, R: Routing>(topo: &T, r: &R) {
    let mut buf = Buffers::default();
    let set = compile(topo, r, &mut buf);
    let tr = TableRouting::new(topo, set, None, r.num_vcs()).unwrap();
    same_routes(topo, r, &tr);
}

/// All routes of `a` and `b` are identical (switches, ports, VCs).
fn same_routes<T: Topology, A: Routing, B: Routing>(topo: &T, a: &A, b: &B) {
    let nt = topo.num_terminals();
    for s in 0..nt {
        for d in 0..nt {
            if s != d {
                let (x, y): (Vec<Step>, Vec<Step>) = (steps(topo, a, s, d), steps(topo, b, s, d));
                assert_eq!(x, y, "{s} -> {d}");
            }
        }
    }
}

#[test]
fn destination_based_algorithms_compile_to_equivalent_tables() {
    for (k, tps) in [
        (&[4u32, 4][..], 2u16),
        (&[5, 3], 1),
        (&[2, 1, 3], 2),
        (&[6], 1),
    ] {
        let t = Torus::torus(k, tps).unwrap();
        tables_route_like(&t, &TorusDor::new(&t, TorusVcs::Single).unwrap());
    }
    for k in [&[3u32, 5][..], &[4, 2, 2]] {
        let m = Torus::mesh(k, 2).unwrap();
        tables_route_like(&m, &TorusDor::new(&m, TorusVcs::Single).unwrap());
    }
    let h = Hypercube::new(4, 2).unwrap();
    tables_route_like(&h, &HypercubeEcube::new(&h));
    for (sizes, trunk, t) in [(&[3u32, 4][..], 2u16, 2u16), (&[2, 3, 3], 1, 1)] {
        let hx = HyperX::new(sizes, trunk, t).unwrap();
        tables_route_like(&hx, &HyperXDor::new(&hx));
    }
    for (n, jumps) in [(17u32, &[1u32, 3][..]), (24, &[1, 5, 12]), (9, &[1])] {
        let c = Circulant::new(n, jumps).unwrap();
        tables_route_like(&c, &CirculantGreedy::new(&c));
    }
    for n in [2u32, 16, 64] {
        let g = Circulant::g(n).unwrap();
        tables_route_like(&g, &CirculantNaf::new(&g).unwrap());
    }
    for (k, n) in [(3u32, 3u32), (2, 4), (4, 2)] {
        let ft = FatTree::new(k, n).unwrap();
        tables_route_like(&ft, &FatTreeDmodK::new(&ft));
    }
}

#[test]
fn dateline_torus_tables_hold_ports_and_vcs_are_added_per_hop() {
    for (k, tps) in [
        (&[4u32, 4][..], 1u16),
        (&[8], 2),
        (&[5, 6], 1),
        (&[2, 4, 3], 1),
    ] {
        let t = Torus::torus(k, tps).unwrap();
        let r = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
        let mut buf = Buffers::default();
        let set = compile(&t, &r, &mut buf);
        // The tables are the one-VC DOR tables: the VC is not a function of (switch,
        // destination), so every entry holds VC 0.
        let mut plain_buf = Buffers::default();
        let single = TorusDor::new(&t, TorusVcs::Single).unwrap();
        let plain = compile(&t, &single, &mut plain_buf);
        for sw in 0..t.num_switches() {
            for d in 0..t.num_terminals() {
                assert_eq!(set.lookup(sw, d), plain.lookup(sw, d));
            }
        }
        // Table ports + dateline VCs per hop = the arithmetic algorithm, VCs included.
        let tr = TableRouting::new(&t, set, None, 1).unwrap();
        let dl = DatelineVcs::new(&t, &tr).unwrap();
        assert_eq!(dl.num_vcs(), 2);
        same_routes(&t, &r, &dl);
        // The tables alone route the same ports but cannot reproduce the VCs.
        let nt = t.num_terminals();
        let mut vc_differs = false;
        for s in 0..nt {
            for d in 0..nt {
                if s != d {
                    let (a, b) = (steps(&t, &r, s, d), steps(&t, &tr, s, d));
                    let ports = |v: &[Step]| v.iter().map(|x| (x.from, x.port)).collect::<Vec<_>>();
                    assert_eq!(ports(&a), ports(&b));
                    vc_differs |= a.iter().zip(&b).any(|(x, y)| x.vc != y.vc);
                }
            }
        }
        assert!(vc_differs, "{k:?}: some route must use VC1");
    }
    // No dateline on a mesh.
    let m = Torus::mesh(&[4], 1).unwrap();
    let single = TorusDor::new(&m, TorusVcs::Single).unwrap();
    assert!(matches!(
        DatelineVcs::new(&m, single),
        Err(RoutingError::Invalid(InvalidParam { param: "torus", .. }))
    ));
}
