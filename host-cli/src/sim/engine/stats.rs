//! Bounded streaming statistics of a simulation: fixed-bucket histograms, the
//! recorder that fills them as packets arrive, and the [`SimResult`] the engine returns.
//! Memory does not grow with simulated time.

use serde::Serialize;

use crate::sim::config::{Injection, SimConfig};
pub use crate::sim::engine::classes::ClassStats;
pub use crate::sim::engine::node_counts::{NodeRates, RateRange};
use crate::sim::engine::{Counters, Outcome, State};
use crate::sim::network::terminal::Packet;
use crate::sim::network::{Fabric, PortKind};

/// Fixed-bucket latency histogram: buckets of width 1 cycle up to `LINEAR`, then a final
/// overflow bucket; the exact minimum, maximum and sum are kept apart, so mean, min and max
/// are exact and p50/p99 are exact below `LINEAR` cycles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    buckets: Vec<u64>,
    count: u64,
    sum: u128,
    min: u64,
    max: u64,
}

impl Histogram {
    /// Number of unit-width buckets.
    pub const LINEAR: usize = 4096;

    /// An empty histogram (allocates its buckets once).
    pub fn new() -> Self {
        Histogram {
            buckets: vec![0; Self::LINEAR + 1],
            count: 0,
            sum: 0,
            min: u64::MAX,
            max: 0,
        }
    }

    /// Records one value.
    #[inline]
    pub fn add(&mut self, v: u64) {
        let b = (v as usize).min(Self::LINEAR);
        self.buckets[b] += 1;
        self.count += 1;
        self.sum += u128::from(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// Clears all counts.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = 0);
        self.count = 0;
        self.sum = 0;
        self.min = u64::MAX;
        self.max = 0;
    }

    /// Number of values.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Mean (0 when empty).
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// Smallest value `v` with at least `q·count` values `≤ v` (bucket upper bound; the
    /// overflow bucket reports the exact maximum).
    pub fn quantile(&self, q: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let target = ((q * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, &c) in self.buckets.iter().enumerate() {
            seen += c;
            if seen >= target {
                return if i == Self::LINEAR {
                    self.max
                } else {
                    i as u64
                };
            }
        }
        self.max
    }

    /// Summary of this histogram.
    pub fn summary(&self) -> LatencyStats {
        LatencyStats {
            count: self.count,
            mean: self.mean(),
            p50: self.quantile(0.5),
            p99: self.quantile(0.99),
            min: if self.count == 0 { 0 } else { self.min },
            max: self.max,
        }
    }
}

impl Default for Histogram {
    fn default() -> Self {
        Self::new()
    }
}

/// Summary of a latency distribution, in cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Default)]
pub struct LatencyStats {
    /// Number of samples.
    pub count: u64,
    /// Mean.
    pub mean: f64,
    /// Median.
    pub p50: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Minimum (0 when empty).
    pub min: u64,
    /// Maximum.
    pub max: u64,
}

/// Utilisation of one link class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassUtilisation {
    /// Link class (`terminal`, `local`, `global`, `dim0`, …).
    pub class: String,
    /// Channels of this class.
    pub channels: u64,
    /// Flits carried per channel per measured cycle (0..=1).
    pub utilisation: f64,
}

/// Channels blocked in a cycle of the wait-for graph: each waits for buffer space in the
/// next (the watchdog's report).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeadlockReport {
    /// Cycle at which the watchdog fired.
    pub cycle: u64,
    /// Flits in the network when it fired.
    pub flits_in_flight: u64,
    /// The waiting channels forming the cycle, in order; each entry waits for the next and
    /// the last for the first.
    pub channels: Vec<WaitingChannel>,
}

/// One (switch, output port, VC) channel of a deadlock cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WaitingChannel {
    /// Switch the channel leaves.
    pub switch: u32,
    /// Output port.
    pub port: u16,
    /// Switch the channel enters.
    pub peer: u32,
    /// Virtual channel.
    pub vc: u8,
}

