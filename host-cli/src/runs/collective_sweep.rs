//! Collective sweeps: collective runs ([`crate::runs::collective`]) over message size,
//! mapping, algorithm, ranks, allocation seed, routing, background traffic and any
//! simulator key, on all cores ([`crate::sim::sweep::collective`] holds the records and
//! outputs).
//!
//! Collective axes are written like every sweep axis, as `key=v1,v2,...` words:
//! `collective=tree,llf,glf,forest`, `msg=256B,1KiB,64KiB`, `mapping=random,circulant`,
//! `ranks=16,32,64`, `map_seed=1,2,3` (random mappings and job allocations),
//! `routing=df-minimal,df-valiant,df-ugal-l`, `background=none,100us,5000`. A single value
//! (`msg=4KiB`) fixes it. The chart's x axis is `msg` when it has several values, else
//! `ranks`, else the first axis given.

use anyhow::{anyhow, bail, Context, Result};
use clap::ValueEnum;

use crate::builder::routing::{algo_ignore_case, RouteAlgo, RouteOptions};
use crate::builder::schedule::Algorithm;
use crate::io::bytes::parse_size;
use crate::io::duration::parse_span;
use crate::io::progress::Progress;
use crate::runs::collective::{simulate, CollectiveOptions, CollectiveRun, Mapping};
use crate::sim::setup::Setup;
use crate::sim::sweep::collective::{CollectiveRecord, CollectiveSweepResult};
use crate::sim::sweep::{self, Axis, Plan, Queue};

/// Collective axis keys (as `key=v1,v2,...` words).
pub const COLLECTIVE_KEYS: &[&str] = &[
    "collective",
    "msg",
    "mapping",
    "ranks",
    "map_seed",
    "routing",
    "background",
];

/// Whether a word sets a collective axis.
pub fn is_collective_word(word: &str) -> bool {
    word.split_once('=')
        .is_some_and(|(k, _)| COLLECTIVE_KEYS.contains(&k))
}

fn enum_value<T: ValueEnum>(key: &str, v: &str) -> Result<T> {
    T::from_str(v, true).map_err(|_| {
        let known: Vec<String> = T::value_variants()
            .iter()
            .filter_map(|x| x.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        unknown(key, v, &known)
    })
}

/// One point's collective: the algorithm (if chosen yet), how it runs and its routing.
#[derive(Clone, Debug)]
pub struct PointRun {
    /// The collective.
    pub algorithm: Option<Algorithm>,
    /// How it runs.
    pub options: CollectiveOptions,
    /// The routing.
    pub route: RouteOptions,
}

/// A routing axis value: core's names, any case (as [`enum_value`] reads the others).
fn routing_value(key: &str, v: &str) -> Result<RouteAlgo> {
    algo_ignore_case(v).ok_or_else(|| unknown(key, v, &RouteAlgo::ALL.map(RouteAlgo::name)))
}

fn unknown(key: &str, v: &str, known: &[impl AsRef<str>]) -> anyhow::Error {
    let known: Vec<&str> = known.iter().map(AsRef::as_ref).collect();
    anyhow!("{key}={v}: unknown value; allowed: {}", known.join(", "))
}

impl PointRun {
    /// Applies `key=value` of a collective axis.
    pub fn apply(&mut self, key: &str, v: &str) -> Result<()> {
        let opts = &mut self.options;
        match key {
            "collective" => self.algorithm = Some(enum_value::<Algorithm>(key, v)?),
            "msg" => opts.msg_bytes = parse_size(v).map_err(|e| anyhow!("msg={v}: {e}"))?,
            "mapping" => opts.mapping = enum_value::<Mapping>(key, v)?,
            "ranks" => {
                opts.ranks = Some(
                    v.parse()
                        .map_err(|_| anyhow!("ranks={v}: give a positive whole number"))?,
                )
            }
            "map_seed" => {
                opts.map_seed = v
                    .parse()
                    .map_err(|_| anyhow!("map_seed={v}: give a whole number"))?
            }
            "routing" => self.route.algo = routing_value(key, v)?,
            "background" => {
                opts.background_mean = if v == "none" {
                    None
                } else {
                    Some(parse_span(v).map_err(|e| anyhow!("background={v}: {e} (or none)"))?)
                }
            }
            _ => bail!(
                "'{key}' is not a collective axis; known: {}",
                COLLECTIVE_KEYS.join(", ")
            ),
        }
        Ok(())
    }
}

/// Parses a collective axis word `key=v1,v2,...`, checking every value against `base`.
pub fn parse_axis(word: &str, base: &PointRun) -> Result<Axis> {
    let (key, spec) = word
        .split_once('=')
        .ok_or_else(|| anyhow!("'{word}' is not key=v1,v2,..."))?;
    let values: Vec<String> = spec.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        bail!("'{word}' has an empty value");
    }
    let mut probe = base.clone();
    for v in &values {
        probe.apply(key, v)?;
    }
    Ok(Axis {
        key: key.to_string(),
        values,
    })
}

