//! The GA loop (docs/mapping.md §5) with the contention proxy on an 8×8 torus built by edges
//! and routed by a test-written DOR path oracle.

extern crate std;
use std::vec;
use std::vec::Vec;

use crate::mapping::ga::*;
use crate::mapping::testutil::*;
use crate::mapping::PathOracle;
use crate::rng::Rng;
use crate::topology::Topology;

const SIDE: u16 = 8;
const N: usize = 64;

fn pattern_tables(patterns: &[TrafficPattern], seed: u64) -> Vec<Address> {
    let grid = Grid::new(SIDE).unwrap();
    let mut rng = Rng::new(seed);
    let mut dest = vec![0; N * patterns.len()];
    let mut scratch = vec![0; N];
    for (k, p) in patterns.iter().enumerate() {
        p.fill(grid, &mut rng, &mut scratch, &mut dest[k * N..(k + 1) * N])
            .unwrap();
    }
    dest
}

fn proxy_score(dest: &[Address], gene: &[Address]) -> Score {
    let paths = TorusDor { side: SIDE as u32 };
    let (mut loads, mut inv) = (vec![0; 256], vec![0; N]);
    let patterns = PatternSet::new(N, dest).unwrap();
    ProxyFitness::new(paths, patterns, &mut loads, &mut inv)
        .unwrap()
        .evaluate(gene)
}

fn identity() -> Vec<Address> {
    (0..N as Address).collect()
}

#[test]
fn dor_oracle_follows_the_torus_built_by_edges() {
    let mut eg = torus_graph(SIDE as u32);
    let g = eg.view();
    let dor = TorusDor { side: SIDE as u32 };
    for a in 0..N as u32 {
        let bfs = bfs_dist(&g, a);
        for b in 0..N as u32 {
            let mut u = a;
            while let Some((_, v)) = dor.next_hop(u, b) {
                assert!((0..g.radix()).any(|p| g.port(u, p).link().map(|l| l.peer) == Some(v)));
                u = v;
            }
            assert_eq!(dor.path_len(a, b), bfs[b as usize], "{a}->{b}");
        }
    }
}

#[test]
fn proxy_reaches_34_cycles_per_pattern_without_interference() {
    // Logical s sends to its +x neighbour: with the identity gene every flow is one hop on its
    // own channel, so each pattern costs the C1 minimum of 34 cycles.
    let grid = Grid::new(SIDE).unwrap();
    let mut dest = vec![0; 2 * N];
    for s in 0..N as u16 {
        let (x, y) = grid.xy(s);
        dest[s as usize] = grid.pos(x + 1, y) as Address;
        dest[N + s as usize] = grid.pos(x, y + 1) as Address;
    }
    let one = proxy_score(&dest[..N], &identity());
    assert_eq!(one.duration, IDEAL_PATTERN_CYCLES);
    assert_eq!(one.avg_hop, AvgHop { hops: 1, pairs: 1 });
    let two = proxy_score(&dest, &identity());
    assert_eq!(two.duration, 2 * IDEAL_PATTERN_CYCLES);
    // Transpose under DOR, identity mapping: node (x, y) → (y, x); the loads are counted
    // independently here.
    let trns = pattern_tables(&[TrafficPattern::Transpose], 0);
    let dor = TorusDor { side: SIDE as u32 };
    let mut loads = vec![0u32; 256];
    let mut hops = 0;
    for s in 0..N as u32 {
        let (x, y) = (s % 8, s / 8);
        if x != y {
            dor.for_each_channel(s, x * 8 + y, |c| {
                loads[c as usize] += 1;
                hops += 1;
            });
        }
    }
    let max = *loads.iter().max().unwrap() as u64;
    let got = proxy_score(&trns, &identity());
    assert_eq!(got.duration, 2 + 32 * max);
    assert_eq!(got.avg_hop, AvgHop { hops, pairs: 56 });
}

struct Run {
    outcome: GaOutcome,
    best_gene: Vec<Address>,
}

