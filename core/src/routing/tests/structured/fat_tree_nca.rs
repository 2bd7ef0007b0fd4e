//! Fat-tree NCA routing with random and adaptive up ports (docs/routing.md §5.1): every
//! pair delivered minimally whatever the coin, the down path D-mod-k's, the draws uniform
//! over the coins, and the adaptive candidates BookSim2's `anca` compares.

extern crate std;
use std::vec;

use super::check;
use crate::routing::adaptive::{Candidate, CongestionScope, MAX_CANDIDATES};
use crate::routing::fat_tree_nca::{FatTreeNca, NcaChoice};
use crate::routing::{Hop, Routing};
use crate::topology::{FatTree, Topology};

/// Walks `s → t` with coin `coin`, committing the second candidate wherever `anca` offers
/// two when `second`; returns the switches visited after the source leaf.
fn walk(r: &FatTreeNca<'_>, ft: &FatTree, s: u32, t: u32, coin: u8, second: bool) -> vec::Vec<u32> {
    let mut st = r.inject(s, t).unwrap();
    st.coin = coin;
    let mut at = ft.terminal_switch(s).unwrap();
    let mut seen = vec::Vec::new();
    loop {
        let mut c = [Candidate::default(); MAX_CANDIDATES];
        let n = r.candidates(at, &st, t, &mut c).unwrap();
        if n == 2 && second {
            r.commit_candidate(&mut st, &c[1]);
        }
        match r.next_hop(at, &mut st, t).unwrap() {
            Hop::Forward { port, vc } => {
                assert_eq!(vc, 0);
                at = ft.port(at, port).link().unwrap().peer;
                seen.push(at);
            }
            Hop::Eject { port } => {
                assert_eq!(ft.terminal_port(t), Some((at, port)));
                return seen;
            }
        }
    }
}

#[test]
fn every_pair_is_delivered_minimally() {
    for (k, n) in [(2, 3), (4, 2), (4, 3), (3, 3)] {
        let ft = FatTree::new(k, n).unwrap();
        for choice in [NcaChoice::Random, NcaChoice::Adaptive] {
            let r = FatTreeNca::new(&ft, choice, 5);
            // coin 0: the walker's default; the rest by hand below.
            check(&ft, &r, true);
            for coin in [1u8, 77, 128, 255] {
                for s in 0..ft.num_terminals() {
                    for t in 0..ft.num_terminals() {
                        for second in [false, true] {
                            let path = walk(&r, &ft, s, t, coin, second);
                            // 2(n-1-L) router hops, L the turning level (docs/routing.md §5).
                            let l = ft.lca_level(s, t).unwrap();
                            let want = 2 * (n - 1 - l);
                            assert_eq!(path.len() as u32, want, "k={k} n={n} {s}->{t}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn up_ports_are_uniform_over_the_coins_and_the_way_down_is_fixed() {
    // 4-ary 3-tree, node 0 to node 63: up from leaf <(0,0),2> = 32 and from level 1, then
    // down on ports t_0 = 3, t_1 = 3 to leaf <(3,3),2> = 47 (docs/routing.md §5).
    let ft = FatTree::new(4, 3).unwrap();
    let r = FatTreeNca::new(&ft, NcaChoice::Random, 0);
    let mut count = [[0u32; 4]; 4];
    for coin in 0..=255u8 {
        let path = walk(&r, &ft, 0, 63, coin, false);
        assert_eq!(path.len(), 4);
        assert_eq!(path[3], 47);
        // The level-1 switch is <(0, a), 1> = 16 + a; the root <(b, a), 0> = 4b + a.
        let a = path[0] - 16;
        let b = (path[1] - a) / 4;
        assert_eq!(path[1] % 4, a);
        count[a as usize][b as usize] += 1;
        // Draw 0 is the coin's top two bits, draw 1 the next two (k = 4).
        assert_eq!((a, b), (u32::from(coin >> 6), u32::from((coin >> 4) & 3)));
    }
    // Each of the 16 (level-1 switch, root) pairs takes 16 of the 256 coins.
    assert!(count.iter().flatten().all(|&c| c == 16), "{count:?}");
}

#[test]
fn anca_offers_two_random_up_ports_weighing_their_outputs() {
    let ft = FatTree::new(4, 2).unwrap();
    let r = FatTreeNca::new(&ft, NcaChoice::Adaptive, 0);
    assert_eq!(r.congestion_scope(), CongestionScope::Local);
    assert_eq!(
        FatTreeNca::new(&ft, NcaChoice::Random, 0).congestion_scope(),
        CongestionScope::None
    );
    let mut st = r.inject(0, 13).unwrap();
    // u = 0b0110_1100 / 256: base-4 digits 1, 2, 3, 0 → r1 = k + 1, r2 = k + 2.
    st.coin = 0b0110_1100;
    let mut c = [Candidate::default(); MAX_CANDIDATES];
    assert_eq!(r.candidates(4, &st, 13, &mut c).unwrap(), 2);
    assert_eq!((c[0].port, c[1].port), (5, 6));
    assert_eq!(
        (c[0].weighed(), c[1].weighed()),
        (&[(4, 5)][..], &[(4, 6)][..])
    );
    assert_eq!((c[0].cost(3), c[1].cost(3)), (3, 3));
    // Uncommitted: r1. Committed to r2: r2, once.
    let mut plain = st;
    assert_eq!(
        r.next_hop(4, &mut plain, 13).unwrap(),
        Hop::Forward { port: 5, vc: 0 }
    );
    r.commit_candidate(&mut st, &c[1]);
    assert_eq!(
        r.next_hop(4, &mut st, 13).unwrap(),
        Hop::Forward { port: 6, vc: 0 }
    );
    // At the root (going down) and at the destination leaf: no choice.
    assert_eq!(r.candidates(2, &st, 13, &mut c).unwrap(), 0);
    assert_eq!(
        r.next_hop(2, &mut st, 13).unwrap(),
        Hop::Forward { port: 3, vc: 0 }
    );
    assert_eq!(r.candidates(7, &st, 13, &mut c).unwrap(), 0);
    // Too short a slice is a capacity error, not a panic.
    assert!(r.candidates(4, &st, 13, &mut c[..1]).is_err());
}

#[test]
fn draws_past_the_coins_bits_stay_in_range_and_spread() {
    // 3-ary: k^(i+1) > 256 from draw 5 on; the hashed draws still cover 0..k.
    let ft = FatTree::new(3, 3).unwrap();
    let r = FatTreeNca::new(&ft, NcaChoice::Random, 9);
    for i in [0, 4, 5, 9] {
        let mut seen = [0u32; 3];
        for coin in 0..=255u8 {
            seen[r.draw(coin, i) as usize] += 1;
        }
        assert!(
            seen.iter().all(|&c| (70..=100).contains(&c)),
            "draw {i}: {seen:?}"
        );
    }
}
