//! The checker must catch broken schedules: hand-made programs and message lists with one
//! defect each.

use super::check::CheckError;
use super::testutil::{run_check, strict};
use super::CheckOptions;
use crate::collective::{
    Blocks, Bruck, DataLayout, Dep, Message, Op, Rank, Schedule, ScheduleError, Semantics,
};
use std::vec;
use std::vec::Vec;

/// A schedule given as explicit data.
struct Handmade {
    n: u32,
    sem: Semantics,
    slots: u32,
    msgs: Vec<Message>,
    progs: Vec<Vec<Op>>,
    claimed: Option<u64>,
}

impl Schedule for Handmade {
    fn ranks(&self) -> u32 {
        self.n
    }
    fn semantics(&self) -> Semantics {
        self.sem
    }
    fn layout(&self) -> DataLayout {
        DataLayout::uniform(self.slots, 1)
    }
    fn num_steps(&self) -> u32 {
        self.msgs.iter().map(|m| m.step).max().unwrap_or(0)
    }
    fn num_messages(&self) -> u64 {
        self.claimed.unwrap_or(self.msgs.len() as u64)
    }
    fn for_each_message<F: FnMut(Message)>(&self, f: F) {
        self.msgs.iter().copied().for_each(f)
    }
    fn program_len(&self, r: Rank) -> usize {
        self.progs[r as usize].len()
    }
    fn program(&self, r: Rank, out: &mut [Op]) -> Result<usize, ScheduleError> {
        let p = &self.progs[r as usize];
        out[..p.len()].copy_from_slice(p);
        Ok(p.len())
    }
}

fn m(step: u32, src: u32, dst: u32) -> Message {
    Message {
        step,
        src,
        dst,
        blocks: Blocks::All,
        bytes: 1,
    }
}
fn send(peer: u32, after: Dep) -> Op {
    Op::Send {
        peer,
        blocks: Blocks::All,
        after,
    }
}
fn recv(peer: u32, after: Dep) -> Op {
    Op::Recv {
        peer,
        blocks: Blocks::All,
        after,
    }
}
fn reduce(peer: u32, after: Dep) -> Op {
    Op::RecvReduce {
        peer,
        blocks: Blocks::All,
        after,
    }
}
fn bcast(n: u32, msgs: Vec<Message>, progs: Vec<Vec<Op>>) -> Handmade {
    Handmade {
        n,
        sem: Semantics::Broadcast { root: 0 },
        slots: 1,
        msgs,
        progs,
        claimed: None,
    }
}

#[test]
fn a_correct_handmade_broadcast_passes() {
    let s = bcast(
        3,
        vec![m(1, 0, 1), m(2, 1, 2)],
        vec![
            vec![send(1, Dep::None)],
            vec![recv(0, Dep::None), send(2, Dep::Op(0))],
            vec![recv(1, Dep::None)],
        ],
    );
    let rep = strict(&s).unwrap();
    assert_eq!((rep.messages, rep.redundant), (2, 0));
}

#[test]
fn missing_block() {
    let s = bcast(
        3,
        vec![m(1, 0, 1)],
        vec![vec![send(1, Dep::None)], vec![recv(0, Dep::None)], vec![]],
    );
    assert_eq!(strict(&s), Err(CheckError::Missing { rank: 2, block: 0 }));
}

#[test]
fn sending_before_holding() {
    // Rank 1 forwards before its own receive completed.
    let s = bcast(
        3,
        vec![m(1, 0, 1), m(1, 1, 2)],
        vec![
            vec![send(1, Dep::None)],
            vec![send(2, Dep::None), recv(0, Dep::None)],
            vec![recv(1, Dep::None)],
        ],
    );
    assert_eq!(
        strict(&s),
        Err(CheckError::NotHeld {
            rank: 1,
            op: 0,
            block: 0
        })
    );
}

#[test]
fn redundant_delivery() {
    let s = bcast(
        2,
        vec![m(1, 0, 1), m(2, 0, 1)],
        vec![
            vec![send(1, Dep::None), send(1, Dep::None)],
            vec![recv(0, Dep::None), recv(0, Dep::Earlier)],
        ],
    );
    assert_eq!(
        strict(&s),
        Err(CheckError::Redundant {
            rank: 1,
            op: 1,
            block: 0
        })
    );
    let rep = run_check(
        &s,
        CheckOptions {
            allow_redundant: true,
            seed: 0,
        },
    )
    .unwrap();
    assert_eq!(rep.redundant, 1);
}