/// A batch fitness that scores the slots of a batch in reverse order (a host spreading a
/// batch over threads finishes them in any order); `false` keeps the given order.
struct Reversed<F>(F, bool);

impl<F: Fitness> BatchFitness for Reversed<F> {
    fn evaluate_batch(
        &mut self,
        genes: &[Address],
        nodes: usize,
        slots: &[u32],
        scores: &mut [Score],
    ) {
        let mut order: Vec<u32> = slots.to_vec();
        if self.1 {
            order.reverse();
        }
        for s in order {
            scores[s as usize] = self.0.evaluate(population_gene(genes, nodes, s).unwrap());
        }
    }
}

fn run_ga(
    dest: &[Address],
    variant: Variant,
    ranking: Ranking,
    p: usize,
    g: u32,
    seed: u64,
) -> Run {
    run_ga_batched(dest, (variant, ranking), p, g, seed, false)
}

fn run_ga_batched(
    dest: &[Address],
    (variant, ranking): (Variant, Ranking),
    p: usize,
    g: u32,
    seed: u64,
    reversed: bool,
) -> Run {
    let paths = TorusDor { side: SIDE as u32 };
    let patterns = PatternSet::new(N, dest).unwrap();
    let (mut loads, mut inv) = (vec![0; 256], vec![0; N]);
    let fitness = ProxyFitness::new(paths, patterns, &mut loads, &mut inv).unwrap();
    let mut genes = vec![0; p * N];
    let mut scores = vec![
        Score {
            duration: 0,
            avg_hop: AvgHop { hops: 0, pairs: 0 }
        };
        p
    ];
    let mut order = vec![0; p];
    let mut inverse = vec![0; N];
    let mut born = vec![0; p];
    let problem = GaProblem {
        grid: Grid::new(SIDE).unwrap(),
        patterns,
        distance: TorusDistance { side: SIDE as u32 },
    };
    let buffers = GaBuffers {
        genes: &mut genes,
        scores: &mut scores,
        order: &mut order,
        inverse: &mut inverse,
        born: &mut born,
    };
    let config = GaConfig {
        variant,
        ranking,
        seed,
        neighbour: NeighbourPick::NotAdjacent,
        ties: Ties::Slot,
    };
    let ga = Ga::new(config, problem, Reversed(fitness, reversed), buffers).unwrap();
    let mut best_gene = vec![0; N];
    let mut last: Option<Score> = None;
    let outcome = ga
        .run(g, &mut best_gene, &mut |_, s| {
            if let Some(l) = last {
                assert!(!ranking.compare(&s, &l).is_gt(), "best never gets worse");
            }
            last = Some(s);
        })
        .unwrap();
    assert!(is_permutation(&best_gene));
    assert_eq!(proxy_score(dest, &best_gene), outcome.best);
    Run { outcome, best_gene }
}

#[test]
fn ga_variants_beat_the_identity_mapping() {
    let dest = pattern_tables(
        &[
            TrafficPattern::BitComplement,
            TrafficPattern::Shuffle,
            TrafficPattern::Transpose,
        ],
        0,
    );
    let phys = proxy_score(&dest, &identity());
    assert!(phys.duration >= 3 * IDEAL_PATTERN_CYCLES);
    for (variant, ranking) in [
        (Variant::S03, Ranking::Product),
        (Variant::S20, Ranking::AvgHopFirst),
        (Variant::S05, Ranking::DurationFirst),
        (Variant::S00, Ranking::Product),
        (Variant::S12, Ranking::AvgHopFirst),
    ] {
        let run = run_ga(&dest, variant, ranking, 64, 40, 5);
        assert!(
            run.outcome.best.duration < phys.duration,
            "{}-{}: {} !< {}",
            variant.name(),
            ranking.name(),
            run.outcome.best.duration,
            phys.duration
        );
        assert!(run.outcome.best.duration >= 3 * IDEAL_PATTERN_CYCLES);
    }
}

