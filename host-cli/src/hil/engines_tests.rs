use jumpnet_core::collective::{Dep, Schedule};
use jumpnet_core::exec::timing::ErrorCode;
use jumpnet_core::topology::Topology;

use super::*;
use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{self, RouteAlgo, RouteOptions, RouteStore};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::builder::topology::TopologySpec;
use crate::hil::trace::Recorder;
use crate::sim::workload::collective::{
    run_collective, run_collective_with, CollectiveInput, NicConfig,
};
use crate::sim::workload::nic_engine::RunHooks;
use crate::sim::SimConfig;

const BLANK: Op = Op::Permute {
    reflect: false,
    shift: 0,
    after: Dep::None,
};

fn program_of<S: Schedule>(s: &S, r: Rank) -> Vec<Op> {
    let mut p = vec![BLANK; s.program_len(r)];
    let n = s.program(r, &mut p).unwrap();
    p.truncate(n);
    p
}

fn sched(algorithm: Algorithm, ranks: u32) -> crate::builder::schedule::OwnedSchedule {
    let req = CollectiveRequest {
        algorithm,
        ranks: Some(ranks),
        root: 0,
        bytes: 64,
        elem_bytes: 4,
        placement: JobPlacement::Consecutive,
        seed: 1,
    };
    schedule::build(&req, None).unwrap()
}

/// The matcher and `Executor::on_receive` share core's `match_receive` but keep their own
/// record of the receives already taken: both give the same receive (or the same error) for
/// arrivals in reverse program order, a stray sender and wrong blocks.
#[test]
fn recv_matcher_agrees_with_the_executor() {
    for algorithm in [Algorithm::Bcast, Algorithm::Allreduce, Algorithm::Alltoall] {
        let owned = sched(algorithm, 16);
        let s = owned.schedule().unwrap();
        for r in 0..16 {
            let program = program_of(&s, r);
            let mut status = vec![OpStatus::Pending; program.len()];
            let mut ex = Executor::new(&program, &mut status).unwrap();
            let mut m = RecvMatcher::new(&program);
            let mut arrivals: Vec<(Rank, Blocks)> =
                program.iter().filter_map(|op| op.as_recv()).collect();
            arrivals.reverse();
            arrivals.push((r, Blocks::All)); // from itself: never expected
            if let Some(&(p, _)) = arrivals.first() {
                arrivals.push((p, Blocks::Single(999))); // a known peer, wrong blocks
            }
            for (peer, blocks) in arrivals {
                assert_eq!(
                    m.arrive(peer, blocks),
                    ex.on_receive(peer, blocks),
                    "{algorithm:?} rank {r}: arrival from {peer} {blocks:?}"
                );
            }
        }
    }
}

/// Contract timing by hand: an arrival visible in cycle 5 is accepted in cycle 5, delivered
/// in 6 (ARRIVAL_LATENCY), its dependent send acts in 7 (DEP_LATENCY), done in 8.
#[test]
fn clocked_engine_follows_the_timing_contract() {
    let program = [
        Op::Recv {
            peer: 1,
            blocks: Blocks::All,
            after: Dep::None,
        },
        Op::Send {
            peer: 2,
            blocks: Blocks::All,
            after: Dep::Op(0),
        },
    ];
    let mut status = [OpStatus::Pending; 2];
    let timed = TimedExecutor::new(&program, &mut status);
    let mut e = ClockedEngine::new("test".into(), timed, &program);
    assert_eq!(e.poll(0), Ok(Action::Wait));
    assert!(!e.busy());
    assert_eq!(e.arrive(4, 5, 1, Blocks::All), Ok(0));
    assert_eq!(e.poll(5), Ok(Action::Wait));
    assert!(e.busy());
    assert_eq!(
        e.poll(6),
        Ok(Action::Deliver {
            op: 0,
            peer: 1,
            blocks: Blocks::All,
            reduce: false
        })
    );
    assert_eq!(e.first_pending(), 1);
    assert_eq!(
        e.poll(7),
        Ok(Action::Send {
            op: 1,
            peer: 2,
            blocks: Blocks::All
        })
    );
    assert_eq!(e.poll(8), Ok(Action::Done));
    assert!(matches!(e.poll(8), Err(NicError::Engine(s)) if s.contains("polled twice")));
}

