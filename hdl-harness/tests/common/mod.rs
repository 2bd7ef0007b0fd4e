//! Shared drivers of the engine and router tests: programs of a schedule, random valid
//! programs, the lock-step co-simulation of the RTL against `TimedExecutor`, and core's
//! forwarding entries and compiled switch tables.
#![allow(dead_code)]

use std::collections::VecDeque;

use jumpnet_core::collective::{Blocks, Dep, Op, Rank, Schedule, Span};
use jumpnet_core::exec::timing::{Arrival, CycleOutput, TimedExecutor};
use jumpnet_core::exec::{Action, OpStatus};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::tables::compile::{switch_table, VcMode};
use jumpnet_core::routing::{Hop, PacketState, RouteEntry, Routing, Run, RunTableBuilder};
use jumpnet_core::topology::Topology;
use jumpnet_hdl::SchedEngineRtl;

/// Every rank's program of `s`.
pub fn programs_of<S: Schedule>(s: &S) -> Vec<Vec<Op>> {
    (0..s.ranks())
        .map(|r| {
            let blank = Op::Send {
                peer: 0,
                blocks: Blocks::All,
                after: Dep::None,
            };
            let mut buf = vec![blank; s.program_len(r)];
            let n = s.program(r, &mut buf).expect("program");
            buf.truncate(n);
            buf
        })
        .collect()
}

/// Runs every rank's program on its own RTL engine and its own `TimedExecutor` in lock
/// step; a send of cycle `t` from `src` reaches `dst`'s arrival queue at `t + latency +
/// (src + dst) % 3`, and each engine accepts at most one queued arrival per cycle. Asserts
/// the RTL's output equals the model's in every cycle of every rank, and that every rank
/// finishes. Returns the cycle in which the last rank finished.
pub fn cosim(programs: &[Vec<Op>], latency: u64, what: &str) -> u64 {
    let n = programs.len();
    for p in programs {
        assert!(
            p.len() <= SchedEngineRtl::CAPACITY,
            "{what}: program of {} ops",
            p.len()
        );
    }
    let mut status: Vec<Vec<OpStatus>> = programs
        .iter()
        .map(|p| vec![OpStatus::Pending; p.len()])
        .collect();
    let mut models: Vec<TimedExecutor<'_, '_>> = programs
        .iter()
        .zip(status.iter_mut())
        .map(|(p, s)| TimedExecutor::new(p, s))
        .collect();
    let mut rtls: Vec<SchedEngineRtl> = programs
        .iter()
        .map(|p| {
            let mut e = SchedEngineRtl::new();
            e.load_program(p).expect("load");
            e
        })
        .collect();
    let mut queues: Vec<VecDeque<(u64, Rank, Blocks)>> = vec![VecDeque::new(); n];
    let mut finished = vec![None; n];
    let limit = 64 * programs.iter().map(Vec::len).sum::<usize>() as u64 + 200;
    let mut t = 0;
    while finished.iter().any(Option::is_none) {
        assert!(t < limit, "{what}: no finish within {limit} cycles");
        let mut sends = Vec::new();
        for r in 0..n {
            let arrival = match queues[r].front() {
                Some(&(at, peer, blocks)) if at <= t => {
                    queues[r].pop_front();
                    Some((peer, blocks))
                }
                _ => None,
            };
            let want = models[r].step(arrival);
            let got = rtls[r].step(arrival).expect("RTL outputs decode");
            assert_eq!(got, want, "{what}: rank {r}, cycle {t}");
            assert_eq!(want.error, None, "{what}: rank {r}");
            if want.done && finished[r].is_none() {
                finished[r] = Some(t);
            }
            if let Some(Action::Send { peer, blocks, .. }) = want.action {
                sends.push((r as Rank, peer, blocks));
            }
        }
        for (src, dst, blocks) in sends {
            let at = t + latency + u64::from(src + dst) % 3;
            queues[dst as usize].push_back((at, src, blocks));
        }
        t += 1;
    }
    finished.iter().flatten().copied().max().unwrap_or(0)
}

/// Runs one program with a fixed arrival list on the RTL and the model for `cycles`
/// cycles, asserting equal outputs in each; returns the cycles run.
pub fn replay(program: &[Op], arrivals: &[Arrival], cycles: u64, case: usize) -> u64 {
    let mut st = vec![OpStatus::Pending; program.len()];
    let mut model = TimedExecutor::new(program, &mut st);
    let mut rtl = SchedEngineRtl::new();
    rtl.load_program(program).expect("load");
    let mut next = arrivals.iter().peekable();
    for t in 0..cycles {
        let a = next.next_if(|a| a.cycle == t).map(|a| (a.peer, a.blocks));
        let want = model.step(a);
        assert_eq!(
            rtl.step(a).expect("decode"),
            want,
            "case {case}, cycle {t}: {program:?}"
        );
    }
    cycles
}

/// The model's whole trace of `program` with `arrivals` for `cycles` cycles.
pub fn model_trace(program: &[Op], arrivals: &[Arrival], cycles: u64) -> Vec<CycleOutput> {
    let mut st = vec![OpStatus::Pending; program.len()];
    let mut model = TimedExecutor::new(program, &mut st);
    let mut next = arrivals.iter().peekable();
    (0..cycles)
        .map(|t| {
            let a = next.next_if(|a| a.cycle == t).map(|a| (a.peer, a.blocks));
            model.step(a)
        })
        .collect()
}

