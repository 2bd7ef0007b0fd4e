//! BookSim2's traffic classes as `--booksim` reads and runs them (docs/booksim.md §3.5):
//! per-class lists padded with their last item, a list winning over a plain number, the
//! refusals, and class priority deciding which class gets through a saturated network.

use super::{parse, parse_with};
use crate::sim::config::{Allocator, Injection, Pattern};
use crate::sim::router::priority::Priority;
use crate::sim::tests::with_net;
use crate::sim::*;

const MESH: &str = "topology = mesh; k = 4; n = 2; routing_function = dim_order; num_vcs = 4;";

fn with(extra: &[&str]) -> anyhow::Result<super::BookSimConfig> {
    let over: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    parse_with(MESH, &over)
}

#[test]
fn per_class_lists_are_padded_with_their_last_item() {
    let b = with(&[
        "classes=3",
        "traffic={uniform,transpose}",
        "packet_size={1,4}",
        "injection_rate={0.1,0.05,0.02}",
        "injection_process={bernoulli,on_off}",
        "latency_thres={300.0}",
    ])
    .unwrap();
    let c = &b.config.extras.classes;
    assert_eq!(c.len(), 3);
    let traffic: Vec<Pattern> = c.iter().map(|c| c.traffic).collect();
    assert_eq!(
        traffic,
        [Pattern::Uniform, Pattern::Transpose, Pattern::Transpose]
    );
    let sizes: Vec<u16> = c.iter().map(|c| c.packet_size).collect();
    assert_eq!(sizes, [1, 4, 4]);
    let rates: Vec<f64> = c.iter().map(|c| c.injection_rate).collect();
    assert_eq!(rates, [0.1, 0.05, 0.02]);
    let processes: Vec<Injection> = c.iter().map(|c| c.injection).collect();
    assert_eq!(
        processes,
        [Injection::Bernoulli, Injection::OnOff, Injection::OnOff]
    );
    assert!(c
        .iter()
        .all(|c| c.latency_thres == 300.0 && c.stopping_thres == 0.05));
    // The configuration's own values are class 0's.
    assert_eq!((b.config.packet_size, b.config.injection_rate), (1, 0.1));
    assert_eq!(b.config.extras.priority, Priority::None);
}

#[test]
fn a_list_wins_over_a_plain_number_and_one_class_takes_the_first_item() {
    // BookSim2 keeps `{…}` apart from a number: the command line's number does not replace
    // the list, whichever comes last.
    let file = format!("{MESH} classes = 2; injection_rate = {{0.1,0.05}};");
    let b = parse_with(&file, &["injection_rate=0.3".into()]).unwrap();
    let rates: Vec<f64> = b
        .config
        .extras
        .classes
        .iter()
        .map(|c| c.injection_rate)
        .collect();
    assert_eq!(rates, [0.1, 0.05]);
    // Without a list the number is every class's.
    let b = with(&["classes=2", "injection_rate=0.3"]).unwrap();
    assert!(b
        .config
        .extras
        .classes
        .iter()
        .all(|c| c.injection_rate == 0.3));
    // One class: a list's first item, and no class list in the configuration.
    let b = with(&["packet_size={4,1}", "traffic={transpose,uniform}"]).unwrap();
    assert_eq!(
        (b.config.packet_size, b.config.traffic),
        (4, Pattern::Transpose)
    );
    assert!(b.config.extras.classes.is_empty());
    assert_eq!(
        b.config,
        parse(&format!("{MESH} packet_size = 4; traffic = transpose;"))
            .unwrap()
            .config
    );
}

