//! BookSim2's optional router behaviours (`features`) in the engine, on packets whose
//! timing is worked out by hand with the `booksim` preset (every stage and channel 1 cycle,
//! docs/booksim.md §4): `T0 = 5H + L + 5` for one packet; what each feature changes when
//! two packets meet.

use crate::builder::routing::RouteAlgo;
use crate::sim::tests::with_net;
use crate::sim::*;

/// Packets `trace` on `words` with the `booksim` preset, `l` flits each, `num_vcs` VCs and
/// `keys` set; (mean, max) packet latency.
fn run(
    words: &str,
    trace: &[(u32, u32, u64)],
    l: u16,
    vcs: u8,
    keys: &[(&str, &str)],
) -> (f64, u64) {
    with_net(words, RouteAlgo::Dor, |net, r| {
        let mut cfg = SimConfig::booksim();
        cfg.packet_size = l;
        cfg.num_vcs = vcs;
        for (k, v) in keys {
            cfg.set(k, v).unwrap();
        }
        let res = run_trace(net, r, &cfg, trace).unwrap();
        assert_eq!(res.conservation_errors, 0);
        assert_eq!(res.packet_latency.count, trace.len() as u64);
        (res.packet_latency.mean, res.packet_latency.max)
    })
}

#[test]
fn features_leave_one_packets_latency_alone() {
    // Terminal 0 → terminal 15 of a 4×4 mesh: H = 6, L = 4: T0 = 30 + 4 + 5 = 39.
    for keys in [
        &[][..],
        &[("wait_for_tail_credit", "1")],
        &[("hold_switch_for_packet", "1")],
        &[("input_speedup", "2"), ("output_speedup", "2")],
        &[("alloc_iters", "3")],
        &[("vc_alloc_stage", "1")],
        &[
            ("vc_alloc_stage", "1"),
            ("allocator", "separable_input_first"),
        ],
        &[("vc_alloc_stage", "1"), ("allocator", "wavefront")],
        &[
            ("vc_alloc_stage", "1"),
            ("allocator", "islip"),
            ("vc_allocator", "wavefront"),
        ],
    ] {
        assert_eq!(
            run("mesh k=4,4", &[(0, 15, 3)], 4, 2, keys),
            (39.0, 39),
            "{keys:?}"
        );
    }
}

#[test]
fn wait_for_tail_credit_delays_the_next_packet_on_the_vc() {
    // Two packets of 2 flits from terminal 0 to terminal 1 (H = 1), created at cycle 3, one
    // VC of 8 flits. The first: head into router 0 at 4, across its switch at 7, into
    // router 1 at 9, ejected at 12, received at 14; body one cycle behind: latency 12.
    //
    // Without waiting: the second's head enters router 0 at 6 behind the first's tail,
    // starts routing when the tail leaves at 8 and crosses at 11; at router 1 it arrives at
    // 13 (the tail leaves at 13), crosses at 16; its body is received at 19: latency 16.
    let trace = [(0, 1, 3), (0, 1, 3)];
    let keys = [("inject_any_vc", "true")];
    assert_eq!(run("mesh k=4", &trace, 2, 1, &keys), (14.0, 16));
    // Waiting for the tail's credit: the terminal's VC has its 2 credits back at 9 (the
    // first's flits left router 0 at 7 and 8), so the second's head enters router 0 at 10,
    // is ready at 13, but router 0's output VC has its last credit back only at 14 (the
    // first's flits left router 1 at 12 and 13): across at 14, into router 1 at 16, across
    // at 19, body received at 22: latency 19.
    let keys = [("inject_any_vc", "true"), ("wait_for_tail_credit", "1")];
    assert_eq!(run("mesh k=4", &trace, 2, 1, &keys), (15.5, 19));
}

#[test]
fn held_switch_sends_a_whole_packet_before_the_next() {
    // Terminals 0 and 2 of a 4-router line send 4 flits each to terminal 1 (H = 1),
    // created at 3: both heads reach router 1 at 9, bodies at 10, 11, 12, all ready to
    // eject from 12. Without holding, iSLIP alternates the ejection port between the two
    // packets (12, 14, 16, 18 and 13, 15, 17, 19): tails received at 20 and 21, latencies
    // 17 and 18.
    let trace = [(0, 1, 3), (2, 1, 3)];
    assert_eq!(run("mesh k=4", &trace, 4, 2, &[]), (17.5, 18));
    // Holding the switch: the first packet crosses at 12..15 (received at 17: latency 14),
    // the second at 16..19 (latency 18).
    let keys = [("hold_switch_for_packet", "1")];
    assert_eq!(run("mesh k=4", &trace, 4, 2, &keys), (16.0, 18));
}

#[test]
fn vc_allocation_stage_hands_a_freed_vc_over_a_cycle_later() {
    // Terminals 0 and 2 of a 4-router line send one single-flit packet each to terminal 1,
    // created at 3: both heads reach router 1 at 9 and are routed there (routing_delay 1).
    // Without the stage, the ejection needs no VC: iSLIP sends one across at 12, the other
    // at 13 (received 14 and 15: latencies 11 and 12).
    let trace = [(0, 1, 3), (2, 1, 3)];
    assert_eq!(run("mesh k=4", &trace, 1, 1, &[]), (11.5, 12));
    // With BookSim2's VC allocation stage and one VC: both heads request ejection VC 0 at 10
    // (as BookSim2's `_VCAllocEvaluate`), one wins, requests the switch at 11 and crosses
    // at 12 (BookSim2: switch allocation at 11, crossbar at 12). The other fails at 10 and
    // 11 (the VC is held until the winner's tail crosses at 12: BookSim2's trace of router
    // 3,1 at cycles 8–9, "VC 0 at output 3 is in use"), wins the VC at 12 and crosses at 14:
    // latencies 11 and 13.
    let keys = [("vc_alloc_stage", "1")];
    assert_eq!(run("mesh k=4", &trace, 1, 1, &keys), (12.0, 13));
    // With two VCs the loser of 10 takes VC 1 at 11 and crosses at 13, one step behind
    // the winner, as the switch conflict alone would have it.
    assert_eq!(run("mesh k=4", &trace, 1, 2, &keys), (11.5, 12));
}

