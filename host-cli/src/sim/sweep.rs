//! Sweeps (`jumpnet sweep`): planning points over the injection rate or any [`SimConfig`]
//! key, running them on all cores, stopping at saturation, sharding across machines
//! (`--shard i/N`) and merging shard outputs (`jumpnet sweep merge`).
//!
//! - An axis is `key=a:b:step` (inclusive numeric range) or `key=v1,v2,...`; `rate` is short
//!   for `injection_rate`. The x axis of the charts is `injection_rate` when it is swept,
//!   else the first axis; every combination of the other axes' values is one series.
//! - Points are numbered series-major, x-minor. A point's result depends only on its
//!   configuration (the seed is the configuration's `seed`, the same for every point), so
//!   any subset of points can run anywhere, in any order.
//! - Stop at saturation: along each series, points after the first saturated (or
//!   deadlocked) point are not part of the result. Points are handed to the worker threads
//!   in (x, series) order and a series' points past a stopping point are skipped, so at most
//!   one point per other thread runs in vain.
//! - Shard `i/N` (0-based, `0 <= i < N`) runs the points whose number is `i` modulo `N`.
//!   A shard applies the saturation cut to its own points; [`merge`] applies it again to the
//!   union, which therefore equals the unsharded sweep record for record.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Mutex;

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::io::output::{self, Render, Section};
use crate::io::progress::Progress;
use crate::io::svg::LineChart;
use crate::sim::config::SimConfig;
use crate::sim::stats::{LatencyStats, SimResult};

/// Short names accepted for keys on the sweep command line.
pub const ALIASES: &[(&str, &str)] = &[("rate", "injection_rate")];

/// The full key of `key` (aliases resolved).
pub fn canonical_key(key: &str) -> &str {
    ALIASES
        .iter()
        .find(|(a, _)| *a == key)
        .map_or(key, |(_, k)| k)
}

/// One swept parameter and its values (as text for [`SimConfig::set`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    /// [`SimConfig`] key.
    pub key: String,
    /// Values, in sweep order.
    pub values: Vec<String>,
}

impl Axis {
    /// Parses `key=a:b:step` or `key=v1,v2,...` (`key` a [`SimConfig`] key or `rate`).
    pub fn parse(word: &str) -> Result<Axis> {
        let (k, spec) = word
            .split_once('=')
            .ok_or_else(|| anyhow!("'{word}' is not key=a:b:step or key=v1,v2,..."))?;
        let key = canonical_key(k);
        if !SimConfig::KEYS.contains(&key) {
            bail!(
                "unknown sim key '{k}' in '{word}'; known keys: rate, {}",
                SimConfig::KEYS.join(", ")
            );
        }
        let values = if spec.contains(':') {
            range_values(spec).with_context(|| format!("in '{word}'"))?
        } else {
            spec.split(',').map(|v| v.trim().to_string()).collect()
        };
        if values.iter().any(|v| v.is_empty()) {
            bail!("'{word}' has an empty value");
        }
        let mut probe = SimConfig::booksim();
        for v in &values {
            probe.set(key, v)?;
        }
        Ok(Axis {
            key: key.to_string(),
            values,
        })
    }

    /// Whether a command-line word is an axis (its value has `:` or `,`).
    pub fn is_axis(word: &str) -> bool {
        word.split_once('=')
            .is_some_and(|(_, v)| v.contains(':') || v.contains(','))
    }
}

/// Decimal places of a number as written (`0.04` → 2, `1e-3` → 3, `5` → 0).
fn decimals(s: &str) -> usize {
    let s = s.trim();
    if let Some((m, e)) = s.split_once(['e', 'E']) {
        let exp: i64 = e.parse().unwrap_or(0);
        return (decimals(m) as i64 - exp).max(0) as usize;
    }
    s.split_once('.').map_or(0, |(_, f)| f.len())
}

