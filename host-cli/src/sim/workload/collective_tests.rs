//! Collective traffic tests: the makespan formula of one message, a
//! hand-computed binomial broadcast under the `ga` preset, the data-flow check of every
//! algorithm (and a corrupted program caught), determinism.

use jumpnet_core::collective::{DataLayout, Message, Op, Rank, Schedule, ScheduleError, Semantics};
use jumpnet_core::exec::CheckError;
use jumpnet_core::routing::{Hop, Routing};
use jumpnet_core::topology::{Network, Topology};

use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{build, RouteAlgo, RouteOptions, RouteStore};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement, OwnedSchedule};
use crate::builder::topology::TopologySpec;
use crate::sim::workload::collective::{
    run_collective, CollectiveError, CollectiveResult, NicConfig,
};
use crate::sim::SimConfig;

fn owned(words: &str) -> OwnedNetwork {
    let w: Vec<String> = words.split_whitespace().map(String::from).collect();
    OwnedNetwork::build(&TopologySpec::parse(&w).unwrap()).unwrap()
}

fn with_routing<T>(net: &Network<'_>, algo: RouteAlgo, f: impl FnOnce(&dyn Routing) -> T) -> T {
    let mut store = RouteStore::default();
    let opts = RouteOptions {
        algo,
        max_layers: 8,
        seed: 1,
    };
    let (routing, _) = build(net, &opts, &mut store).unwrap();
    f(routing.as_ref())
}

fn hops(net: &Network<'_>, r: &dyn Routing, src: u32, dst: u32) -> u64 {
    let mut st = r.inject(src, dst).unwrap();
    let mut at = net.terminal_switch(src).unwrap();
    let mut h = 0;
    loop {
        match r.next_hop(at, &mut st, dst).unwrap() {
            Hop::Forward { port, .. } => {
                at = net.port(at, port).link().unwrap().peer;
                h += 1;
            }
            Hop::Eject { .. } => return h,
        }
    }
}

fn request(algorithm: Algorithm, ranks: Option<u32>, bytes: u64) -> CollectiveRequest {
    CollectiveRequest {
        algorithm,
        ranks,
        root: 0,
        bytes,
        elem_bytes: 4,
        placement: JobPlacement::Consecutive,
        seed: 1,
    }
}

fn run_owned(
    net: &OwnedNetwork,
    algo: RouteAlgo,
    cfg: &SimConfig,
    nic: &NicConfig,
    sched: &OwnedSchedule,
) -> Result<CollectiveResult, CollectiveError> {
    let s = sched.schedule().unwrap();
    let terms: Vec<u32> = match &sched.terminals {
        Some(t) => t.clone(),
        None => (0..s.ranks()).collect(),
    };
    let n = net.network();
    let mut nic = nic.clone();
    nic.allow_redundant = sched.allow_redundant;
    with_routing(&n, algo, |r| {
        let mut cfg = cfg.clone();
        cfg.num_vcs = cfg.num_vcs.max(r.num_vcs());
        run_collective(&n, r, &cfg, &nic, &s, &terms)
    })
}

/// Two ranks, one message of `P` packets of `L` flits over `H` hops:
/// `send_overhead + T0(H, L) + (P − 1)·L + 1 + recv_overhead` with the booksim pipeline
/// `T0 = 5H + L + 5`.
#[test]
fn two_rank_message_matches_zero_load_formula() {
    let net = owned("mesh k=4,4");
    let n = net.network();
    let h = with_routing(&n, RouteAlgo::Dor, |r| hops(&n, r, 0, 15));
    assert_eq!(h, 6);
    let mut cfg = SimConfig::booksim();
    cfg.packet_size = 5;
    let nic = NicConfig {
        flit_bytes: 16,
        header_flits: 1,
        send_overhead: 3,
        recv_overhead: 2,
        ..NicConfig::default()
    };
    // 64 bytes = one packet (4 payload flits of 16 B); 256 bytes = 4 packets.
    for (bytes, p) in [(64u64, 1u64), (1, 1), (256, 4), (257, 5)] {
        let sched = schedule::build(&request(Algorithm::Bcast, Some(2), bytes), None).unwrap();
        let s = sched.schedule().unwrap();
        let res = with_routing(&n, RouteAlgo::Dor, |r| {
            run_collective(&n, r, &cfg, &nic, &s, &[0, 15]).unwrap()
        });
        let l = 5;
        let t0 = 5 * h + l + 5;
        let want = nic.send_overhead + t0 + (p - 1) * l + 1 + nic.recv_overhead;
        assert_eq!(res.packets, p, "{bytes} B");
        assert_eq!(res.makespan_cycles, want, "{bytes} B");
        assert_eq!(res.finish, vec![0, want]);
        assert_eq!(res.flits, p * l);
        assert_eq!(res.conservation_errors, 0);
        assert_eq!(res.critical_path.len(), 1);
        assert_eq!(res.critical_path[0].arrived, want - 1 - nic.recv_overhead);
        let secs = want as f64 / (nic.clock_ghz() * 1e9);
        assert!((res.makespan_seconds - secs).abs() < 1e-15);
    }
}