/// Statistics of one simulation run (names as BookSim2's).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimResult {
    /// Creation → ejection of the tail flit, source queueing included (BookSim2
    /// `Packet latency`).
    pub packet_latency: LatencyStats,
    /// Injection of the head flit into the network → ejection of the tail flit (BookSim2
    /// `Network latency`).
    pub network_latency: LatencyStats,
    /// Creation → injection of the head flit: the wait in the terminal's source queue
    /// (BookSim2's packet latency minus its network latency, packet by packet).
    pub queueing_latency: LatencyStats,
    /// Creation → ejection, per flit (BookSim2 `Flit latency`).
    pub flit_latency: LatencyStats,
    /// Router-to-router hops per measured packet.
    pub hops: LatencyStats,
    /// BookSim2's fragmentation per measured packet: the cycles between its head's and its
    /// tail's ejection beyond the `length − 1` of back-to-back flits.
    pub fragmentation: LatencyStats,
    /// Offered load, flits/node/cycle, during measurement: the flits of the packets
    /// created; with BookSim2's Bernoulli or on/off source (`draws = booksim`,
    /// docs/booksim.md §3.9), whose trials wait while it holds a packet, the configured
    /// rate.
    pub offered: f64,
    /// Accepted (ejected) throughput, flits/node/cycle, during measurement.
    pub accepted: f64,
    /// BookSim2's injected and accepted packet and flit rates during measurement, with
    /// their minimum and maximum over the terminals: injected counts the flits sent into
    /// the network, which past saturation stays below `offered`.
    pub rates: NodeRates,
    /// Per channel leaving a switch port (switch-major, port order; a terminal port's
    /// channel is the ejection channel): flits per measured cycle.
    pub channel_utilisation: Vec<f64>,
    /// Mean utilisation per link class.
    pub class_utilisation: Vec<ClassUtilisation>,
    /// Saturated: mean latency exceeded `latency_thres` or accepted fell clearly below
    /// offered.
    pub saturated: bool,
    /// BookSim2's verdict "Simulation unstable": the stopping rule gave up (a class's mean
    /// latency above its `latency_thres` in latency mode, or still warming up after
    /// `max_samples`), as opposed to `saturated`'s accepted-below-offered test, which
    /// BookSim2 does not make (a throughput-mode run past saturation converges in BookSim2
    /// and prints its statistics; docs/booksim.md §5). Left out of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unstable: bool,
    /// Measurement samples taken.
    pub samples: u32,
    /// Cycles simulated in total.
    pub cycles: u64,
    /// Cycles of the measurement window.
    pub measured_cycles: u64,
    /// Packets delivered in total.
    pub packets_delivered: u64,
    /// Flits delivered in total.
    pub flits_delivered: u64,
    /// Violations of flit conservation or flow control seen: a flit ejected at the wrong
    /// terminal, out of order or twice, a packet with the wrong number of flits, a credit
    /// count above the buffer size or a flit arriving at a full buffer. 0 in a correct run.
    pub conservation_errors: u64,
    /// Deadlock found by the watchdog (the run stopped there).
    pub deadlock: Option<DeadlockReport>,
    /// BookSim2's batch mode: the duration of its batches (left out of the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch_time: Option<BatchTimes>,
    /// Per traffic class (BookSim2's `classes > 1`, docs/booksim.md §3.5), in class order;
    /// the statistics above are over all classes. Left out of the JSON with one class.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<ClassStats>,
}

/// Durations of the batches of BookSim2's batch mode, cycles (BookSim2's "batch duration").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BatchTimes {
    /// Batches run.
    pub count: u32,
    /// Shortest.
    pub min: u64,
    /// Mean.
    pub mean: f64,
    /// Longest.
    pub max: u64,
}

impl BatchTimes {
    /// The statistics of `times` (`None` if empty).
    pub fn of(times: &[u64]) -> Option<Self> {
        Some(BatchTimes {
            count: times.len() as u32,
            min: *times.iter().min()?,
            mean: times.iter().sum::<u64>() as f64 / times.len() as f64,
            max: *times.iter().max()?,
        })
    }
}