#[test]
fn priorities_and_what_is_refused_by_name() {
    let b = with(&["classes=2", "priority=class", "class_priority={1,0}"]).unwrap();
    assert_eq!(b.config.extras.priority, Priority::Class);
    let prios: Vec<u32> = b.config.extras.classes.iter().map(|c| c.priority).collect();
    assert_eq!(prios, [1, 0]);
    // priority = none: every packet has priority 0, class_priority is without effect.
    let b = with(&["classes=2", "class_priority={1,0}"]).unwrap();
    assert_eq!(b.config.extras.priority, Priority::None);
    assert!(b.ignored.contains(&"class_priority".into()));
    // Every BookSim2 mode, with every allocator; class_priority only counts with `class`.
    for (mode, name) in Priority::NAMES {
        for alloc in [
            "islip",
            "separable_input_first",
            "wavefront",
            "select",
            "max_size",
        ] {
            let words = [
                "classes=2".to_string(),
                format!("priority={name}"),
                "class_priority={1,0}".into(),
                format!("sw_allocator={alloc}"),
                format!("vc_allocator={alloc}"),
            ];
            let b = with(&words.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
            assert_eq!(b.config.extras.priority, mode);
            let ignored = b.ignored.contains(&"class_priority".into());
            assert_eq!(ignored, mode != Priority::Class, "{name}");
        }
    }
    // BookSim2's separable_output_first is select when requests differ in priority, iSLIP
    // otherwise.
    let sof = [
        "sw_allocator=separable_output_first",
        "vc_allocator=separable_output_first",
    ];
    let alloc = |extra: &[&str]| {
        let words: Vec<&str> = sof.iter().chain(extra).copied().collect();
        let b = with(&words).unwrap();
        (b.config.allocator, b.config.vc_allocator_kind())
    };
    assert_eq!(alloc(&[]), (Allocator::Islip, Allocator::Islip));
    assert_eq!(
        alloc(&["priority=age"]),
        (Allocator::Select, Allocator::Select)
    );
    for (words, named) in [
        (
            &["priority=oldest"][..],
            "priority = oldest is not a BookSim2 priority",
        ),
        (&["classes=2", "measure_stats={1,0}"], "measure_stats"),
        (
            &["classes=2", "packet_size={{1,2},4}", "packet_size_rate=0"],
            "rate 0",
        ),
        (
            &["classes=2", "packet_size={4,{1,0}}"],
            "command line: packet_size item {1,0} (class 1)",
        ),
        (&["packet_size_rate=-1"], "packet_size_rate = -1"),
        (
            &["packet_size={{1,2}}", "packet_size_rate={{1,x}}"],
            "packet_size_rate item {1,x} (class 0)",
        ),
        (&["classes=0"], "classes = 0"),
        (&["classes=2", "traffic={uniform,bogus}"], "class 1"),
        (
            &["classes=2", "injection_rate={0.1,abc}"],
            "command line: injection_rate item abc (class 1)",
        ),
        (
            &["classes=2", "packet_size={1,0}"],
            "command line: packet_size item 0 (class 1)",
        ),
        (
            &["classes=2", "priority=class", "sw_allocator=max_size"],
            "",
        ),
    ] {
        if named.is_empty() {
            // max_size ignores request priorities, as iSLIP does: accepted.
            assert!(with(words).is_ok(), "{words:?}");
            continue;
        }
        let e = with(words).unwrap_err().to_string();
        assert!(e.contains(named), "{words:?}: {e}");
    }
}

/// Accepted flit rate per class on a 4×4 mesh driven past saturation by two classes of
/// uniform 4-flit packets, class 0 with `class_priority` `p0`, class 1 with `p1`.
fn saturated_shares(p0: u32, p1: u32) -> Vec<f64> {
    let prio = format!("class_priority={{{p0},{p1}}}");
    let b = with(&[
        "classes=2",
        "packet_size=4",
        "injection_rate=0.8",
        "injection_rate_uses_flits=1",
        "sim_type=throughput",
        "priority=class",
        &prio,
        "max_samples=6",
    ])
    .unwrap();
    with_net(&b.topology.to_string(), b.algo, |net, r| {
        let res = run(net, r, &b.config).unwrap();
        assert_eq!(res.conservation_errors, 0);
        res.classes.iter().map(|c| c.accepted).collect()
    })
}

#[test]
fn class_priority_gives_the_saturated_network_to_the_higher_class() {
    let (hi0, hi1) = (saturated_shares(1, 0), saturated_shares(0, 1));
    assert!(hi0[0] > 1.15 * hi0[1], "class 0 first: {hi0:?}");
    assert!(hi1[1] > 1.15 * hi1[0], "class 1 first: {hi1:?}");
}

#[test]
fn size_distributions_per_class_read_as_booksim_reads_them() {
    let b = with(&[
        "classes=3",
        "packet_size={{1,4,8},2,{2,6}}",
        "packet_size_rate={{3,1,1},1,{1,3}}",
    ])
    .unwrap();
    let c = &b.config.extras.classes;
    let d0 = c[0].packet_sizes.as_ref().unwrap();
    assert_eq!(
        (d0.sizes.as_slice(), d0.rates.as_slice()),
        (&[1, 4, 8][..], &[3, 1, 1][..])
    );
    assert_eq!((c[1].packet_size, c[1].packet_sizes.as_ref()), (2, None));
    let d2 = c[2].packet_sizes.as_ref().unwrap();
    assert_eq!(
        (d2.sizes.as_slice(), d2.rates.as_slice()),
        (&[2, 6][..], &[1, 3][..])
    );
    // The longest size is each class's packet_size; the configuration's own are class 0's.
    assert_eq!([c[0].packet_size, c[2].packet_size], [8, 6]);
    assert_eq!(b.config.packet_size, 8);
    assert_eq!(b.config.extras.packet_sizes.as_ref(), Some(d0));
    assert!(!b.ignored.contains(&"packet_size_rate".into()));
    // `{3,1}` is one rate per class: class 0's two sizes both have rate 3 (BookSim2's
    // reading), as with the plain `packet_size_rate = 3`.
    let one = |words: &[&str]| with(words).unwrap().config.extras.packet_sizes.unwrap();
    assert_eq!(
        one(&["packet_size={{1,4}}", "packet_size_rate={3,1}"]).rates,
        [3, 3]
    );
    assert_eq!(
        one(&["packet_size={{1,4}}", "packet_size_rate=3"]).rates,
        [3, 3]
    );
    assert_eq!(one(&["packet_size={{1,4}}"]).rates, [1, 1]);
    // A list of one size, or sizes without a distribution: no draw, packet_size_rate
    // without effect.
    let b = with(&["packet_size={{4}}", "packet_size_rate={{2}}"]).unwrap();
    assert_eq!(
        (b.config.packet_size, b.config.extras.packet_sizes.as_ref()),
        (4, None)
    );
    assert!(b.ignored.contains(&"packet_size_rate".into()));
    // A later plain packet_size does not replace the list (BookSim2 keeps both).
    let file = format!("{MESH} packet_size = {{{{1,2}}}};");
    let b = parse_with(&file, &["packet_size=4".into()]).unwrap();
    assert!(b.config.extras.packet_sizes.is_some());
}

#[test]
fn read_write_classes_ignore_their_sizes() {
    // BookSim2 replaces a read/write class's sizes by its mean of the four kinds.
    let b = with(&[
        "num_vcs=16",
        "classes=2",
        "use_read_write={1,0}",
        "packet_size={{1,2},{1,3}}",
    ])
    .unwrap();
    let c = &b.config.extras.classes;
    assert_eq!((c[0].packet_sizes.as_ref(), c[0].packet_size), (None, 2));
    assert_eq!(
        c[1].packet_sizes.as_ref().map(|d| d.sizes.clone()),
        Some(vec![1, 3])
    );
    assert_eq!(b.config.extras.packet_sizes, None);
    // Every class with read/write traffic: both keys without effect.
    let b = with(&[
        "num_vcs=16",
        "use_read_write=1",
        "packet_size={{1,2}}",
        "packet_size_rate=2",
    ])
    .unwrap();
    assert_eq!(b.config.extras.packet_sizes, None);
    assert!(
        b.ignored.contains(&"packet_size".into()) && b.ignored.contains(&"packet_size_rate".into())
    );
}

#[test]
fn classes_run_in_batch_mode() {
    for rw in ["use_read_write=0", "use_read_write=1"] {
        let b = with(&[
            "num_vcs=16",
            "classes=2",
            "sim_type=batch",
            "traffic={tornado,transpose}",
            rw,
        ])
        .unwrap();
        assert_eq!(b.config.injection, Injection::BookSimBatch);
        // The batch source creates every class's packets, whatever injection_process says.
        assert!(b
            .config
            .extras
            .classes
            .iter()
            .all(|c| c.injection == Injection::BookSimBatch));
    }
}