#[test]
fn ga_runs_are_deterministic_per_seed() {
    let dest = pattern_tables(
        &[TrafficPattern::RandomPair, TrafficPattern::BitReversal],
        3,
    );
    let a = run_ga(&dest, Variant::S02, Ranking::Product, 32, 15, 11);
    let b = run_ga(&dest, Variant::S02, Ranking::Product, 32, 15, 11);
    assert_eq!(a.outcome, b.outcome);
    assert_eq!(a.best_gene, b.best_gene);
    // Random search (S99): 32 × 15 fresh genes.
    let s99 = run_ga(&dest, Variant::S99, Ranking::DurationFirst, 32, 15, 11);
    assert_eq!(s99.outcome.evaluations, 32 * 15);
    assert_eq!(a.outcome.evaluations, 32 + 14 * 24);
}

#[test]
fn batch_order_does_not_change_the_run() {
    let dest = pattern_tables(&[TrafficPattern::BitComplement, TrafficPattern::Tornado], 0);
    for v in [Variant::S01, Variant::S99] {
        let key = (v, Ranking::AvgHopFirst);
        let a = run_ga_batched(&dest, key, 24, 12, 4, false);
        let b = run_ga_batched(&dest, key, 24, 12, 4, true);
        assert_eq!(a.outcome, b.outcome);
        assert_eq!(a.best_gene, b.best_gene);
    }
}

#[test]
fn survivors_are_kept_unchanged() {
    let dest = pattern_tables(&[TrafficPattern::BitRotation, TrafficPattern::Tornado], 0);
    let patterns = PatternSet::new(N, &dest).unwrap();
    for (variant, survivors) in [(Variant::S20, 16), (Variant::S11, 32), (Variant::S12, 8)] {
        let p = 64;
        let (mut loads, mut inv) = (vec![0; 256], vec![0; N]);
        let fitness =
            ProxyFitness::new(TorusDor { side: 8 }, patterns, &mut loads, &mut inv).unwrap();
        let mut genes = vec![0; p * N];
        let mut scores = vec![
            Score {
                duration: 0,
                avg_hop: AvgHop { hops: 0, pairs: 0 }
            };
            p
        ];
        let (mut order, mut inverse) = (vec![0; p], vec![0; N]);
        let mut born = vec![0; p];
        let mut ga = Ga::new(
            GaConfig {
                variant,
                ranking: Ranking::DurationFirst,
                seed: 1,
                neighbour: NeighbourPick::NotAdjacent,
                ties: Ties::Slot,
            },
            GaProblem {
                grid: Grid::new(8).unwrap(),
                patterns,
                distance: TorusDistance { side: 8 },
            },
            fitness,
            GaBuffers {
                genes: &mut genes,
                scores: &mut scores,
                order: &mut order,
                inverse: &mut inverse,
                born: &mut born,
            },
        )
        .unwrap();
        assert_eq!(ga.survivors(), survivors);
        for _ in 0..5 {
            // Ranked: scores ascend along the order.
            let order = ga.order().to_vec();
            for w in order.windows(2) {
                let (a, b) = (
                    ga.score(w[0] as usize).unwrap(),
                    ga.score(w[1] as usize).unwrap(),
                );
                assert!(!Ranking::DurationFirst.compare(&a, &b).is_gt());
            }
            let kept: Vec<(u32, Vec<Address>, Score)> = order[..survivors]
                .iter()
                .map(|&i| {
                    (
                        i,
                        ga.gene(i as usize).to_vec(),
                        ga.score(i as usize).unwrap(),
                    )
                })
                .collect();
            ga.step();
            for (slot, gene, score) in &kept {
                assert_eq!(ga.gene(*slot as usize), &gene[..]);
                assert_eq!(ga.score(*slot as usize).unwrap(), *score);
            }
            for i in 0..p {
                assert!(is_permutation(ga.gene(i)));
                assert_eq!(ga.score(i).unwrap(), proxy_score(&dest, ga.gene(i)));
            }
        }
        assert_eq!(ga.generation(), 5);
    }
}

