//! GA mutation operators (docs/mapping.md §5): permutations stay permutations; geometry of
//! each operator; variants and rankings.

extern crate std;
use std::vec;
use std::vec::Vec;

use proptest::prelude::*;

use crate::mapping::ga::*;
use crate::mapping::testutil::{is_permutation, TorusDistance};
use crate::mapping::DistanceOracle;
use crate::rng::Rng;

fn random_gene(nodes: usize, rng: &mut Rng) -> Vec<Address> {
    let mut g = vec![0; nodes];
    randomize(&mut g, rng);
    g
}

fn changed(a: &[Address], b: &[Address]) -> Vec<usize> {
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

proptest! {
    #[test]
    fn every_mutation_keeps_a_permutation(seed in any::<u64>(), side in 2u16..=9) {
        let grid = Grid::new(side).unwrap();
        let nodes = grid.nodes();
        let mut rng = Rng::new(seed);
        let mut dest = vec![0; nodes];
        let mut scratch = vec![0; nodes];
        TrafficPattern::RandomRing.fill(grid, &mut rng, &mut scratch, &mut dest).unwrap();
        let patterns = PatternSet::new(nodes, &dest).unwrap();
        let dist = TorusDistance { side: side as u32 };
        let mut gene = random_gene(nodes, &mut rng);
        let half = (side / 2) as usize;
        for _ in 0..40 {
            let before = gene.clone();
            random_swap(&mut gene, &mut rng);
            prop_assert!(is_permutation(&gene));
            prop_assert_eq!(changed(&before, &gene).len(), 2);

            let before = gene.clone();
            if line_swap(&mut gene, grid, &mut rng) {
                let c = changed(&before, &gene).len();
                prop_assert!(c >= 2 && c <= 2 * half.max(1));
            } else {
                prop_assert_eq!(&before, &gene);
            }
            prop_assert!(is_permutation(&gene));

            let before = gene.clone();
            if box_swap(&mut gene, grid, &mut rng) {
                let c = changed(&before, &gene).len();
                prop_assert!(c >= 2 && c <= 2 * half.max(1) * half.max(1));
            }
            prop_assert!(is_permutation(&gene));

            let r = 1 + rng.below(side as u64) as u32;
            neighbour_swap(&mut gene, patterns, &dist, (r, NeighbourPick::NotAdjacent), &mut scratch, &mut rng);
            prop_assert!(is_permutation(&gene));

            randomize(&mut gene, &mut rng);
            prop_assert!(is_permutation(&gene));
        }
    }
}

#[test]
fn line_swap_exchanges_two_straight_segments() {
    // Every changed position lies on one of at most two rows/columns segments; with L = 1..4
    // at most 8 positions change and the multiset of addresses is preserved.
    let grid = Grid::new(8).unwrap();
    let mut rng = Rng::new(4);
    let mut swaps = 0;
    for _ in 0..500 {
        let mut gene = random_gene(64, &mut rng);
        let before = gene.clone();
        if line_swap(&mut gene, grid, &mut rng) {
            swaps += 1;
            let c = changed(&before, &gene);
            assert!(c.len().is_multiple_of(2) && c.len() <= 8, "{c:?}");
            // Changed cells exchange values among themselves.
            let mut x: Vec<_> = c.iter().map(|&i| before[i]).collect();
            let mut y: Vec<_> = c.iter().map(|&i| gene[i]).collect();
            x.sort_unstable();
            y.sort_unstable();
            assert_eq!(x, y);
        }
    }
    assert!(swaps > 450);
}

#[test]
fn neighbour_swap_moves_the_destination_next_to_its_source() {
    let dist = TorusDistance { side: 8 };
    let mut rng = Rng::new(10);
    // One flow only: logical 5 → logical 40.
    let mut dest = vec![NO_DEST; 64];
    dest[5] = 40;
    let patterns = PatternSet::new(64, &dest).unwrap();
    let mut scratch = vec![0; 64];
    for r in 1..=3u32 {
        for _ in 0..50 {
            let mut gene = random_gene(64, &mut rng);
            let pos = |g: &[Address], l: Address| g.iter().position(|&v| v == l).unwrap() as u32;
            let far = dist.distance(pos(&gene, 5), pos(&gene, 40)) > r;
            let src_before = pos(&gene, 5);
            let moved = neighbour_swap(
                &mut gene,
                patterns,
                &dist,
                (r, NeighbourPick::BeyondRadius),
                &mut scratch,
                &mut rng,
            );
            assert_eq!(moved, far);
            let d = dist.distance(pos(&gene, 5), pos(&gene, 40));
            if far {
                assert!((1..=r).contains(&d), "r={r} d={d}");
                assert_eq!(pos(&gene, 5), src_before, "the source stays");
            }
        }
    }
}

#[test]
fn neighbour_swap_not_adjacent_acts_on_flows_within_the_radius() {
    // Rule NotAdjacent (pick flows above 1 hop) with r = 2: a flow at distance 2 is eligible,
    // and a third of the 12 positions within 2 hops of the source (the 4 at distance 1)
    // makes it adjacent; the rule BeyondRadius leaves such a gene alone.
    let dist = TorusDistance { side: 8 };
    let mut rng = Rng::new(3);
    let mut dest = vec![NO_DEST; 64];
    dest[5] = 40;
    let patterns = PatternSet::new(64, &dest).unwrap();
    let mut scratch = vec![0; 64];
    let pos = |g: &[Address], l: Address| g.iter().position(|&v| v == l).unwrap() as u32;
    let (mut adjacent, mut tries) = (0, 0);
    while tries < 600 {
        let mut gene = random_gene(64, &mut rng);
        if dist.distance(pos(&gene, 5), pos(&gene, 40)) != 2 {
            continue;
        }
        tries += 1;
        let before = gene.clone();
        assert!(!neighbour_swap(
            &mut gene,
            patterns,
            &dist,
            (2, NeighbourPick::BeyondRadius),
            &mut scratch,
            &mut rng
        ));
        assert_eq!(gene, before);
        let moved = neighbour_swap(
            &mut gene,
            patterns,
            &dist,
            (2, NeighbourPick::NotAdjacent),
            &mut scratch,
            &mut rng,
        );
        let d = dist.distance(pos(&gene, 5), pos(&gene, 40));
        assert!((1..=2).contains(&d));
        // Unchanged exactly when the drawn position already held the destination.
        assert_eq!(moved, gene != before);
        if d == 1 {
            adjacent += 1;
        }
    }
    // Binomial(600, 1/3): mean 200, standard deviation 11.5.
    assert!((150..=250).contains(&adjacent), "{adjacent}");
    // Adjacent flows are never picked.
    let mut gene = random_gene(64, &mut rng);
    let (s, t) = (pos(&gene, 5) as usize, pos(&gene, 40) as usize);
    let next = (s / 8) * 8 + (s % 8 + 1) % 8;
    gene.swap(t, next);
    assert!(!neighbour_swap(
        &mut gene,
        patterns,
        &dist,
        (3, NeighbourPick::NotAdjacent),
        &mut scratch,
        &mut rng
    ));
    assert_eq!(NeighbourPick::NotAdjacent.threshold(2), 1);
    assert_eq!(NeighbourPick::BeyondRadius.threshold(2), 2);
    assert_eq!(
        NeighbourPick::from_name("beyond-radius"),
        Some(NeighbourPick::BeyondRadius)
    );
}

#[test]
fn neighbour_swap_closer_never_moves_a_flow_away() {
    // Rule Closer with r = 3: a flow at distance d > 1 ends at distance 1..=min(3, d − 1),
    // always moved (the drawn position is nearer than the destination, so it never holds
    // it); with NotAdjacent a 2-hop flow can end 3 hops away.
    let dist = TorusDistance { side: 8 };
    let mut rng = Rng::new(7);
    let mut dest = vec![NO_DEST; 64];
    dest[5] = 40;
    let patterns = PatternSet::new(64, &dest).unwrap();
    let mut scratch = vec![0; 64];
    let pos = |g: &[Address], l: Address| g.iter().position(|&v| v == l).unwrap() as u32;
    let (mut seen_2, mut farther) = (0, 0);
    for _ in 0..2000 {
        let gene = random_gene(64, &mut rng);
        let d = dist.distance(pos(&gene, 5), pos(&gene, 40));
        let mut closer = gene.clone();
        let moved = neighbour_swap(
            &mut closer,
            patterns,
            &dist,
            (3, NeighbourPick::Closer),
            &mut scratch,
            &mut rng,
        );
        let after = dist.distance(pos(&closer, 5), pos(&closer, 40));
        if d <= 1 {
            assert!(!moved && closer == gene);
            continue;
        }
        assert!(moved, "d={d}");
        assert!((1..=3.min(d - 1)).contains(&after), "d={d} after={after}");
        if d == 2 {
            seen_2 += 1;
            let mut other = gene.clone();
            neighbour_swap(
                &mut other,
                patterns,
                &dist,
                (3, NeighbourPick::NotAdjacent),
                &mut scratch,
                &mut rng,
            );
            if dist.distance(pos(&other, 5), pos(&other, 40)) == 3 {
                farther += 1;
            }
        }
    }
    // About 2000 · 8/64 genes with d = 2; NotAdjacent moves 12 of their 24 draws to 3 hops.
    assert!(seen_2 > 150, "{seen_2}");
    assert!(farther > seen_2 / 4, "{farther} of {seen_2}");
    assert_eq!(NeighbourPick::Closer.target_radius(3, 2), 1);
    assert_eq!(NeighbourPick::Closer.target_radius(3, 9), 3);
    assert_eq!(
        NeighbourPick::from_name("closer"),
        Some(NeighbourPick::Closer)
    );
}

#[test]
fn variant_table_rows() {
    for v in Variant::ALL {
        let s = v.spec();
        assert_eq!(
            s.weights.iter().map(|&w| w as u32).sum::<u32>(),
            1000,
            "{}",
            v.name()
        );
        assert_eq!(Variant::from_name(v.name()), Some(v));
    }
    assert_eq!(Variant::S00.spec().weights, [375, 250, 125, 0, 250]);
    assert_eq!(Variant::S01.spec().weights, [125, 125, 125, 375, 250]);
    assert_eq!(Variant::S03.spec().radius, Radius::Patterns);
    assert_eq!(Variant::S04.spec().radius, Radius::Random);
    assert_eq!(Variant::S10.spec().radius, Radius::Fixed(2));
    assert_eq!(Variant::S11.spec().survivors_permille, 500);
    assert_eq!(Variant::S12.spec().survivors_permille, 125);
    assert_eq!(Variant::S22.spec().survivors_permille, 125);
    assert_eq!(Variant::S99.spec().survivors_permille, 0);
    assert_eq!(Variant::S99.spec().weights, [0, 0, 0, 0, 1000]);
    // The draw 0..1000 maps onto the cumulative percentages.
    let s = Variant::S00.spec();
    assert_eq!(s.mutation_for(0), Mutation::RandomSwap);
    assert_eq!(s.mutation_for(374), Mutation::RandomSwap);
    assert_eq!(s.mutation_for(375), Mutation::LineSwap);
    assert_eq!(s.mutation_for(624), Mutation::LineSwap);
    assert_eq!(s.mutation_for(625), Mutation::BoxSwap);
    assert_eq!(s.mutation_for(750), Mutation::Randomize);
    assert_eq!(s.mutation_for(999), Mutation::Randomize);
    assert_eq!(
        Variant::S10.spec().mutation_for(500),
        Mutation::NeighbourSwap
    );
}

fn score(duration: u64, hops: u64, pairs: u64) -> Score {
    Score {
        duration,
        avg_hop: AvgHop { hops, pairs },
    }
}

#[test]
fn ranking_keys_order_as_specified() {
    use core::cmp::Ordering::*;
    let a = score(100, 3, 2); // avg 1.5, product 150
    let b = score(90, 4, 2); //  avg 2.0, product 180
    let c = score(100, 1, 1); // avg 1.0, product 100
    let sorted = |r: Ranking| {
        let mut v = [("a", a), ("b", b), ("c", c)];
        v.sort_by(|x, y| r.compare(&x.1, &y.1));
        v.map(|x| x.0)
    };
    assert_eq!(sorted(Ranking::DurationFirst), ["b", "c", "a"]);
    assert_eq!(sorted(Ranking::AvgHopFirst), ["c", "a", "b"]);
    assert_eq!(sorted(Ranking::Product), ["c", "a", "b"]);
    // Secondary keys.
    assert_eq!(
        Ranking::DurationFirst.compare(&score(10, 3, 2), &score(10, 5, 4)),
        Greater
    );
    assert_eq!(
        Ranking::AvgHopFirst.compare(&score(12, 1, 2), &score(10, 2, 4)),
        Greater
    );
    // Exact rationals: 60·3/2 = 45·2/1 = 90, and 2/4 = 1/2.
    assert_eq!(
        Ranking::Product.compare(&score(60, 3, 2), &score(45, 2, 1)),
        Equal
    );
    assert_eq!(AvgHop { hops: 2, pairs: 4 }, AvgHop { hops: 1, pairs: 2 });
    let third = AvgHop { hops: 1, pairs: 3 };
    assert!(
        AvgHop {
            hops: 333_333,
            pairs: 1_000_000
        } < third
    );
    assert!(
        third
            < AvgHop {
                hops: 333_334,
                pairs: 1_000_000
            }
    );
    assert_eq!(AvgHop { hops: 0, pairs: 0 }, AvgHop { hops: 0, pairs: 5 });
    for r in Ranking::ALL {
        assert_eq!(Ranking::from_name(r.name()), Some(r));
    }
}
