//! The phases of a run (issue 9): BookSim-style warm-up sample periods, measurement samples
//! until the mean latency converges (or `max_samples`), then drain until every measured
//! packet has arrived; batch and trace runs until their last packet is delivered; the
//! statistics of the measurement window. [`run_parallel`] steps the routers on several
//! threads (`sim::engine::partition`) with the same statistics as [`run`].

use jumpnet_core::routing::Routing;
use jumpnet_core::topology::Network;

use crate::sim::config::{Injection, SimConfig};
use crate::sim::engine::stats::{ClassUtilisation, SimResult};
use crate::sim::engine::{Counters, Outcome, SimError, State};
use crate::sim::network::PortKind;

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
    st.measuring = true;
    let start = st.zero_counters();
    let n = st.fabric.terminals;
    let mut next = 0;
    let mut deadlock = None;
    while next < order.len() || st.measured_outstanding > 0 {
        while next < order.len() && trace[order[next]].2 <= st.now {
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
pub fn run(
    net: &Network<'_>,
    routing: &dyn Routing,
    cfg: &SimConfig,
) -> Result<SimResult, SimError> {
    run_state(State::new(net, routing, cfg)?, cfg)
}

/// [`run`] with the routers stepped on `threads` threads (at most one per router; 0 or 1:
/// the calling thread only). The statistics are identical, byte for byte, for every
/// `threads` (`sim::engine::partition`); UGAL-G networks step on one thread.
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
    let period = u64::from(cfg.sample_period);
    let mut deadlock = None;
    let mut samples = 0u32;
    let mut saturated = false;
    let mut start: Option<Counters> = None;
    let mut end: Option<Counters> = None;
    if cfg.injection == Injection::Batch {
        st.measuring = true;
        start = Some(st.zero_counters());
        // Every packet draws its own destination (terminal-major order).
        for t in 0..st.fabric.terminals {
            for _ in 0..cfg.batch_size {
                let d = st.driver.dest(t);
                if d != t {
                    st.create(t, d);
                }
            }
        }
        while st.measured_outstanding > 0 {
            st.cycle()?;
            if st.stuck() {
                deadlock = Some(st.deadlock_report());
                break;
            }
        }
        end = Some(st.delivered_end(deadlock.is_some()));
        samples = 1;
    } else {
        // Warm-up.
        'run: {
            for _ in 0..u64::from(cfg.warmup_periods) * period {
                st.cycle()?;
                if st.stuck() {
                    deadlock = Some(st.deadlock_report());
                    break 'run;
                }
            }
            if cfg.warmup_periods == 0 {
                // BookSim2: without fixed warm-up periods, warm up until the mean latency of
                // successive periods changes by less than `warmup_thres` (at most
                // `max_samples` periods).
                let mut prev: Option<f64> = None;
                for _ in 0..cfg.max_samples {
                    st.warm_sum = 0;
                    st.warm_n = 0;
                    for _ in 0..period {
                        st.cycle()?;
                        if st.stuck() {
                            deadlock = Some(st.deadlock_report());
                            break 'run;
                        }
                    }
                    let mean = st.warm_sum as f64 / st.warm_n.max(1) as f64;
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
            st.measuring = true;
            start = Some(st.counters());
            let mut prev: Option<f64> = None;
            while samples < cfg.max_samples.max(1) {
                st.sample_sum = 0;
                st.sample_n = 0;
                for _ in 0..period {
                    st.cycle()?;
                    if st.stuck() {
                        deadlock = Some(st.deadlock_report());
                        break 'run;
                    }
                }
                samples += 1;
                let mean = if st.sample_n == 0 {
                    0.0
                } else {
                    st.sample_sum as f64 / st.sample_n as f64
                };
                if mean > cfg.latency_thres {
                    saturated = true;
                    break;
                }
                if let Some(p) = prev {
                    if p > 0.0 && ((mean - p) / p).abs() < cfg.stopping_thres {
                        break;
                    }
                }
                prev = Some(mean);
            }
            st.measuring = false;
            end = Some(st.counters());
            // Drain measured packets (not when saturated: they may never arrive).
            if cfg.drain && !saturated {
                let limit = st.now + 100 * period.max(1000);
                while st.measured_outstanding > 0 && st.now < limit {
                    st.cycle()?;
                    if st.stuck() {
                        deadlock = Some(st.deadlock_report());
                        break;
                    }
                }
                if st.measured_outstanding > 0 {
                    saturated = true;
                }
            }
        }
    }
    // A deadlock before the measurement: the window is the whole run; during it: the
    // window ends at the watchdog's cycle.
    let start = start.unwrap_or_else(|| st.zero_counters());
    let end = end.unwrap_or_else(|| st.counters());
    let cycles = if cfg.injection == Injection::Batch {
        end.cycle
    } else {
        st.now
    };
    let outcome = Outcome {
        cycles,
        samples,
        saturated,
        deadlock,
    };
    Ok(st.finish(cfg, &start, &end, outcome))
}

impl State<'_> {
    /// Statistics of the run so far.
    pub(crate) fn finish(
        &self,
        cfg: &SimConfig,
        start: &Counters,
        end: &Counters,
        outcome: Outcome,
    ) -> SimResult {
        let Outcome {
            cycles,
            samples,
            mut saturated,
            deadlock,
        } = outcome;
        let st = self;
        let mcycles = end.cycle.saturating_sub(start.cycle).max(1);
        let nodes = f64::from(st.fabric.terminals);
        let offered = (end.gen - start.gen) as f64 / nodes / mcycles as f64;
        let accepted = (end.ejected - start.ejected) as f64 / nodes / mcycles as f64;
        if cfg.injection == Injection::Bernoulli && accepted < 0.9 * offered {
            saturated = true;
        }
        let channel_utilisation: Vec<f64> = end
            .channels
            .iter()
            .zip(&start.channels)
            .map(|(&e, &s)| (e - s) as f64 / mcycles as f64)
            .collect();
        let mut class_utilisation: Vec<ClassUtilisation> = st
            .fabric
            .class_names
            .iter()
            .map(|c| ClassUtilisation {
                class: c.clone(),
                channels: 0,
                utilisation: 0.0,
            })
            .collect();
        for (i, kind) in st.fabric.ports.iter().enumerate() {
            if *kind == PortKind::Unconnected {
                continue;
            }
            let c = &mut class_utilisation[usize::from(st.fabric.class[i])];
            c.channels += 1;
            c.utilisation += channel_utilisation[i];
        }
        for c in &mut class_utilisation {
            if c.channels > 0 {
                c.utilisation /= c.channels as f64;
            }
        }
        SimResult {
            packet_latency: st.plat.summary(),
            network_latency: st.nlat.summary(),
            queueing_latency: st.qlat.summary(),
            flit_latency: st.flat.summary(),
            hops: st.hops.summary(),
            offered,
            accepted,
            channel_utilisation,
            class_utilisation,
            saturated,
            samples,
            cycles,
            measured_cycles: mcycles,
            packets_delivered: st.total_packets,
            flits_delivered: st.total_flits,
            conservation_errors: st.violations,
            deadlock,
        }
    }
}
