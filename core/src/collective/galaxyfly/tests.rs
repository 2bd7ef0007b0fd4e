//! Galaxyfly tests: the SPC tree of the paper (docs/reference-results.md E1), SFATA and RFATA
//! checked symbolically on the paper's configurations.

use super::rfata::{self, rfata};
use super::sfata::sfata;
use super::spc::spc_tree;
use super::{GalaxyGraph, GalaxyflyBuffers, GalaxyflySizes, NONE};
use crate::collective::rpc::LowerMedian;
use crate::collective::{Blocks, Message, Schedule};
use crate::error::CapacityError;
use crate::exec::testutil::{run_check, strict};
use crate::exec::CheckOptions;
use crate::topology::testutil::TABLE_3_5;
use std::vec;
use std::vec::Vec;

struct Table {
    adj: Vec<Vec<u32>>,
    a: u32,
}

impl GalaxyGraph for Table {
    fn supernodes(&self) -> u32 {
        self.adj.len() as u32
    }
    fn routers_per_supernode(&self) -> u32 {
        self.a
    }
    fn degree(&self, u: u32) -> u32 {
        self.adj[u as usize].len() as u32
    }
    fn neighbor(&self, u: u32, i: u32) -> u32 {
        self.adj[u as usize][i as usize]
    }
}

fn table_3_5(a: u32) -> Table {
    Table {
        adj: TABLE_3_5
            .iter()
            .map(|r| r.iter().map(|&s| s - 1).collect())
            .collect(),
        a,
    }
}

/// Independent Galaxy-graph construction (docs/topologies.md §10) for prime q ≡ ±1 mod 4.
fn galaxy(n: u32, q: u32, a: u32) -> Table {
    let pow = |b: u32, e: u32| (0..e).fold(1u32, |acc, _| acc * b % q);
    let xi = (2..q)
        .find(|&g| (1..q - 1).all(|e| pow(g, e) != 1))
        .unwrap();
    let w = (q + 1) / 4;
    let exps: Vec<u32> = if q % 4 == 1 {
        (0..q - 1).step_by(2).collect()
    } else {
        (0..2 * w - 1)
            .step_by(2)
            .chain((2 * w - 1..4 * w - 2).step_by(2))
            .collect()
    };
    let x: Vec<u32> = exps.iter().map(|&e| pow(xi, e)).collect();
    let id = |k: u32, v: u32| k * q + v;
    let mut adj = vec![Vec::new(); (n * q) as usize];
    for k in 0..n {
        for i in 0..q {
            for j in 0..q {
                if i != j && x.contains(&((j + q - i) % q)) {
                    adj[id(k, i) as usize].push(id(k, j));
                }
            }
        }
    }
    for s in 0..n {
        for t in s + 1..n {
            for u in 0..q {
                let r = xi * u % q;
                adj[id(s, r) as usize].push(id(t, u));
                adj[id(t, u) as usize].push(id(s, r));
            }
        }
    }
    for l in &mut adj {
        l.sort();
    }
    Table { adj, a }
}

#[test]
fn generator_reproduces_the_worked_example() {
    assert_eq!(galaxy(3, 5, 1).adj, table_3_5(1).adj);
}

#[test]
fn spc_tree_of_the_paper() {
    // E1: target S8; S5←{S1,S4,S13}, S7←{S3,S6,S14}, S9←{S2,S10,S15}, S12←{S11}.
    let g = table_3_5(4);
    let (mut parent, mut order) = ([0u32; 15], [0u32; 15]);
    spc_tree(&g, 7, &mut parent, &mut order).unwrap();
    let label = |p: u32| if p == NONE { 0 } else { p + 1 };
    let got: Vec<u32> = parent.iter().map(|&p| label(p)).collect();
    //         S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 S11 S12 S13 S14 S15
    let want = [5, 9, 7, 5, 8, 7, 8, 0, 8, 9, 12, 8, 5, 7, 9];
    assert_eq!(got, want);
    assert_eq!(&order[..5], &[7, 4, 6, 8, 11]);
}

fn blank(len: usize) -> Vec<Message> {
    vec![
        Message {
            step: 0,
            src: 0,
            dst: 0,
            blocks: Blocks::All,
            bytes: 0
        };
        len
    ]
}

/// Packets each router receives, counted from the message list.
fn received_per_router<S: Schedule>(s: &S) -> Vec<u64> {
    let mut v = vec![0u64; s.ranks() as usize];
    s.for_each_message(|m| v[m.dst as usize] += m.blocks.count(s.layout().slots) as u64);
    v
}

fn configs() -> Vec<Table> {
    let mut v: Vec<Table> = [1, 2, 4, 8].iter().map(|&a| table_3_5(a)).collect();
    for (n, q, a) in [
        (3, 5, 4),
        (3, 5, 8),
        (4, 5, 5),
        (4, 7, 4),
        (4, 7, 5),
        (4, 5, 4),
    ] {
        v.push(galaxy(n, q, a));
    }
    v
}