fn random_blocks(rng: &mut Rng) -> Blocks {
    match rng.below(5) {
        0 => Blocks::All,
        1 => Blocks::Single(rng.below(4) as u32),
        2 => Blocks::Range {
            start: rng.below(3) as u32,
            len: rng.below(3) as u32,
        },
        3 => Blocks::TwoRanges(
            Span::new(0, rng.below(2) as u32),
            Span::new(2, rng.below(2) as u32),
        ),
        _ => Blocks::BitMask {
            bit: rng.below(3) as u8,
        },
    }
}

/// A random valid program (1..=60 ops, few peers and blocks so matching is exercised) and an
/// arrival for each receive in random cycles (one per cycle, in random order: early and late
/// arrivals). With `stray`, one extra arrival that matches nothing or mismatches blocks.
pub fn random_case(rng: &mut Rng, stray: bool) -> (Vec<Op>, Vec<Arrival>) {
    let len = 1 + rng.below(60) as usize;
    let mut prog = Vec::with_capacity(len);
    for i in 0..len {
        let after = match rng.below(4) {
            0 => Dep::None,
            1 | 2 if i > 0 => Dep::Op(rng.below(i as u64) as u32),
            _ => Dep::Earlier,
        };
        let peer = rng.below(4) as u32;
        let blocks = random_blocks(rng);
        prog.push(match rng.below(7) {
            0 | 1 => Op::Send {
                peer,
                blocks,
                after,
            },
            2 | 3 => Op::Recv {
                peer,
                blocks,
                after,
            },
            4 | 5 => Op::RecvReduce {
                peer,
                blocks,
                after,
            },
            _ => Op::Permute {
                reflect: rng.below(2) == 1,
                shift: rng.below(1 << 20) as u32,
                after,
            },
        });
    }
    let mut msgs: Vec<(Rank, Blocks)> = prog.iter().filter_map(Op::as_recv).collect();
    if stray {
        msgs.push((rng.below(6) as u32, random_blocks(rng)));
    }
    rng.shuffle(&mut msgs);
    let span = 2 * len as u64 + 4;
    let mut cycles: Vec<u64> = Vec::new();
    while cycles.len() < msgs.len() {
        let c = rng.below(span);
        if !cycles.contains(&c) {
            cycles.push(c);
        }
    }
    cycles.sort_unstable();
    let arrivals = cycles
        .into_iter()
        .zip(msgs)
        .map(|(cycle, (peer, blocks))| Arrival {
            cycle,
            peer,
            blocks,
        })
        .collect();
    (prog, arrivals)
}

/// One cycle of a rank's run: the arrival presented and the engine's output.
pub type Cycle = (Option<(Rank, Blocks)>, CycleOutput);

/// The model-only counterpart of [`cosim`]: every rank's `(arrival, output)` per cycle until
/// all ranks are done (plus one cycle), with the same network as `cosim`.
pub fn model_network(programs: &[Vec<Op>], latency: u64) -> Vec<Vec<Cycle>> {
    let n = programs.len();
    let mut status: Vec<Vec<OpStatus>> = programs
        .iter()
        .map(|p| vec![OpStatus::Pending; p.len()])
        .collect();
    let mut models: Vec<TimedExecutor<'_, '_>> = programs
        .iter()
        .zip(status.iter_mut())
        .map(|(p, s)| TimedExecutor::new(p, s))
        .collect();
    let mut queues: Vec<VecDeque<(u64, Rank, Blocks)>> = vec![VecDeque::new(); n];
    let mut traces = vec![Vec::new(); n];
    let mut t = 0;
    while !traces
        .iter()
        .all(|tr: &Vec<(_, CycleOutput)>| tr.last().is_some_and(|l| l.1.done))
    {
        assert!(t < 100_000, "no finish");
        let mut sends = Vec::new();
        for r in 0..n {
            let arrival = match queues[r].front() {
                Some(&(at, peer, blocks)) if at <= t => {
                    queues[r].pop_front();
                    Some((peer, blocks))
                }
                _ => None,
            };
            let out = models[r].step(arrival);
            if let Some(Action::Send { peer, blocks, .. }) = out.action {
                sends.push((r as Rank, peer, blocks));
            }
            traces[r].push((arrival, out));
        }
        for (src, dst, blocks) in sends {
            let at = t + latency + u64::from(src + dst) % 3;
            queues[dst as usize].push_back((at, src, blocks));
        }
        t += 1;
    }
    traces
}

/// Core's forwarding entry of `s` toward `d`, straight from the routing (not the table).
pub fn core_entry<R: Routing>(routing: &R, s: u32, d: u32) -> RouteEntry {
    match routing.next_hop(s, &mut PacketState::new(s), d) {
        Ok(Hop::Forward { port, vc }) => RouteEntry { port, vc },
        Ok(Hop::Eject { port }) => RouteEntry { port, vc: 0 },
        Err(_) => RouteEntry::NONE,
    }
}

/// Switch `s`'s forwarding table compiled by core (`switch_table`, `VcMode::InTable`), one
/// run per change.
pub fn compiled_runs<T: Topology, R: Routing>(
    topo: &T,
    routing: &R,
    s: u32,
) -> Vec<Run<RouteEntry>> {
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        topo.num_terminals() as usize
    ];
    let mut b = RunTableBuilder::new(&mut runs);
    switch_table(topo, routing, s, VcMode::InTable, &mut b).expect("compile");
    let used = b.runs_used();
    runs.truncate(used);
    runs
}
