//! Tests of the BookSim2 configuration reader (docs/booksim.md §2).

use super::*;
use crate::sim::config::{Allocator, Pattern};
use crate::sim::network::layout_latency::GridLayout;
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::GlobalArrangement;

const TORUS88: &str = include_str!("../../../../tests/data/booksim_torus88");
const MESH88: &str = include_str!("../../../../tests/data/booksim_mesh88_lat");
const DRAGONFLY: &str = include_str!("../../../../tests/data/booksim_dragonfly");
const FLATFLY: &str = include_str!("../../../../tests/data/booksim_flatfly");

/// BookSim2's defaults as jumpnet reads them (docs/booksim.md §2).
fn booksim_defaults() -> SimConfig {
    let mut c = SimConfig::booksim();
    c.warmup_periods = 3;
    c.self_packets = true;
    c.injection_delay = 1;
    c.inject_any_vc = true;
    c.features.vc_alloc_stage = true;
    c.features.booksim_credits = true;
    c.extras.stop_rule = StopRule::BookSim;
    c.extras.draws = Draws::BookSim;
    c
}

#[test]
fn torus_example_has_booksim2s_latencies_and_routing() {
    let b = parse(TORUS88).unwrap();
    assert_eq!(b.topology.to_string(), "torus k=8,8 t=1");
    assert_eq!(b.algo, RouteAlgo::DorBookSim);
    let mut want = booksim_defaults();
    want.num_vcs = 2;
    want.injection_rate = 0.15;
    want.set("dim_latency", "2").unwrap();
    assert_eq!(b.config, want);
    assert!(b.ignored.is_empty());
    // use_noc_latency = 0: 1-cycle torus channels.
    let b = parse_with(TORUS88, &["use_noc_latency=0".into()]).unwrap();
    assert_eq!(
        b.config.class_latency.set_keys().collect::<Vec<_>>(),
        [("dim_latency", 1)]
    );
}

#[test]
fn mesh_example_with_delays() {
    let b = parse(MESH88).unwrap();
    assert_eq!(b.topology.to_string(), "mesh k=8,8 t=1");
    assert_eq!(b.algo, RouteAlgo::Dor);
    let c = &b.config;
    assert_eq!((c.num_vcs, c.vc_buf_size, c.packet_size), (2, 16, 20));
    assert_eq!(
        (c.credit_delay, c.routing_delay, c.vc_alloc_delay),
        (2, 1, 1)
    );
    assert_eq!(
        (c.injection_rate, c.rate_in_flits, c.drain),
        (0.01, false, true)
    );
    assert_eq!(c.allocator, Allocator::Islip);
    assert_eq!(
        c.class_latency.set_keys().collect::<Vec<_>>(),
        [("dim_latency", 1)]
    );
}