/// The latency statistics of a run, recorded as flits and packets arrive: histograms of the
/// measured packets, and the mean latency of the current sample period and of all packets
/// since the last warm-up period began (convergence tests).
#[derive(Debug)]
pub(crate) struct Recorder {
    plat: Histogram,
    nlat: Histogram,
    qlat: Histogram,
    flat: Histogram,
    hops: Histogram,
    /// BookSim2's fragmentation of the measured packets (`node_counts`).
    frag: Histogram,
    sample_sum: u64,
    sample_n: u64,
    warm_sum: u64,
    warm_n: u64,
    /// Flit latency samples every flit ([`Recorder::sample_every_flit`]).
    every_flit: bool,
}

impl Recorder {
    /// Nothing recorded.
    pub fn new() -> Self {
        Recorder {
            plat: Histogram::new(),
            nlat: Histogram::new(),
            qlat: Histogram::new(),
            flat: Histogram::new(),
            hops: Histogram::new(),
            frag: Histogram::new(),
            sample_sum: 0,
            sample_n: 0,
            warm_sum: 0,
            warm_n: 0,
            every_flit: false,
        }
    }

    /// A flit of packet `p` that entered the network at cycle `injected` arrived at cycle
    /// `now`: BookSim2's flit latency, from the flit's own injection. Sampled for measured
    /// packets, or, once [`Recorder::sample_every_flit`] was called, for every flit.
    #[inline]
    pub fn flit(&mut self, p: &Packet, injected: u64, now: u64) {
        if p.measured || self.every_flit {
            self.flat.add(now - injected);
        }
    }

    /// From now on every ejected flit is a flit-latency sample, measured or not: BookSim2's
    /// population (it clears its statistics when the measurement begins and samples every
    /// flit it retires until the end of the run; docs/booksim.md §5).
    pub fn sample_every_flit(&mut self) {
        self.every_flit = true;
    }

    /// The tail of packet `p`, which took `hops` router-to-router hops and whose flits
    /// arrived `frag` cycles apart beyond back to back, arrived at cycle `now`.
    pub fn packet(&mut self, p: &Packet, (hops, frag): (u32, u64), now: u64) {
        self.warm_sum += now - p.created;
        self.warm_n += 1;
        if p.measured {
            self.plat.add(now - p.created);
            self.nlat.add(now - p.injected);
            self.qlat.add(p.injected - p.created);
            self.hops.add(u64::from(hops));
            self.frag.add(frag);
            self.sample_sum += now - p.created;
            self.sample_n += 1;
        }
    }

    /// Summary of the measured packets' packet latency.
    pub fn packet_summary(&self) -> LatencyStats {
        self.plat.summary()
    }

    /// Summary of the measured packets' network latency.
    pub fn network_summary(&self) -> LatencyStats {
        self.nlat.summary()
    }

    /// Summary of the sampled flit latencies.
    pub fn flit_summary(&self) -> LatencyStats {
        self.flat.summary()
    }

    /// Summary of the measured packets' hops.
    pub fn hops_summary(&self) -> LatencyStats {
        self.hops.summary()
    }

    /// Summary of the measured packets' fragmentation (BookSim2's "Fragmentation").
    pub fn fragmentation_summary(&self) -> LatencyStats {
        self.frag.summary()
    }

    /// Starts a warm-up period (for [`Recorder::warm_mean`]).
    pub fn start_warmup_period(&mut self) {
        self.warm_sum = 0;
        self.warm_n = 0;
    }

    /// Mean latency of the packets delivered since the warm-up period began (0 if none).
    pub fn warm_mean(&self) -> f64 {
        self.warm_sum as f64 / self.warm_n.max(1) as f64
    }

    /// Starts a sample period (for [`Recorder::sample_mean`]).
    pub fn start_sample(&mut self) {
        self.sample_sum = 0;
        self.sample_n = 0;
    }

    /// Mean latency of the measured packets delivered in the sample period (0 if none).
    pub fn sample_mean(&self) -> f64 {
        if self.sample_n == 0 {
            0.0
        } else {
            self.sample_sum as f64 / self.sample_n as f64
        }
    }

