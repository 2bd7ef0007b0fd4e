//! A brot-trns mapping below the GA's 100-cycle plateau (docs/mapping.md §5;
//! host-cli/docs/ga-study.md, "Table 2 the paper's way"): brot has triangles, so it cannot be laid out one hop per
//! flow, but its flows and trns's can each be routed on disjoint channels. The gene below is
//! the best of `jumpnet map ga --patterns brot,trns --fitness proxy --variant S03 --ranking ml
//! --genes 1000 --generations 1000 --seed 3` (proxy 68). The test checks it with core's DOR
//! routes, independently of the GA's proxy, and in the simulator.

use jumpnet_core::mapping::ga::{Address, Fitness, Grid, PatternSet, TrafficPattern::*, NO_DEST};
use jumpnet_core::routing::{Hop, Routing, TorusDor, TorusVcs};
use jumpnet_core::topology::{Topology, Torus};

use crate::ga::run::pattern_tables;
use crate::ga::sim_fitness::GaTorus;
use crate::sim::SimConfig;

/// `gene[physical] = logical`.
const BROT_TRNS: [Address; 64] = [
    51, 39, 40, 5, 47, 61, 55, 57, 30, 60, 56, 35, 49, 31, 59, 15, 32, 1, 7, 28, 14, 36, 9, 18, 4,
    8, 2, 63, 54, 27, 21, 42, 37, 11, 16, 0, 45, 53, 23, 43, 44, 50, 25, 12, 24, 46, 58, 29, 38,
    22, 17, 33, 48, 6, 19, 13, 52, 20, 34, 10, 3, 62, 26, 41,
];

/// Per pattern: the most flows on one directed channel and the longest flow in hops, by
/// walking core's DOR routes on the 8 × 8 torus.
fn channel_loads(dest: &[Address], gene: &[Address]) -> Vec<(u32, u32)> {
    let torus = Torus::torus(&[8, 8], 1).unwrap();
    let dor = TorusDor::new(&torus, TorusVcs::Dateline).unwrap();
    let mut inv = [0u32; 64];
    for (p, &l) in gene.iter().enumerate() {
        inv[l as usize] = p as u32;
    }
    dest.chunks(64)
        .map(|table| {
            let mut load = std::collections::HashMap::<(u32, u16), u32>::new();
            let mut longest = 0;
            for (logical, &d) in table.iter().enumerate() {
                let (src, dst) = (inv[logical], inv[d as usize % 64]);
                if d == NO_DEST || src == dst {
                    continue;
                }
                let mut state = dor.inject(src, dst).unwrap();
                let mut at = torus.terminal_switch(src).unwrap();
                let mut hops = 0;
                while let Hop::Forward { port, .. } = dor.next_hop(at, &mut state, dst).unwrap() {
                    *load.entry((at, port)).or_default() += 1;
                    at = torus.port(at, port).link().unwrap().peer;
                    hops += 1;
                }
                longest = longest.max(hops);
            }
            (load.values().copied().max().unwrap_or(0), longest)
        })
        .collect()
}

#[test]
fn brot_trns_has_a_link_disjoint_mapping_below_the_plateau() {
    let grid = Grid::new(8).unwrap();
    let dest = pattern_tables(grid, &[BitRotation, Transpose], 1).unwrap();
    let mut seen = [false; 64];
    assert!(BROT_TRNS
        .iter()
        .all(|&g| !std::mem::replace(&mut seen[g as usize], true)));
    let loads = channel_loads(&dest, &BROT_TRNS);
    // Each pattern's flows on disjoint channels, some of them longer than one hop.
    assert!(loads.iter().all(|&(load, _)| load == 1), "{loads:?}");
    assert!(loads[0].1 > 1, "{loads:?}");
    let torus = GaTorus::new(8).unwrap();
    let set = PatternSet::new(64, &dest).unwrap();
    let (score, runs) = torus
        .with_fitness(&SimConfig::ga(), set, |f| {
            let runs = [
                f.run_pattern(&BROT_TRNS, 0).unwrap(),
                f.run_pattern(&BROT_TRNS, 1).unwrap(),
            ];
            (f.evaluate(&BROT_TRNS), runs)
        })
        .unwrap();
    // Without sharing, a pattern takes its 34 cycles plus one per hop beyond the first of its
    // longest flow: the flits stream through.
    for (run, &(_, longest)) in runs.iter().zip(&loads) {
        assert!(!run.deadlocked);
        assert_eq!(run.cycles, 33 + u64::from(longest), "{runs:?} {loads:?}");
    }
    assert_eq!(score.duration, runs[0].cycles + runs[1].cycles);
    assert!(score.duration < 100, "{score:?}");
}
