//! Simulated GA fitness (docs/mapping.md §5, docs/reference-results.md C1/C3): the
//! 34-cycle constant, engine reuse equal to a fresh engine and to `run_trace`, thread-count
//! independence, and the identity-mapping durations' lower bounds.

use jumpnet_core::mapping::ga::{
    randomize, Address, Fitness, Grid, PatternSet, Score, TrafficPattern, NO_DEST,
};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::{TorusDor, TorusVcs};
use jumpnet_core::topology::{Network, Torus};

use crate::ga::run::pattern_tables;
use crate::ga::sim_fitness::GaTorus;
use crate::ga::sim_pool::{with_sim_pool, GaSimParams};
use crate::sim::{run_trace, SimConfig};
use crate::study::ga_mapping::phys_study;

const SIDE: u16 = 8;

fn grid() -> Grid {
    Grid::new(SIDE).unwrap()
}

fn random_genes(count: usize, seed: u64) -> Vec<Vec<Address>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut g = vec![0; grid().nodes()];
            randomize(&mut g, &mut rng);
            g
        })
        .collect()
}

fn identity() -> Vec<Address> {
    (0..grid().nodes() as Address).collect()
}

fn evaluate(dest: &[Address], gene: &[Address]) -> Score {
    let set = PatternSet::new(grid().nodes(), dest).unwrap();
    GaTorus::new(SIDE)
        .unwrap()
        .with_fitness(&SimConfig::ga(), set, |f| {
            let s = f.evaluate(gene);
            assert_eq!(f.failures, 0);
            s
        })
        .unwrap()
}

/// Logical pattern "send to the physical neighbour at (+dx, +dy) under `gene`".
fn shift_under(gene: &[Address], dx: u32, dy: u32) -> Vec<Address> {
    let g = grid();
    let mut dest = vec![0; g.nodes()];
    for p in 0..g.nodes() {
        let (x, y) = g.xy(p as Address);
        dest[gene[p] as usize] = gene[g.pos(x + dx, y + dy)];
    }
    dest
}

#[test]
fn c1_conflict_free_pattern_takes_exactly_34_cycles() {
    // Every node sends 4 packets of 8 flits to its +x neighbour: 1 + 32 + 1 = 34.
    let id = identity();
    assert_eq!(evaluate(&shift_under(&id, 1, 0), &id).duration, 34);
    // The same physical traffic expressed in logical addresses of a random gene.
    for gene in random_genes(3, 5) {
        let s = evaluate(&shift_under(&gene, 0, 1), &gene);
        assert_eq!(s.duration, 34);
        // Every flow is one hop.
        assert_eq!((s.avg_hop.hops, s.avg_hop.pairs), (64, 64));
    }
    // Two conflict-free patterns: 2 · 34 (docs/reference-results.md C1, k = 2).
    let mut two = shift_under(&id, 1, 0);
    two.extend(shift_under(&id, 0, 1));
    assert_eq!(evaluate(&two, &id).duration, 68);
}

#[test]
fn bit_complement_identity_avg_hop_is_four() {
    // x ↦ 7 − x on a ring of 8: distances 1, 3, 3, 1, 1, 3, 3, 1 (mean 2) per dimension.
    let dest = pattern_tables(grid(), &[TrafficPattern::BitComplement], 1).unwrap();
    let s = evaluate(&dest, &identity());
    assert_eq!((s.avg_hop.hops, s.avg_hop.pairs), (256, 64));
}

#[test]
fn reused_engine_equals_a_fresh_engine_and_run_trace() {
    let dest = pattern_tables(
        grid(),
        &[TrafficPattern::Shuffle, TrafficPattern::Tornado],
        1,
    )
    .unwrap();
    let set = PatternSet::new(grid().nodes(), &dest).unwrap();
    let genes = random_genes(4, 11);
    let torus = GaTorus::new(SIDE).unwrap();
    let reused: Vec<(u64, u64)> = torus
        .with_fitness(&SimConfig::ga(), set, |f| {
            genes
                .iter()
                .map(|g| {
                    (
                        f.run_pattern(g, 0).unwrap().cycles,
                        f.run_pattern(g, 1).unwrap().cycles,
                    )
                })
                .collect()
        })
        .unwrap();
    let t = Torus::torus(&[8, 8], 1).unwrap();
    let net = Network::Torus(t.clone());
    let dor = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
    for (gene, &(a, b)) in genes.iter().zip(&reused) {
        // A fresh engine per gene.
        assert_eq!(evaluate(&dest, gene).duration, a + b);
        // The engine's own batch entry point with the explicit packet list.
        let mut inv = vec![0u32; 64];
        for (p, &l) in gene.iter().enumerate() {
            inv[l as usize] = p as u32;
        }
        for (k, want) in [(0, a), (1, b)] {
            let mut trace = Vec::new();
            for (p, &l) in gene.iter().enumerate() {
                let d = dest[k * 64 + l as usize];
                if d != jumpnet_core::mapping::ga::NO_DEST {
                    for _ in 0..4 {
                        trace.push((p as u32, inv[d as usize], 0));
                    }
                }
            }
            let res = run_trace(&net, &dor, &SimConfig::ga(), &trace).unwrap();
            assert!(res.deadlock.is_none());
            assert_eq!(res.cycles, want, "pattern {k}");
        }
    }
}

