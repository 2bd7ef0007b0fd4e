//! Unit tests of the program executor (`executor.rs`).

use super::*;

const ALL: Blocks = Blocks::All;

#[test]
fn broadcast_leaf_and_inner_node() {
    let prog = [
        Op::Recv {
            peer: 0,
            blocks: ALL,
            after: Dep::None,
        },
        Op::Send {
            peer: 3,
            blocks: ALL,
            after: Dep::Op(0),
        },
        Op::Send {
            peer: 5,
            blocks: ALL,
            after: Dep::Op(0),
        },
    ];
    let mut st = [OpStatus::Pending; 3];
    let mut ex = Executor::new(&prog, &mut st).unwrap();
    assert_eq!(ex.poll(0), Ok(Action::Wait));
    assert_eq!(ex.on_receive(0, ALL), Ok(0));
    assert_eq!(
        ex.poll(1),
        Ok(Action::Deliver {
            op: 0,
            peer: 0,
            blocks: ALL,
            reduce: false
        })
    );
    assert_eq!(
        ex.poll(1),
        Ok(Action::Send {
            op: 1,
            peer: 3,
            blocks: ALL
        })
    );
    assert_eq!(
        ex.poll(1),
        Ok(Action::Send {
            op: 2,
            peer: 5,
            blocks: ALL
        })
    );
    assert!(ex.is_done());
    assert_eq!(ex.poll(2), Ok(Action::Done));
    assert_eq!(ex.finished_at(), Some(2));
    // Anything after completion is a protocol error.
    assert_eq!(
        ex.on_receive(0, ALL),
        Err(ExecError::UnexpectedMessage {
            peer: 0,
            blocks: ALL
        })
    );
}

#[test]
fn early_arrival_waits_for_dependency() {
    // sendrecv: the receive may only be applied after the send took its copy.
    let prog = [
        Op::Send {
            peer: 1,
            blocks: ALL,
            after: Dep::None,
        },
        Op::RecvReduce {
            peer: 1,
            blocks: ALL,
            after: Dep::Op(0),
        },
        Op::Send {
            peer: 2,
            blocks: ALL,
            after: Dep::Earlier,
        },
        Op::RecvReduce {
            peer: 2,
            blocks: ALL,
            after: Dep::Earlier,
        },
    ];
    let mut st = [OpStatus::Pending; 4];
    let mut ex = Executor::new(&prog, &mut st).unwrap();
    // Both messages arrive before anything ran.
    assert_eq!(ex.on_receive(2, ALL), Ok(3));
    assert_eq!(ex.on_receive(1, ALL), Ok(1));
    assert_eq!(ex.status(3), Some(OpStatus::Arrived));
    assert_eq!(
        ex.poll(0),
        Ok(Action::Send {
            op: 0,
            peer: 1,
            blocks: ALL
        })
    );
    assert_eq!(
        ex.poll(0),
        Ok(Action::Deliver {
            op: 1,
            peer: 1,
            blocks: ALL,
            reduce: true
        })
    );
    assert_eq!(
        ex.poll(0),
        Ok(Action::Send {
            op: 2,
            peer: 2,
            blocks: ALL
        })
    );
    assert_eq!(
        ex.poll(0),
        Ok(Action::Deliver {
            op: 3,
            peer: 2,
            blocks: ALL,
            reduce: true
        })
    );
    assert_eq!(ex.poll(0), Ok(Action::Done));
}

#[test]
fn protocol_errors() {
    let prog = [
        Op::Recv {
            peer: 4,
            blocks: Blocks::Single(1),
            after: Dep::None,
        },
        Op::Recv {
            peer: 4,
            blocks: Blocks::Single(2),
            after: Dep::None,
        },
    ];
    let mut st = [OpStatus::Pending; 2];
    let mut ex = Executor::new(&prog, &mut st).unwrap();
    assert_eq!(
        ex.on_receive(3, Blocks::Single(1)),
        Err(ExecError::UnexpectedMessage {
            peer: 3,
            blocks: Blocks::Single(1)
        })
    );
    assert_eq!(
        ex.on_receive(4, Blocks::Single(7)),
        Err(ExecError::BlocksMismatch {
            op: 0,
            peer: 4,
            expected: Blocks::Single(1),
            got: Blocks::Single(7)
        })
    );
    // Matching by blocks tolerates reordering between the same pair.
    assert_eq!(ex.on_receive(4, Blocks::Single(2)), Ok(1));
    assert_eq!(ex.on_receive(4, Blocks::Single(1)), Ok(0));
    // A duplicate has nothing left to match.
    assert!(matches!(
        ex.on_receive(4, Blocks::Single(1)),
        Err(ExecError::BlocksMismatch { .. }) | Err(ExecError::UnexpectedMessage { .. })
    ));
}

