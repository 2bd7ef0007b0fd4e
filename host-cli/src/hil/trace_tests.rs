use jumpnet_core::collective::Blocks;
use jumpnet_core::exec::Action;

use super::*;

fn send(op: u32, peer: Rank) -> Action {
    Action::Send {
        op,
        peer,
        blocks: Blocks::All,
    }
}

#[test]
fn events_serialise_as_documented() {
    let e = TraceEvent::of(12, 3, &send(2, 7)).unwrap();
    assert_eq!(
        serde_json::to_string(&e).unwrap(),
        r#"{"cycle":12,"rank":3,"kind":"send","op":2,"peer":7,"blocks":"All"}"#
    );
    let d = TraceEvent::of(
        5,
        1,
        &Action::Deliver {
            op: 0,
            peer: 4,
            blocks: Blocks::Single(4),
            reduce: true,
        },
    )
    .unwrap();
    let back: TraceEvent = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back, d);
    assert_eq!(TraceEvent::of(1, 1, &Action::Wait), None);
}

#[test]
fn recorder_keeps_only_traced_ranks_and_stops_at_the_first_difference() {
    let mut free = Recorder::new(&[1, 3], None);
    for (t, r, a) in [
        (0, 0, send(0, 1)),
        (0, 1, send(0, 2)),
        (1, 3, send(0, 0)),
        (2, 1, Action::Done),
    ] {
        free.action(t, r, &a).unwrap();
    }
    assert_eq!(free.events.len(), 3);
    assert_eq!(free.finish(), None);
    let expected = free.events.clone();

    // Same run: no divergence.
    let mut same = Recorder::new(&[1, 3], Some(&expected));
    same.action(0, 1, &send(0, 2)).unwrap();
    same.action(1, 3, &send(0, 0)).unwrap();
    same.action(2, 1, &Action::Done).unwrap();
    assert_eq!(same.finish(), None);

    // Wrong peer in the second event: recorded, and the run goes on for the diff's
    // events after it.
    let mut wrong = Recorder::new(&[1, 3], Some(&expected));
    wrong.action(0, 1, &send(0, 2)).unwrap();
    wrong.action(1, 3, &send(0, 5)).unwrap();
    wrong.action(2, 1, &Action::Done).unwrap();
    let d = wrong.finish().unwrap().clone();
    assert_eq!(d.index, 1);
    assert_eq!(d.expected, Some(expected[1]));
    assert_eq!(d.got, TraceEvent::of(1, 3, &send(0, 5)));
    assert_eq!(d.context, vec![expected[0]]);
    assert_eq!(d.expected_after, vec![expected[2]]);
    assert_eq!(d.got_after, vec![expected[2]]);
    assert_eq!(wrong.events.len(), 1);

    // A run that ends early.
    let mut short = Recorder::new(&[1, 3], Some(&expected));
    short.action(0, 1, &send(0, 2)).unwrap();
    let d = short.finish().unwrap();
    assert_eq!((d.index, d.got, d.expected), (1, None, Some(expected[1])));
}

/// The key of an allreduce of 64-byte messages on a 4×4 torus, nodes 3 and 7.
fn torus_key() -> RunKey {
    use crate::builder::routing::RouteAlgo;
    use crate::builder::schedule::Algorithm;
    use crate::runs::collective::CollectiveRun;
    use crate::sim::setup::SetupRequest;
    let words = ["torus", "k=4,4", "packet_size=4", "num_vcs=2"].map(String::from);
    let setup = SetupRequest {
        words: words.to_vec(),
        algo: Some(RouteAlgo::DorDateline),
        ..SetupRequest::default()
    }
    .resolve(false)
    .unwrap();
    let mut run = CollectiveRun::new(Algorithm::Allreduce);
    run.options.msg_bytes = 64;
    RunKey::of(
        &setup,
        &run,
        "dor-dateline".into(),
        "recursive-doubling allreduce".into(),
        &[3, 7],
        &[3, 7],
        super::super::Timing::Untimed,
    )
    .unwrap()
}