/// The values of `a:b:step`: `a, a+step, …` up to and including `b` (within rounding),
/// printed with as many decimals as the most precise of the three.
pub fn range_values(spec: &str) -> Result<Vec<String>> {
    let parts: Vec<&str> = spec.split(':').collect();
    let [a, b, step] = parts[..] else {
        bail!("a range is a:b:step, e.g. 0.02:0.5:0.04");
    };
    let num = |s: &str| -> Result<f64> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| anyhow!("'{s}' is not a number (range a:b:step)"))
    };
    let (x0, x1, dx) = (num(a)?, num(b)?, num(step)?);
    if dx <= 0.0 {
        bail!("step {step} must be positive (range a:b:step)");
    }
    if x1 < x0 {
        bail!("range end {b} is below its start {a} (range a:b:step)");
    }
    let n = ((x1 - x0) / dx + 1e-9).floor() as u64 + 1;
    if n > 100_000 {
        bail!("range {spec} has {n} values; at most 100000");
    }
    let places = decimals(a).max(decimals(b)).max(decimals(step));
    Ok((0..n)
        .map(|i| {
            let v = x0 + i as f64 * dx;
            let s = format!("{v:.places$}");
            // "-0.00" → "0.00"
            if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
                s[1..].to_string()
            } else {
                s
            }
        })
        .collect())
}

/// One point of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Number of the point (series-major, x-minor).
    pub index: u32,
    /// Series (combination of the non-x axes' values).
    pub series: u32,
    /// Position along the x axis.
    pub x_index: u32,
    /// `(key, value)` of every axis, in axis order.
    pub settings: Vec<(String, String)>,
}

/// The points of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Axes as given.
    pub axes: Vec<Axis>,
    /// Index into `axes` of the x axis.
    pub x_axis: usize,
    /// Every point.
    pub points: Vec<Point>,
}

impl Plan {
    /// Plans the cartesian product of `axes` (at least one; keys distinct).
    pub fn new(axes: Vec<Axis>) -> Result<Plan> {
        if axes.is_empty() {
            bail!("nothing to sweep: give at least one key=a:b:step or key=v1,v2,... (e.g. rate=0.02:0.5:0.04)");
        }
        for (i, a) in axes.iter().enumerate() {
            if axes[..i].iter().any(|b| b.key == a.key) {
                bail!("{} is swept twice", a.key);
            }
        }
        let total = axes
            .iter()
            .try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64))
            .filter(|&n| n <= 1_000_000)
            .ok_or_else(|| anyhow!("the sweep has more than 1000000 points"))?;
        let x_axis = axes
            .iter()
            .position(|a| a.key == "injection_rate")
            .unwrap_or(0);
        let nx = axes[x_axis].values.len() as u64;
        let others: Vec<usize> = (0..axes.len()).filter(|&i| i != x_axis).collect();
        let mut points = Vec::with_capacity(total as usize);
        for index in 0..total {
            let (series, xi) = (index / nx, index % nx);
            // Mixed-radix digits of `series` over the other axes, first axis most significant.
            let mut rest = series;
            let mut digit = vec![0usize; axes.len()];
            for &i in others.iter().rev() {
                let len = axes[i].values.len() as u64;
                digit[i] = (rest % len) as usize;
                rest /= len;
            }
            digit[x_axis] = xi as usize;
            points.push(Point {
                index: index as u32,
                series: series as u32,
                x_index: xi as u32,
                settings: axes
                    .iter()
                    .zip(&digit)
                    .map(|(a, &d)| (a.key.clone(), a.values[d].clone()))
                    .collect(),
            });
        }
        Ok(Plan {
            axes,
            x_axis,
            points,
        })
    }

    /// The configuration of `point`: `base` with the point's settings.
    pub fn config(&self, base: &SimConfig, point: &Point) -> Result<SimConfig> {
        let mut c = base.clone();
        for (k, v) in &point.settings {
            c.set(k, v)?;
        }
        Ok(c)
    }

    /// The points of `shard` (all points without one).
    pub fn select(&self, shard: Option<Shard>) -> Vec<&Point> {
        self.points
            .iter()
            .filter(|p| shard.is_none_or(|s| p.index % s.count == s.index))
            .collect()
    }
}

/// A shard `index/count` of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Parses `i/N` with `0 <= i < N`.
    fn from_str(s: &str) -> Result<Self, String> {
        let err = || format!("'{s}' is not a shard i/N with 0 <= i < N (e.g. 0/4 … 3/4)");
        let (i, n) = s.split_once('/').ok_or_else(err)?;
        let (index, count): (u32, u32) = (
            i.trim().parse().map_err(|_| err())?,
            n.trim().parse().map_err(|_| err())?,
        );
        if count == 0 || index >= count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }
}

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
pub fn cut_at_saturation(records: &mut Vec<Record>) {
    records.sort_by_key(|r| r.point);
    let mut stopped = BTreeMap::new();
    records.retain(|r| {
        if stopped.contains_key(&r.series) {
            return false;
        }
        if r.stops() {
            stopped.insert(r.series, ());
        }
        true
    });
}

