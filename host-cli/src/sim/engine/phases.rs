//! The phases of a run: BookSim-style warm-up sample periods, measurement samples
//! until the mean latency converges (or `max_samples`), then drain until every measured
//! packet has arrived; batch and trace runs until their last packet is delivered; the
//! measurement window whose statistics `State::finish` computes. [`run_parallel`] steps the
//! routers on several threads (`sim::engine::partition`) with the same statistics as
//! [`run`].

use jumpnet_core::routing::Routing;
use jumpnet_core::topology::Network;

use crate::sim::config::{Injection, SimConfig, StopRule};
use crate::sim::engine::booksim_rule;
use crate::sim::engine::stats::{BatchTimes, DeadlockReport, SimResult};
use crate::sim::engine::{Counters, Outcome, SimError, State};
use crate::sim::network::terminal::NO_TAG;

/// Runs the explicit packets `trace` (`(src, dst, created cycle)`, any order) instead of
/// synthetic traffic, until all are delivered (or a deadlock); every packet is measured.
/// Used for zero-load checks and by drivers of message traces. The measurement window is
/// the whole run: `measured_cycles = cycles` = the cycle of the last ejection (or of the
/// watchdog).
pub fn run_trace(
    net: &Network<'_>,
    routing: &dyn Routing,
    cfg: &SimConfig,
    trace: &[(u32, u32, u64)],
) -> Result<SimResult, SimError> {
    let mut c = cfg.clone();
    c.injection = Injection::Batch;
    c.batch_size = 0;
    let mut order: Vec<usize> = (0..trace.len()).collect();
    order.sort_by_key(|&i| (trace[i].2, i));
    let mut st = State::new(net, routing, &c)?;
    st.set_measuring(true);
    let start = st.zero_counters();
    let n = st.terminals();
    let mut next = 0;
    let mut deadlock = None;
    while next < order.len() || st.measured_outstanding() > 0 {
        while next < order.len() && trace[order[next]].2 <= st.now() {
            let (s, d, _) = trace[order[next]];
            if s >= n || d >= n || s == d {
                return Err(SimError::Config(format!("bad trace packet {s}→{d}")));
            }
            st.create(s, d);
            next += 1;
        }
        st.cycle()?;
        if st.stuck() {
            deadlock = Some(st.deadlock_report());
            break;
        }
    }
    let end = st.delivered_end(deadlock.is_some());
    let outcome = Outcome {
        cycles: end.cycle,
        samples: 1,
        saturated: false,
        deadlock,
    };
    Ok(st.finish(&c, &start, &end, outcome))
}

/// Runs one simulation of `cfg` on `net` with `routing` (every routing decision is a call to
/// `routing`). Returns the statistics; a deadlock stops the run and is reported in
/// [`SimResult::deadlock`].
///
/// Measurement window: batch runs measure the whole run (`measured_cycles = cycles` = the
/// cycle of the last ejection); Bernoulli runs measure the sample periods. A deadlock during
/// the measurement ends the window at the watchdog's cycle; a deadlock during the warm-up
/// (before any measurement) makes the window the whole run so far (`measured_cycles =
/// cycles`, offered and accepted over all cycles run, no latency samples).
///
/// # Examples
///
/// A batch of one 4-flit packet per terminal of an 8 × 8 torus to its `neighbor`, one hop
/// further in each dimension: dimension-order routes of different packets share no channel,
/// so every packet takes the zero-load latency of the `booksim` preset,
/// `T0 = 5H + L + 5` cycles for `H = 2` hops ([`SimConfig::booksim`]), and the run ends
/// when the last one arrives.
///
/// ```
/// use jumpnet::sim::{run, SimConfig};
/// use jumpnet_core::routing::{TorusDor, TorusVcs};
/// use jumpnet_core::topology::{Network, Torus};
///
/// let torus = Torus::torus(&[8, 8], 1)?;
/// let dor = TorusDor::new(&torus, TorusVcs::Dateline)?;
/// let net = Network::Torus(torus.clone());
/// let mut cfg = SimConfig::booksim();
/// for (key, value) in [
///     ("num_vcs", "2"),
///     ("packet_size", "4"),
///     ("injection", "batch"),
///     ("batch_size", "1"),
///     ("traffic", "neighbor"),
/// ] {
///     cfg.set(key, value)?;
/// }
/// let res = run(&net, &dor, &cfg)?;
/// let t0 = 5 * 2 + 4 + 5;
/// assert_eq!(res.packet_latency.count, 64);
/// assert_eq!((res.packet_latency.mean, res.packet_latency.max), (t0 as f64, t0));
/// assert_eq!((res.hops.mean, res.hops.max), (2.0, 2));
/// // Created at cycle 0, the last tail arrives at T0: the run and its window end there.
/// assert_eq!((res.cycles, res.measured_cycles), (t0, t0));
/// assert_eq!((res.packets_delivered, res.flits_delivered), (64, 64 * 4));
/// assert_eq!(res.conservation_errors, 0);
/// assert!(res.deadlock.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(
    net: &Network<'_>,
    routing: &dyn Routing,
    cfg: &SimConfig,
) -> Result<SimResult, SimError> {
    run_state(State::new(net, routing, cfg)?, cfg)
}