#[test]
fn exact_vcs_eject_on_the_routings_vc_only() {
    // Terminals 0 and 2 of a 4-router line send 4 flits each to terminal 1 (H = 1), created
    // at 3, 2 VCs, BookSim2's VC allocation stage. Both heads reach router 1 at 9 and win
    // an ejection VC each at 10 (VC 0 and VC 1); iSLIP alternates the port between them
    // (12, 14, 16, 18 and 13, 15, 17, 19): received 2 cycles later, latencies 17 and 18,
    // and each packet's flits 2 cycles apart: fragmentation 3.
    let trace = [(0, 1, 3), (2, 1, 3)];
    let stage = [("vc_alloc_stage", "1")];
    assert_eq!(
        fragmentation("mesh k=4", &trace, &stage),
        ((17.5, 18), (3.0, 3))
    );
    // With `exact_vcs` both eject on VC 0, the VC dimension-order routing names (as
    // BookSim2's Dragonfly routings name one): the winner crosses at 12..15 (latency 14);
    // the other gets the VC when the winner's tail crosses at 15, crosses at 17..20 (latency
    // 19). Neither packet is fragmented.
    let exact = [("vc_alloc_stage", "1"), ("exact_vcs", "1")];
    assert_eq!(
        fragmentation("mesh k=4", &trace, &exact),
        ((16.5, 19), (0.0, 0))
    );
}

/// Packets `trace` of 4 flits on `words` with the `booksim` preset, 2 VCs and `keys` set:
/// (mean, max) packet latency and (mean, max) fragmentation.
fn fragmentation(
    words: &str,
    trace: &[(u32, u32, u64)],
    keys: &[(&str, &str)],
) -> ((f64, u64), (f64, u64)) {
    with_net(words, RouteAlgo::Dor, |net, r| {
        let mut cfg = SimConfig::booksim();
        cfg.packet_size = 4;
        cfg.num_vcs = 2;
        for (k, v) in keys {
            cfg.set(k, v).unwrap();
        }
        let res = run_trace(net, r, &cfg, trace).unwrap();
        assert_eq!(res.conservation_errors, 0);
        let (p, f) = (&res.packet_latency, &res.fragmentation);
        ((p.mean, p.max), (f.mean, f.max))
    })
}

#[test]
fn speculation_saves_a_cycle_per_router() {
    // BookSim2 with `speculative = 1` (trace of one packet through a 4×4 mesh): a head in VC
    // allocation at cycle 7 bids for the switch in the same cycle, wins both and crosses at
    // 8, one cycle before the non-speculative pipeline's 9; the next router receives it at
    // 10 instead of 11. Terminal 0 → 15 of a 4×4 mesh crosses 7 routers: T0 = 39 − 7.
    let keys = [("vc_alloc_stage", "1"), ("speculative", "1")];
    assert_eq!(run("mesh k=4,4", &[(0, 15, 3)], 4, 2, &keys), (32.0, 32));
    // Speculation needs the VC allocation stage: without it the key changes nothing.
    let keys = [("speculative", "1")];
    assert_eq!(run("mesh k=4,4", &[(0, 15, 3)], 4, 2, &keys), (39.0, 39));
}

#[test]
fn booksim_credits_time_small_buffers_as_booksim2() {
    // One 8-flit packet, terminal 0 → 1 over the two routers of a 2-node mesh, with
    // `--booksim`'s keys. BookSim2 (`watch_packets = {0}` on the same network,
    // `routing_function = dim_order`, 2 VCs) creates it at 264 and retires its tail at 311
    // with 1-flit VC buffers (47 cycles; the body flits cross the router-to-router link one
    // per 5 cycles: switch allocation, 2 cycles to the next router, its allocation, 2
    // cycles back for the credit), at 292 with 2-flit buffers (28), at 283 with 8 (19,
    // never short of credits). A packet that enters and leaves one router (BookSim2: to
    // itself, at 306 with 1-flit buffers, 42) is held by the terminal's ejection credits,
    // which take the same 5-cycle loop.
    let booksim = |buf: &'static str, credits: &'static str| {
        vec![
            ("vc_buf_size", buf),
            ("vc_alloc_stage", "1"),
            ("injection_delay", "1"),
            ("inject_any_vc", "1"),
            ("booksim_credits", credits),
        ]
    };
    let lat = |words: &str, keys: &[(&str, &str)]| run(words, &[(0, 1, 3)], 8, 2, keys).1;
    assert_eq!(lat("mesh k=2", &booksim("1", "1")), 47);
    assert_eq!(lat("mesh k=2", &booksim("2", "1")), 28);
    assert_eq!(lat("mesh k=2", &booksim("8", "1")), 19);
    assert_eq!(lat("mesh k=2 t=2", &booksim("1", "1")), 42);
    // jumpnet's own credits: a cycle shorter on the link, no ejection credits.
    assert_eq!(lat("mesh k=2", &booksim("1", "0")), 40);
    assert_eq!(lat("mesh k=2", &booksim("8", "0")), 19);
    assert_eq!(lat("mesh k=2 t=2", &booksim("1", "0")), 35);
}
