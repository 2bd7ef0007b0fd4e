//! Deadlock analysis of the arithmetic routings with the channel dependency graph
//! (docs/routing.md §2, §5): one-VC torus DOR deadlocks on rings of k >= 4, dateline VCs
//! remove the cycles, and mesh DOR, e-cube, HyperX DOR and fat-tree up/down are
//! deadlock-free with one VC.

extern crate std;
use std::format;
use std::vec::Vec;

use super::{analyse, assert_deadlock_free};
use crate::routing::dimension_order::hypercube::HypercubeEcube;
use crate::routing::dimension_order::hyperx::HyperXDor;
use crate::routing::dimension_order::torus::{TorusDor, TorusVcs};
use crate::routing::fat_tree::FatTreeDmodK;
use crate::topology::{FatTree, HyperX, Hypercube, Torus};

#[test]
fn one_vc_dor_on_a_ring_of_4_or_more_deadlocks_around_the_ring() {
    for k in 4..=9u32 {
        for tps in [1u16, 2] {
            let t = Torus::torus(&[k], tps).unwrap();
            let r = TorusDor::new(&t, TorusVcs::Single).unwrap();
            let cyc = analyse(&t, &r)
                .cycle
                .expect("one-VC ring DOR must deadlock");
            // DOR never reverses, so a cycle runs once around the ring in one direction:
            // k channels on the same port (all + or all -), through every switch.
            assert_eq!(cyc.len(), k as usize, "k = {k}: {cyc:?}");
            assert!(cyc.iter().all(|c| c.port == cyc[0].port && c.vc == 0));
            let mut sw: Vec<u32> = cyc.iter().map(|c| c.switch).collect();
            sw.sort_unstable();
            sw.dedup();
            assert_eq!(sw.len(), k as usize);
        }
    }
}

#[test]
fn one_vc_dor_on_rings_below_4_has_no_cycle() {
    // Routes in rings of k <= 3 are single hops: no dependency within a ring.
    for k in [&[1u32][..], &[2], &[3], &[3, 3], &[2, 3, 2]] {
        let t = Torus::torus(k, 1).unwrap();
        let r = TorusDor::new(&t, TorusVcs::Single).unwrap();
        assert_eq!(analyse(&t, &r).cycle, None, "{k:?}");
    }
}

#[test]
fn one_vc_dor_on_2d_tori_deadlocks() {
    for k in [&[4u32, 4][..], &[5, 3], &[3, 6], &[8, 8]] {
        let t = Torus::torus(k, 1).unwrap();
        let r = TorusDor::new(&t, TorusVcs::Single).unwrap();
        let cyc = analyse(&t, &r)
            .cycle
            .expect("one-VC torus DOR must deadlock");
        // The cycle stays in one ring: one dimension, one direction, one fixed coordinate
        // in the other dimension.
        let dim = cyc[0].port / 2;
        assert!(cyc.iter().all(|c| c.port == cyc[0].port), "{k:?}: {cyc:?}");
        assert_eq!(cyc.len() as u32, k[dim as usize]);
        let other = 1 - dim as usize;
        let fixed = t.coord(cyc[0].switch, other);
        assert!(cyc.iter().all(|c| t.coord(c.switch, other) == fixed));
    }
}

#[test]
fn dateline_vcs_make_torus_dor_deadlock_free() {
    for k in [
        &[4u32][..],
        &[5],
        &[8],
        &[9],
        &[4, 4],
        &[5, 3],
        &[3, 6],
        &[8, 8],
        &[2, 4, 5],
        &[4, 1, 4],
    ] {
        for tps in [1u16, 2] {
            if tps == 2 && k.iter().product::<u32>() > 40 {
                continue;
            }
            let t = Torus::torus(k, tps).unwrap();
            let r = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
            assert_deadlock_free(&t, &r, &format!("dateline torus {k:?}"));
            // BookSim2's wrap classes, ties + (coin 0) and ties - (every coin bit set).
            let b = TorusDor::booksim(&t).unwrap();
            assert_deadlock_free(&t, &b, &format!("wrap-class torus {k:?}"));
            let minus = TiesMinus(b);
            assert_deadlock_free(&t, &minus, &format!("wrap-class torus {k:?}, ties -"));
        }
    }
}

/// A routing whose packets all draw the coin "every tie `-`".
struct TiesMinus<R>(R);

impl<R: crate::routing::Routing> crate::routing::Routing for TiesMinus<R> {
    fn num_vcs(&self) -> u8 {
        self.0.num_vcs()
    }
    fn inject(
        &self,
        src: u32,
        dst: u32,
    ) -> Result<crate::routing::PacketState, crate::routing::RoutingError> {
        let mut st = self.0.inject(src, dst)?;
        st.coin = u8::MAX;
        Ok(st)
    }
    fn next_hop(
        &self,
        at: u32,
        state: &mut crate::routing::PacketState,
        dst: u32,
    ) -> Result<crate::routing::Hop, crate::routing::RoutingError> {
        self.0.next_hop(at, state, dst)
    }
}

#[test]
fn mesh_ecube_hyperx_and_fat_tree_are_deadlock_free_with_one_vc() {
    for k in [&[8u32][..], &[4, 4], &[3, 5, 2], &[6, 6]] {
        let m = Torus::mesh(k, 1).unwrap();
        let r = TorusDor::new(&m, TorusVcs::Single).unwrap();
        assert_deadlock_free(&m, &r, &format!("mesh {k:?}"));
    }
    for dim in 2..=6 {
        let h = Hypercube::new(dim, 1).unwrap();
        let r = HypercubeEcube::new(&h);
        assert_deadlock_free(&h, &r, &format!("hypercube {dim}"));
    }
    for (sizes, trunk, t) in [
        (&[5u32, 2][..], 1u16, 1u16),
        (&[3, 4], 2, 1),
        (&[4, 4], 1, 2),
        (&[2, 3, 4], 1, 1),
    ] {
        let hx = HyperX::new(sizes, trunk, t).unwrap();
        let r = HyperXDor::new(&hx);
        assert_deadlock_free(&hx, &r, &format!("HyperX {sizes:?}"));
    }
    for (k, n) in [(2u32, 2u32), (3, 3), (4, 3), (2, 5)] {
        let ft = FatTree::new(k, n).unwrap();
        let r = FatTreeDmodK::new(&ft);
        assert_deadlock_free(&ft, &r, &format!("{k}-ary {n}-tree"));
    }
}
