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

    // Wrong peer in the second event.
    let mut wrong = Recorder::new(&[1, 3], Some(&expected));
    wrong.action(0, 1, &send(0, 2)).unwrap();
    assert!(wrong.action(1, 3, &send(0, 5)).is_err());
    let d = wrong.finish().unwrap().clone();
    assert_eq!(d.index, 1);
    assert_eq!(d.expected, Some(expected[1]));
    assert_eq!(d.got, TraceEvent::of(1, 3, &send(0, 5)));
    assert_eq!(d.context, vec![expected[0]]);

    // A run that ends early.
    let mut short = Recorder::new(&[1, 3], Some(&expected));
    short.action(0, 1, &send(0, 2)).unwrap();
    let d = short.finish().unwrap();
    assert_eq!((d.index, d.got, d.expected), (1, None, Some(expected[1])));
}

#[test]
fn trace_files_round_trip_and_reject_other_formats() {
    let dir = std::env::temp_dir().join(format!("jumpnet-trace-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.jsonl");
    let key = RunKey {
        topology: "torus k=4,4".into(),
        routing: "dor".into(),
        collective: "bcast".into(),
        mapping: "consecutive".into(),
        msg_bytes: 64,
        nodes: vec![3, 7],
        ranks: vec![3, 7],
        timing: "untimed".into(),
    };
    let events = vec![
        TraceEvent::of(0, 3, &send(0, 7)).unwrap(),
        TraceEvent::of(9, 7, &Action::Done).unwrap(),
    ];
    write(&path, &key, &events).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(r#"{"jumpnet_hil_trace":1,"run":{"topology":"torus k=4,4""#));
    assert_eq!(text.lines().count(), 3);
    assert_eq!(read(&path).unwrap(), (key, events));

    std::fs::write(&path, "{\"cycle\":1}\n").unwrap();
    let err = read(&path).unwrap_err().to_string();
    assert!(err.contains("not a jumpnet HIL trace header"), "{err}");
    std::fs::write(
        &path,
        text.replace("\"jumpnet_hil_trace\":1", "\"jumpnet_hil_trace\":9"),
    )
    .unwrap();
    let err = read(&path).unwrap_err().to_string();
    assert!(err.contains("version 9 is not supported"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
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
