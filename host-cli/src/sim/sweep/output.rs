//! A sweep's result ([`SweepResult`]) and its outputs: `results.csv`, `results.json`,
//! the latency and throughput charts and the terminal table.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::axis::Axis;
use super::plan::Shard;
use super::record::Record;
use super::series;
use crate::io::outdir::OutDir;
use crate::io::output::{self, Render, Section};
use crate::io::svg::LineChart;

/// A sweep's result file (`results.json`) and the data of its CSV and charts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    /// Topology, canonical form.
    pub topology: String,
    /// Routing algorithm.
    pub routing: String,
    /// Base configuration (before the axes are applied).
    pub base: serde_json::Value,
    /// Axes.
    pub axes: Vec<Axis>,
    /// Points planned in the whole sweep.
    pub points: u32,
    /// Saturation stops a series.
    pub stop_at_saturation: bool,
    /// The shard this file holds (`null`: the whole sweep).
    pub shard: Option<Shard>,
    /// Results, sorted by point.
    pub records: Vec<Record>,
}

impl SweepResult {
    fn x_key(&self) -> Option<&str> {
        self.axes
            .iter()
            .find(|a| a.key == "injection_rate")
            .or(self.axes.first())
            .map(|a| a.key.as_str())
    }

    /// x value of a record: the x axis's value when numeric, else its position.
    fn x(&self, r: &Record) -> f64 {
        let key = self.x_key().unwrap_or("");
        let v = r.settings.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        match v.and_then(|v| v.parse::<f64>().ok()) {
            Some(x) => x,
            None => self
                .axes
                .iter()
                .find(|a| a.key == key)
                .and_then(|a| v.and_then(|v| a.values.iter().position(|x| x == v)))
                .unwrap_or(0) as f64,
        }
    }

    fn series_name(&self, r: &Record) -> String {
        series::series_name(&r.settings, self.x_key().unwrap_or(""), &self.routing)
    }

    fn table(&self) -> Section {
        let headers = series::headers(
            &self.axes,
            &[
                "offered",
                "accepted",
                "packet_latency_mean",
                "packet_latency_p50",
                "packet_latency_p99",
                "packet_latency_max",
                "network_latency_mean",
                "network_latency_p50",
                "network_latency_p99",
                "network_latency_max",
                "queueing_latency_mean",
                "queueing_latency_p50",
                "queueing_latency_p99",
                "queueing_latency_max",
                "flit_latency_mean",
                "flit_latency_p50",
                "flit_latency_p99",
                "flit_latency_max",
                "hops_mean",
                "saturated",
                "deadlock",
                "cycles",
            ],
        );
        let mut sec = Section::new("sweep", &headers);
        for r in &self.records {
            let mut row = vec![r.point.to_string()];
            for a in &self.axes {
                row.push(
                    r.settings
                        .iter()
                        .find(|(k, _)| *k == a.key)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default(),
                );
            }
            row.push(r.offered.to_string());
            row.push(r.accepted.to_string());
            for s in [
                &r.packet_latency,
                &r.network_latency,
                &r.queueing_latency,
                &r.flit_latency,
            ] {
                row.push(s.mean.to_string());
                row.push(s.p50.to_string());
                row.push(s.p99.to_string());
                row.push(s.max.to_string());
            }
            row.push(r.hops.mean.to_string());
            row.push(r.saturated.to_string());
            row.push(r.deadlock.to_string());
            row.push(r.cycles.to_string());
            sec.row(row);
        }
        sec
    }

    /// Per series (name), the x-axis value of its first saturated (or deadlocked) point, if
    /// any: where the network saturates.
    pub fn saturation(&self) -> Vec<(String, Option<String>)> {
        let key = self.x_key().unwrap_or("").to_string();
        let mut out: Vec<(u32, String, Option<String>)> = Vec::new();
        for r in &self.records {
            let i = match out.iter().position(|(s, _, _)| *s == r.series) {
                Some(i) => i,
                None => {
                    out.push((r.series, self.series_name(r), None));
                    out.len() - 1
                }
            };
            if r.stops() && out[i].2.is_none() {
                let v = r.settings.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
                out[i].2 = Some(format!(
                    "{key}={}{}",
                    v.map_or("?", |v| v.as_str()),
                    if r.deadlock { " (deadlock)" } else { "" }
                ));
            }
        }
        out.into_iter().map(|(_, n, a)| (n, a)).collect()
    }

