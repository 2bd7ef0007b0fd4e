//! Collective sweeps (`jumpnet sweep --collective …`): one record per point
//! ([`CollectiveRecord`]: makespan, finish times, hops, background latency) and the
//! outputs of the whole sweep ([`CollectiveSweepResult`]: `results.csv`, `results.json`,
//! `makespan.svg` = makespan against the x axis, one line per series).
//!
//! The axes are the collective's (`collective`, `msg`, `mapping`, `ranks`, `map_seed`,
//! `routing`, `background`) and any simulator key; planning, threads and the work queue are
//! those of every sweep ([`super::Plan`], [`super::run`]). Collective points never stop a
//! series.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::axis::Axis;
use super::plan::Point;
use super::record::SweepRecord;
use super::series;
use crate::io::bytes::parse_size;
use crate::io::outdir::OutDir;
use crate::io::output::{self, Render, Section};
use crate::io::svg::LineChart;
use crate::sim::workload::collective::CollectiveResult;

/// The result of one collective point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CollectiveRecord {
    /// Point number.
    pub point: u32,
    /// Series.
    pub series: u32,
    /// `(key, value)` of every axis.
    pub settings: Vec<(String, String)>,
    /// Ranks of the collective.
    pub ranks: u32,
    /// Makespan, cycles.
    pub makespan_cycles: u64,
    /// Makespan, seconds.
    pub makespan_seconds: f64,
    /// Mean finish time of the ranks, cycles.
    pub finish_mean: f64,
    /// Earliest finish time, cycles.
    pub finish_min: u64,
    /// Messages of the collective.
    pub messages: u64,
    /// Packets of the collective.
    pub packets: u64,
    /// Mean router-to-router hops of the collective's packets.
    pub hops_mean: f64,
    /// Redundant block deliveries.
    pub redundant: u64,
    /// Background messages queued (`None`: no background traffic).
    pub background_sent: Option<u64>,
    /// Background messages delivered before the makespan.
    pub background_delivered: Option<u64>,
    /// Mean latency of the delivered background messages, cycles.
    pub background_latency_mean: Option<f64>,
}

impl CollectiveRecord {
    /// The record of `point` from a collective run.
    pub fn new(point: &Point, r: &CollectiveResult) -> Self {
        let bg = r.background.as_ref();
        CollectiveRecord {
            point: point.index,
            series: point.series,
            settings: point.settings.clone(),
            ranks: r.ranks,
            makespan_cycles: r.makespan_cycles,
            makespan_seconds: r.makespan_seconds,
            finish_mean: r.finish_summary.mean,
            finish_min: r.finish_summary.min,
            messages: r.messages,
            packets: r.packets,
            hops_mean: r.hops_mean,
            redundant: r.redundant,
            background_sent: bg.map(|b| b.messages_sent),
            background_delivered: bg.map(|b| b.messages_delivered),
            background_latency_mean: bg.map(|b| b.latency.mean),
        }
    }

    /// The value of axis `key` at this point.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl SweepRecord for CollectiveRecord {
    fn point(&self) -> u32 {
        self.point
    }
    fn series(&self) -> u32 {
        self.series
    }
    fn stops(&self) -> bool {
        false
    }
}

/// A collective sweep's result file (`results.json`) and the data of its CSV and chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CollectiveSweepResult {
    /// Topology, canonical form.
    pub topology: String,
    /// Routing algorithm of the base setup (a `routing` axis overrides it).
    pub routing: String,
    /// Base simulator configuration.
    pub base: serde_json::Value,
    /// Axes; the first is the x axis of the chart.
    pub axes: Vec<Axis>,
    /// Points planned.
    pub points: u32,
    /// Results, sorted by point.
    pub records: Vec<CollectiveRecord>,
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

impl CollectiveSweepResult {
    fn x_key(&self) -> &str {
        self.axes.first().map_or("", |a| a.key.as_str())
    }

