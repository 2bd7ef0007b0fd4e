//! Unit tests of the analysis on small networks whose routes are worked out by hand
//! (docs/routing.md §1 tie-break: lowest port; docs/topologies.md §1: ring port 0 → a+1).

extern crate std;
use crate::error::CapacityError;
use std::vec;
use std::vec::Vec;

use super::*;
use crate::collective::dragonfly::Placement;
use crate::collective::{
    Binomial, Blocks, Bruck, DataLayout, Message, Op, RecursiveDoubling, Schedule, ScheduleError,
    Semantics,
};
use crate::mapping;
use crate::routing::{DistanceMatrix, Hop, MinimalRouting, PacketState, Routing, RoutingError};
use crate::topology::{Circulant, Dragonfly, GlobalArrangement, LinkClass, Topology};

/// All-pairs distances of `t` in a fresh buffer.
fn distances<T: Topology>(t: &T) -> Vec<u16> {
    let n = t.num_switches() as usize;
    let mut buf = vec![0u16; n * n];
    let mut q = vec![0u32; n];
    DistanceMatrix::compute(t, &mut buf, &mut q).unwrap();
    buf
}

const IDENTITY8: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

#[test]
fn binomial_on_a_ring_of_8() {
    // Routes (ties to port 0 = +1): 0→4 = 0,1,2,3,4 (4 hops); 0→2, 4→6: 2 hops; step 3: 1 hop
    // each. Per step 4 / 4 / 4, largest 4 / 2 / 1, total 12, 14 terminal links.
    let ring = Circulant::ring(8).unwrap();
    let d = distances(&ring);
    let routing = MinimalRouting::new(&ring, DistanceMatrix::new(8, &d).unwrap()).unwrap();
    let net = RoutedNetwork::new(&ring, &routing);
    let bcast = Binomial::new(8, 0, 64).unwrap();
    let (mut hops, mut max, mut count) = ([9u64; 4], [9u32; 4], [9u64; 4]);
    let mut loads = vec![7u64; (ring.num_switches() * ring.radix() as u32) as usize];
    let a = analyse(
        &net,
        &bcast,
        &IDENTITY8,
        Outputs {
            steps: StepBuffers {
                hops: Some(&mut hops),
                max_hops: Some(&mut max),
                messages: Some(&mut count),
            },
            channel_loads: Some(&mut loads),
        },
    )
    .unwrap();
    assert_eq!(
        a.hops,
        HopSummary {
            messages: 7,
            network_messages: 7,
            total_hops: 12,
            max_hops: 4,
            steps: 3
        }
    );
    assert_eq!(
        (hops, max, count),
        ([0, 4, 4, 4], [0, 4, 2, 1], [0, 1, 2, 4])
    );
    assert_eq!(a.links.get(LinkClass::Terminal), 14);
    assert_eq!(a.links.get(LinkClass::Dim(0)), 12);
    assert_eq!(a.links.router_links(), 12);
    // Port-0 channel loads per switch, counted from the routes above; port 1 unused.
    let radix = ring.radix() as usize;
    let port0: Vec<u64> = (0..8).map(|s| loads[s * radix]).collect();
    assert_eq!(port0, [3, 2, 2, 1, 2, 1, 1, 0]);
    assert_eq!(loads.iter().sum::<u64>(), 12);

    // The distance-oracle path gives the same hop numbers.
    let dm = DistanceMatrix::new(8, &d).unwrap();
    let mut hops2 = [0u64; 4];
    let s = distance_hops(
        &dm,
        &bcast,
        &IDENTITY8,
        StepBuffers {
            hops: Some(&mut hops2),
            ..StepBuffers::default()
        },
    )
    .unwrap();
    assert_eq!((s, hops2), (a.hops, hops));
}

