//! The schedule engine RTL under Verilator against `jumpnet_core::exec::timing::TimedExecutor`
//! (the golden model over `core::exec::Executor`), cycle for cycle.

mod common;

use common::{cosim, programs_of, random_case};
use jumpnet_core::collective::dragonfly::{self, DragonflyBuffers, DragonflySizes};
use jumpnet_core::collective::galaxyfly::{sfata::sfata, GalaxyflyBuffers, GalaxyflySizes};
use jumpnet_core::collective::rpc::LowerMedian;
use jumpnet_core::collective::{
    Binomial, Blocks, Bruck, Dep, Message, Op, RecursiveDoubling, RingAllreduce,
};
use jumpnet_core::exec::timing::{ErrorCode, TimedExecutor};
use jumpnet_core::exec::{Action, OpStatus};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::{Dragonfly, Galaxyfly, GlobalArrangement};
use jumpnet_hdl::SchedEngineRtl;

const BLANK: Message = Message {
    step: 0,
    src: 0,
    dst: 0,
    blocks: Blocks::All,
    bytes: 0,
};

#[test]
fn the_contract_example_cycle_by_cycle() {
    // The program of jumpnet_core::exec::timing's exact trace test, on the RTL.
    let prog = [
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
        Op::RecvReduce {
            peer: 3,
            blocks: Blocks::Single(4),
            after: Dep::None,
        },
        Op::Permute {
            reflect: false,
            shift: 1,
            after: Dep::Earlier,
        },
    ];
    let mut rtl = SchedEngineRtl::new();
    rtl.load_program(&prog).unwrap();
    let mut got = Vec::new();
    for t in 0..9u64 {
        let arrival = match t {
            0 => Some((3, Blocks::Single(4))),
            4 => Some((1, Blocks::All)),
            _ => None,
        };
        let o = rtl.step(arrival).unwrap();
        assert_eq!(o.cycle, t);
        assert_eq!(o.done, t == 8, "cycle {t}");
        if let Some(a) = o.action {
            got.push((t, a));
        }
    }
    let kinds: Vec<(u64, u32)> = got
        .iter()
        .map(|&(t, a)| match a {
            Action::Send { op, .. } | Action::Deliver { op, .. } | Action::Permute { op, .. } => {
                (t, op)
            }
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(kinds, [(1, 2), (5, 0), (6, 1), (7, 3)]);
    assert_eq!(
        got[0].1,
        Action::Deliver {
            op: 2,
            peer: 3,
            blocks: Blocks::Single(4),
            reduce: true
        }
    );
    assert_eq!(
        got[3].1,
        Action::Permute {
            op: 3,
            reflect: false,
            shift: 1
        }
    );
}

#[test]
fn errors_match_the_model() {
    let prog = [
        Op::Recv {
            peer: 4,
            blocks: Blocks::Single(1),
            after: Dep::None,
        },
        Op::Send {
            peer: 4,
            blocks: Blocks::All,
            after: Dep::Earlier,
        },
    ];
    for arrival in [(4, Blocks::Single(2)), (5, Blocks::All)] {
        let mut st = [OpStatus::Pending; 2];
        let mut model = TimedExecutor::new(&prog, &mut st);
        let mut rtl = SchedEngineRtl::new();
        rtl.load_program(&prog).unwrap();
        for t in 0..6 {
            let a = (t == 2).then_some(arrival);
            assert_eq!(rtl.step(a).unwrap(), model.step(a), "cycle {t}");
        }
    }
    let cyclic = [Op::Send {
        peer: 0,
        blocks: Blocks::All,
        after: Dep::Op(1),
    }; 2];
    let mut rtl = SchedEngineRtl::new();
    rtl.load_program(&cyclic).unwrap();
    let o = rtl.step(None).unwrap();
    assert_eq!(o.error, Some((ErrorCode::InvalidDependency, 0)));
    assert_eq!(o.action, None);
}

#[test]
fn random_programs_match_core_cycle_for_cycle() {
    let mut rng = Rng::new(0x5EED_0012);
    let mut cycles = 0;
    for case in 0..300 {
        let (prog, arrivals) = random_case(&mut rng, case % 10 == 9);
        cycles += common::replay(&prog, &arrivals, 4 * prog.len() as u64 + 40, case);
    }
    assert!(cycles > 3000, "{cycles}");
}

#[test]
fn broadcast_and_allreduce_schedules_match_core() {
    for n in [2u32, 5, 8, 13, 16, 32] {
        let b = Binomial::new(n, n / 3, 1 << 10).unwrap();
        cosim(&programs_of(&b), 3, &format!("binomial n={n}"));
        let rd = RecursiveDoubling::new(n, 1 << 12).unwrap();
        cosim(&programs_of(&rd), 2, &format!("recursive doubling n={n}"));
        let ring = RingAllreduce::new(n, 4 * n as u64, 4).unwrap();
        cosim(&programs_of(&ring), 1, &format!("ring allreduce n={n}"));
    }
}

#[test]
fn bruck_alltoall_matches_core() {
    for n in [3u32, 8, 11, 16, 32] {
        let s = Bruck::new(n, 64).unwrap();
        cosim(&programs_of(&s), 2, &format!("Bruck n={n}"));
    }
}

#[test]
fn dragonfly_and_galaxyfly_schedules_match_core() {
    let df = Dragonfly::new(5, 2, 2, 2, GlobalArrangement::Consecutive).unwrap();
    let (g, a) = (5, 2);
    let routers = (g * a) as usize;
    for alg in [dragonfly::Algorithm::Glf, dragonfly::Algorithm::Llf] {
        let mut msgs = vec![BLANK; routers * (routers - 1)];
        let mut scratch = vec![0u32; DragonflySizes::of_all_to_all(g, a).scratch];
        let s = dragonfly::all_to_all(
            alg,
            g,
            a,
            &df,
            256,
            DragonflyBuffers {
                msgs: &mut msgs,
                scratch: &mut scratch,
            },
        )
        .unwrap();
        cosim(
            &programs_of(&s),
            2,
            &format!("Dragonfly all-to-all {alg:?}"),
        );
    }
    for (n, q, a) in [(3u32, 5u32, 1u32), (3, 5, 2)] {
        let gf = Galaxyfly::new(n, q, a, 1, None).unwrap();
        let s_n = gf.num_supernodes() * a;
        let ranks = s_n as usize;
        let mut msgs = vec![BLANK; 2 * (ranks - 1)];
        let mut own = vec![0u32; ranks];
        let mut scratch = vec![0u32; GalaxyflySizes::of_sfata(gf.num_supernodes(), a).scratch];
        let s = sfata(
            &gf,
            0,
            &LowerMedian,
            160,
            GalaxyflyBuffers {
                msgs: &mut msgs,
                own: &mut own,
                scratch: &mut scratch,
            },
        )
        .unwrap();
        cosim(
            &programs_of(&s),
            3,
            &format!("Galaxyfly SFATA n={n} q={q} a={a}"),
        );
    }
}
