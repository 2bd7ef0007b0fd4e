//! Internal speedup in the engine: zero-load latency of
//! the `booksim` preset against the closed formula for integral speedups and against a
//! flit-by-flit model written in BookSim2's own terms (its step accumulator, pipeline
//! stages, output queue and two-cycle channels) for fractional ones; higher saturation
//! throughput; flit conservation on every family; identical statistics on every thread
//! count; output queue limits.

use crate::builder::routing::RouteAlgo;
use crate::sim::engine::partition_tests::same_for_every_thread_count;
use crate::sim::router::speedup::Speedup;
use crate::sim::tests::{bernoulli, conserves_flits_on_every_family, hops, with_net};
use crate::sim::*;

/// BookSim2's internal steps: `first[c]` is the first step of cycle `c`, from its
/// floating-point accumulator (`Router::Evaluate`).
struct Accumulator {
    first: Vec<u64>,
}

impl Accumulator {
    fn new(s: f64, cycles: usize) -> Self {
        let (mut partial, mut step, mut first) = (0.0f64, 0u64, Vec::with_capacity(cycles));
        for _ in 0..cycles {
            first.push(step);
            partial += s;
            while partial >= 1.0 {
                step += 1;
                partial -= 1.0;
            }
        }
        Accumulator { first }
    }

    fn cycle_of(&self, k: u64) -> u64 {
        (self.first.partition_point(|&f| f <= k) - 1) as u64
    }
}

/// Latency of one packet of `l` flits over `h` router-to-router hops created at cycle 3 with
/// the `booksim` preset's delays, the way BookSim2 moves it: a flit received in cycle `c` is
/// queued in the cycle's first step; a head is routed there, VC-allocated in the next step
/// and switch-allocated in the one after; a body is switch-allocated in its first step, but
/// not before the step after its predecessor's; the crossbar takes the following step; the
/// output queue sends one flit per cycle at the end of a cycle, and a channel of latency 1
/// delivers it two cycles after the send. The terminal injects one flit per cycle from the
/// creation cycle, one cycle before the first router receives it.
fn booksim_reference(s: f64, h: u64, l: u64) -> u64 {
    let acc = Accumulator::new(s, 4096);
    let created = 3;
    let mut arrivals: Vec<u64> = (0..l).map(|i| created + i + 1).collect();
    for _router in 0..=h {
        let (mut sw_prev, mut send_prev) = (0u64, 0u64);
        for (i, a) in arrivals.iter_mut().enumerate() {
            let f = acc.first[*a as usize];
            let sw = if i == 0 { f + 2 } else { f.max(sw_prev + 1) };
            let crossbar = sw + 1;
            let send = if i == 0 {
                acc.cycle_of(crossbar)
            } else {
                acc.cycle_of(crossbar).max(send_prev + 1)
            };
            (sw_prev, send_prev) = (sw, send);
            *a = send + 2;
        }
    }
    arrivals[l as usize - 1] - created
}

/// The `booksim` preset's zero-load formula with an integral speedup `s`:
/// `T0 = t_c + (H+1)·⌈4/S⌉ + H·t_c + t_c + L - 1` (`SimConfig::booksim`).
fn booksim_t0(s: u64, h: u64, l: u64) -> u64 {
    1 + (h + 1) * 4u64.div_ceil(s) + h + 1 + l - 1
}