/// The axes with the chart's x axis first: `msg` when it has several values, else `ranks`,
/// else the first given.
fn order_axes(mut axes: Vec<Axis>) -> Vec<Axis> {
    let pick = ["msg", "ranks"]
        .iter()
        .find_map(|k| axes.iter().position(|a| a.key == *k && a.values.len() > 1));
    if let Some(i) = pick {
        let x = axes.remove(i);
        axes.insert(0, x);
    }
    axes
}

/// A collective sweep.
#[derive(Debug)]
pub struct CollectiveSweep<'a> {
    /// Topology, routing and base simulator configuration (sim-key axes in `setup.axes`).
    pub setup: &'a Setup,
    /// The collective of every point without a `collective` axis.
    pub algorithm: Option<Algorithm>,
    /// How the base run goes.
    pub base: &'a CollectiveOptions,
    /// Collective axis words (`key=v1,v2,...`).
    pub words: &'a [String],
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Show a progress bar.
    pub progress: bool,
}

impl CollectiveSweep<'_> {
    fn base_run(&self) -> PointRun {
        PointRun {
            algorithm: self.algorithm,
            options: self.base.clone(),
            route: self.setup.route,
        }
    }
}

/// Runs a collective sweep: every combination of the collective axes and the setup's
/// simulator-key axes, one collective run per point.
pub fn sweep(s: &CollectiveSweep<'_>) -> Result<CollectiveSweepResult> {
    let base = s.base_run();
    let mut axes = Vec::new();
    for w in s.words {
        axes.push(parse_axis(w, &base)?);
    }
    axes.extend(s.setup.axes.iter().cloned());
    if s.algorithm.is_none() && !axes.iter().any(|a| a.key == "collective") {
        bail!("no collective to sweep: give --collective ALGO or collective=ALGO1,ALGO2,...");
    }
    if axes.is_empty() {
        // A single point: the base run.
        axes.push(Axis {
            key: "msg".into(),
            values: vec![s.base.msg_bytes.to_string()],
        });
    }
    let plan = Plan::new(order_axes(axes))?;
    let progress = Progress::new("collective sweep", plan.points.len() as u64, s.progress);
    let records = sweep::run(
        &plan,
        None,
        false,
        s.threads,
        &progress,
        |queue: &Queue<'_, CollectiveRecord>| {
            while let Some(p) = queue.next() {
                let mut point = base.clone();
                let mut setup = s.setup.clone();
                for (k, v) in &p.settings {
                    if COLLECTIVE_KEYS.contains(&k.as_str()) {
                        point.apply(k, v)?;
                    } else {
                        setup.config.set(k, v)?;
                    }
                }
                setup.route = point.route;
                let report = point_report(&setup, point).with_context(|| {
                    let s: Vec<String> =
                        p.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    format!("sweep point {} ({})", p.index, s.join(" "))
                })?;
                queue.done(p, CollectiveRecord::new(p, &report.result));
            }
            Ok(())
        },
    );
    progress.finish();
    Ok(CollectiveSweepResult {
        topology: s.setup.topology.to_string(),
        routing: s.setup.route.algo.name().to_string(),
        base: serde_json::to_value(&s.setup.config)?,
        axes: plan.axes.clone(),
        points: plan.points.len() as u32,
        records: records?,
    })
}

/// The run of one point.
fn point_report(
    setup: &Setup,
    point: PointRun,
) -> Result<crate::runs::collective::CollectiveReport> {
    let Some(algorithm) = point.algorithm else {
        bail!("no --collective given");
    };
    simulate(
        setup,
        &CollectiveRun {
            algorithm,
            options: point.options,
        },
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "collective_sweep_tests.rs"]
mod tests;