/// Binomial broadcast from rank 0 over 8 ranks on the ring `torus k=8` (rank r on node r),
/// `ga` preset (`T0 = H + L + 1`, L = 8), one-packet messages, no NIC overheads. MPICH order:
/// 0 sends to 4, 2, 1 (packets back to back: the k-th leaves 8(k−1) cycles late), 4 to 6, 5,
/// 2 to 3, 6 to 7; a receiver acts one cycle after the tail's ejection.
#[test]
fn binomial_broadcast_on_ring_ga_preset_hand_computed() {
    let net = owned("torus k=8");
    let cfg = SimConfig::ga();
    assert_eq!(cfg.packet_size, 8);
    let nic = NicConfig::default(); // 7 payload flits of 16 B per packet
    let sched = schedule::build(&request(Algorithm::Bcast, Some(8), 64), None).unwrap();
    let res = run_owned(&net, RouteAlgo::DorDateline, &cfg, &nic, &sched).unwrap();
    // rank 4: 0 + 4 + 9 + 1 = 14; rank 2: 8 + 2 + 9 + 1 = 20; rank 1: 16 + 1 + 9 + 1 = 27;
    // rank 6: 14 + 2 + 10 = 26; rank 5: 14 + 8 + 1 + 10 = 33; rank 3: 20 + 1 + 10 = 31;
    // rank 7: 26 + 1 + 10 = 37.
    assert_eq!(res.finish, vec![0, 27, 20, 31, 14, 33, 26, 37]);
    assert_eq!(res.makespan_cycles, 37);
    let path: Vec<(Rank, Rank)> = res.critical_path.iter().map(|m| (m.src, m.dst)).collect();
    assert_eq!(path, vec![(0, 4), (4, 6), (6, 7)]);
    assert!(res.data_checked);
}

fn every_algorithm() -> Vec<(Algorithm, &'static str, Option<u32>, RouteAlgo)> {
    let df = "dragonfly g=9 a=4 p=2 h=2";
    let gf = "galaxyfly n=3 q=5 a=4";
    let mut v = Vec::new();
    for (alg, ranks) in [
        (Algorithm::Bcast, 12),
        (Algorithm::BcastAuto, 12),
        (Algorithm::BcastScatterRd, 16),
        (Algorithm::BcastScatterRing, 12),
        (Algorithm::Allreduce, 12),
        (Algorithm::AllreduceRing, 12),
        (Algorithm::AllgatherRing, 12),
        (Algorithm::Alltoall, 12),
        (Algorithm::Alltoall, 16),
    ] {
        v.push((alg, "torus k=4,4", Some(ranks), RouteAlgo::DorDateline));
    }
    for alg in [
        Algorithm::Tree,
        Algorithm::Llf,
        Algorithm::Glf,
        Algorithm::Forest,
    ] {
        v.push((alg, df, Some(20), RouteAlgo::DfMinimal));
    }
    for alg in [Algorithm::DragonflyA2a, Algorithm::Gfa2a, Algorithm::Rfa2a] {
        v.push((alg, df, None, RouteAlgo::DfMinimal));
    }
    for alg in [Algorithm::Sfata, Algorithm::Rfata] {
        v.push((alg, gf, None, RouteAlgo::Dfsssp));
    }
    v
}

/// Every algorithm's simulated data flow ends exactly where `sched verify` says, with NIC
/// overheads and reduction costs that reorder arrivals.
#[test]
fn every_algorithm_data_flow_matches_the_checker() {
    let mut cfg = SimConfig::booksim();
    cfg.packet_size = 4;
    let nic = NicConfig {
        send_overhead: 2,
        recv_overhead: 1,
        reduce_cycles_per_byte: 0.25,
        ..NicConfig::default()
    };
    for (alg, topo, ranks, route) in every_algorithm() {
        let net = owned(topo);
        let sched = schedule::build(&request(alg, ranks, 1000), Some(&net)).unwrap();
        let res = run_owned(&net, route, &cfg, &nic, &sched)
            .unwrap_or_else(|e| panic!("{} on {topo}: {e}", alg.name()));
        let s = sched.schedule().unwrap();
        assert!(res.data_checked);
        assert_eq!(res.messages, s.num_messages(), "{}", alg.name());
        assert_eq!(res.conservation_errors, 0);
        assert!(res.makespan_cycles > 0);
        assert_eq!(res.finish_summary.max, res.makespan_cycles);
        assert!(!res.critical_path.is_empty());
        if !sched.allow_redundant {
            assert_eq!(res.redundant, 0, "{}", alg.name());
        }
    }
}

/// A schedule whose rank `victim` runs a corrupted program.
struct Corrupt<'a, S> {
    inner: &'a S,
    victim: Rank,
    edit: fn(&mut [Op]),
}