/// The work queue of a running sweep, shared by its worker threads: [`Queue::next`] hands
/// out points in (x, series) order and skips the points of a series past a point that
/// already stopped it; [`Queue::done`] takes a finished record.
#[derive(Debug)]
pub struct Queue<'a> {
    order: Vec<&'a Point>,
    stop: bool,
    progress: &'a Progress,
    state: Mutex<QueueState>,
}

#[derive(Debug, Default)]
struct QueueState {
    next: usize,
    /// Per series, the smallest x index that stopped it.
    stopped: BTreeMap<u32, u32>,
    records: Vec<Record>,
    failed: bool,
}

impl<'a> Queue<'a> {
    /// The next point to run, `None` when there is none left (or a worker failed).
    pub fn next(&self) -> Option<&'a Point> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.failed {
            return None;
        }
        while let Some(&p) = self.order.get(st.next) {
            st.next += 1;
            let past_stop = st.stopped.get(&p.series).is_some_and(|&x| p.x_index > x);
            if !past_stop {
                return Some(p);
            }
            self.progress.inc(1);
        }
        None
    }

    /// Records the result of `point`.
    pub fn done(&self, point: &Point, record: Record) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if self.stop && record.stops() {
            let x = st.stopped.entry(point.series).or_insert(point.x_index);
            *x = (*x).min(point.x_index);
        }
        st.records.push(record);
        self.progress.inc(1);
    }

    fn fail(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).failed = true;
    }
}

/// Runs the points of `shard` on `threads` threads (at least 1). Each thread calls `worker`
/// once with the shared [`Queue`]; a worker sets up what it needs (network, routing) once,
/// then runs `queue.next()` points until there are none and hands each record to
/// `queue.done`. Returns the records sorted by point, cut at saturation when `stop` is set
/// (see the module documentation); the result does not depend on `threads`. The first
/// error of any worker is returned. `progress` advances by one per point (run or skipped).
pub fn run<W>(
    plan: &Plan,
    shard: Option<Shard>,
    stop: bool,
    threads: usize,
    progress: &Progress,
    worker: W,
) -> Result<Vec<Record>>
where
    W: Fn(&Queue<'_>) -> Result<()> + Sync,
{
    let mut order = plan.select(shard);
    order.sort_by_key(|p| (p.x_index, p.series));
    let queue = Queue {
        order,
        stop,
        progress,
        state: Mutex::new(QueueState::default()),
    };
    let threads = threads.clamp(1, queue.order.len().max(1));
    let results: Vec<Result<()>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let r = worker(&queue);
                    if r.is_err() {
                        queue.fail();
                    }
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow!("a sweep worker thread panicked")))
            })
            .collect()
    });
    for r in results {
        r?;
    }
    let mut records = queue
        .state
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .records;
    if stop {
        cut_at_saturation(&mut records);
    } else {
        records.sort_by_key(|r| r.point);
    }
    Ok(records)
}

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