#[test]
fn pool_scores_do_not_depend_on_the_thread_count() {
    let dest = pattern_tables(
        grid(),
        &[TrafficPattern::BitReversal, TrafficPattern::Transpose],
        1,
    )
    .unwrap();
    let genes = random_genes(7, 3);
    let flat: Vec<Address> = genes.concat();
    let slots: Vec<u32> = (0..genes.len() as u32).rev().collect();
    let score_with = |threads| {
        let params = GaSimParams {
            side: SIDE,
            cfg: SimConfig::ga(),
            dest: dest.clone(),
            threads,
        };
        with_sim_pool(&params, |pool| {
            use jumpnet_core::mapping::ga::BatchFitness;
            let zero = pool.evaluate_one(&genes[0]);
            let mut scores = vec![zero; genes.len()];
            scores[0].duration = 0;
            pool.evaluate_batch(&flat, 64, &slots, &mut scores);
            scores
        })
        .unwrap()
    };
    let one = score_with(1);
    assert_eq!(one, score_with(3));
    for (g, s) in genes.iter().zip(&one) {
        assert_eq!(*s, evaluate(&dest, g));
    }
}

#[test]
fn c3_identity_durations_are_additive_and_above_the_bounds() {
    let study = phys_study(&SimConfig::ga()).unwrap();
    assert_eq!(study.rows.len(), 15);
    for r in &study.rows {
        // One evaluation of a pair is its two patterns run one after the other.
        assert_eq!(r.sim, r.first + r.second, "{}", r.pair);
        // At least 34 per pattern, and at least the proxy: a channel carrying L flows
        // serialises 32·L flits, plus one cycle of injection and one of reception.
        assert!(r.first >= 34 && r.second >= 34, "{}", r.pair);
        assert!(
            r.sim >= r.proxy,
            "{}: {} < proxy {}",
            r.pair,
            r.sim,
            r.proxy
        );
        // None of the 15 pairs is conflict-free under the identity mapping.
        assert!(r.sim > study.minimum, "{}", r.pair);
    }
    // Each pattern's duration is the same in every pair it appears in.
    let single = |name: &str| -> Vec<u64> {
        let mut v: Vec<u64> = study
            .rows
            .iter()
            .flat_map(|r| {
                let (a, b) = r.pair.split_once('-').unwrap();
                [(a, r.first), (b, r.second)]
            })
            .filter(|(n, _)| *n == name)
            .map(|(_, d)| d)
            .collect();
        v.dedup();
        v
    };
    for p in ["bcmp", "brev", "brot", "shfl", "torn", "trns"] {
        assert_eq!(single(p).len(), 1, "{p}");
    }
}

/// \[GA\] Table 2's bcmp-brev best (68.2 ≈ 2 × 34) is the conflict-free bound, and a mapping
/// reaching it exists in jumpnet's router model: bit complement and bit reversal pair the
/// 64 logical addresses into 12 alternating 4-cycles (x, x̄, rev x̄, rev x) and 8 pairs
/// (palindromes, and addresses whose reversal is their complement); each 4-cycle on a 2 × 2 square of the torus and two pairs per remaining
/// square put every flow of both patterns on one link of its own (docs/mapping.md §5).
#[test]
fn a_conflict_free_bcmp_brev_mapping_takes_the_68_cycle_bound() {
    let g = grid();
    let n = g.nodes();
    let dest = pattern_tables(
        g,
        &[TrafficPattern::BitComplement, TrafficPattern::BitReversal],
        1,
    )
    .unwrap();
    let (bcmp, brev) = (&dest[..n], &dest[n..]);
    let mut placed = vec![false; n];
    let mut squares = Vec::new();
    let mut pairs = Vec::new();
    for a in 0..n as Address {
        if placed[a as usize] {
            continue;
        }
        let b = bcmp[a as usize];
        let c = brev[b as usize];
        if c == NO_DEST || c == b || c == a {
            // Palindromes (brev sends nothing) or rev a = ā (both patterns pair a with ā).
            pairs.push([a, b]);
            placed[a as usize] = true;
            placed[b as usize] = true;
            continue;
        }
        let d = bcmp[c as usize];
        assert_eq!(brev[d as usize], a, "alternating 4-cycle from {a}");
        for x in [a, b, c, d] {
            placed[x as usize] = true;
        }
        squares.push([a, b, c, d]);
    }
    assert_eq!((squares.len(), pairs.len()), (12, 8));
    for two in pairs.chunks(2) {
        // Square a b / d c: the pairs on its top and bottom edges.
        squares.push([two[0][0], two[0][1], two[1][1], two[1][0]]);
    }
    let mut gene = vec![0 as Address; n];
    for (k, q) in squares.iter().enumerate() {
        let (sx, sy) = (2 * (k as u32 % 4), 2 * (k as u32 / 4));
        gene[g.pos(sx, sy)] = q[0];
        gene[g.pos(sx + 1, sy)] = q[1];
        gene[g.pos(sx + 1, sy + 1)] = q[2];
        gene[g.pos(sx, sy + 1)] = q[3];
    }
    let score = evaluate(&dest, &gene);
    assert_eq!(score.duration, 68);
}