    /// BookSim2's cumulative latency `(mean, count)`: of the measured packets delivered so
    /// far (`measured`), else of all packets delivered since the warm-up period began.
    pub fn cumulative(&self, measured: bool) -> (f64, u64) {
        if measured {
            (self.plat.mean(), self.plat.count())
        } else {
            (self.warm_mean(), self.warm_n)
        }
    }

    /// Forgets everything (engine reuse); the histograms are large, and runs without
    /// measurement leave them empty.
    pub fn clear(&mut self) {
        for h in [
            &mut self.plat,
            &mut self.nlat,
            &mut self.qlat,
            &mut self.flat,
            &mut self.hops,
            &mut self.frag,
        ] {
            if h.count() > 0 {
                h.clear();
            }
        }
        self.start_sample();
        self.start_warmup_period();
        self.every_flit = false;
    }
}

impl State<'_> {
    /// The latency statistics.
    pub(crate) fn latencies(&mut self) -> &mut Recorder {
        &mut self.rec
    }

    /// Statistics of the run so far, over the measurement window `start..end`.
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
        let mcycles = end.cycle.saturating_sub(start.cycle).max(1);
        let nodes = f64::from(self.fabric.terminals);
        // BookSim2's sources (`draws = booksim`, Bernoulli or on/off) make the trials of a
        // cycle only once they hold no packet, so past saturation the packets made in the
        // window fall short of what was offered: the offered load is the configured rate.
        let offered = self
            .booksim_offered()
            .unwrap_or_else(|| (end.gen - start.gen) as f64 / nodes / mcycles as f64);
        let accepted = (end.ejected - start.ejected) as f64 / nodes / mcycles as f64;
        let unstable = saturated;
        let open_loop = matches!(cfg.injection, Injection::Bernoulli | Injection::OnOff);
        if open_loop && accepted < 0.9 * offered {
            saturated = true;
        }
        let channel_utilisation: Vec<f64> = end
            .channels
            .iter()
            .zip(&start.channels)
            .map(|(&e, &s)| (e - s) as f64 / mcycles as f64)
            .collect();
        let class_utilisation = class_utilisation(&self.fabric, &channel_utilisation);
        let rec = &self.rec;
        SimResult {
            packet_latency: rec.plat.summary(),
            network_latency: rec.nlat.summary(),
            queueing_latency: rec.qlat.summary(),
            flit_latency: rec.flat.summary(),
            hops: rec.hops.summary(),
            fragmentation: rec.frag.summary(),
            offered,
            accepted,
            rates: self.nodes.rates(&start.nodes, &end.nodes, None, mcycles),
            channel_utilisation,
            class_utilisation,
            saturated,
            unstable,
            samples,
            cycles,
            measured_cycles: mcycles,
            packets_delivered: self.total_packets,
            flits_delivered: self.total_flits,
            conservation_errors: self.violations,
            deadlock,
            batch_time: None,
            classes: self.class_stats(start, end),
        }
    }
}

/// Mean utilisation of the connected channels of each link class of `fabric`.
fn class_utilisation(fabric: &Fabric, channel_utilisation: &[f64]) -> Vec<ClassUtilisation> {
    let mut out: Vec<ClassUtilisation> = fabric
        .class_names
        .iter()
        .map(|c| ClassUtilisation {
            class: c.clone(),
            channels: 0,
            utilisation: 0.0,
        })
        .collect();
    for (i, kind) in fabric.ports.iter().enumerate() {
        if *kind == PortKind::Unconnected {
            continue;
        }
        let c = &mut out[usize::from(fabric.class[i])];
        c.channels += 1;
        c.utilisation += channel_utilisation[i];
    }
    for c in &mut out {
        if c.channels > 0 {
            c.utilisation /= c.channels as f64;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_quantiles_exact() {
        let mut h = Histogram::new();
        for v in 1..=100 {
            h.add(v);
        }
        let s = h.summary();
        assert_eq!((s.count, s.p50, s.p99, s.max), (100, 50, 99, 100));
        assert_eq!(s.mean, 50.5);
        h.add(10_000);
        assert_eq!(h.quantile(1.0), 10_000);
    }
}