/// Merges shard results into the result of the whole sweep: every part must come from the
/// same sweep (topology, routing, base, axes, saturation rule) and the shards `0..N` must
/// each appear exactly once.
pub fn merge(parts: Vec<SweepResult>) -> Result<SweepResult> {
    let Some(first) = parts.first() else {
        bail!(
            "nothing to merge: give the output directories (or results.json files) of every shard"
        );
    };
    let count = match first.shard {
        Some(s) => s.count,
        None => bail!("part 1 is a whole sweep, not a shard (it has no --shard)"),
    };
    let mut seen = vec![false; count as usize];
    for (i, p) in parts.iter().enumerate() {
        let what = |f: &str| {
            anyhow!(
                "part {} differs from part 1 in {f}: not the same sweep",
                i + 1
            )
        };
        if p.topology != first.topology {
            return Err(what("topology"));
        }
        if p.routing != first.routing {
            return Err(what("routing"));
        }
        if p.base != first.base {
            return Err(what("base configuration"));
        }
        if p.axes != first.axes || p.points != first.points {
            return Err(what("swept keys or values"));
        }
        if p.stop_at_saturation != first.stop_at_saturation {
            return Err(what("stop at saturation"));
        }
        let s = p
            .shard
            .ok_or_else(|| anyhow!("part {} is a whole sweep, not a shard", i + 1))?;
        if s.count != count {
            bail!(
                "part {} is shard {}/{} but part 1 is of {count} shards",
                i + 1,
                s.index,
                s.count
            );
        }
        if std::mem::replace(&mut seen[s.index as usize], true) {
            bail!("shard {}/{count} is given twice", s.index);
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|&i| !seen[i as usize])
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        bail!("shards missing: {}", missing.join(", "));
    }
    let mut merged = SweepResult {
        shard: None,
        records: Vec::new(),
        ..first.clone()
    };
    for p in parts {
        merged.records.extend(p.records);
    }
    if merged.stop_at_saturation {
        cut_at_saturation(&mut merged.records);
    } else {
        merged.records.sort_by_key(|r| r.point);
    }
    Ok(merged)
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
        let key = self.x_key().unwrap_or("");
        let s: Vec<String> = r
            .settings
            .iter()
            .filter(|(k, _)| k != key)
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if s.is_empty() {
            self.routing.clone()
        } else {
            s.join(" ")
        }
    }

    fn table(&self) -> Section {
        let mut headers: Vec<&str> = vec!["point"];
        headers.extend(self.axes.iter().map(|a| a.key.as_str()));
        headers.extend([
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
            "flit_latency_mean",
            "flit_latency_p50",
            "flit_latency_p99",
            "flit_latency_max",
            "hops_mean",
            "saturated",
            "deadlock",
            "cycles",
        ]);
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
            for s in [&r.packet_latency, &r.network_latency, &r.flit_latency] {
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
        let sec = self.table();
        let mut out = String::new();
        let line = |cells: &[String], out: &mut String| {
            let cells: Vec<String> = cells
                .iter()
                .map(|c| {
                    if c.contains([',', '"', '\n']) {
                        format!("\"{}\"", c.replace('"', "\"\""))
                    } else {
                        c.clone()
                    }
                })
                .collect();
            let _ = writeln!(out, "{}", cells.join(","));
        };
        line(&sec.headers, &mut out);
        for r in &sec.rows {
            line(r, &mut out);
        }
        out
    }

    /// `results.json`.
    pub fn to_json(&self) -> Result<String> {
        let mut s = serde_json::to_string_pretty(self)?;
        s.push('\n');
        Ok(s)
    }

    fn chart(&self, title: &str, y_label: &str, y: impl Fn(&Record) -> f64) -> String {
        let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        let mut ids: Vec<u32> = Vec::new();
        for r in &self.records {
            let i = match ids.iter().position(|&s| s == r.series) {
                Some(i) => i,
                None => {
                    ids.push(r.series);
                    series.push((self.series_name(r), Vec::new()));
                    ids.len() - 1
                }
            };
            series[i].1.push((self.x(r), y(r)));
        }
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

    /// Writes `results.csv`, `results.json`, `latency.svg` and `throughput.svg` into `dir`
    /// (created if missing). Everything is rendered before the first write and each file is
    /// written atomically.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let files = [
            ("results.csv", self.to_csv()),
            ("results.json", self.to_json()?),
            ("latency.svg", self.latency_svg()),
            ("throughput.svg", self.throughput_svg()),
        ];
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output directory {}", dir.display()))?;
        for (name, text) in files {
            output::write_atomic(&dir.join(name), text.as_bytes())?;
        }
        Ok(())
    }

    /// Reads a `results.json` (or the one inside a directory).
    pub fn read(path: &Path) -> Result<SweepResult> {
        let file = if path.is_dir() {
            path.join("results.json")
        } else {
            path.to_path_buf()
        };
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a jumpnet sweep results.json", file.display()))
    }
}