    /// x of a record: the byte count for `msg`, the number for numeric values, else the
    /// value's position on the axis.
    fn x(&self, r: &CollectiveRecord) -> f64 {
        let key = self.x_key();
        let v = r.setting(key).unwrap_or("");
        if key == "msg" {
            if let Ok(b) = parse_size(v) {
                return b as f64;
            }
        }
        v.parse::<f64>().unwrap_or_else(|_| {
            self.axes
                .first()
                .and_then(|a| a.values.iter().position(|x| x == v))
                .unwrap_or(0) as f64
        })
    }

    fn series_name(&self, r: &CollectiveRecord) -> String {
        series::series_name(&r.settings, self.x_key(), &self.routing)
    }

    fn table(&self) -> Section {
        let headers = series::headers(
            &self.axes,
            &[
                "job_ranks",
                "makespan_cycles",
                "makespan_seconds",
                "finish_mean",
                "finish_min",
                "messages",
                "packets",
                "hops_mean",
                "redundant",
                "background_sent",
                "background_delivered",
                "background_latency_mean",
            ],
        );
        let mut sec = Section::new("collective sweep", &headers);
        for r in &self.records {
            let mut row = vec![r.point.to_string()];
            for a in &self.axes {
                row.push(r.setting(&a.key).unwrap_or("").to_string());
            }
            row.extend([
                r.ranks.to_string(),
                r.makespan_cycles.to_string(),
                format!("{:e}", r.makespan_seconds),
                format!("{:.2}", r.finish_mean),
                r.finish_min.to_string(),
                r.messages.to_string(),
                r.packets.to_string(),
                format!("{:.4}", r.hops_mean),
                r.redundant.to_string(),
                opt(r.background_sent),
                opt(r.background_delivered),
                opt(r.background_latency_mean.map(|m| format!("{m:.2}"))),
            ]);
            sec.row(row);
        }
        sec
    }

    /// `results.csv`.
    pub fn to_csv(&self) -> String {
        output::section_csv(&self.table())
    }

    /// `results.json`.
    pub fn to_json(&self) -> Result<String> {
        output::to_json(self)
    }

    /// `makespan.svg`: makespan (cycles) against the x axis, one line per series.
    pub fn makespan_svg(&self) -> String {
        let series = series::chart_lines(
            &self.records,
            |r| self.series_name(r),
            |r| (self.x(r), r.makespan_cycles as f64),
        );
        let x_label = match self.x_key() {
            "msg" => "message size (bytes)".to_string(),
            k => k.to_string(),
        };
        LineChart {
            title: format!("Collective makespan: {} / {}", self.topology, self.routing),
            x_label,
            y_label: "makespan (cycles)".into(),
            series,
        }
        .render()
    }

    /// Writes `results.csv`, `results.json` and `makespan.svg` into the claimed output
    /// directory, whole ([`OutDir`]; everything rendered first).
    pub fn write(&self, out: OutDir) -> Result<()> {
        let files = [
            ("results.csv", self.to_csv()),
            ("results.json", self.to_json()?),
            ("makespan.svg", self.makespan_svg()),
        ];
        out.write_all(&files)
    }
}

impl Render for CollectiveSweepResult {
    fn sections(&self) -> Vec<Section> {
        let headers = series::headers(
            &self.axes,
            &[
                "makespan_cycles",
                "makespan_seconds",
                "hops_mean",
                "bg_latency",
            ],
        );
        let mut sec = Section::new("collective sweep", &headers);
        for r in &self.records {
            let mut row = vec![r.point.to_string()];
            row.extend(r.settings.iter().map(|(_, v)| v.clone()));
            row.extend([
                r.makespan_cycles.to_string(),
                format!("{:.4e}", r.makespan_seconds),
                format!("{:.3}", r.hops_mean),
                opt(r.background_latency_mean.map(|m| format!("{m:.1}"))),
            ]);
            sec.row(row);
        }
        vec![sec]
    }
}