impl<S: Schedule> Schedule for Corrupt<'_, S> {
    fn ranks(&self) -> u32 {
        self.inner.ranks()
    }
    fn semantics(&self) -> Semantics {
        self.inner.semantics()
    }
    fn layout(&self) -> DataLayout {
        self.inner.layout()
    }
    fn num_steps(&self) -> u32 {
        self.inner.num_steps()
    }
    fn num_messages(&self) -> u64 {
        self.inner.num_messages()
    }
    fn for_each_message<F: FnMut(Message)>(&self, f: F) {
        self.inner.for_each_message(f)
    }
    fn program_len(&self, rank: Rank) -> usize {
        self.inner.program_len(rank)
    }
    fn program(&self, rank: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        let n = self.inner.program(rank, out)?;
        if rank == self.victim {
            (self.edit)(&mut out[..n]);
        }
        Ok(n)
    }
    fn own_block(&self, rank: Rank) -> u32 {
        self.inner.own_block(rank)
    }
}

fn run_corrupt(alg: Algorithm, edit: fn(&mut [Op])) -> CollectiveError {
    let net = owned("torus k=4,4");
    let sched = schedule::build(&request(alg, Some(8), 256), None).unwrap();
    let s = sched.schedule().unwrap();
    let bad = Corrupt {
        inner: &s,
        victim: 3,
        edit,
    };
    let n = net.network();
    let terms: Vec<u32> = (0..8).collect();
    let mut cfg = SimConfig::booksim();
    cfg.packet_size = 4;
    with_routing(&n, RouteAlgo::DorDateline, |r| {
        run_collective(&n, r, &cfg, &NicConfig::default(), &bad, &terms)
            .expect_err("corrupted program must fail")
    })
}

#[test]
fn corrupted_programs_are_caught() {
    // Bruck with a wrong rotation: every block still travels, but lands in the wrong slot.
    let e = run_corrupt(Algorithm::Alltoall, |ops| {
        for op in ops.iter_mut() {
            if let Op::Permute { shift, .. } = op {
                *shift += 1;
                break;
            }
        }
    });
    assert!(
        matches!(e, CollectiveError::Data(CheckError::WrongBlock { .. })),
        "{e}"
    );
    // Recursive doubling reducing a message twice: a double count.
    let e = run_corrupt(Algorithm::Allreduce, |ops| {
        for op in ops.iter_mut() {
            if let Op::Recv {
                peer,
                blocks,
                after,
            } = *op
            {
                *op = Op::RecvReduce {
                    peer,
                    blocks,
                    after,
                };
            }
        }
        // Plain receives became reducing ones; also turn the first reducing receive of
        // the last step into a plain one, so a contribution goes missing.
        if let Some(op) = ops
            .iter_mut()
            .rev()
            .find(|o| matches!(o, Op::RecvReduce { .. }))
        {
            if let Op::RecvReduce {
                peer,
                blocks,
                after,
            } = *op
            {
                *op = Op::Recv {
                    peer,
                    blocks,
                    after,
                };
            }
        }
    });
    assert!(matches!(e, CollectiveError::Data(_)), "{e}");
    // A receive expecting other blocks than the peer sends: a protocol error.
    let e = run_corrupt(Algorithm::AllgatherRing, |ops| {
        for op in ops.iter_mut() {
            if let Op::Recv { blocks, .. } = op {
                *blocks = jumpnet_core::collective::Blocks::Single(7);
                break;
            }
        }
    });
    assert!(
        matches!(
            e,
            CollectiveError::Exec { .. } | CollectiveError::ProtocolDeadlock { .. }
        ),
        "{e}"
    );
}

#[test]
fn deterministic() {
    let net = owned("dragonfly g=9 a=4 p=2 h=2");
    let nic = NicConfig {
        reduce_cycles_per_byte: 0.5,
        ..NicConfig::default()
    };
    let sched = schedule::build(&request(Algorithm::AllreduceRing, Some(24), 4096), None).unwrap();
    let mut cfg = SimConfig::booksim();
    cfg.packet_size = 4;
    let a = run_owned(&net, RouteAlgo::DfMinimal, &cfg, &nic, &sched).unwrap();
    let b = run_owned(&net, RouteAlgo::DfMinimal, &cfg, &nic, &sched).unwrap();
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert!(a.class_utilisation.iter().any(|c| c.utilisation > 0.0));
}

/// Two-rank recursive-doubling allreduce: both messages cross at once (opposite links), and
/// each rank finishes after its reduction: `T0 + 1 + ceil(B · cycles_per_byte)`.
#[test]
fn two_rank_allreduce_pays_the_reduction() {
    let net = owned("mesh k=4,4");
    let n = net.network();
    let mut cfg = SimConfig::booksim();
    cfg.packet_size = 5;
    let nic = NicConfig {
        reduce_cycles_per_byte: 0.5,
        ..NicConfig::default()
    };
    let sched = schedule::build(&request(Algorithm::Allreduce, Some(2), 64), None).unwrap();
    let s = sched.schedule().unwrap();
    let res = with_routing(&n, RouteAlgo::Dor, |r| {
        run_collective(&n, r, &cfg, &nic, &s, &[0, 15]).unwrap()
    });
    let want = (5 * 6 + 5 + 5) + 1 + 32;
    assert_eq!(res.finish, vec![want, want]);
    assert_eq!(res.makespan_cycles, want);
}