impl Render for SweepResult {
    /// A compact table for the terminal (results.csv has every column at full precision).
    fn sections(&self) -> Vec<Section> {
        let mut headers: Vec<&str> = vec!["point"];
        headers.extend(self.axes.iter().map(|a| a.key.as_str()));
        headers.extend([
            "offered",
            "accepted",
            "packet_latency_mean",
            "packet_latency_p99",
            "network_latency_mean",
            "saturated",
        ]);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_lists() {
        assert_eq!(
            range_values("0.02:0.5:0.04").unwrap(),
            [
                "0.02", "0.06", "0.10", "0.14", "0.18", "0.22", "0.26", "0.30", "0.34", "0.38",
                "0.42", "0.46", "0.50"
            ]
        );
        assert_eq!(range_values("1:4:1").unwrap(), ["1", "2", "3", "4"]);
        assert_eq!(range_values("0.1:0.3:0.1").unwrap(), ["0.1", "0.2", "0.3"]);
        assert!(range_values("0.5:0.1:0.1").is_err());
        assert!(range_values("0:1:0").is_err());
        assert!(range_values("0:1").is_err());
        let a = Axis::parse("rate=0.1:0.2:0.05").unwrap();
        assert_eq!(a.key, "injection_rate");
        assert_eq!(a.values, ["0.10", "0.15", "0.20"]);
        let a = Axis::parse("traffic=uniform,tornado").unwrap();
        assert_eq!(a.values, ["uniform", "tornado"]);
        let e = Axis::parse("ratee=0.1,0.2").unwrap_err().to_string();
        assert!(e.contains("'ratee'") && e.contains("num_vcs"));
        let e = format!("{:#}", Axis::parse("rate=0.5:1.5:0.5").unwrap_err());
        assert!(e.contains("injection_rate") && e.contains("0..=1"), "{e}");
        assert!(Axis::is_axis("rate=0.1,0.2") && !Axis::is_axis("num_vcs=2"));
    }

    fn plan() -> Plan {
        Plan::new(vec![
            Axis::parse("num_vcs=2,4").unwrap(),
            Axis::parse("rate=0.1:0.4:0.1").unwrap(),
        ])
        .unwrap()
    }

    #[test]
    fn plan_is_series_major_with_rate_as_x() {
        let p = plan();
        assert_eq!(p.x_axis, 1);
        assert_eq!(p.points.len(), 8);
        assert_eq!(p.points[5].series, 1);
        assert_eq!(p.points[5].x_index, 1);
        assert_eq!(
            p.points[5].settings,
            [
                ("num_vcs".to_string(), "4".to_string()),
                ("injection_rate".to_string(), "0.2".to_string())
            ]
        );
        let c = p.config(&SimConfig::booksim(), &p.points[5]).unwrap();
        assert_eq!((c.num_vcs, c.injection_rate), (4, 0.2));
        assert_eq!(
            p.select(Some("1/3".parse().unwrap()))
                .iter()
                .map(|p| p.index)
                .collect::<Vec<_>>(),
            [1, 4, 7]
        );
        assert!("3/3".parse::<Shard>().is_err() && "1".parse::<Shard>().is_err());
        assert!(Plan::new(vec![]).is_err());
        assert!(Plan::new(vec![
            Axis::parse("seed=1,2").unwrap(),
            Axis::parse("seed=3,4").unwrap()
        ])
        .is_err());
    }

    /// Runs every point of the queue with [`fake`].
    fn worker(q: &Queue<'_>) -> Result<()> {
        while let Some(p) = q.next() {
            q.done(p, fake(p)?);
        }
        Ok(())
    }

    /// A fake engine: saturates above rate 0.25 for 2 VCs and above 0.35 for 4 VCs.
    fn fake(p: &Point) -> Result<Record> {
        let cfg = plan().config(&SimConfig::booksim(), p)?;
        let limit = if cfg.num_vcs == 2 { 0.25 } else { 0.35 };
        let sat = cfg.injection_rate > limit;
        let lat = LatencyStats {
            count: 100,
            mean: 10.0 / (1.0 - cfg.injection_rate),
            p50: 10,
            p99: 20,
            max: 30,
        };
        Ok(Record::new(
            p,
            &SimResult {
                packet_latency: lat.clone(),
                network_latency: lat.clone(),
                flit_latency: lat.clone(),
                hops: lat,
                offered: cfg.injection_rate,
                accepted: cfg.injection_rate.min(limit),
                channel_utilisation: vec![],
                class_utilisation: vec![],
                saturated: sat,
                samples: 1,
                cycles: 1000,
                measured_cycles: 1000,
                packets_delivered: 1,
                flits_delivered: 1,
                conservation_errors: 0,
                deadlock: None,
            },
        ))
    }

    fn result(records: Vec<Record>, shard: Option<Shard>) -> SweepResult {
        let p = plan();
        SweepResult {
            topology: "torus k=4,4 t=1".into(),
            routing: "dor-dateline".into(),
            base: serde_json::to_value(SimConfig::booksim()).unwrap(),
            axes: p.axes.clone(),
            points: p.points.len() as u32,
            stop_at_saturation: true,
            shard,
            records,
        }
    }

    #[test]
    fn stops_at_saturation_and_shards_merge_to_the_whole() {
        let p = plan();
        let quiet = Progress::new("", 0, false);
        let whole = run(&p, None, true, 2, &quiet, worker).unwrap();
        // 2 VCs: 0.1, 0.2, 0.3 (first saturated); 4 VCs: 0.1 … 0.4 (saturated at 0.4).
        assert_eq!(
            whole.iter().map(|r| r.point).collect::<Vec<_>>(),
            [0, 1, 2, 4, 5, 6, 7]
        );
        for t in [1, 3, 8] {
            assert_eq!(run(&p, None, true, t, &quiet, worker).unwrap(), whole);
        }
        let e = run(&p, None, true, 2, &quiet, |q: &Queue<'_>| {
            while let Some(p) = q.next() {
                if p.index == 5 {
                    bail!("engine failed at point 5");
                }
                q.done(p, fake(p)?);
            }
            Ok(())
        })
        .unwrap_err();
        assert!(e.to_string().contains("point 5"));
        let all = run(&p, None, false, 3, &quiet, worker).unwrap();
        assert_eq!(all.len(), 8);
        let whole = result(whole, None);
        for n in [2u32, 3, 5] {
            let parts: Vec<SweepResult> = (0..n)
                .rev()
                .map(|i| {
                    let s = Shard { index: i, count: n };
                    result(
                        run(&p, Some(s), true, i as usize + 1, &quiet, worker).unwrap(),
                        Some(s),
                    )
                })
                .collect();
            // Through JSON, as the files are merged.
            let parts = parts
                .into_iter()
                .map(|r| serde_json::from_str(&r.to_json().unwrap()).unwrap())
                .collect();
            let merged = merge(parts).unwrap();
            assert_eq!(merged.to_json().unwrap(), whole.to_json().unwrap());
            assert_eq!(merged.to_csv(), whole.to_csv());
        }
    }