/// A topology, its routing and three source–destination pairs.
type Case = (&'static str, RouteAlgo, [(u32, u32); 3]);

const TOPOLOGIES: [Case; 4] = [
    (
        "torus k=8,8",
        RouteAlgo::DorDateline,
        [(0, 1), (0, 36), (63, 0)],
    ),
    ("mesh k=4,4", RouteAlgo::Dor, [(0, 15), (5, 6), (12, 3)]),
    (
        "dragonfly g=5 a=2 p=2 h=2",
        RouteAlgo::DfMinimal,
        [(0, 19), (0, 3), (2, 10)],
    ),
    (
        "circulant n=16 jumps=1,4",
        RouteAlgo::Greedy,
        [(0, 8), (0, 1), (3, 14)],
    ),
];

/// One packet of `l` flits `src → dst` created at cycle 3, `booksim` preset, speedup `s`.
fn single_packet(
    net: &jumpnet_core::topology::Network<'_>,
    r: &dyn jumpnet_core::routing::Routing,
    s: &str,
    src: u32,
    dst: u32,
    l: u16,
) -> SimResult {
    let mut cfg = SimConfig::booksim();
    cfg.packet_size = l;
    cfg.num_vcs = cfg.num_vcs.max(r.num_vcs());
    cfg.internal_speedup = Speedup::parse(s).unwrap();
    let res = run_trace(net, r, &cfg, &[(src, dst, 3)]).unwrap();
    assert_eq!(res.conservation_errors, 0);
    assert_eq!(res.packet_latency.count, 1);
    res
}

#[test]
fn zero_load_with_integral_speedup_equals_the_formula() {
    for (words, algo, pairs) in TOPOLOGIES {
        with_net(words, algo, |net, r| {
            for s in [1u64, 2, 3, 4, 6] {
                for &(src, dst) in &pairs {
                    for l in [1u16, 5] {
                        let res = single_packet(net, r, &s.to_string(), src, dst, l);
                        let h = hops(net, r, src, dst);
                        let want = booksim_t0(s, h, u64::from(l));
                        assert_eq!(
                            res.packet_latency.max, want,
                            "{words} S={s} {src}->{dst} L={l}"
                        );
                        assert_eq!(res.cycles, 3 + want);
                    }
                }
            }
        });
    }
    // The formula's named values: 3H + L + 3 at S = 2, 2H + L + 2 from S = 4.
    assert_eq!(booksim_t0(2, 3, 5), 3 * 3 + 5 + 3);
    assert_eq!(booksim_t0(4, 3, 5), 2 * 3 + 5 + 2);
    assert_eq!(booksim_t0(1, 3, 5), 5 * 3 + 5 + 5);
}

#[test]
fn zero_load_equals_booksims_flit_by_flit_timing() {
    for (words, algo, pairs) in TOPOLOGIES {
        with_net(words, algo, |net, r| {
            for s in ["1", "1.5", "2", "2.5", "1.25", "3", "3.75"] {
                for &(src, dst) in &pairs {
                    for l in [1u16, 2, 5, 9] {
                        let res = single_packet(net, r, s, src, dst, l);
                        let h = hops(net, r, src, dst);
                        let want = booksim_reference(s.parse().unwrap(), h, u64::from(l));
                        assert_eq!(
                            res.packet_latency.max, want,
                            "{words} S={s} {src}->{dst} H={h} L={l}"
                        );
                    }
                }
            }
        });
    }
}

/// Accepted throughput of uniform traffic offered beyond saturation on an 8×8 mesh.
fn saturated_throughput(s: &str) -> SimResult {
    with_net("mesh k=8,8", RouteAlgo::Dor, |net, r| {
        let mut c = bernoulli(0.9, 4);
        c.internal_speedup = Speedup::parse(s).unwrap();
        c.drain = false;
        let res = run(net, r, &c).unwrap();
        assert_eq!(res.conservation_errors, 0);
        assert!(res.deadlock.is_none());
        res
    })
}

#[test]
fn speedup_raises_saturation_throughput() {
    // An input-queued router loses throughput to head-of-line blocking; a faster crossbar
    // with output queues wins some of it back (Dally & Towles §19.4).
    let one = saturated_throughput("1").accepted;
    let two = saturated_throughput("2").accepted;
    assert!(two > one * 1.05, "S=1 {one}, S=2 {two}");
    assert!(two <= 0.9 + 1e-9);
}

#[test]
fn flit_conservation_on_every_family_with_speedup() {
    for s in ["2", "1.5"] {
        conserves_flits_on_every_family(Speedup::parse(s).unwrap());
    }
}

#[test]
fn speedup_is_identical_on_every_thread_count() {
    for s in ["2", "1.5"] {
        let mut c = bernoulli(0.5, 4);
        c.internal_speedup = Speedup::parse(s).unwrap();
        let res = same_for_every_thread_count("torus k=6,6", RouteAlgo::DorDateline, &c);
        assert!(res.packets_delivered > 1000, "{res:?}");
        assert_eq!(res.conservation_errors, 0);
    }
}

#[test]
fn output_queue_limit_holds_back_the_switch() {
    // With S = 4 a lone packet's flits cross the switch one cycle apart and each leaves in
    // the cycle after it crossed, so an output queue never holds more than one flit and a
    // limit of one never holds a flit back: zero-load latency is unchanged (a count that
    // included the departing flit would delay every body flit). Under load the limit
    // changes the run, and every flit still arrives.
    with_net("mesh k=4,4", RouteAlgo::Dor, |net, r| {
        for (src, dst) in [(0, 15), (5, 6)] {
            let free = single_packet(net, r, "4", src, dst, 5).packet_latency.max;
            let mut cfg = SimConfig::booksim();
            cfg.packet_size = 5;
            cfg.internal_speedup = Speedup::parse("4").unwrap();
            cfg.output_buffer_size = Some(1);
            let res = run_trace(net, r, &cfg, &[(src, dst, 3)]).unwrap();
            assert_eq!(res.packet_latency.max, free, "{src}->{dst}");
            assert_eq!(res.conservation_errors, 0);
        }
    });
    let unlimited = saturated_throughput("4");
    let limited = with_net("mesh k=8,8", RouteAlgo::Dor, |net, r| {
        let mut c = bernoulli(0.9, 4);
        c.internal_speedup = Speedup::parse("4").unwrap();
        c.output_buffer_size = Some(1);
        c.drain = false;
        run(net, r, &c).unwrap()
    });
    assert_eq!(limited.conservation_errors, 0);
    assert!(limited.deadlock.is_none());
    assert_ne!(
        serde_json::to_string(&limited).unwrap(),
        serde_json::to_string(&unlimited).unwrap()
    );
}
