//! Dragonfly tests: docs/reference-results.md B1 formulas, LLF/GLF/FOREST on synthetic and random
//! placements (checker + link counts within the [DF-BC] bounds), the paper's worst cases,
//! and A2A.

use super::a2a::{self, a2a};
use super::formulas::{DragonflyParams, Ratio};
use super::links::{count_links, LinkCounts};
use super::{broadcast, Algorithm, DragonflyBuffers, DragonflySizes, GroupLinks, Placement};
use crate::collective::rpc::LowerMedian;
use crate::collective::{Binomial, Blocks, ListSchedule, Message, Schedule};
use crate::exec::testutil::{run_check, strict};
use crate::exec::CheckOptions;
use crate::rng::Rng;
use std::vec;
use std::vec::Vec;

/// Canonical one-link-per-pair arrangement: group `g1`'s `d`-th other group
/// (`d = (g2 - g1 - 1) mod g`) is reached from router `d / h`, `h = ceil((g - 1) / a)`.
struct Canonical {
    g: u32,
    a: u32,
}

impl GroupLinks for Canonical {
    fn link(&self, g1: u32, g2: u32) -> (u32, u32) {
        let h = (self.g - 1).div_ceil(self.a).max(1);
        let d = |x: u32, y: u32| (y + self.g - x - 1) % self.g;
        (d(g1, g2) / h, d(g2, g1) / h)
    }
}

fn random_job(rng: &mut Rng, g: u32, a: u32, p: u32, n: usize) -> Vec<Placement> {
    let mut terminals: Vec<u32> = (0..g * a * p).collect();
    rng.shuffle(&mut terminals);
    terminals[..n]
        .iter()
        .map(|&t| Placement {
            group: t / (a * p),
            router: (t / p) % a,
        })
        .collect()
}

fn build<'a>(
    alg: Algorithm,
    job: &[Placement],
    root: u32,
    links: &Canonical,
    msgs: &'a mut Vec<Message>,
) -> ListSchedule<'a> {
    let n = job.len();
    *msgs = vec![
        Message {
            step: 0,
            src: 0,
            dst: 0,
            blocks: Blocks::All,
            bytes: 0
        };
        n.saturating_sub(1)
    ];
    let mut scratch = vec![0u32; DragonflySizes::of_broadcast(n).scratch];
    broadcast(
        alg,
        job,
        root,
        links,
        1024,
        DragonflyBuffers {
            msgs,
            scratch: &mut scratch,
        },
    )
    .unwrap()
}

fn used_groups(job: &[Placement]) -> u64 {
    let mut g: Vec<u32> = job.iter().map(|p| p.group).collect();
    g.sort();
    g.dedup();
    g.len() as u64
}

fn close(r: Ratio, want: f64) -> bool {
    (r.to_f64() - want).abs() < 0.005
}

#[test]
fn b1_formulas() {
    let d = DragonflyParams {
        g: 129,
        a: 16,
        p: 8,
        h: 8,
    };
    assert_eq!(d.terminals(), 16_512);
    assert!(close(d.tree_global(10_240), 10_160.24));
    assert!(close(d.tree_local_paper(10_240), 19_122.39));
    assert!(close(d.tree_local_exact(10_240), 19_124.87));
    assert_eq!(d.tree_global(10_240).to_f64().round(), 10_160.0);
    assert_eq!(d.tree_local_paper(10_240).to_f64().floor(), 19_122.0);
    // The probability-based form equals the closed "−2" form exactly.
    let k = (d.p * (1 + 2 * d.h * d.a + d.a)) as i128;
    let t1 = d.terminals() - 1;
    assert_eq!(
        d.tree_local_exact(10_240),
        Ratio::new((2 * t1 - (k - 2)) * 10_239, t1)
    );
    assert_eq!(d.aware_global_bound(), 128);
    assert_eq!(d.aware_local_bound(), 2_191);
}