#[test]
fn ga_rejects_bad_buffers() {
    let dest = pattern_tables(&[TrafficPattern::BitComplement], 0);
    let patterns = PatternSet::new(N, &dest).unwrap();
    let (mut loads, mut inv) = (vec![0; 256], vec![0; N]);
    let fitness = ProxyFitness::new(TorusDor { side: 8 }, patterns, &mut loads, &mut inv).unwrap();
    let mut genes = vec![0; 3 * N];
    let mut scores = vec![
        Score {
            duration: 0,
            avg_hop: AvgHop { hops: 0, pairs: 0 }
        };
        4
    ];
    let (mut order, mut inverse) = (vec![0; 4], vec![0; N]);
    let mut born = vec![0; 3];
    let r = Ga::new(
        GaConfig {
            variant: Variant::S00,
            ranking: Ranking::Product,
            seed: 0,
            neighbour: NeighbourPick::NotAdjacent,
            ties: Ties::Slot,
        },
        GaProblem {
            grid: Grid::new(8).unwrap(),
            patterns,
            distance: TorusDistance { side: 8 },
        },
        fitness,
        GaBuffers {
            genes: &mut genes,
            scores: &mut scores,
            order: &mut order,
            inverse: &mut inverse,
            born: &mut born,
        },
    );
    assert!(matches!(r, Err(crate::mapping::MappingError::Capacity(..))));
    let mut small = vec![0u32; 10];
    assert!(ProxyFitness::new(TorusDor { side: 8 }, patterns, &mut small, &mut inv).is_err());
    assert!(PatternSet::new(N, &dest[..10]).is_err());
    let bad = vec![70u16; N];
    assert!(PatternSet::new(N, &bad).is_err());
    assert!(Grid::new(1).is_err());
}

#[test]
fn population_gene_slices_gene_i_of_n_nodes_and_rejects_what_is_not_there() {
    let genes: [Address; 6] = [0, 1, 2, 3, 4, 5];
    assert_eq!(population_gene(&genes, 2, 0), Some(&[0, 1][..]));
    assert_eq!(population_gene(&genes, 2, 2), Some(&[4, 5][..]));
    assert_eq!(population_gene(&genes, 2, 3), None);
    assert_eq!(population_gene(&genes, 4, 1), None);
    assert_eq!(population_gene(&genes, usize::MAX, 2), None);
}

/// Stall diagnostics (docs/mapping.md §5 "Why the GA stalled"): every non-survivor is one
/// mutant; random swaps always change the gene; with the neighbouring-swap rule BeyondRadius
/// and `r = 2` a gene whose flows are all within 2 hops is copied unchanged, with NotAdjacent
/// it still moves.
#[test]
fn step_stats_count_mutants_and_unchanged_copies() {
    let dest = pattern_tables(
        &[TrafficPattern::BitComplement, TrafficPattern::BitReversal],
        0,
    );
    let patterns = PatternSet::new(N, &dest).unwrap();
    let zero = Score {
        duration: 0,
        avg_hop: AvgHop { hops: 0, pairs: 0 },
    };
    let stats_after_steps = |variant: Variant, neighbour: NeighbourPick, steps: u32| {
        let paths = TorusDor { side: SIDE as u32 };
        let (mut loads, mut inv) = (vec![0; 256], vec![0; N]);
        let fitness = ProxyFitness::new(paths, patterns, &mut loads, &mut inv).unwrap();
        let (mut genes, mut scores) = (vec![0; 40 * N], vec![zero; 40]);
        let (mut order, mut inverse) = (vec![0; 40], vec![0; N]);
        let mut born = vec![0; 40];
        let mut ga = Ga::new(
            GaConfig {
                variant,
                ranking: Ranking::DurationFirst,
                seed: 7,
                neighbour,
                ties: Ties::Slot,
            },
            GaProblem {
                grid: Grid::new(SIDE).unwrap(),
                patterns,
                distance: TorusDistance { side: SIDE as u32 },
            },
            fitness,
            GaBuffers {
                genes: &mut genes,
                scores: &mut scores,
                order: &mut order,
                inverse: &mut inverse,
                born: &mut born,
            },
        )
        .unwrap();
        assert_eq!(ga.stats(), StepStats::default());
        let mut all = Vec::new();
        for _ in 0..steps {
            ga.step();
            all.push(ga.stats());
        }
        all
    };
    // S05: 25 % survivors of 40 = 10 parents, 30 random-swap mutants, none unchanged.
    for st in stats_after_steps(Variant::S05, NeighbourPick::NotAdjacent, 5) {
        assert_eq!(st.made, [30, 0, 0, 0, 0]);
        assert_eq!(st.unchanged_total(), 0);
        assert!(st.better + st.equal <= 30);
    }
    // S20 (100 % neighbouring, r = N_p = 2): after enough generations the rule BeyondRadius
    // leaves most mutants identical to their parent (every flow within 2 hops), NotAdjacent
    // far fewer.
    let tail_unchanged = |neighbour| {
        let all = stats_after_steps(Variant::S20, neighbour, 200);
        all[150..].iter().map(|s| s.unchanged_total()).sum::<u32>()
    };
    let (beyond, not_adjacent) = (
        tail_unchanged(NeighbourPick::BeyondRadius),
        tail_unchanged(NeighbourPick::NotAdjacent),
    );
    assert!(beyond > 2 * not_adjacent, "{beyond} vs {not_adjacent}");
}

