//! Bounded streaming statistics of a simulation (issue 9): fixed-bucket histograms and the
//! [`SimResult`] the engine returns. Memory does not grow with simulated time.

use serde::Serialize;

/// Fixed-bucket latency histogram: buckets of width 1 cycle up to `LINEAR`, then a final
/// overflow bucket; the exact maximum and sum are kept apart, so mean and max are exact and
/// p50/p99 are exact below `LINEAR` cycles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    buckets: Vec<u64>,
    count: u64,
    sum: u128,
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
        self.max = self.max.max(v);
    }

    /// Clears all counts.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = 0);
        self.count = 0;
        self.sum = 0;
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
/// next (spec: issue 9 watchdog).
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
    /// Offered load, flits/node/cycle, during measurement.
    pub offered: f64,
    /// Accepted (ejected) throughput, flits/node/cycle, during measurement.
    pub accepted: f64,
    /// Per channel leaving a switch port (switch-major, port order; a terminal port's
    /// channel is the ejection channel): flits per measured cycle.
    pub channel_utilisation: Vec<f64>,
    /// Mean utilisation per link class.
    pub class_utilisation: Vec<ClassUtilisation>,
    /// Saturated: mean latency exceeded `latency_thres` or accepted fell clearly below
    /// offered.
    pub saturated: bool,
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
