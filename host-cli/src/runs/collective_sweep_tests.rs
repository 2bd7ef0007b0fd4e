//! Collective sweeps: axis parsing and errors, the x axis, and a sweep whose points equal
//! the single collective runs.

use super::*;
use crate::study::setup;

fn base() -> CollectiveOptions {
    CollectiveOptions {
        ranks: Some(16),
        ..CollectiveOptions::default()
    }
}

fn point() -> PointRun {
    PointRun {
        algorithm: None,
        options: base(),
        route: RouteOptions {
            algo: RouteAlgo::Dor,
            max_layers: 8,
            seed: 1,
        },
    }
}

#[test]
fn axes_parse_and_bad_values_are_named() {
    let a = parse_axis("collective=bcast,allreduce", &point()).unwrap();
    assert_eq!(a.values, ["bcast", "allreduce"]);
    let b = parse_axis("background=none,100us,5000", &point()).unwrap();
    assert_eq!(b.values.len(), 3);
    for (word, want) in [
        ("collective=bcast,nope", "allowed:"),
        ("msg=1KiB,", "empty value"),
        ("msg=12parsecs", "msg=12parsecs"),
        ("mapping=diagonal", "allowed:"),
        ("ranks=-1", "ranks=-1"),
        ("routing=psychic", "allowed:"),
        ("background=often", "background=often"),
        ("msg", "not key=v1"),
    ] {
        let e = format!("{:#}", parse_axis(word, &point()).unwrap_err());
        assert!(e.contains(want), "{word}: {e}");
    }
    assert!(is_collective_word("msg=1KiB"));
    assert!(!is_collective_word("packet_size=5"));
    assert!(!is_collective_word("k=4,4"));
}

#[test]
fn x_axis_is_msg_then_ranks_then_first() {
    let ax = |k: &str, n: usize| Axis {
        key: k.into(),
        values: (0..n).map(|i| i.to_string()).collect(),
    };
    let keys = |v: Vec<Axis>| -> Vec<String> { order_axes(v).into_iter().map(|a| a.key).collect() };
    assert_eq!(
        keys(vec![ax("collective", 2), ax("msg", 3)]),
        ["msg", "collective"]
    );
    assert_eq!(
        keys(vec![ax("collective", 2), ax("msg", 1), ax("ranks", 2)]),
        ["ranks", "collective", "msg"]
    );
    assert_eq!(
        keys(vec![ax("mapping", 2), ax("msg", 1)]),
        ["mapping", "msg"]
    );
}

/// Every point of a sweep is the single run with the point's settings; bigger messages
/// take longer.
#[test]
fn sweep_points_are_single_runs() {
    let words: Vec<String> = ["mesh", "k=4,4", "packet_size=5"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let st = setup(&words, RouteAlgo::Dor).unwrap();
    let axes: Vec<String> = vec!["collective=bcast,allreduce".into(), "msg=64B,4KiB".into()];
    let res = sweep(&CollectiveSweep {
        setup: &st,
        algorithm: None,
        base: &base(),
        words: &axes,
        threads: 2,
        progress: false,
    })
    .unwrap();
    assert_eq!(res.axes[0].key, "msg");
    assert_eq!(res.records.len(), 4);
    for r in &res.records {
        let mut run = CollectiveRun {
            algorithm: enum_value::<Algorithm>("collective", r.setting("collective").unwrap())
                .unwrap(),
            options: base(),
        };
        run.options.msg_bytes = parse_size(r.setting("msg").unwrap()).unwrap();
        let single = simulate(&st, &run).unwrap();
        assert_eq!(
            r.makespan_cycles, single.result.makespan_cycles,
            "{:?}",
            r.settings
        );
        assert_eq!(r.messages, single.result.messages);
    }
    for pair in res.records.chunks(2) {
        assert_eq!(pair[0].setting("msg"), Some("64B"));
        assert!(
            pair[1].makespan_cycles > pair[0].makespan_cycles,
            "{pair:?}"
        );
    }
    let csv = res.to_csv();
    assert_eq!(csv.lines().count(), 5);
    assert!(csv.starts_with("point,msg,collective,job_ranks,makespan_cycles"));
    assert!(res.makespan_svg().contains("<svg"));
}
