//! Fat-tree up/down routing with D-mod-k (docs/routing.md §5).

extern crate std;
use std::vec;
use std::vec::Vec;

use super::super::steps;
use super::check;
use crate::routing::fat_tree::FatTreeDmodK;
use crate::routing::{Hop, Routing, RoutingError};
use crate::topology::{FatTree, LinkClass, Topology};

/// Digits `p_0..p_{len-1}` of `v` in base `k`, most significant first.
fn digits(v: u32, k: u32, len: u32) -> Vec<u32> {
    let mut d = vec![0; len as usize];
    let mut v = v;
    for i in (0..len as usize).rev() {
        d[i] = v % k;
        v /= k;
    }
    d
}

/// Switch id of `<w, level>` (docs/topologies.md §6).
fn switch_id(k: u32, n: u32, level: u32, w: &[u32]) -> u32 {
    let per_level = k.pow(n - 1);
    level * per_level + w.iter().fold(0, |acc, &d| acc * k + d)
}

/// Expected route from node `s` to node `t` written from docs/routing.md §5: turning level
/// `L` = first differing digit (`n-1` on a shared leaf); the m-th up hop on port
/// `k + t_{n-m}` (from `<w, l>` to `<w[l-1 := t_l], l-1>`), then down hops on port `t_l`
/// (to `<w[l := t_l], l+1>`). Returns (port, switch reached) per hop and `L`.
fn expected_route(k: u32, n: u32, s: u32, t: u32) -> (Vec<(u16, u32)>, u32) {
    let sd = digits(s, k, n);
    let td = digits(t, k, n);
    let turn = (0..n - 1)
        .find(|&i| sd[i as usize] != td[i as usize])
        .unwrap_or(n - 1);
    let mut w: Vec<u32> = sd[..n as usize - 1].to_vec();
    let mut hops = Vec::new();
    let mut level = n - 1;
    let mut m = 1;
    while level > turn {
        let j = td[(n - m) as usize];
        w[level as usize - 1] = j;
        level -= 1;
        hops.push(((k + j) as u16, switch_id(k, n, level, &w)));
        m += 1;
    }
    while level < n - 1 {
        let j = td[level as usize];
        w[level as usize] = j;
        level += 1;
        hops.push((j as u16, switch_id(k, n, level, &w)));
    }
    (hops, turn)
}

const TREES: [(u32, u32); 9] = [
    (2, 1),
    (5, 1),
    (2, 2),
    (3, 2),
    (4, 2),
    (2, 3),
    (3, 3),
    (4, 3),
    (2, 5),
];

#[test]
fn dmodk_is_minimal_turns_at_the_lca_and_spreads_by_destination() {
    for (k, n) in TREES {
        let ft = FatTree::new(k, n).unwrap();
        let r = FatTreeDmodK::new(&ft);
        assert_eq!(r.num_vcs(), 1);
        let rep = check(&ft, &r, true);
        if ft.num_terminals() > k {
            assert_eq!(rep.max_hops, 2 * (n - 1));
        }
        for s in 0..ft.num_terminals() {
            for t in 0..ft.num_terminals() {
                if s == t {
                    continue;
                }
                let (want, turn) = expected_route(k, n, s, t);
                assert_eq!(ft.lca_level(s, t), Some(turn));
                let got = steps(&ft, &r, s, t);
                assert_eq!(got.len() as u32, 2 * (n - 1 - turn), "{s} -> {t}");
                let shape: Vec<(u16, u32)> = got.iter().map(|st| (st.port, st.to)).collect();
                assert_eq!(shape, want, "{k}-ary {n}-tree {s} -> {t}");
                // Up*/down*: the up hops come first, and the highest switch is at level L.
                let ups = got.iter().filter(|st| st.class == LinkClass::Up).count() as u32;
                assert_eq!(ups, n - 1 - turn);
                assert!(got[..ups as usize]
                    .iter()
                    .all(|st| st.class == LinkClass::Up));
                if ups > 0 {
                    assert_eq!(ft.level(got[ups as usize - 1].to), Some(turn));
                }
            }
        }
    }
}

#[test]
fn worked_example_on_a_4_ary_3_tree() {
    // Nodes are 3 base-4 digits; s = 5 = (0,1,1), t = 58 = (3,2,2): L = 0, ascend on
    // ports k + t_2 = 6 then k + t_1 = 6, descend on t_0 = 3 then t_1 = 2, eject on t_2.
    let ft = FatTree::new(4, 3).unwrap();
    let r = FatTreeDmodK::new(&ft);
    let ports: Vec<u16> = steps(&ft, &r, 5, 58).iter().map(|s| s.port).collect();
    assert_eq!(ports, [6, 6, 3, 2]);
    let leaf = ft.terminal_switch(58).unwrap();
    let mut st = r.inject(5, 58).unwrap();
    assert_eq!(
        r.next_hop(leaf, &mut st, 58).unwrap(),
        Hop::Eject { port: 2 }
    );
    // Same leaf: no router hop.
    assert!(steps(&ft, &r, 4, 7).is_empty());
    // port_toward: up from the source leaf <(0,1), 2> (switch 32 + 1 = 33).
    assert_eq!(r.port_toward(33, 58).unwrap(), 6);
    assert_eq!(r.tree().k(), 4);
}

#[test]
fn bad_ids_are_errors() {
    let ft = FatTree::new(3, 2).unwrap();
    let r = FatTreeDmodK::new(&ft);
    let mut st = r.inject(0, 1).unwrap();
    assert_eq!(
        r.next_hop(6, &mut st, 1),
        Err(RoutingError::SwitchOutOfRange {
            switch: 6,
            switches: 6
        })
    );
    assert_eq!(
        r.next_hop(0, &mut st, 9),
        Err(RoutingError::TerminalOutOfRange {
            terminal: 9,
            terminals: 9
        })
    );
    assert!(r.port_toward(99, 0).is_err());
    assert!(r.port_toward(0, 99).is_err());
    assert!(r.inject(9, 0).is_err());
}