#[test]
fn sfata_delivers_every_packet_once() {
    for g in configs() {
        let (s, a) = (g.supernodes(), g.a);
        let n = (s * a) as usize;
        for root in [0, 7 % s, s - 1] {
            let mut msgs = blank(2 * (n - 1));
            let mut own = vec![0u32; n];
            let mut scratch = vec![0u32; GalaxyflySizes::of_sfata(s, a).scratch];
            let sched = sfata(
                &g,
                root,
                &LowerMedian,
                160,
                GalaxyflyBuffers {
                    msgs: &mut msgs,
                    own: &mut own,
                    scratch: &mut scratch,
                },
            )
            .unwrap();
            assert_eq!(sched.num_messages(), 2 * (n as u64 - 1));
            // Strict check: every router ends with all a·n·q packets, none twice.
            let rep = strict(&sched).unwrap();
            assert_eq!(rep.redundant, 0);
            let shuffled = CheckOptions {
                allow_redundant: false,
                seed: 31 + root as u64,
            };
            run_check(&sched, shuffled).unwrap();
            // Each router receives exactly a·n·q − 1 foreign packets.
            assert!(received_per_router(&sched)
                .iter()
                .all(|&c| c == n as u64 - 1));
        }
    }
}

#[test]
fn rfata_is_complete_with_counted_redundancy() {
    for g in configs() {
        let (s, a) = (g.supernodes(), g.a);
        let n = (s * a) as usize;
        let root = 7 % s;
        let count = rfata::message_count(s, a) as usize;
        let mut msgs = blank(count);
        let mut own = vec![0u32; n];
        let mut scratch = vec![0u32; GalaxyflySizes::of_rfata(s, a).scratch];
        let sched = rfata(
            &g,
            root,
            &LowerMedian,
            160,
            GalaxyflyBuffers {
                msgs: &mut msgs,
                own: &mut own,
                scratch: &mut scratch,
            },
        )
        .unwrap();
        assert_eq!(sched.num_messages(), count as u64);
        let rep = run_check(
            &sched,
            CheckOptions {
                allow_redundant: true,
                seed: 0,
            },
        )
        .unwrap();
        // Independent count: a · Σ_{x ≠ A} |SPC subtree of x|, from a plain BFS here.
        let mut parent = vec![u32::MAX; s as usize];
        let mut queue = vec![root];
        parent[root as usize] = root;
        let mut i = 0;
        while i < queue.len() {
            let u = queue[i];
            i += 1;
            for &v in &g.adj[u as usize] {
                if parent[v as usize] == u32::MAX {
                    parent[v as usize] = u;
                    queue.push(v);
                }
            }
        }
        let mut sum = 0u64;
        for x in 0..s {
            let mut y = x;
            while y != root {
                sum += 1; // x lies in the subtree of y
                y = parent[y as usize];
            }
        }
        assert_eq!(rep.redundant, a as u64 * sum, "n·q = {s}, a = {a}");
        if s == 15 && a > 1 {
            assert_eq!(sum, 24); // subtrees 4 + 4 + 4 + 2 plus 10 leaves for target S8
        }
        assert!(received_per_router(&sched)
            .iter()
            .all(|&c| c >= n as u64 - 1));
        // Strict mode reports the first redundant delivery.
        assert!(strict(&sched).is_err());
    }
}

#[test]
fn short_buffers_name_the_buffer() {
    use crate::collective::ScheduleError;
    let g = configs().swap_remove(0);
    let (s, a) = (g.supernodes(), g.a);
    let n = (s * a) as usize;
    fn capacity<T: core::fmt::Debug>(r: Result<T, ScheduleError>) -> (&'static str, u64, u64) {
        match r {
            Err(ScheduleError::Capacity(CapacityError {
                what,
                needed,
                available,
            })) => (what, needed, available),
            other => panic!("expected a capacity error, got {other:?}"),
        }
    }
    let mut msgs = blank(4 * n);
    let (sl, rl) = (
        GalaxyflySizes::of_sfata(s, a).scratch,
        GalaxyflySizes::of_rfata(s, a).scratch,
    );
    let mut own = vec![0u32; n];
    let mut short_own = vec![0u32; n - 1];
    let mut scratch = vec![0u32; sl.max(rl)];
    assert_eq!(
        capacity(sfata(
            &g,
            0,
            &LowerMedian,
            160,
            GalaxyflyBuffers {
                msgs: &mut msgs,
                own: &mut short_own,
                scratch: &mut scratch
            }
        )),
        ("SFATA own blocks", n as u64, n as u64 - 1)
    );
    assert_eq!(
        capacity(rfata(
            &g,
            0,
            &LowerMedian,
            160,
            GalaxyflyBuffers {
                msgs: &mut msgs,
                own: &mut short_own,
                scratch: &mut scratch
            }
        )),
        ("RFATA own blocks", n as u64, n as u64 - 1)
    );
    assert_eq!(
        capacity(sfata(
            &g,
            0,
            &LowerMedian,
            160,
            GalaxyflyBuffers {
                msgs: &mut msgs,
                own: &mut own,
                scratch: &mut scratch[..sl - 1]
            }
        )),
        ("SFATA scratch", sl as u64, sl as u64 - 1)
    );
    assert_eq!(
        capacity(rfata(
            &g,
            0,
            &LowerMedian,
            160,
            GalaxyflyBuffers {
                msgs: &mut msgs,
                own: &mut own,
                scratch: &mut scratch[..rl - 1]
            }
        )),
        ("RFATA scratch", rl as u64, rl as u64 - 1)
    );
}