#[test]
fn invalid_programs_and_buffers() {
    let prog = [Op::Send {
        peer: 1,
        blocks: ALL,
        after: Dep::Op(0),
    }];
    let mut st = [OpStatus::Pending; 1];
    assert_eq!(
        Executor::new(&prog, &mut st).err(),
        Some(ExecError::InvalidDependency { op: 0, on: 0 })
    );
    let mut none: [OpStatus; 0] = [];
    assert_eq!(
        Executor::new(&prog, &mut none).err(),
        Some(ExecError::Capacity(CapacityError {
            what: "op status",
            needed: 1,
            available: 0
        }))
    );
}

#[test]
fn stall_timeout_and_resume() {
    let prog = [Op::Recv {
        peer: 0,
        blocks: ALL,
        after: Dep::None,
    }];
    let mut st = [OpStatus::Pending; 1];
    let cursor = {
        let mut ex = Executor::new(&prog, &mut st).unwrap().with_timeout(10, 100);
        assert_eq!(ex.poll(105), Ok(Action::Wait));
        assert_eq!(ex.poll(111), Err(ExecError::Stalled { op: 0, since: 100 }));
        ex.cursor()
    };
    let mut ex = Executor::resume(&prog, &mut st, cursor);
    assert_eq!(ex.on_receive(0, ALL), Ok(0));
    assert!(matches!(ex.poll(200), Ok(Action::Deliver { op: 0, .. })));
    assert_eq!(ex.poll(200), Ok(Action::Done));
}

/// A held send blocks the ops that depend on it (`Earlier`, and `Op(i)` on it) but not
/// an independent op; the program is done only once it completes.
#[test]
fn held_send_blocks_its_dependants() {
    let prog = [
        Op::Send {
            peer: 1,
            blocks: ALL,
            after: Dep::None,
        },
        Op::Send {
            peer: 2,
            blocks: ALL,
            after: Dep::None,
        },
        Op::Recv {
            peer: 1,
            blocks: ALL,
            after: Dep::Op(0),
        },
        Op::Send {
            peer: 3,
            blocks: ALL,
            after: Dep::Earlier,
        },
    ];
    let mut st = [OpStatus::Pending; 4];
    let mut ex = Executor::new(&prog, &mut st).unwrap();
    assert!(matches!(
        ex.poll(0),
        Ok(Action::Send { op: 0, peer: 1, .. })
    ));
    assert_eq!(ex.hold_send(0), Ok(()));
    assert_eq!(ex.status(0), Some(OpStatus::Sending));
    // Op 1 does not depend on op 0 and goes; op 2 waits for op 0 although its message
    // is there; op 3 waits for everything.
    assert!(matches!(
        ex.poll(1),
        Ok(Action::Send { op: 1, peer: 2, .. })
    ));
    assert_eq!(ex.on_receive(1, ALL), Ok(2));
    assert_eq!(ex.poll(2), Ok(Action::Wait));
    assert_eq!(ex.first_pending(), Some(0));
    assert_eq!(ex.send_completed(0), Ok(()));
    assert!(matches!(ex.poll(3), Ok(Action::Deliver { op: 2, .. })));
    assert!(matches!(ex.poll(3), Ok(Action::Send { op: 3, .. })));
    assert_eq!(ex.hold_send(3), Ok(()));
    assert_eq!(ex.poll(4), Ok(Action::Wait));
    assert!(!ex.is_done());
    assert_eq!(ex.send_completed(3), Ok(()));
    assert_eq!(ex.poll(9), Ok(Action::Done));
    assert_eq!(ex.finished_at(), Some(9));
}

/// Only an issued send can be held, and only a held send completed.
#[test]
fn hold_refuses_what_is_not_an_issued_send() {
    let prog = [
        Op::Recv {
            peer: 1,
            blocks: ALL,
            after: Dep::None,
        },
        Op::Send {
            peer: 1,
            blocks: ALL,
            after: Dep::None,
        },
    ];
    let mut st = [OpStatus::Pending; 2];
    let mut ex = Executor::new(&prog, &mut st).unwrap();
    let refused = |op| Err(ExecError::NotHoldable { op });
    assert_eq!(ex.hold_send(1), refused(1)); // not issued yet
    assert_eq!(ex.hold_send(0), refused(0)); // a receive
    assert_eq!(ex.hold_send(7), refused(7)); // no such op
    assert_eq!(ex.send_completed(1), refused(1)); // not held
    assert!(matches!(ex.poll(0), Ok(Action::Send { op: 1, .. })));
    assert_eq!(ex.hold_send(1), Ok(()));
    assert_eq!(ex.hold_send(1), refused(1)); // held already
    assert_eq!(ex.send_completed(1), Ok(()));
    assert_eq!(ex.send_completed(1), refused(1));
}
