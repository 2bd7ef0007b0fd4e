//! BookSim2's simulation phases for `jumpnet sim --booksim` (docs/booksim.md §5, after
//! BookSim2's `TrafficManager::_SingleSim` and `BatchTrafficManager::_SingleSim`):
//!
//! * [`run_samples`] — warm-up and measurement sample periods count together against
//!   `max_samples`; the warm-up's statistics are cleared every other period; the
//!   measurement is cumulative from its first sample; a sample "converges" when the
//!   cumulative mean latency (latency mode only) and the cumulative accepted rate changed
//!   by at most `stopping_thres` and `acc_stopping_thres` since the previous sample, and
//!   the measurement ends after 3 successive converged samples. The latency threshold is
//!   checked on the delivered packets together with the age of every flit still in flight.
//! * [`run_batch`] — `batch_count` batches of BookSim2's batch source
//!   (`sim::workload::paced_batch`), each until all its packets are delivered; its duration
//!   is the batch time.
//!
//! Either ends, when it ended normally, with BookSim2's final drain (`final_drain`): the
//! packets the sources hold are delivered and every credit comes back before the run's
//! `cycles` (BookSim2's `Time taken`) are counted.

use crate::sim::config::SimConfig;
use crate::sim::engine::classes::Thresholds;
use crate::sim::engine::phases::{run_cycles, Window};
use crate::sim::engine::{SimError, State};
use crate::sim::workload::paced_batch::PacedBatch;
use crate::sim::workload::synthetic::Process;

/// Converged samples that end BookSim2's measurement.
const CONVERGED: u32 = 3;

/// Relative change `|cur − prev| / cur` (NaN when both are 0: not above any threshold, as
/// in BookSim2).
fn change(cur: f64, prev: f64) -> f64 {
    ((cur - prev) / cur).abs()
}

/// Whether `change` exceeds the threshold `thres` (a negative threshold is not checked).
fn exceeds(change: f64, thres: f64) -> bool {
    thres >= 0.0 && change > thres
}

/// Warm-up and measurement with BookSim2's stopping rule, then the drain (latency mode).
pub(super) fn run_samples(st: &mut State<'_>, cfg: &SimConfig) -> Result<Window, SimError> {
    let latency_mode = cfg.drain;
    let period = u64::from(cfg.sample_period);
    let nodes = f64::from(st.terminals());
    let mut w = Window::default();
    let n = st.class_count();
    let thres: Vec<Thresholds> = (0..n).map(|c| st.class_thresholds(cfg, c)).collect();
    let (mut prev_lat, mut prev_acc) = (vec![0.0; n], vec![0.0; n]);
    let (mut converged, mut total) = (0u32, 0u32);
    let (mut running, mut clear) = (false, false);
    let mut since = st.counters();
    while total < cfg.max_samples && (!running || converged < CONVERGED) {
        if clear || (!running && total.is_multiple_of(2)) {
            clear = false;
            since = st.counters();
            st.start_warmup_period();
            if running {
                w.start = Some(since.clone());
                st.sample_every_flit();
            }
        }
        if let Some(d) = run_cycles(st, period)? {
            w.deadlock = Some(d);
            return Ok(w);
        }
        w.samples += u32::from(running);
        let now = st.counters();
        // Every class is tested (BookSim2's `_SingleSim`): one above its latency threshold
        // ends the run, one whose statistics still change keeps it going.
        let (mut over, mut ok) = (false, true);
        for (c, t) in thres.iter().enumerate() {
            let lat = st.class_cumulative(c, running);
            let ejected = st.class_ejected(&now, c) - st.class_ejected(&since, c);
            let acc = ejected as f64 / (now.cycle - since.cycle) as f64 / nodes;
            let (lat_change, acc_change) = (change(lat.0, prev_lat[c]), change(acc, prev_acc[c]));
            (prev_lat[c], prev_acc[c]) = (lat.0, acc);
            over |= latency_mode && st.class_mean_with_in_flight(c, lat) > t.latency;
            let (lat_thres, acc_thres) = if running {
                (t.stopping, t.acc_stopping)
            } else {
                (t.warmup, t.acc_warmup)
            };
            ok &= (!latency_mode || !exceeds(lat_change, lat_thres))
                && !exceeds(acc_change, acc_thres);
        }
        if over {
            w.saturated = true;
            break;
        }
        if !running {
            let warm = if cfg.warmup_periods > 0 {
                total + 1 >= cfg.warmup_periods
            } else {
                ok
            };
            if warm {
                running = true;
                clear = true;
                st.set_measuring(true);
            }
        } else if ok {
            converged += 1;
        } else {
            converged = 0;
        }
        total += 1;
    }
    st.set_measuring(false);
    if !running || w.saturated {
        // Still warming up after `max_samples` periods, or above the latency threshold:
        // BookSim2 calls the simulation unstable.
        w.saturated = true;
        return Ok(w);
    }
    w.end = Some(st.counters());
    if latency_mode {
        drain(st, cfg, &mut w)?;
    }
    if !w.saturated && w.deadlock.is_none() {
        w.deadlock = st.final_drain()?;
    }
    Ok(w)
}