#[test]
fn double_counting_in_a_reduction() {
    // Rank 1 reduces rank 0's vector, then rank 0 reduces rank 1's result: 0 is counted twice.
    let s = Handmade {
        n: 2,
        sem: Semantics::Allreduce,
        slots: 1,
        msgs: vec![m(1, 0, 1), m(2, 1, 0)],
        progs: vec![
            vec![send(1, Dep::None), reduce(1, Dep::Earlier)],
            vec![reduce(0, Dep::None), send(0, Dep::Earlier)],
        ],
        claimed: None,
    };
    assert_eq!(
        strict(&s),
        Err(CheckError::DoubleCount {
            rank: 0,
            op: 1,
            block: 0,
            contribution: 0
        })
    );
}

#[test]
fn incomplete_reduction() {
    let s = Handmade {
        n: 2,
        sem: Semantics::Allreduce,
        slots: 1,
        msgs: vec![m(1, 0, 1)],
        progs: vec![vec![send(1, Dep::None)], vec![reduce(0, Dep::None)]],
        claimed: None,
    };
    assert_eq!(
        strict(&s),
        Err(CheckError::Incomplete {
            rank: 0,
            block: 0,
            contribution: 1
        })
    );
}

#[test]
fn deadlock_is_reported() {
    // Both ranks wait for each other before sending.
    let s = Handmade {
        n: 2,
        sem: Semantics::Allgather,
        slots: 2,
        msgs: vec![
            Message {
                step: 1,
                src: 0,
                dst: 1,
                blocks: Blocks::Single(0),
                bytes: 1,
            },
            Message {
                step: 1,
                src: 1,
                dst: 0,
                blocks: Blocks::Single(1),
                bytes: 1,
            },
        ],
        progs: vec![
            vec![
                Op::Recv {
                    peer: 1,
                    blocks: Blocks::Single(1),
                    after: Dep::None,
                },
                Op::Send {
                    peer: 1,
                    blocks: Blocks::Single(0),
                    after: Dep::Earlier,
                },
            ],
            vec![
                Op::Recv {
                    peer: 0,
                    blocks: Blocks::Single(0),
                    after: Dep::None,
                },
                Op::Send {
                    peer: 0,
                    blocks: Blocks::Single(1),
                    after: Dep::Earlier,
                },
            ],
        ],
        claimed: None,
    };
    assert_eq!(strict(&s), Err(CheckError::Deadlock { rank: 0, op: 0 }));
}

#[test]
fn programs_must_match_the_message_list() {
    // Rank 0's program sends to rank 2 although the list says rank 1.
    let s = bcast(
        3,
        vec![m(1, 0, 1), m(2, 1, 2)],
        vec![
            vec![send(2, Dep::None)],
            vec![recv(0, Dep::None), send(2, Dep::Op(0))],
            vec![recv(1, Dep::None)],
        ],
    );
    assert_eq!(
        strict(&s),
        Err(CheckError::ProgramMismatch {
            rank: 0,
            sends: true
        })
    );
    // Rank 2's program receives from rank 0 instead of rank 1.
    let s = bcast(
        3,
        vec![m(1, 0, 1), m(2, 1, 2)],
        vec![
            vec![send(1, Dep::None)],
            vec![recv(0, Dep::None), send(2, Dep::Op(0))],
            vec![recv(0, Dep::None)],
        ],
    );
    assert_eq!(
        strict(&s),
        Err(CheckError::ProgramMismatch {
            rank: 2,
            sends: false
        })
    );
}

#[test]
fn list_defects() {
    let progs = || {
        vec![
            vec![send(1, Dep::None)],
            vec![recv(0, Dep::None), send(2, Dep::Op(0))],
            vec![recv(1, Dep::None)],
        ]
    };
    let mut s = bcast(3, vec![m(2, 0, 1), m(1, 1, 2)], progs());
    assert!(matches!(strict(&s), Err(CheckError::StepOrder { .. })));
    s.msgs = vec![m(1, 0, 1), m(2, 1, 2)];
    s.claimed = Some(3);
    assert_eq!(
        strict(&s),
        Err(CheckError::MessageCount {
            claimed: 3,
            listed: 2
        })
    );
    s.claimed = None;
    s.msgs[1].bytes = 7;
    assert!(matches!(
        strict(&s),
        Err(CheckError::Bytes { expected: 1, .. })
    ));
    s.msgs[1] = m(2, 1, 9);
    assert!(matches!(strict(&s), Err(CheckError::BadMessage { .. })));
}

