extern crate std;
use std::vec;
use std::vec::Vec;

use super::matrix_buf;
use crate::routing::deadlock::cdg::{Cdg, Deadlock};
use crate::routing::deadlock::channel::ChannelVc;
use crate::routing::deadlock::cycle::Frame;
use crate::routing::minimal::distance::DistanceMatrix;
use crate::routing::minimal::MinimalRouting;
use crate::routing::tables::compile::{compile_tables, VcMode};
use crate::routing::tables::run_table::{RouteEntry, Run};
use crate::routing::tables::table_routing::TableRouting;
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::testgraphs::{build, Store};
use crate::routing::{terminal_location, Hop, PacketState, Routing, RoutingError};
use crate::topology::{Port, StoredGraph, SwitchId, TerminalId, Topology};

/// Ring routing that takes the shorter direction, clockwise (+1) on ties, on one VC.
struct ClockwiseRing<'a> {
    g: &'a StoredGraph<'a>,
}

impl ClockwiseRing<'_> {
    fn port_to(&self, at: SwitchId, peer: SwitchId) -> u16 {
        (0..self.g.radix())
            .find(|&p| matches!(self.g.port(at, p), Port::Link(l) if l.peer == peer))
            .unwrap()
    }
}

impl Routing for ClockwiseRing<'_> {
    fn num_vcs(&self) -> u8 {
        1
    }
    fn inject(&self, src: TerminalId, _dst: TerminalId) -> Result<PacketState, RoutingError> {
        Ok(PacketState::new(terminal_location(self.g, src)?.0))
    }
    fn next_hop(
        &self,
        at: SwitchId,
        st: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let (t, tp) = terminal_location(self.g, dst)?;
        let n = self.g.num_switches();
        if at == t {
            return Ok(Hop::Eject { port: tp });
        }
        let cw = (t + n - at) % n;
        let next = if cw <= n / 2 {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        };
        st.vc = 0;
        Ok(Hop::Forward {
            port: self.port_to(at, next),
            vc: 0,
        })
    }
}

fn ring_edges(n: u32) -> Vec<(u32, u32)> {
    (0..n).map(|i| (i, (i + 1) % n)).collect()
}

/// Runs the CDG analysis of `r` and returns the cycle found, if any.
fn cycle_of<T: Topology, R: Routing>(g: &T, r: &R) -> (Option<Vec<ChannelVc>>, Vec<u64>) {
    let vcs = r.num_vcs();
    let mut bits = vec![0u64; Cdg::words_needed(g, vcs) as usize];
    let mut cdg = Cdg::new(g, vcs, &mut bits).unwrap();
    cdg.add_routing(r, 1000).unwrap();
    let v = Cdg::vertices_needed(g, vcs) as usize;
    let (mut color, mut stack) = (vec![0u32; v], vec![Frame::default(); v]);
    let mut out = vec![ChannelVc::default(); v];
    let res = cdg.find_cycle(&mut color, &mut stack, &mut out).unwrap();
    // Every reported channel chains into the next through a real link and a recorded
    // dependency.
    let cyc = match res {
        Deadlock::Free => None,
        Deadlock::Cycle(len) => {
            let c = out[..len].to_vec();
            for k in 0..len {
                let (a, b) = (c[k], c[(k + 1) % len]);
                let l = g.port(a.switch, a.port).link().expect("channel is a link");
                assert_eq!(l.peer, b.switch, "{a:?} does not lead to {b:?}");
                assert!(cdg.has_dependency(a, b));
            }
            Some(c)
        }
    };
    let words = bits.clone();
    (cyc, words)
}

#[test]
fn clockwise_ring_deadlocks_with_a_concrete_cycle() {
    for n in [4u32, 5, 8, 11] {
        let mut st = Store::default();
        let g = build(n, 2, 1, &ring_edges(n), &mut st);
        let r = ClockwiseRing { g: &g };
        let (cyc, _) = cycle_of(&g, &r);
        let cyc = cyc.expect("ring with one VC must deadlock");
        // The cycle runs around the ring in one direction: n channels, n distinct switches.
        assert_eq!(cyc.len(), n as usize);
        let mut sw: Vec<u32> = cyc.iter().map(|c| c.switch).collect();
        sw.sort_unstable();
        sw.dedup();
        assert_eq!(sw.len(), n as usize);

        // The same routing compiled into tables deadlocks too (table-driven analysis).
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
        compile_tables(&g, &r, VcMode::InTable, &mut b, None).unwrap();
        let tr = TableRouting::new(&g, b.finish().unwrap(), None, 1).unwrap();
        let (cyc2, _) = cycle_of(&g, &tr);
        assert_eq!(cyc2.map(|c| c.len()), Some(n as usize));
    }
}

#[test]
fn line_and_tree_routing_is_deadlock_free() {
    let line: Vec<(u32, u32)> = (0..9).map(|i| (i, i + 1)).collect();
    // A tree: binary heap shape on 15 switches.
    let tree: Vec<(u32, u32)> = (1..15).map(|i| ((i - 1) / 2, i)).collect();
    for (n, edges) in [(10u32, line), (15, tree)] {
        let mut st = Store::default();
        let g = build(n, 3, 1, &edges, &mut st);
        let mut buf = matrix_buf(&g);
        let mut q = vec![0u32; n as usize];
        let dm = DistanceMatrix::compute(&g, &mut buf, &mut q).unwrap();
        let r = MinimalRouting::new(&g, dm).unwrap();
        let (cyc, bits) = cycle_of(&g, &r);
        assert_eq!(cyc, None);
        // The CDG is not empty: paths of length >= 2 create dependencies.
        assert!(bits.iter().any(|&w| w != 0));
    }
}

#[test]
fn cycle_buffer_too_small_is_a_capacity_error() {
    let mut st = Store::default();
    let g = build(6, 2, 1, &ring_edges(6), &mut st);
    let r = ClockwiseRing { g: &g };
    let mut bits = vec![0u64; Cdg::words_needed(&g, 1) as usize];
    let mut cdg = Cdg::new(&g, 1, &mut bits).unwrap();
    cdg.add_routing(&r, 100).unwrap();
    let v = Cdg::vertices_needed(&g, 1) as usize;
    let (mut color, mut stack) = (vec![0u32; v], vec![Frame::default(); v]);
    let mut out = [ChannelVc::default(); 2];
    assert!(matches!(
        cdg.find_cycle(&mut color, &mut stack, &mut out),
        Err(RoutingError::Capacity(..))
    ));
}