/// A fitness under which every gene ties: duration 100, one hop.
struct Flat;

impl BatchFitness for Flat {
    fn evaluate_batch(&mut self, _: &[Address], _: usize, slots: &[u32], scores: &mut [Score]) {
        for &s in slots {
            scores[s as usize] = Score {
                duration: 100,
                avg_hop: AvgHop { hops: 1, pairs: 1 },
            };
        }
    }
}

/// docs/mapping.md §5 "Ties": when every gene ties, `newest` ranks the genes made in the last
/// step first (so a mutant that only equals its parent replaces it), `slot` keeps the slot
/// order (the survivors stay the same slots for ever).
#[test]
fn ties_newest_ranks_the_last_steps_mutants_first_and_slot_keeps_slot_order() {
    let dest = pattern_tables(&[TrafficPattern::BitRotation, TrafficPattern::Tornado], 0);
    let patterns = PatternSet::new(N, &dest).unwrap();
    for ties in Ties::ALL {
        let p = 16;
        let zero = Score {
            duration: 0,
            avg_hop: AvgHop { hops: 0, pairs: 0 },
        };
        let (mut genes, mut scores) = (vec![0; p * N], vec![zero; p]);
        let (mut order, mut inverse, mut born) = (vec![0; p], vec![0; N], vec![0; p]);
        let mut ga = Ga::new(
            GaConfig {
                variant: Variant::S20,
                ranking: Ranking::DurationFirst,
                seed: 3,
                neighbour: NeighbourPick::NotAdjacent,
                ties,
            },
            GaProblem {
                grid: Grid::new(8).unwrap(),
                patterns,
                distance: TorusDistance { side: 8 },
            },
            Flat,
            GaBuffers {
                genes: &mut genes,
                scores: &mut scores,
                order: &mut order,
                inverse: &mut inverse,
                born: &mut born,
            },
        )
        .unwrap();
        let k = ga.survivors();
        assert_eq!(k, 4);
        let identity: Vec<u32> = (0..p as u32).collect();
        assert_eq!(ga.order(), &identity[..]);
        for _ in 0..3 {
            let before = ga.order().to_vec();
            ga.step();
            match ties {
                Ties::Slot => assert_eq!(ga.order(), &identity[..]),
                Ties::Newest => {
                    let (mut made, mut kept) = (before[k..].to_vec(), before[..k].to_vec());
                    made.sort_unstable();
                    kept.sort_unstable();
                    assert_eq!(&ga.order()[..p - k], &made[..], "{ties:?}");
                    assert_eq!(&ga.order()[p - k..], &kept[..], "{ties:?}");
                }
            }
        }
    }
}