/// [`run`] with the routers stepped on `threads` threads (at most one per router; 0 or 1:
/// the calling thread only). The statistics are identical, byte for byte, for every
/// `threads` (`sim::engine::partition`); a routing whose choices read other routers' state
/// (UGAL-G, `CongestionScope::Remote`) steps on one thread.
pub fn run_parallel(
    net: &Network<'_>,
    routing: &(dyn Routing + Sync),
    cfg: &SimConfig,
    threads: usize,
) -> Result<SimResult, SimError> {
    let go = || {
        let mut st = State::new(net, routing, cfg)?;
        st.set_threads(routing, threads);
        run_state(st, cfg)
    };
    if threads <= 1 {
        return go();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::Config(format!("cannot start {threads} threads: {e}")))?;
    pool.install(go)
}

fn run_state(mut st: State<'_>, cfg: &SimConfig) -> Result<SimResult, SimError> {
    let w = match (cfg.injection, cfg.extras.stop_rule) {
        (Injection::Batch, _) => run_batch(&mut st, cfg)?,
        (Injection::BookSimBatch, _) => booksim_rule::run_batch(&mut st, cfg)?,
        (_, StopRule::BookSim) => booksim_rule::run_samples(&mut st, cfg)?,
        (_, StopRule::Jumpnet) => run_bernoulli(&mut st, cfg)?,
    };
    // A deadlock before the measurement: the window is the whole run; during it: the
    // window ends at the watchdog's cycle.
    let start = w.start.unwrap_or_else(|| st.zero_counters());
    let end = w.end.unwrap_or_else(|| st.counters());
    let cycles = if cfg.injection == Injection::Batch {
        end.cycle
    } else {
        st.now()
    };
    let outcome = Outcome {
        cycles,
        samples: w.samples,
        saturated: w.saturated,
        deadlock: w.deadlock,
    };
    let mut res = st.finish(cfg, &start, &end, outcome);
    res.batch_time = BatchTimes::of(&w.batch_times);
    Ok(res)
}

/// The measurement window of a run (its ends, if it has them yet) and how it went.
#[derive(Debug, Default)]
pub(super) struct Window {
    /// Counters where the measurement began.
    pub start: Option<Counters>,
    /// Counters where it ended.
    pub end: Option<Counters>,
    /// Measurement samples taken.
    pub samples: u32,
    /// Declared saturated.
    pub saturated: bool,
    /// The watchdog's report, if it fired.
    pub deadlock: Option<DeadlockReport>,
    /// Durations of BookSim2's batches, cycles.
    pub batch_times: Vec<u64>,
}

/// A batch run: every terminal draws `batch_size` destinations (terminal-major order) at
/// cycle 0, and the run lasts until all are delivered.
fn run_batch(st: &mut State<'_>, cfg: &SimConfig) -> Result<Window, SimError> {
    st.set_measuring(true);
    let start = st.zero_counters();
    for t in 0..st.terminals() {
        for _ in 0..cfg.batch_size {
            let d = st.draw_dest(t);
            if d != t {
                let len = st.draw_packet_size();
                st.create_sized(t, d, NO_TAG, len);
            }
        }
    }
    let deadlock = st.run_to_delivery()?.then(|| st.deadlock_report());
    Ok(Window {
        start: Some(start),
        end: Some(st.delivered_end(deadlock.is_some())),
        samples: 1,
        deadlock,
        ..Window::default()
    })
}

