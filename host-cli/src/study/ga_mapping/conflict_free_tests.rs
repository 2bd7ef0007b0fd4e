//! The built conflict-free pairs (docs/mapping.md §5 "Conflict-free pairs"): every flow one
//! hop by the core torus's own coordinates, 68 cycles in the simulator, refusals for pairs the
//! blocks cannot hold, and the swap distance helpers of the trace.

use jumpnet_core::mapping::ga::{
    Address, Fitness, Grid, PatternSet, TrafficPattern, TrafficPattern::*, NO_DEST,
};
use jumpnet_core::topology::Torus;

use super::conflict_free::conflict_free_gene;
use super::trace::{swap_distance, torus_symmetries};
use crate::ga::run::pattern_tables;
use crate::ga::sim_fitness::GaTorus;
use crate::sim::SimConfig;

fn grid() -> Grid {
    Grid::new(8).unwrap()
}

fn tables(a: TrafficPattern, b: TrafficPattern) -> Vec<Address> {
    pattern_tables(grid(), &[a, b], 1).unwrap()
}

/// Longest flow of `gene` in hops, from the coordinates of core's 8 × 8 torus (ring distance
/// `min(|Δ|, 8 − |Δ|)` per dimension), independent of the GA's own distance code.
fn longest_flow(dest: &[Address], gene: &[Address]) -> u32 {
    let torus = Torus::torus(&[8, 8], 1).unwrap();
    let mut inv = [0u32; 64];
    for (p, &l) in gene.iter().enumerate() {
        inv[l as usize] = p as u32;
    }
    let mut longest = 0;
    for (i, &d) in dest.iter().enumerate() {
        if d == NO_DEST {
            continue;
        }
        let a = torus.coords(inv[i % 64]).unwrap();
        let b = torus.coords(inv[d as usize]).unwrap();
        let hops: u32 = a
            .iter()
            .zip(b.iter())
            .map(|(&u, &v)| u.abs_diff(v).min(8 - u.abs_diff(v)))
            .sum();
        longest = longest.max(hops);
    }
    longest
}

fn is_permutation(gene: &[Address]) -> bool {
    let mut seen = [false; 64];
    gene.iter()
        .all(|&g| (g as usize) < 64 && !std::mem::replace(&mut seen[g as usize], true))
}

#[test]
fn commuting_involution_pairs_map_every_flow_to_a_neighbour_in_68_cycles() {
    let torus = GaTorus::new(8).unwrap();
    // bcmp, brev and trns are involutions that commute pairwise; bcmp and torn (x + 4 flips
    // bit 2) commute too.
    for (a, b) in [
        (BitComplement, BitReversal),
        (BitComplement, Transpose),
        (BitReversal, Transpose),
        (BitComplement, Tornado),
        // Not commuting: 8-cycles (x, y) → (x + 4, y) → (y, x + 4) → … on 2 × 4 rings, and
        // paths of four from each diagonal address; brev with torn likewise.
        (Tornado, Transpose),
        (BitReversal, Tornado),
    ] {
        let dest = tables(a, b);
        let gene = conflict_free_gene(grid(), &dest[..64], &dest[64..])
            .unwrap_or_else(|| panic!("{}-{} not built", a.name(), b.name()));
        assert!(is_permutation(&gene));
        assert_eq!(longest_flow(&dest, &gene), 1, "{}-{}", a.name(), b.name());
        let set = PatternSet::new(64, &dest).unwrap();
        let (pair, first, second) = torus
            .with_fitness(&SimConfig::ga(), set, |f| {
                let s = f.evaluate(&gene);
                let first = f.run_pattern(&gene, 0).unwrap();
                let second = f.run_pattern(&gene, 1).unwrap();
                assert_eq!(f.failures, 0);
                (s.duration, first.cycles, second.cycles)
            })
            .unwrap();
        // 1 injection + 4 · 8 flits + 1 reception per pattern (docs/reference-results.md C1).
        assert_eq!(
            (first, second, pair),
            (34, 34, 68),
            "{}-{}",
            a.name(),
            b.name()
        );
    }
}

#[test]
fn pairs_the_blocks_cannot_hold_are_refused() {
    // brot and shfl are inverse rotations: their flows form 6-cycles and triangles
    // (001001 → 100100 → 010010), which no set of one-hop flows on the bipartite torus holds.
    let dest = tables(BitRotation, Shuffle);
    assert!(conflict_free_gene(grid(), &dest[..64], &dest[64..]).is_none());
    // Odd sides have no 2 × 2 tiling.
    let g = Grid::new(3).unwrap();
    let none = vec![NO_DEST; 9];
    assert!(conflict_free_gene(g, &none, &none).is_none());
}

#[test]
fn a_hand_made_path_and_cycle_land_in_one_block() {
    // 4 × 4 grid, 16 addresses: a 4-cycle 0-1-2-3 (a: 0↔1, 2↔3; b: 1↔2, 3↔0), a path
    // 4-5-6 (a: 4↔5; b: 5↔6) and singletons.
    let g = Grid::new(4).unwrap();
    let mut a = vec![NO_DEST; 16];
    let mut b = vec![NO_DEST; 16];
    for (x, y) in [(0, 1), (2, 3), (4, 5)] {
        a[x] = y as Address;
        a[y] = x as Address;
    }
    for (x, y) in [(1, 2), (3, 0), (5, 6)] {
        b[x] = y as Address;
        b[y] = x as Address;
    }
    let gene = conflict_free_gene(g, &a, &b).unwrap();
    let pos = |l: Address| gene.iter().position(|&v| v == l).unwrap() as Address;
    let hops = |u: Address, v: Address| {
        let ((ux, uy), (vx, vy)) = (g.xy(pos(u)), g.xy(pos(v)));
        let ring = |p: u32, q: u32| p.abs_diff(q).min(4 - p.abs_diff(q));
        ring(ux, vx) + ring(uy, vy)
    };
    for (u, v) in [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6)] {
        assert_eq!(hops(u, v), 1, "{u}-{v}");
    }
}

#[test]
fn swap_distance_counts_transpositions() {
    let id: Vec<Address> = (0..8).collect();
    assert_eq!(swap_distance(&id, &id), 0);
    let mut one = id.clone();
    one.swap(2, 5);
    assert_eq!(swap_distance(&id, &one), 1);
    // A 3-cycle needs two swaps; with a disjoint swap, three.
    let three: Vec<Address> = vec![1, 2, 0, 3, 5, 4, 6, 7];
    assert_eq!(swap_distance(&id, &three), 3);
    // The symmetry group of the 4 × 4 torus: 8 · 16 images, all distinct for a generic gene,
    // the identity among them.
    let g = Grid::new(4).unwrap();
    let gene: Vec<Address> = (0..16).collect();
    let images = torus_symmetries(g, &gene);
    assert_eq!(images.len(), 128);
    assert!(images.contains(&gene));
    let distinct: std::collections::HashSet<_> = images.iter().collect();
    assert_eq!(distinct.len(), 128);
}