#[test]
fn tree_counts_match_the_expectations_statistically() {
    // TREE over a random allocation: every message joins two uniformly random distinct
    // terminals, so the totals concentrate around the B1 expectations (std ≈ 13 and ≈ 90).
    let (g, a, p) = (129u32, 16u32, 8u32);
    let links = Canonical { g, a };
    let d = DragonflyParams {
        g: 129,
        a: 16,
        p: 8,
        h: 8,
    };
    let mut rng = Rng::new(2024);
    let job = random_job(&mut rng, g, a, p, 10_240);
    let tree = Binomial::new(10_240, 0, 1024).unwrap();
    let c = count_links(&tree, &job, &links).unwrap();
    assert!(
        (c.global as f64 - d.tree_global(10_240).to_f64()).abs() < 80.0,
        "{c:?}"
    );
    assert!(
        (c.local as f64 - d.tree_local_exact(10_240).to_f64()).abs() < 500.0,
        "{c:?}"
    );
    assert_eq!(c.terminal, 2 * 10_239);
}

fn check_aware(job: &[Placement], root: u32, g: u32, a: u32) {
    let links = Canonical { g, a };
    let bounds = DragonflyParams {
        g: g as u64,
        a: a as u64,
        p: 1,
        h: 1,
    };
    for alg in [Algorithm::Llf, Algorithm::Glf, Algorithm::Forest] {
        let mut msgs = Vec::new();
        let s = build(alg, job, root, &links, &mut msgs);
        assert_eq!(s.num_messages(), job.len() as u64 - 1);
        let rep = strict(&s).unwrap_or_else(|e| panic!("{alg:?}: {e}"));
        assert_eq!(rep.redundant, 0);
        let shuffled = CheckOptions {
            allow_redundant: false,
            seed: 0xD1F,
        };
        run_check(&s, shuffled).unwrap_or_else(|e| panic!("{alg:?}: {e}"));
        let c: LinkCounts = count_links(&s, job, &links).unwrap();
        // Each remote group is entered exactly once.
        assert_eq!(c.global, used_groups(job) - 1, "{alg:?}");
        assert!(c.global <= bounds.aware_global_bound());
        assert!(c.local <= bounds.aware_local_bound(), "{alg:?}: {c:?}");
        assert_eq!(c.terminal, 2 * (job.len() as u64 - 1));
    }
}

#[test]
fn aware_algorithms_on_random_allocations() {
    let mut rng = Rng::new(7);
    for (g, a, p) in [(9u32, 4u32, 2u32), (17, 4, 4), (33, 8, 2)] {
        for n in [1usize, 2, 5, 17, 60] {
            let n = n.min((g * a * p) as usize);
            let job = random_job(&mut rng, g, a, p, n);
            let root = rng.below(n as u64) as u32;
            check_aware(&job, root, g, a);
        }
    }
}

#[test]
fn full_machine_allocation() {
    // Every terminal of a 9-group, 4-router, 2-terminal Dragonfly.
    let job: Vec<Placement> = (0..72)
        .map(|t| Placement {
            group: t / 8,
            router: (t / 2) % 4,
        })
        .collect();
    for root in [0, 35, 71] {
        check_aware(&job, root, 9, 4);
    }
}

#[test]
fn llf_worst_case_root_alone_in_its_group() {
    // One process per group: LLF's root sends g - 1 messages in series; GLF and FOREST need
    // only ceil(log2 g) steps.
    let g = 17u32;
    let links = Canonical { g, a: 4 };
    let job: Vec<Placement> = (0..g)
        .map(|i| Placement {
            group: i,
            router: i % 4,
        })
        .collect();
    let mut msgs = Vec::new();
    let llf = build(Algorithm::Llf, &job, 0, &links, &mut msgs);
    assert_eq!(llf.num_steps(), g - 1);
    assert!(llf.messages().iter().all(|m| m.src == 0));
    let mut msgs = Vec::new();
    let glf = build(Algorithm::Glf, &job, 0, &links, &mut msgs);
    assert_eq!(glf.num_steps(), 5);
    let mut msgs = Vec::new();
    let forest = build(Algorithm::Forest, &job, 0, &links, &mut msgs);
    assert_eq!(forest.num_steps(), 5);
}