    #[test]
    fn merge_refuses_mismatched_parts() {
        let s0 = Shard { index: 0, count: 2 };
        let s1 = Shard { index: 1, count: 2 };
        let e = merge(vec![result(vec![], Some(s0))])
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing: 1/2"), "{e}");
        let e = merge(vec![result(vec![], Some(s0)), result(vec![], Some(s0))])
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice"));
        let mut other = result(vec![], Some(s1));
        other.routing = "dor".into();
        let e = merge(vec![result(vec![], Some(s0)), other])
            .unwrap_err()
            .to_string();
        assert!(e.contains("routing"));
        assert!(merge(vec![result(vec![], None)]).is_err());
        assert!(merge(vec![]).is_err());
    }

    #[test]
    fn outputs_render() {
        let p = plan();
        let quiet = Progress::new("", 0, false);
        let r = result(run(&p, None, true, 2, &quiet, worker).unwrap(), None);
        let csv = r.to_csv();
        assert!(
            csv.starts_with("point,num_vcs,injection_rate,offered,accepted,packet_latency_mean")
        );
        assert_eq!(csv.lines().count(), 1 + r.records.len());
        let svg = r.latency_svg();
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("num_vcs=4") && svg.contains(">0.10<"));
        assert_eq!(r.throughput_svg().matches("<circle").count(), 7);
        assert_eq!(
            r.saturation(),
            [
                (
                    "num_vcs=2".to_string(),
                    Some("injection_rate=0.3".to_string())
                ),
                (
                    "num_vcs=4".to_string(),
                    Some("injection_rate=0.4".to_string())
                )
            ]
        );
        let dir = std::env::temp_dir().join(format!("jumpnet-sweep-{}", std::process::id()));
        r.write(&dir).unwrap();
        assert_eq!(SweepResult::read(&dir).unwrap(), r);
        for f in ["results.csv", "latency.svg", "throughput.svg"] {
            assert!(dir.join(f).is_file());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