#[test]
fn alltoall_without_the_final_rotation_is_wrong() {
    let b = Bruck::new(5, 1).unwrap();
    let mut progs = Vec::new();
    let mut msgs = Vec::new();
    b.for_each_message(|x| msgs.push(x));
    for r in 0..5 {
        let mut p = vec![send(0, Dep::None); b.program_len(r)];
        let len = b.program(r, &mut p).unwrap();
        p.truncate(len - 1); // drop the inverse rotation
        progs.push(p);
    }
    let s = Handmade {
        n: 5,
        sem: Semantics::Alltoall,
        slots: 5,
        msgs,
        progs,
        claimed: None,
    };
    let e = strict(&s).unwrap_err();
    assert!(
        matches!(
            e,
            CheckError::WrongBlock {
                rank: 0,
                slot: 1,
                found: Some(_)
            }
        ),
        "{e:?}"
    );
}

#[test]
fn errors_display_names_rank_and_block() {
    let e = CheckError::Missing { rank: 4, block: 2 };
    assert_eq!(std::format!("{e}"), "rank 4 ends without block 2");
}

/// [`super::DataFlow`] replays a host's executions: the Bruck alltoall run rank by rank
/// (every message delivered at once, in send order) ends as `check` expects; holding a
/// block back or reducing an alltoall block is caught.
#[test]
fn data_flow_replays_executions() {
    use super::{Action, CheckSizes, DataFlow, Executor, OpStatus};
    let s = Bruck::new(5, 8).unwrap();
    let sizes = CheckSizes::of(&s);
    let blank = Op::Permute {
        reflect: false,
        shift: 0,
        after: Dep::None,
    };
    let progs: Vec<Vec<Op>> = (0..5)
        .map(|r| {
            let mut p = vec![blank; s.program_len(r)];
            let n = s.program(r, &mut p).unwrap();
            p.truncate(n);
            p
        })
        .collect();
    let run = |corrupt: bool| -> Result<(), CheckError> {
        let mut state = vec![0u64; sizes.state_words];
        let mut scratch = vec![0u64; 10];
        let mut flow = DataFlow::new(&s, &mut state, &mut scratch, CheckOptions::default())?;
        let mut status: Vec<Vec<OpStatus>> = progs
            .iter()
            .map(|p| vec![OpStatus::Pending; p.len()])
            .collect();
        let mut cursors: Vec<_> = (0..5)
            .map(|r| Executor::new(&progs[r], &mut status[r]).unwrap().cursor())
            .collect();
        // payload per (receiver, op)
        let mut staged: Vec<Vec<Vec<u64>>> = progs.iter().map(|p| vec![vec![]; p.len()]).collect();
        let mut busy = true;
        while busy {
            busy = false;
            for r in 0..5usize {
                loop {
                    let mut ex = Executor::resume(&progs[r], &mut status[r], cursors[r]);
                    let a = ex.poll(0).unwrap();
                    cursors[r] = ex.cursor();
                    match a {
                        Action::Wait | Action::Done => break,
                        Action::Send { op, peer, blocks } => {
                            let mut pl = vec![0u64; flow.payload_words(blocks)];
                            flow.send(r as Rank, op, blocks, &mut pl)?;
                            let pu = peer as usize;
                            let mut rx = Executor::resume(&progs[pu], &mut status[pu], cursors[pu]);
                            let j = rx.on_receive(r as Rank, blocks).unwrap();
                            cursors[pu] = rx.cursor();
                            staged[pu][j as usize] = pl;
                        }
                        Action::Deliver {
                            op, blocks, reduce, ..
                        } => {
                            let reduce = reduce || (corrupt && r == 2);
                            let mut pl = core::mem::take(&mut staged[r][op as usize]);
                            flow.deliver(r as Rank, op, blocks, reduce, &mut pl)?;
                        }
                        Action::Permute { reflect, shift, .. } => {
                            flow.permute(r as Rank, reflect, shift)
                        }
                    }
                    busy = true;
                }
            }
        }
        flow.verify()
    };
    assert_eq!(run(false), Ok(()));
    assert!(matches!(
        run(true),
        Err(CheckError::InvalidReduce { rank: 2, .. })
    ));
    // Sending a block the rank does not hold.
    let mut state = vec![0u64; sizes.state_words];
    let mut scratch = vec![0u64; 10];
    let bc = crate::collective::Binomial::new(4, 0, 8).unwrap();
    let mut flow = DataFlow::new(&bc, &mut state, &mut scratch, CheckOptions::default()).unwrap();
    let mut pl = [0u64; 1];
    assert!(matches!(
        flow.send(1, 0, Blocks::All, &mut pl),
        Err(CheckError::NotHeld { rank: 1, .. })
    ));
    assert!(matches!(
        flow.verify(),
        Err(CheckError::Missing { rank: 1, .. })
    ));
}