#[test]
fn glf_worst_case_spans_the_most_groups() {
    // With the same number of processes, spanning more groups deepens GLF's first tree
    // (ceil(log2 32) = 5 steps across global links) and uses more global links.
    let links = Canonical { g: 33, a: 4 };
    let spread: Vec<Placement> = (0..32)
        .map(|i| Placement {
            group: i,
            router: 0,
        })
        .collect();
    let packed: Vec<Placement> = (0..32)
        .map(|i| Placement {
            group: i / 8,
            router: (i / 2) % 4,
        })
        .collect();
    let (mut m1, mut m2) = (Vec::new(), Vec::new());
    let a = build(Algorithm::Glf, &spread, 0, &links, &mut m1);
    let b = build(Algorithm::Glf, &packed, 0, &links, &mut m2);
    assert_eq!(a.num_steps(), 5);
    assert!(a
        .messages()
        .iter()
        .all(|m| spread[m.src as usize].group != spread[m.dst as usize].group));
    let ca = count_links(&a, &spread, &links).unwrap();
    let cb = count_links(&b, &packed, &links).unwrap();
    assert!(ca.global > cb.global);
}

#[test]
fn llf_assigns_groups_by_link_router() {
    // Root group 0 uses routers 0 and 1; the holder on the router carrying the link to a
    // group serves it, the receiver sits on the far end of that link when possible.
    let links = Canonical { g: 9, a: 4 }; // h = 2: routers 0,0,1,1,2,2,3,3 reach groups 1..8
    let job = vec![
        Placement {
            group: 0,
            router: 0,
        }, // rank 0 = root
        Placement {
            group: 0,
            router: 1,
        }, // rank 1
        Placement {
            group: 1,
            router: 3,
        }, // rank 2
        Placement {
            group: 3,
            router: 2,
        }, // rank 3
        Placement {
            group: 3,
            router: 3,
        }, // rank 4
        Placement {
            group: 7,
            router: 1,
        }, // rank 5
    ];
    let mut msgs = Vec::new();
    let s = build(Algorithm::Llf, &job, 0, &links, &mut msgs);
    let pairs: Vec<(u32, u32)> = s.messages().iter().map(|m| (m.src, m.dst)).collect();
    // Group 1 via router 0 (link(0,1) = (0, 3)): root → rank 2 on router 3.
    assert!(pairs.contains(&(0, 2)));
    // Group 3: link(0,3) = (1, 2): holder rank 1 → rank 3 (router 2), then 3 → 4.
    assert_eq!(links.link(0, 3), (1, 2));
    assert!(pairs.contains(&(1, 3)) && pairs.contains(&(3, 4)));
    // Group 7: link(0,7) = (3, 0): no holder on router 3 → round-robin, first holder = rank 0;
    // no process on router 0 of group 7 → lowest rank of the group.
    assert!(pairs.contains(&(0, 5)));
    strict(&s).unwrap();
}

#[test]
fn a2a_delivers_every_packet_once() {
    for (g, a) in [(1u32, 1u32), (3, 1), (5, 4), (9, 4), (4, 7)] {
        let links = Canonical { g, a };
        let count = a2a::message_count(g, a) as usize;
        let mut msgs = vec![
            Message {
                step: 0,
                src: 0,
                dst: 0,
                blocks: Blocks::All,
                bytes: 0
            };
            count
        ];
        let mut scratch = vec![0u32; DragonflySizes::of_a2a(g, a).scratch];
        let s = a2a(
            g,
            a,
            &links,
            &LowerMedian,
            160,
            DragonflyBuffers {
                msgs: &mut msgs,
                scratch: &mut scratch,
            },
        )
        .unwrap();
        assert_eq!(s.num_messages(), count as u64);
        let rep = strict(&s).unwrap();
        assert_eq!(rep.redundant, 0);
        let mut got = vec![0u64; (g * a) as usize];
        s.for_each_message(|m| got[m.dst as usize] += m.blocks.count(g * a) as u64);
        assert!(got.iter().all(|&c| c == (g * a) as u64 - 1));
    }
}

