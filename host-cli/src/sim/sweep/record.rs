//! The result of one sweep point ([`Record`]) and the saturation cut along a series.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::plan::Point;
use crate::sim::engine::stats::{LatencyStats, SimResult};

/// Latency summary as stored in sweep results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Samples.
    pub count: u64,
    /// Mean, cycles.
    pub mean: f64,
    /// Median, cycles.
    pub p50: u64,
    /// 99th percentile, cycles.
    pub p99: u64,
    /// Maximum, cycles.
    pub max: u64,
}

impl From<&LatencyStats> for Summary {
    fn from(s: &LatencyStats) -> Self {
        Summary {
            count: s.count,
            mean: s.mean,
            p50: s.p50,
            p99: s.p99,
            max: s.max,
        }
    }
}

/// The result of one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Point number.
    pub point: u32,
    /// Series.
    pub series: u32,
    /// `(key, value)` of every axis.
    pub settings: Vec<(String, String)>,
    /// Offered load, flits/node/cycle.
    pub offered: f64,
    /// Accepted throughput, flits/node/cycle.
    pub accepted: f64,
    /// Packet latency (source queueing included).
    pub packet_latency: Summary,
    /// Network latency.
    pub network_latency: Summary,
    /// Source-queue wait.
    pub queueing_latency: Summary,
    /// Flit latency.
    pub flit_latency: Summary,
    /// Router-to-router hops.
    pub hops: Summary,
    /// The engine reported saturation.
    pub saturated: bool,
    /// The watchdog reported a deadlock.
    pub deadlock: bool,
    /// Cycles simulated.
    pub cycles: u64,
}

/// What the sweep runner needs of a point's result (simulator records, collective records).
pub trait SweepRecord: Send {
    /// Point number.
    fn point(&self) -> u32;
    /// Series.
    fn series(&self) -> u32;
    /// The series stops at this point (saturation, deadlock).
    fn stops(&self) -> bool;
}

impl SweepRecord for Record {
    fn point(&self) -> u32 {
        self.point
    }
    fn series(&self) -> u32 {
        self.series
    }
    fn stops(&self) -> bool {
        Record::stops(self)
    }
}

impl Record {
    /// The record of `point` from the engine's result.
    pub fn new(point: &Point, r: &SimResult) -> Record {
        Record {
            point: point.index,
            series: point.series,
            settings: point.settings.clone(),
            offered: r.offered,
            accepted: r.accepted,
            packet_latency: (&r.packet_latency).into(),
            network_latency: (&r.network_latency).into(),
            queueing_latency: (&r.queueing_latency).into(),
            flit_latency: (&r.flit_latency).into(),
            hops: (&r.hops).into(),
            saturated: r.saturated,
            deadlock: r.deadlock.is_some(),
            cycles: r.cycles,
        }
    }

    /// Saturated or deadlocked: the series stops here.
    pub fn stops(&self) -> bool {
        self.saturated || self.deadlock
    }
}

/// Sorts by point and drops, per series, every record after the first that [stops].
///
/// [stops]: Record::stops
pub fn cut_at_saturation<R: SweepRecord>(records: &mut Vec<R>) {
    records.sort_by_key(|r| r.point());
    let mut stopped = BTreeMap::new();
    records.retain(|r| {
        if stopped.contains_key(&r.series()) {
            return false;
        }
        if r.stops() {
            stopped.insert(r.series(), ());
        }
        true
    });
}