#[test]
fn trace_files_round_trip_and_reject_other_formats() {
    let dir = std::env::temp_dir().join(format!("jumpnet-trace-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.jsonl");
    let key = torus_key();
    let events = vec![
        TraceEvent::of(0, 3, &send(0, 7)).unwrap(),
        TraceEvent::of(9, 7, &Action::Done).unwrap(),
    ];
    write(&path, &key, &events).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(&format!(
        r#"{{"jumpnet_hil_trace":2,"jumpnet":"{JUMPNET_VERSION}","run":{{"topology":"torus k=4,4 t=1","routing":{{"algo":"dor-dateline","max_layers":8"#
    )));
    assert_eq!(text.lines().count(), 3);
    let back = read(&path).unwrap();
    assert_eq!((back.run, back.events), (key.clone(), events));
    // The header replays the run: the same setup and collective.
    let (setup, run) = key.replay().unwrap();
    assert_eq!(setup.topology.to_string(), "torus k=4,4 t=1");
    assert_eq!((setup.config.packet_size, setup.config.num_vcs), (4, 2));
    assert_eq!(run.options.msg_bytes, 64);

    let refused = |text: &str| {
        std::fs::write(&path, text).unwrap();
        read(&path).unwrap_err().to_string()
    };
    let err = refused("{\"cycle\":1}\n");
    assert!(
        err.contains("not a jumpnet HIL trace header")
            && err.contains("`jumpnet_hil_trace`")
            && err.contains("is missing"),
        "{err}"
    );
    let err = refused("not json\n");
    assert!(err.contains("not a jumpnet HIL trace header"), "{err}");
    // Another version, e.g. the first format, whose header did not hold the simulator keys.
    let err = refused(&text.replace("\"jumpnet_hil_trace\":2", "\"jumpnet_hil_trace\":1"));
    assert!(
        err.contains("header field `jumpnet_hil_trace`: trace format version 1 is not supported")
            && err.contains("reads version 2"),
        "{err}"
    );
    // A missing field, a field of another tool, a missing simulator key: named.
    let err = refused(&text.replace("\"msg_bytes\":64,", ""));
    assert!(err.contains("missing field `msg_bytes`"), "{err}");
    let err = refused(&text.replace("\"ranks\":null,", ""));
    assert!(err.contains("missing field `ranks`"), "{err}");
    let err = refused(&text.replace("\"msg_bytes\":64,", "\"msg_bytes\":64,\"colour\":1,"));
    assert!(err.contains("unknown field `colour`"), "{err}");
    std::fs::write(&path, text.replace("\"packet_size\":\"4\",", "")).unwrap();
    let err = read(&path).unwrap().run.replay().unwrap_err().to_string();
    assert!(
        err.contains("lacks the simulator key `packet_size`"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_diff_shows_context_and_both_sides_aligned() {
    let e = |cycle: u64, peer: Rank| TraceEvent::of(cycle, 3, &send(0, peer)).unwrap();
    let expected: Vec<TraceEvent> = (0..6).map(|i| e(i, 1)).collect();
    // The run sends at cycle 2 to a wrong peer, then agrees again.
    let mut r = Recorder::new(&[3], Some(&expected));
    for (cycle, peer) in [(0, 1), (1, 1), (2, 9), (3, 1), (4, 1), (5, 1)] {
        r.action(cycle, 3, &send(0, peer)).unwrap();
    }
    let d = r.finish().unwrap().clone();
    assert_eq!(d.index, 2);
    assert_eq!(d.context, vec![e(0, 1), e(1, 1)]);
    assert_eq!(d.expected_after, vec![e(3, 1), e(4, 1), e(5, 1)]);
    assert_eq!(d.got_after, vec![e(3, 1), e(4, 1), e(5, 1)]);
    let diff = d.unified_diff("expected t.jsonl", "actual (core engine)");
    let lines: Vec<&str> = diff.lines().collect();
    assert_eq!(lines[0], "--- expected t.jsonl");
    assert_eq!(lines[1], "+++ actual (core engine)");
    assert!(lines[2].starts_with("@@ -1,6 +1,6 @@"), "{diff}");
    assert_eq!(lines[3], " cycle 0 rank 3: op 0 send All to rank 1");
    assert_eq!(lines[5], "-cycle 2 rank 3: op 0 send All to rank 1");
    assert_eq!(lines[6], "+cycle 2 rank 3: op 0 send All to rank 9");
    assert_eq!(lines[7], " cycle 3 rank 3: op 0 send All to rank 1");
    assert_eq!(lines.len(), 10);
    // The run stops CONTEXT_EVENTS events after the divergence.
    let mut r = Recorder::new(&[3], Some(&expected));
    r.action(0, 3, &send(0, 9)).unwrap();
    let stops = (1..=CONTEXT_EVENTS as u64)
        .map(|c| r.action(c, 3, &send(0, 1)).is_err())
        .collect::<Vec<_>>();
    assert_eq!(stops.iter().filter(|s| **s).count(), 1);
    assert!(stops[CONTEXT_EVENTS - 1]);
}

#[test]
fn every_action_writes_and_reads_its_line() {
    let blocks = Blocks::Single(4);
    for (action, line) in [
        (
            Action::Deliver {
                op: 1,
                peer: 4,
                blocks,
                reduce: false,
            },
            r#"{"cycle":5,"rank":1,"kind":"deliver","op":1,"peer":4,"blocks":{"Single":4},"reduce":false}"#,
        ),
        (
            Action::Permute {
                op: 3,
                reflect: true,
                shift: 2,
            },
            r#"{"cycle":5,"rank":1,"kind":"permute","op":3,"reflect":true,"shift":2}"#,
        ),
        (Action::Done, r#"{"cycle":5,"rank":1,"kind":"done"}"#),
    ] {
        let e = TraceEvent::of(5, 1, &action).unwrap();
        assert_eq!(e.action, action);
        assert_eq!(serde_json::to_string(&e).unwrap(), line);
        assert_eq!(serde_json::from_str::<TraceEvent>(line).unwrap(), e);
    }
    let err = |line: &str| {
        serde_json::from_str::<TraceEvent>(line)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(r#"{"cycle":0,"rank":3,"kind":"sendx","op":0}"#),
        "unknown variant `sendx`, expected one of `send`, `deliver`, `permute`, `done` at line 1 column 42"
    );
    assert_eq!(
        err(r#"{"cycle":0,"rank":3,"kind":"send","op":0}"#),
        "missing field `peer` at line 1 column 41"
    );
}