/// Runs until every measured packet has arrived; every 1000 cycles the latency threshold
/// is checked as during the samples (saturated above it, or after
/// `100 · max(sample_period, 1000)` cycles).
fn drain(st: &mut State<'_>, cfg: &SimConfig, w: &mut Window) -> Result<(), SimError> {
    let limit = st.now() + 100 * u64::from(cfg.sample_period).max(1000);
    let thres: Vec<f64> = (0..st.class_count())
        .map(|c| st.class_thresholds(cfg, c).latency)
        .collect();
    // BookSim2's sources (`draws = booksim`) keep making packets; those dated before now
    // are measured, and the drain waits until every source has caught up to now
    // (`_PacketsOutstanding`).
    st.start_source_drain();
    let mut steps = 0u64;
    while st.measured_outstanding() > 0 || st.sources_undrained() {
        st.cycle()?;
        if st.stuck() {
            w.deadlock = Some(st.deadlock_report());
            return Ok(());
        }
        steps += 1;
        if steps.is_multiple_of(1000) {
            let over = thres
                .iter()
                .enumerate()
                .any(|(c, &t)| st.class_mean_with_in_flight(c, st.class_cumulative(c, true)) > t);
            if over || st.now() >= limit {
                w.saturated = true;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// BookSim2's batch mode: `batch_count` batches, each from its first packet until its last
/// is delivered; every packet is measured; the window is the whole run.
pub(super) fn run_batch(st: &mut State<'_>, cfg: &SimConfig) -> Result<Window, SimError> {
    st.set_measuring(true);
    let mut w = Window {
        start: Some(st.zero_counters()),
        samples: cfg.extras.batch_count,
        ..Window::default()
    };
    for _ in 0..cfg.extras.batch_count {
        let start = st.now();
        if let Some(b) = paced(st) {
            b.start_batch();
        }
        loop {
            st.cycle()?;
            if st.stuck() {
                w.deadlock = Some(st.deadlock_report());
                return Ok(w);
            }
            let issued = paced(st).is_none_or(|b| b.issued());
            if issued && st.measured_outstanding() == 0 {
                break;
            }
        }
        w.batch_times.push(st.now() - start);
    }
    w.end = Some(st.counters());
    w.deadlock = st.final_drain()?;
    Ok(w)
}

/// The run's batch source: the run's own, or with traffic classes (and read/write traffic,
/// run as a traffic class, docs/booksim.md §3.5, §3.6) the one its classes share.
fn paced<'a>(st: &'a mut State<'_>) -> Option<&'a mut PacedBatch> {
    if let Some(cl) = st.classes.as_deref_mut() {
        return cl.batch_mut();
    }
    match &mut st.driver.process {
        Process::Paced(b) => Some(b),
        _ => None,
    }
}