    /// `results.csv`: one header line, one line per record.
    pub fn to_csv(&self) -> String {
        output::section_csv(&self.table())
    }

    /// `results.json`.
    pub fn to_json(&self) -> Result<String> {
        output::to_json(self)
    }

    fn chart(&self, title: &str, y_label: &str, y: impl Fn(&Record) -> f64) -> String {
        let series = series::chart_lines(
            &self.records,
            |r| self.series_name(r),
            |r| (self.x(r), y(r)),
        );
        let x_label = match self.x_key() {
            Some("injection_rate") => "injection rate (configured)".to_string(),
            Some(k) => k.to_string(),
            None => String::new(),
        };
        LineChart {
            title: format!("{title}: {} / {}", self.topology, self.routing),
            x_label,
            y_label: y_label.into(),
            series,
        }
        .render()
    }

    /// `latency.svg`: mean packet latency against the x axis.
    pub fn latency_svg(&self) -> String {
        self.chart("Latency–load", "mean packet latency (cycles)", |r| {
            r.packet_latency.mean
        })
    }

    /// `throughput.svg`: accepted throughput against the x axis.
    pub fn throughput_svg(&self) -> String {
        self.chart(
            "Throughput–load",
            "accepted throughput (flits/node/cycle)",
            |r| r.accepted,
        )
    }

    /// Writes `results.csv`, `results.json`, `latency.svg` and `throughput.svg` into the
    /// claimed output directory, whole ([`OutDir`]; its manifest holds the checksums that
    /// `sweep merge` verifies). Everything is rendered before the first write.
    pub fn write(&self, out: OutDir) -> Result<()> {
        let files = [
            ("results.csv", self.to_csv()),
            ("results.json", self.to_json()?),
            ("latency.svg", self.latency_svg()),
            ("throughput.svg", self.throughput_svg()),
        ];
        out.write_all(&files)
    }

    /// Reads a `results.json` (or the one inside a directory).
    pub fn read(path: &Path) -> Result<SweepResult> {
        let (file, text) = read_results(path)?;
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a jumpnet sweep results.json", file.display()))
    }

    /// Reads a shard's `results.json` (or the one inside a directory) and verifies it
    /// against the checksum in the manifest `jumpnet sweep --shard` wrote beside it
    /// ([`crate::io::outdir::verify_file`]): a shard changed by hand is refused, naming the
    /// file.
    pub fn read_shard(path: &Path) -> Result<SweepResult> {
        let (file, text) = read_results(path)?;
        crate::io::outdir::verify_file(&file, text.as_bytes(), "a sweep shard's results.json")?;
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a jumpnet sweep results.json", file.display()))
    }
}

/// The `results.json` named by `path` (or inside the directory `path`) and its text.
fn read_results(path: &Path) -> Result<(std::path::PathBuf, String)> {
    let file = if path.is_dir() {
        path.join("results.json")
    } else {
        path.to_path_buf()
    };
    let text = crate::io::read::read_text(&file, crate::io::read::Limit::SWEEP_RESULTS)?;
    Ok((file, text))
}

impl Render for SweepResult {
    /// A compact table for the terminal (results.csv has every column at full precision).
    fn sections(&self) -> Vec<Section> {
        let headers = series::headers(
            &self.axes,
            &[
                "offered",
                "accepted",
                "packet_latency_mean",
                "packet_latency_p99",
                "network_latency_mean",
                "saturated",
            ],
        );
        let mut sec = Section::new("sweep", &headers);
        for r in &self.records {
            let mut row = vec![r.point.to_string()];
            row.extend(r.settings.iter().map(|(_, v)| v.clone()));
            row.extend([
                format!("{:.4}", r.offered),
                format!("{:.4}", r.accepted),
                format!("{:.2}", r.packet_latency.mean),
                r.packet_latency.p99.to_string(),
                format!("{:.2}", r.network_latency.mean),
                if r.deadlock {
                    "deadlock".to_string()
                } else {
                    r.saturated.to_string()
                },
            ]);
            sec.row(row);
        }
        let mut sat = Section::new("saturation", &["series", "first saturated at"]);
        for (name, at) in self.saturation() {
            sat.row([name, at.unwrap_or_else(|| "not saturated".into())]);
        }
        vec![sec, sat]
    }
}