#[test]
fn makespan_on_a_ring_of_8() {
    // Durations = hops + 2: 0→4 arrives 6; 0→2 runs 6..10, 0→1 10..13; 4→6 6..10,
    // 4→5 10..13; 2→3 and 6→7 10..13.
    let ring = Circulant::ring(8).unwrap();
    let d = distances(&ring);
    let routing = MinimalRouting::new(&ring, DistanceMatrix::new(8, &d).unwrap()).unwrap();
    let net = RoutedNetwork::new(&ring, &routing);
    let bcast = Binomial::new(8, 0, 64).unwrap();
    let mut clocks = [RankClock::default(); 8];
    let m = makespan(&net, &bcast, &IDENTITY8, &mut clocks).unwrap();
    assert_eq!(m.time, 13);
    assert_eq!(m.messages, 7);
    assert_eq!(m.busy, 12 + 14);
    assert_eq!(clocks[4].free_at(), 13);
    assert_eq!(clocks[6].last_arrival(), 10);
}

#[test]
fn uniform_durations_give_cost_times_depth() {
    // With every message lasting c, a binomial broadcast takes c·ceil(log2 n), recursive
    // doubling c·(number of steps), Bruck c·ceil(log2 n).
    let mut clocks = vec![RankClock::default(); 64];
    for n in 1..=40u32 {
        let k = if n <= 1 {
            0
        } else {
            32 - (n - 1).leading_zeros()
        };
        let b = Binomial::new(n, n / 3, 8).unwrap();
        let m = makespan_with(&b, &mut clocks, |_| Ok(3)).unwrap();
        assert_eq!(m.time, 3 * k as u64, "binomial n={n}");
        let rd = RecursiveDoubling::new(n, 8).unwrap();
        let pof2 = 1u32 << (31 - n.leading_zeros());
        let steps = pof2.trailing_zeros() + if pof2 == n { 0 } else { 2 };
        let m = makespan_with(&rd, &mut clocks, |_| Ok(5)).unwrap();
        assert_eq!(m.time, 5 * steps as u64, "recursive doubling n={n}");
        if n > 1 {
            let br = Bruck::new(n, 8).unwrap();
            let m = makespan_with(&br, &mut clocks, |_| Ok(2)).unwrap();
            assert_eq!(m.time, 2 * k as u64, "bruck n={n}");
        }
    }
}

#[test]
fn ranks_sharing_a_terminal_cost_nothing() {
    let ring = Circulant::ring(4).unwrap();
    let d = distances(&ring);
    let routing = MinimalRouting::new(&ring, DistanceMatrix::new(4, &d).unwrap()).unwrap();
    let net = RoutedNetwork::new(&ring, &routing);
    let bcast = Binomial::new(4, 0, 8).unwrap();
    // Ranks 0, 1 on terminal 2; ranks 2, 3 on terminal 3 (1 hop away).
    let placement = [2, 2, 3, 3];
    let a = analyse(&net, &bcast, &placement, Outputs::default()).unwrap();
    // Messages 0→2 (1 hop), 0→1 (same terminal), 2→3 (same terminal).
    assert_eq!(a.hops.messages, 3);
    assert_eq!(a.hops.network_messages, 1);
    assert_eq!(a.hops.total_hops, 1);
    assert_eq!(a.links.terminal, 2);
    let mut clocks = [RankClock::default(); 4];
    assert_eq!(
        makespan(&net, &bcast, &placement, &mut clocks)
            .unwrap()
            .time,
        3
    );
}

#[test]
fn flatten_gives_the_mpich_binomial_list() {
    // docs/reference-results.md A3.
    let mut out = [mapping::Message {
        step: 0,
        src_rank: 0,
        dst_rank: 0,
    }; 7];
    assert_eq!(
        flatten(&Binomial::new(8, 0, 1).unwrap(), &mut out).unwrap(),
        7
    );
    let mut got: Vec<_> = out
        .iter()
        .map(|m| (m.step, m.src_rank, m.dst_rank))
        .collect();
    got.sort_unstable();
    assert_eq!(
        got,
        [
            (1, 0, 4),
            (2, 0, 2),
            (2, 4, 6),
            (3, 0, 1),
            (3, 2, 3),
            (3, 4, 5),
            (3, 6, 7)
        ]
    );
    assert_eq!(
        flatten(&Binomial::new(8, 0, 1).unwrap(), &mut out[..6]),
        Err(AnalysisError::Capacity(CapacityError {
            what: "flattened messages",
            needed: 7,
            available: 6
        }))
    );
}