#[test]
fn bad_inputs() {
    let links = Canonical { g: 3, a: 2 };
    let mut msgs = [Message {
        step: 0,
        src: 0,
        dst: 0,
        blocks: Blocks::All,
        bytes: 0,
    }; 4];
    let mut scratch = [0u32; 64];
    let job = [Placement {
        group: 0,
        router: 0,
    }; 3];
    assert!(broadcast(
        Algorithm::Llf,
        &job,
        3,
        &links,
        1,
        DragonflyBuffers {
            msgs: &mut msgs,
            scratch: &mut scratch
        }
    )
    .is_err());
    assert!(broadcast(
        Algorithm::Llf,
        &[],
        0,
        &links,
        1,
        DragonflyBuffers {
            msgs: &mut msgs,
            scratch: &mut scratch
        }
    )
    .is_err());
    assert!(broadcast(
        Algorithm::Llf,
        &job,
        0,
        &links,
        1,
        DragonflyBuffers {
            msgs: &mut msgs,
            scratch: &mut scratch[..5]
        }
    )
    .is_err());
    assert!(broadcast(
        Algorithm::Glf,
        &job,
        0,
        &links,
        1,
        DragonflyBuffers {
            msgs: &mut msgs[..1],
            scratch: &mut scratch
        }
    )
    .is_err());
}

#[test]
fn per_source_all_to_all_broadcasts() {
    // GFA2A / RFA2A (spec §8): GLF / LLF from every router; every router gets every packet once.
    for (g, a) in [(1u32, 3u32), (5, 4), (9, 2)] {
        let links = Canonical { g, a };
        let n = (g * a) as usize;
        for alg in [Algorithm::Glf, Algorithm::Llf, Algorithm::Forest] {
            let mut msgs = vec![
                Message {
                    step: 0,
                    src: 0,
                    dst: 0,
                    blocks: Blocks::All,
                    bytes: 0
                };
                n * (n - 1)
            ];
            let mut scratch = vec![0u32; DragonflySizes::of_all_to_all(g, a).scratch];
            let s = super::all_to_all(
                alg,
                g,
                a,
                &links,
                160,
                DragonflyBuffers {
                    msgs: &mut msgs,
                    scratch: &mut scratch,
                },
            )
            .unwrap();
            assert_eq!(s.num_messages(), (n * (n - 1)) as u64);
            let rep = strict(&s).unwrap_or_else(|e| panic!("{alg:?} g={g} a={a}: {e}"));
            assert_eq!(rep.redundant, 0);
            // Each source's packet crosses exactly g - 1 global links.
            let job: Vec<Placement> = (0..n as u32)
                .map(|r| Placement {
                    group: r / a,
                    router: r % a,
                })
                .collect();
            assert_eq!(
                count_links(&s, &job, &links).unwrap().global,
                n as u64 * (g as u64 - 1)
            );
        }
    }
}

#[test]
fn b1_bounds_on_the_paper_network() {
    // docs/reference-results.md B1: g = 129, a = 16, p = 8, h = 8; topology-aware broadcasts stay
    // within 128 global and 2,191 local link messages for any allocation.
    let (g, a, p) = (129u32, 16u32, 8u32);
    let links = Canonical { g, a };
    let d = DragonflyParams {
        g: 129,
        a: 16,
        p: 8,
        h: 8,
    };
    let mut rng = Rng::new(99);
    for n in [64usize, 1024, 10_240] {
        let job = random_job(&mut rng, g, a, p, n);
        let root = rng.below(n as u64) as u32;
        for alg in [Algorithm::Llf, Algorithm::Glf, Algorithm::Forest] {
            let mut msgs = Vec::new();
            let s = build(alg, &job, root, &links, &mut msgs);
            strict(&s).unwrap_or_else(|e| panic!("{alg:?} n={n}: {e}"));
            let c = count_links(&s, &job, &links).unwrap();
            assert_eq!(c.global, used_groups(&job) - 1);
            assert!(
                c.global <= d.aware_global_bound() && c.local <= d.aware_local_bound(),
                "{c:?}"
            );
            assert_eq!(c.terminal, 2 * (n as u64 - 1));
        }
    }
}