#[test]
fn speculation_is_mapped_at_booksim2s_spec_defaults() {
    let b = parse("routing_function = dim_order; speculative = 1; spec_check_elig = 1;").unwrap();
    let f = b.config.features;
    assert!(f.speculative && f.vc_alloc_stage);
    assert!(b.ignored.is_empty(), "{:?}", b.ignored);
    // Without speculation the spec_* keys are without effect, whatever their value.
    let b = parse("routing_function = dim_order; spec_check_cred = 0;").unwrap();
    assert!(!b.config.features.speculative);
    assert_eq!(b.ignored, ["spec_check_cred"]);
    for (stmts, named) in [
        (
            "speculative = 1; spec_check_cred = 0;",
            "spec_check_cred = 0",
        ),
        (
            "speculative = 1; spec_sw_allocator = islip;",
            "spec_sw_allocator",
        ),
        ("speculative = 1; vc_alloc_delay = 2;", "vc_alloc_delay = 2"),
    ] {
        let e = parse(&format!("routing_function = dim_order; {stmts}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains(named) && e.contains("not supported"), "{e}");
    }
}

#[test]
fn dragonfly_example_derives_booksim_sizes_and_cable_latencies() {
    let b = parse(DRAGONFLY).unwrap();
    // k = 4: p = 4, a = 8, h = 4, g = 33.
    assert_eq!(
        b.topology,
        TopologySpec::Structured(NetworkSpec::Dragonfly {
            g: 33,
            a: 8,
            p: 4,
            h: 4,
            arrangement: GlobalArrangement::Consecutive
        })
    );
    assert_eq!(b.algo, RouteAlgo::DfMinimal);
    assert_eq!(
        network::routing_algo("dragonflynew", "ugal").unwrap(),
        RouteAlgo::DfUgalBookSim
    );
    let c = &b.config;
    assert_eq!(
        (c.packet_size, c.rate_in_flits, c.internal_speedup.value()),
        (10, true, 2.0)
    );
    assert_eq!((c.st_delay, c.routing_delay, c.warmup_periods), (1, 0, 3));
    assert_eq!(c.allocator, Allocator::SeparableInputFirst);
    assert_eq!(
        c.class_latency.set_keys().collect::<Vec<_>>(),
        [("local_latency", 10), ("global_latency", 100)]
    );
    // BookSim2 runs one allocator iteration whatever `alloc_iters` says (§2).
    assert_eq!(b.ignored, ["alloc_iters", "watch_out"]);
}

#[test]
fn flatfly_example() {
    // BookSim2's on-chip channel lengths: switches on a 4-wide grid of 2 × 2 cells.
    let b = parse(FLATFLY).unwrap();
    let grid = GridLayout {
        columns: 4,
        xr: 2,
        yr: 2,
    };
    assert_eq!(b.config.switch_layout, Some(grid));
    // The same network and routing as with 1-cycle channels: the routes do not change.
    let same = (b.topology.clone(), b.algo);
    let b = parse_with(FLATFLY, &["use_noc_latency=0".into()]).unwrap();
    assert_eq!((b.topology.clone(), b.algo), same);
    assert_eq!(b.config.switch_layout, None);
    assert_eq!(b.topology.to_string(), "hyperx s=4,4 k=1 t=4");
    assert_eq!(b.algo, RouteAlgo::Minimal);
    assert_eq!(b.config.traffic, Pattern::Uniform);
    assert!(!b.ignored.contains(&"xr".to_string()));
}

#[test]
fn syntax_comments_lists_and_st_delay() {
    let s = statements("a = 1; // c = 2;\nb = {1, 2;3}\n;").unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(
        (s[1].key.as_str(), s[1].value.as_str(), s[1].line),
        ("b", "{1, 2;3}", 2)
    );
    let b =
        parse("routing_function = dim_order; st_prepare_delay = 1; st_final_delay = 2; seed = 9;")
            .unwrap();
    assert_eq!((b.config.st_delay, b.config.seed), (3, 9));
    assert_eq!(b.topology.to_string(), "torus k=8,8 t=1");
    // Without warmup_periods BookSim2 warms up for 3 periods; self-addressed packets
    // are kept; a terminal's flit starts on its channel a cycle after it is sent.
    assert_eq!(
        (
            b.config.warmup_periods,
            b.config.self_packets,
            b.config.injection_delay
        ),
        (3, true, 1)
    );
}

#[test]
fn every_booksim2_key_at_its_default_is_accepted() {
    // A file that writes out every BookSim2 default (as BookSim2's own config dump).
    let mut text = String::new();
    for key in keys::KEYS {
        let v = if key.default.is_empty() {
            "\"\""
        } else {
            key.default
        };
        let v = if key.name == "routing_function" {
            "dim_order"
        } else {
            v
        };
        text.push_str(&format!("{} = {v};\n", key.name));
    }
    let b = parse(&text).unwrap();
    assert_eq!(b.topology.to_string(), "torus k=8,8 t=1");
    assert_eq!((b.config.num_vcs, b.config.vc_buf_size), (16, 8));
}

#[test]
fn command_line_overrides_take_any_booksim2_key() {
    let over = |w: &[&str]| {
        parse_with(
            TORUS88,
            &w.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    };
    let b = over(&["k=4", "n=3", "sim_type=throughput", "injection_rate=0.3"]).unwrap();
    assert_eq!(b.topology.to_string(), "torus k=4,4,4 t=1");
    assert_eq!((b.config.drain, b.config.injection_rate), (false, 0.3));
    let b = over(&["topology=mesh", "routing_function=dor"]).unwrap();
    assert_eq!(
        (b.topology.to_string(), b.algo),
        ("mesh k=8,8 t=1".into(), RouteAlgo::Dor)
    );
    let e = over(&["noq=1"]).unwrap_err().to_string();
    assert!(e.contains("command line") && e.contains("noq = 1"), "{e}");
    let e = over(&["k"]).unwrap_err().to_string();
    assert!(e.contains("'k'"), "{e}");
}

#[test]
fn errors_name_key_and_line() {
    let e = parse("routing_function = dim_order;\nfoo_bar = 3;")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 2") && e.contains("'foo_bar'") && e.contains("155"),
        "{e}"
    );
    let e = parse("topology = torus;").unwrap_err().to_string();
    assert!(e.contains("routing_function is missing") && e.contains("dim_order"));
    let e = parse("routing_function = min;").unwrap_err().to_string();
    assert!(e.contains("min") && e.contains("torus"), "{e}");
    let e = parse("topology = butterfly; routing_function = dest_tag;")
        .unwrap_err()
        .to_string();
    assert!(e.contains("butterfly") && e.contains("dragonflynew"));
    // Behaviours jumpnet models only at BookSim2's default are refused by name.
    for (stmt, named) in [
        ("noq = 1;", "noq = 0"),
        ("vct = 1;", "vct = 0"),
        ("router = event;", "router = iq"),
    ] {
        let e = parse(&format!("routing_function = dim_order; {stmt}"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(named) && e.contains("not supported"),
            "{stmt}: {e}"
        );
    }
    let e = parse("routing_function = dim_order; seed = time;")
        .unwrap_err()
        .to_string();
    assert!(e.contains("time"));
    let e = parse("routing_function = dim_order; num_vcs = 0;")
        .unwrap_err()
        .to_string();
    assert!(e.contains("num_vcs") && e.contains("1..=255"), "{e}");
    let e = parse("routing_function = dim_order; traffic = badperm_yarc;")
        .unwrap_err()
        .to_string();
    assert!(e.contains("badperm_yarc") && e.contains("taper64"), "{e}");
    let e = parse("routing_function = dim_order")
        .unwrap_err()
        .to_string();
    assert!(e.contains("';'"), "{e}");
    let e = parse("topology = dragonflynew; k = 2; n = 2; routing_function = min;")
        .unwrap_err()
        .to_string();
    assert!(e.contains("n = 1"));
    // An allocator jumpnet does not model: named with its key, line and the allowed ones.
    let e = parse("routing_function = dim_order;\nsw_allocator = islip(2);")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 2: sw_allocator = islip(2) is not supported")
            && e.contains(
                "islip, separable_input_first, separable_output_first, wavefront, \
                 rr_wavefront, pim, loa, select, max_size"
            ),
        "{e}"
    );
    // BookSim2's rr_wavefront, pim, loa, select and max_size: the simulator's allocators of
    // the same names (§4), either allocator alone or both.
    for name in ["rr_wavefront", "pim", "loa", "select", "max_size"] {
        let b = parse(&format!(
            "routing_function = dim_order; sw_allocator = {name};"
        ))
        .unwrap();
        assert_eq!(b.config.allocator.name(), name);
        assert_eq!(b.config.vc_allocator_kind().name(), "islip");
        let b = parse(&format!(
            "routing_function = dim_order; vc_allocator = {name};"
        ))
        .unwrap();
        assert_eq!(b.config.allocator.name(), "islip");
        assert_eq!(b.config.vc_allocator_kind().name(), name);
    }
}

#[test]
fn separable_output_first_is_islip_without_speculation() {
    // BookSim2 prints the same output for both (docs/booksim.md §4), so either key, or one
    // of each, runs jumpnet's iSLIP; with speculation (requests of two priorities) it is
    // `select`, whose arbiters rank speculative requests lower as BookSim2's output-first
    // arbiters do.
    for (vc, sw) in [
        ("separable_output_first", "separable_output_first"),
        ("islip", "separable_output_first"),
    ] {
        let b = parse(&format!(
            "routing_function = dim_order; vc_allocator = {vc}; sw_allocator = {sw};"
        ))
        .unwrap();
        assert_eq!(b.config.allocator, Allocator::Islip);
    }
    let b = parse(
        "routing_function = dim_order; speculative = 1;\n\
         vc_allocator = separable_output_first; sw_allocator = separable_output_first;",
    )
    .unwrap();
    assert_eq!(
        (b.config.allocator, b.config.vc_allocator_kind()),
        (Allocator::Select, Allocator::Select)
    );
    // Different allocators: the switch's is `allocator`, the VC allocator's `vc_allocator`.
    let b = parse(
        "routing_function = dim_order; vc_allocator = separable_output_first;\n\
         sw_allocator = separable_input_first;",
    )
    .unwrap();
    assert_eq!(
        (b.config.allocator, b.config.vc_allocator),
        (Allocator::SeparableInputFirst, Some(Allocator::Islip))
    );
}

#[test]
fn wavefront_for_either_allocator_with_or_without_speculation() {
    let alloc = |stmts: &str| {
        let b = parse(&format!("routing_function = dim_order; {stmts}")).unwrap();
        (
            b.config.allocator,
            b.config.vc_allocator_kind(),
            b.config.vc_allocator,
        )
    };
    use Allocator::{Islip, Wavefront};
    let both = "vc_allocator = wavefront; sw_allocator = wavefront;";
    assert_eq!(alloc(both), (Wavefront, Wavefront, None));
    // BookSim2's `spec_sw_allocator = prio`: speculative requests are the lower priority
    // of the same wavefront allocator (`sim::router::wavefront`).
    let b = parse(&format!(
        "routing_function = dim_order; speculative = 1; {both}"
    ))
    .unwrap();
    assert!(b.config.features.speculative);
    assert_eq!(b.config.allocator, Wavefront);
    assert_eq!(
        alloc("sw_allocator = wavefront;"),
        (Wavefront, Islip, Some(Islip))
    );
    assert_eq!(
        alloc("vc_allocator = wavefront;"),
        (Islip, Wavefront, Some(Wavefront))
    );
    // BookSim2's wavefront has no iterations: `alloc_iters` is without effect as always.
    let b = parse(&format!(
        "routing_function = dim_order; alloc_iters = 3; {both}"
    ))
    .unwrap();
    assert_eq!(
        (b.config.features.alloc_iters, b.ignored.as_slice()),
        (1, &["alloc_iters".to_string()][..])
    );
    // On the command line.
    let e = parse_with(TORUS88, &["vc_allocator=islip(2)".to_string()])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("command line: vc_allocator = islip(2) is not supported; allowed:"),
        "{e}"
    );
}

#[test]
fn perm_seed_draws_booksim2s_randperm_and_is_listed_without_it() {
    let over = |w: &[&str]| {
        parse_with(
            TORUS88,
            &w.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    };
    // `randperm` takes BookSim2's permutation, for its default perm_seed 0 too.
    let b = over(&["traffic=randperm"]).unwrap();
    assert_eq!(b.config.extras.perm_seed, Some(0));
    assert!(b.ignored.is_empty(), "{:?}", b.ignored);
    let b = over(&["traffic=randperm", "perm_seed=-12"]).unwrap();
    assert_eq!(b.config.extras.perm_seed, Some(-12));
    // In any class.
    let b = over(&["classes=2", "traffic={uniform,randperm}", "perm_seed=5"]).unwrap();
    assert_eq!(b.config.extras.perm_seed, Some(5));
    // Other traffic: jumpnet's draw is never asked for, and a given perm_seed is listed as
    // without effect.
    let b = over(&["perm_seed=5"]).unwrap();
    assert_eq!(
        (b.config.extras.perm_seed, b.ignored),
        (None, vec!["perm_seed".to_string()])
    );
    assert_eq!(over(&[]).unwrap().config.extras.perm_seed, None);
    for bad in ["perm_seed=time", "perm_seed=2147483648", "perm_seed=1.5"] {
        let e = over(&["traffic=randperm", bad]).unwrap_err().to_string();
        assert!(
            e.contains("perm_seed") && e.contains("-2147483648"),
            "{bad}: {e}"
        );
    }
}