/// A routing that always forwards on port 0: loops around a ring forever.
struct Spin;

impl Routing for Spin {
    fn num_vcs(&self) -> u8 {
        1
    }
    fn inject(&self, _: u32, _: u32) -> Result<PacketState, RoutingError> {
        Ok(PacketState::new(0))
    }
    fn next_hop(&self, _: u32, _: &mut PacketState, _: u32) -> Result<Hop, RoutingError> {
        Ok(Hop::Forward { port: 0, vc: 0 })
    }
}

/// A schedule over a fixed message list, in the given (possibly wrong) order.
struct Raw<'a> {
    n: u32,
    msgs: &'a [Message],
}

impl Schedule for Raw<'_> {
    fn ranks(&self) -> u32 {
        self.n
    }
    fn semantics(&self) -> Semantics {
        Semantics::Allgather
    }
    fn layout(&self) -> DataLayout {
        DataLayout::uniform(1, 8)
    }
    fn num_steps(&self) -> u32 {
        self.msgs.iter().map(|m| m.step).max().unwrap_or(0)
    }
    fn num_messages(&self) -> u64 {
        self.msgs.len() as u64
    }
    fn for_each_message<F: FnMut(Message)>(&self, f: F) {
        self.msgs.iter().copied().for_each(f)
    }
    fn program_len(&self, _: u32) -> usize {
        0
    }
    fn program(&self, _: u32, _: &mut [Op]) -> Result<usize, ScheduleError> {
        Ok(0)
    }
}

fn msg(step: u32, src: u32, dst: u32) -> Message {
    Message {
        step,
        src,
        dst,
        blocks: Blocks::All,
        bytes: 8,
    }
}

#[test]
fn errors_name_what_is_wrong() {
    let ring = Circulant::ring(4).unwrap();
    let d = distances(&ring);
    let routing = MinimalRouting::new(&ring, DistanceMatrix::new(4, &d).unwrap()).unwrap();
    let net = RoutedNetwork::new(&ring, &routing);
    let bcast = Binomial::new(4, 0, 8).unwrap();
    placement_and_buffer_errors(&net, &bcast);
    routing_errors(&ring, &net, &bcast);
    schedule_errors(&net, &bcast, &d);
}

type Ring4<'a> = RoutedNetwork<'a, Circulant, MinimalRouting<'a, Circulant>>;

/// A placement of the wrong length; output buffers too small.
fn placement_and_buffer_errors(net: &Ring4<'_>, bcast: &Binomial) {
    assert_eq!(
        analyse(net, bcast, &[0, 1, 2], Outputs::default()),
        Err(AnalysisError::Placement {
            ranks: 4,
            entries: 3
        })
    );
    let mut short = [0u64; 2];
    let e = analyse(
        net,
        bcast,
        &[0, 1, 2, 3],
        Outputs {
            steps: StepBuffers {
                hops: Some(&mut short),
                ..StepBuffers::default()
            },
            channel_loads: None,
        },
    )
    .unwrap_err();
    assert_eq!(
        e,
        AnalysisError::Capacity(CapacityError {
            what: "per-step hops (num_steps + 1)",
            needed: 3,
            available: 2
        })
    );
    let mut loads = [0u64; 3];
    assert!(matches!(
        analyse(
            net,
            bcast,
            &[0, 1, 2, 3],
            Outputs {
                steps: StepBuffers::default(),
                channel_loads: Some(&mut loads)
            }
        ),
        Err(AnalysisError::Capacity(CapacityError {
            what: "channel loads",
            ..
        }))
    ));
}