/// A Bernoulli run: warm-up, measurement samples, drain.
fn run_bernoulli(st: &mut State<'_>, cfg: &SimConfig) -> Result<Window, SimError> {
    let mut w = Window {
        deadlock: warm_up(st, cfg)?,
        ..Window::default()
    };
    if w.deadlock.is_some() {
        return Ok(w);
    }
    st.set_measuring(true);
    w.start = Some(st.counters());
    w.deadlock = measure(st, cfg, &mut w)?;
    if w.deadlock.is_some() {
        return Ok(w);
    }
    st.set_measuring(false);
    w.end = Some(st.counters());
    // Drain measured packets (not when saturated: they may never arrive).
    if cfg.drain && !w.saturated {
        drain(st, cfg, &mut w)?;
    }
    Ok(w)
}

/// Runs `cycles` cycles; the watchdog's report if it fires.
pub(super) fn run_cycles(
    st: &mut State<'_>,
    cycles: u64,
) -> Result<Option<DeadlockReport>, SimError> {
    for _ in 0..cycles {
        st.cycle()?;
        if st.stuck() {
            return Ok(Some(st.deadlock_report()));
        }
    }
    Ok(None)
}

/// The warm-up: `warmup_periods` sample periods, or, without fixed periods, BookSim2's
/// convergence: until the mean latency of successive periods changes by less than
/// `warmup_thres` (at most `max_samples` periods). The watchdog's report if it fires.
fn warm_up(st: &mut State<'_>, cfg: &SimConfig) -> Result<Option<DeadlockReport>, SimError> {
    let period = u64::from(cfg.sample_period);
    if let Some(d) = run_cycles(st, u64::from(cfg.warmup_periods) * period)? {
        return Ok(Some(d));
    }
    if cfg.warmup_periods == 0 {
        let mut prev: Option<f64> = None;
        for _ in 0..cfg.max_samples {
            st.latencies().start_warmup_period();
            if let Some(d) = run_cycles(st, period)? {
                return Ok(Some(d));
            }
            let mean = st.latencies().warm_mean();
            if mean > cfg.latency_thres {
                break;
            }
            if let Some(p) = prev {
                if p > 0.0 && ((mean - p) / p).abs() < cfg.warmup_thres {
                    break;
                }
            }
            prev = Some(mean);
        }
    }
    Ok(None)
}

/// Measurement samples until the mean latency of successive samples changes by less than
/// `stopping_thres`, exceeds `latency_thres` (saturated) or `max_samples` were taken. The
/// watchdog's report if it fires.
fn measure(
    st: &mut State<'_>,
    cfg: &SimConfig,
    w: &mut Window,
) -> Result<Option<DeadlockReport>, SimError> {
    let period = u64::from(cfg.sample_period);
    let mut prev: Option<f64> = None;
    while w.samples < cfg.max_samples.max(1) {
        st.latencies().start_sample();
        if let Some(d) = run_cycles(st, period)? {
            return Ok(Some(d));
        }
        w.samples += 1;
        let mean = st.latencies().sample_mean();
        if mean > cfg.latency_thres {
            w.saturated = true;
            break;
        }
        if let Some(p) = prev {
            if p > 0.0 && ((mean - p) / p).abs() < cfg.stopping_thres {
                break;
            }
        }
        prev = Some(mean);
    }
    Ok(None)
}

/// Runs until every measured packet has arrived (at most `100 · max(sample_period, 1000)`
/// cycles; saturated if some have not).
fn drain(st: &mut State<'_>, cfg: &SimConfig, w: &mut Window) -> Result<(), SimError> {
    let limit = st.now() + 100 * u64::from(cfg.sample_period).max(1000);
    while st.measured_outstanding() > 0 && st.now() < limit {
        st.cycle()?;
        if st.stuck() {
            w.deadlock = Some(st.deadlock_report());
            break;
        }
    }
    if st.measured_outstanding() > 0 {
        w.saturated = true;
    }
    Ok(())
}
