//! Tests of the simulator configuration: presets, keys, values.

use super::*;

#[test]
fn booksim_matches_booksim2_defaults() {
    let c = SimConfig::booksim();
    assert_eq!((c.num_vcs, c.vc_buf_size, c.packet_size), (16, 8, 1));
    assert_eq!(c.router_delay(), 4);
    assert_eq!(
        (c.credit_delay, c.link_latency, c.terminal_latency),
        (0, 1, 1)
    );
    assert_eq!(
        (c.sample_period, c.max_samples, c.watchdog_cycles),
        (1000, 10, 256)
    );
}

#[test]
fn traffic_words_name_cores_patterns() {
    let firsts: Vec<&str> = Pattern::WORDS.iter().map(|(_, w)| w[0]).collect();
    assert_eq!(Pattern::ALLOWED, firsts.join(", "));
    let mut c = SimConfig::booksim();
    for (p, words) in Pattern::WORDS {
        for w in words {
            c.set("traffic", w).unwrap();
            assert_eq!(c.traffic, p, "{w}");
        }
    }
    // `tornado` (and `torn`) is BookSim2's tornado, not [GA]'s.
    c.set("traffic", "torn").unwrap();
    assert_eq!(c.dest_pattern(), DestPattern::BookSimTornado);
    c.set("traffic", "hotspot").unwrap();
    c.set("hotspot_node", "5").unwrap();
    c.set("hotspot_fraction", "0.25").unwrap();
    assert_eq!(
        c.dest_pattern(),
        DestPattern::Hotspot {
            node: 5,
            permille: 250
        }
    );
}

#[test]
fn every_key_sets_and_unknown_is_named() {
    let mut c = SimConfig::booksim();
    c.set("num_vcs", "2").unwrap();
    c.set("traffic", "tornado").unwrap();
    c.set("allocator", "separable_input_first").unwrap();
    assert_eq!((c.num_vcs, c.traffic), (2, Pattern::Tornado));
    let e = c.set("nope", "1").unwrap_err();
    assert!(e.to_string().contains("nope") && e.to_string().contains("vc_buf_size"));
    let e = c.set("traffic", "zigzag").unwrap_err();
    assert!(e.to_string().contains("uniform"));
    assert!(c.set("num_vcs", "0").is_err());
    c.set("internal_speedup", "1.5").unwrap();
    assert_eq!(c.internal_speedup.value(), 1.5);
    let e = c.set("internal_speedup", "0.5").unwrap_err().to_string();
    assert!(
        e.contains("1..=255") && e.contains("internal_speedup"),
        "{e}"
    );
    c.set("output_buffer_size", "4").unwrap();
    assert_eq!(c.output_buffer_size, Some(4));
    c.set("output_buffer_size", "-1").unwrap();
    assert_eq!(c.output_buffer_size, None);
    assert!(c.set("output_buffer_size", "0").is_err());
    c.set("router", "input_queued").unwrap();
    assert_eq!(c.router, RouterKind::InputQueued);
    let e = c.set("router", "output_queued").unwrap_err().to_string();
    assert!(e.contains("router") && e.contains("input_queued"), "{e}");
}

#[test]
fn the_default_router_is_left_out_of_the_json() {
    let json = serde_json::to_value(SimConfig::booksim()).unwrap();
    assert!(json.get("router").is_none() && json.get("self_packets").is_none());
    assert!(json.get("injection_delay").is_none() && json.get("inject_any_vc").is_none());
    // BookSim2's extra parameters (`extras`) and router features are left out at their
    // defaults too.
    assert!(json.get("extras").is_none() && json.get("wait_for_tail_credit").is_none());
    assert_eq!(
        json.as_object().unwrap().len(),
        SimConfig::KEYS.len() - 5 - Extras::KEYS.len() - RouterFeatures::KEYS.len()
    );
    let mut keep = SimConfig::booksim();
    keep.set("self_packets", "1").unwrap();
    let json = serde_json::to_value(keep).unwrap();
    assert_eq!(
        json.get("self_packets"),
        Some(&serde_json::Value::Bool(true))
    );
}