/// A routing loop (caught by the hop limit, naming the message) and a terminal the
/// network does not have.
fn routing_errors(ring: &Circulant, net: &Ring4<'_>, bcast: &Binomial) {
    let spin = RoutedNetwork::new(ring, &Spin).with_hop_limit(10);
    let e = analyse(&spin, bcast, &[0, 1, 2, 3], Outputs::default()).unwrap_err();
    assert_eq!(
        e,
        AnalysisError::Route {
            step: 1,
            src_rank: 0,
            dst_rank: 2,
            error: RoutingError::HopLimit {
                src: 0,
                dst: 2,
                limit: 10
            }
        }
    );
    // The context reads on its own; the routing error is its source (printed after it by
    // error reporters such as anyhow's `{:#}`).
    let text = std::format!("{e}");
    assert!(text.contains("rank 0 to rank 2"), "{text}");
    let source = core::error::Error::source(&e).map(|s| std::format!("{s}"));
    assert!(source.is_some_and(|s| s.contains("10 hops")), "{e:?}");
    assert!(matches!(
        analyse(net, bcast, &[0, 1, 9, 3], Outputs::default()),
        Err(AnalysisError::Route {
            error: RoutingError::TerminalOutOfRange { terminal: 9, .. },
            ..
        })
    ));
}

/// Steps must not decrease; ranks must exist; clocks must cover the ranks.
fn schedule_errors(net: &Ring4<'_>, bcast: &Binomial, d: &[u16]) {
    let bad = [msg(2, 0, 1), msg(1, 1, 2)];
    let raw = Raw { n: 3, msgs: &bad };
    assert_eq!(
        analyse(net, &raw, &[0, 1, 2], Outputs::default()),
        Err(AnalysisError::StepOrder {
            step: 1,
            previous: 2
        })
    );
    let mut clocks = [RankClock::default(); 3];
    assert!(matches!(
        makespan_with(&raw, &mut clocks, |_| Ok(1)),
        Err(AnalysisError::StepOrder { .. })
    ));
    let stray = [msg(1, 0, 5)];
    let raw = Raw { n: 3, msgs: &stray };
    assert_eq!(
        distance_hops(
            &DistanceMatrix::new(4, d).unwrap(),
            &raw,
            &[0, 1, 2],
            StepBuffers::default()
        ),
        Err(AnalysisError::RankOutOfRange { rank: 5, ranks: 3 })
    );
    assert_eq!(
        makespan_with(&raw, &mut clocks, |_| Ok(1)),
        Err(AnalysisError::RankOutOfRange { rank: 5, ranks: 3 })
    );
    assert!(matches!(
        makespan_with(bcast, &mut clocks, |_| Ok(1)),
        Err(AnalysisError::Capacity(CapacityError { needed: 4, .. }))
    ));
}

#[test]
fn dragonfly_placement_names_group_and_router() {
    for (g, a, h) in [(9u32, 4u32, 2u32), (5, 2, 2)] {
        let df = Dragonfly::new(g, a, 2, h, GlobalArrangement::Consecutive).unwrap();
        // Terminal t sits on router t / 2 = group · a + offset.
        let terms = [0, 2 * a - 1, 2 * a + 3, df.num_terminals() - 1];
        let mut out = [Placement {
            group: 99,
            router: 99,
        }; 4];
        dragonfly_placement(&df, &terms, &mut out).unwrap();
        let got: Vec<(u32, u32)> = out.iter().map(|p| (p.group, p.router)).collect();
        assert_eq!(got, [(0, 0), (0, a - 1), (1, 1), (g - 1, a - 1)]);
        assert_eq!(
            dragonfly_placement(&df, &[df.num_terminals()], &mut out),
            Err(AnalysisError::TerminalOutOfRange {
                terminal: df.num_terminals(),
                terminals: df.num_terminals()
            })
        );
        assert!(matches!(
            dragonfly_placement(&df, &terms, &mut out[..2]),
            Err(AnalysisError::Capacity(CapacityError { needed: 4, .. }))
        ));
    }
}