/// A stepper that acts in every cycle violates the contract when idle: caught.
#[test]
fn clocked_engine_rejects_actions_in_idle_cycles_and_reports_errors() {
    struct Chatty(u64);
    impl CycleStepper for Chatty {
        fn step(&mut self, _: Option<(Rank, Blocks)>) -> Result<CycleOutput, String> {
            self.0 += 1;
            Ok(CycleOutput {
                cycle: self.0 - 1,
                action: Some(Action::Permute {
                    op: 0,
                    reflect: false,
                    shift: 0,
                }),
                done: false,
                error: (self.0 > 4).then_some((ErrorCode::BlocksMismatch, 3)),
            })
        }
    }
    let mut e = ClockedEngine::new("chatty".into(), Chatty(0), &[]);
    assert!(e.poll(0).is_ok());
    let err = e.poll(3).unwrap_err().to_string();
    assert!(
        err.contains("acted") && err.contains("idle cycle 1"),
        "{err}"
    );
    let mut e = ClockedEngine::new("chatty".into(), Chatty(4), &[]);
    let err = e.poll(4).unwrap_err().to_string();
    assert_eq!(
        err,
        "chatty: stepped cycle 4 where the simulator is in cycle 0"
    );
    let mut e = ClockedEngine::new("chatty".into(), Chatty(5), &[]);
    e.next_cycle = 5;
    let err = e.poll(5).unwrap_err().to_string();
    assert_eq!(err, "chatty: error BlocksMismatch (op 3) in cycle 5");
}

/// Two ranks on core's clocked reference inside a whole run: the data flow still checks
/// (every rank ends as `sched verify` expects), each clocked rank acts at most once per
/// cycle, and the same messages are sent as in the untimed run.
#[test]
fn clocked_reference_ranks_run_a_whole_collective() {
    let spec = TopologySpec::parse(&["torus".into(), "k=4,4".into()]).unwrap();
    let owned = OwnedNetwork::build(&spec).unwrap();
    let net = owned.network();
    let mut store = RouteStore::default();
    let opts = RouteOptions {
        algo: RouteAlgo::DorDateline,
        max_layers: 8,
        seed: 1,
    };
    let (routing, _) = routing::build(&net, &opts, &mut store).unwrap();
    let mut cfg = SimConfig::booksim();
    cfg.packet_size = 4;
    cfg.num_vcs = 2;
    let nic = NicConfig::default();
    for algorithm in [Algorithm::Bcast, Algorithm::Allreduce, Algorithm::Alltoall] {
        let owned_s = sched(algorithm, 16);
        let s = owned_s.schedule().unwrap();
        let terminals: Vec<u32> = (0..net.num_terminals()).collect();
        let untimed = run_collective(&net, routing.as_ref(), &cfg, &nic, &s, &terminals).unwrap();
        let ranks = [3, 7];
        let programs: Vec<Vec<Op>> = ranks.iter().map(|&r| program_of(&s, r)).collect();
        let mut status: Vec<Vec<OpStatus>> = programs
            .iter()
            .map(|p| vec![OpStatus::Pending; p.len()])
            .collect();
        let engines: Vec<(Rank, Box<dyn NicEngine + '_>)> = ranks
            .iter()
            .zip(programs.iter())
            .zip(status.iter_mut())
            .map(|((&r, p), st)| {
                let e: Box<dyn NicEngine + '_> = Box::new(ClockedEngine::new(
                    format!("rank {r}"),
                    TimedExecutor::new(p, st),
                    p,
                ));
                (r, e)
            })
            .collect();
        let mut rec = Recorder::new(&ranks, None);
        let run = CollectiveInput {
            net: &net,
            routing: routing.as_ref(),
            config: &cfg,
            nic: &nic,
            schedule: &s,
            terminals: &terminals,
        };
        let timed = run_collective_with(
            &run,
            RunHooks {
                engines,
                observer: Some(&mut rec),
                background: None,
            },
        )
        .unwrap();
        assert!(timed.data_checked);
        // The same messages, later or earlier by the one-op-per-cycle contract.
        assert_eq!(timed.messages, untimed.messages, "{algorithm:?}");
        for w in rec.events.windows(2) {
            assert!(
                (w[0].cycle, w[0].rank) != (w[1].cycle, w[1].rank),
                "{algorithm:?}: two actions of rank {} in cycle {}",
                w[0].rank,
                w[0].cycle
            );
        }
        let ops: usize = programs.iter().map(Vec::len).sum();
        assert_eq!(rec.events.len(), ops + ranks.len(), "{algorithm:?}");
    }
}
