//! `jumpnet report`: the main job. Compares topologies on a scenario (by default the embedded
//! \[DISS\] chapter-5 comparison at N = 1,024, degree 19): diameter, ASPL, cable length,
//! total hop counts of broadcast, allreduce and alltoall under the ring, random, BFS-tree,
//! circulant and two-opt mappings, and their simulated makespans at a small and a large
//! message size (docs/reference-results.md A8); written as Markdown, JSON and SVG charts into an
//! output directory, with a summary on stdout.
//!
//! [`run_scenario`] computes a [`Report`]; `jumpnet report` prints it.

mod hops;
mod makespan;
mod render;
mod scenario;
mod topology;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use crate::builder::placement::MapStrategy;
use crate::builder::schedule::Algorithm;
use crate::io::progress::Progress;

pub use hops::HopRow;
pub use makespan::{MakespanRow, Makespans, OtherTopology, SimScenario, Verdict};
pub use scenario::{Scenario, ScenarioTopology};
pub use topology::TopologyRow;

use hops::{count_hops, plan_tasks};
use makespan::TwoOptPlacements;
use scenario::parse_values;
use topology::{build_networks, measure_topology};

/// The embedded default scenario.
pub const DEFAULT_SCENARIO: &str = include_str!("../../scenarios/default.json");

/// The whole report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Scenario.
    pub scenario: Scenario,
    /// Topologies.
    pub topologies: Vec<TopologyRow>,
    /// Hop counts.
    pub hops: Vec<HopRow>,
    /// Simulated makespans (when the scenario asks for them and `--no-simulation` is not
    /// given).
    pub makespans: Option<Makespans>,
    /// Seconds.
    pub seconds: f64,
    /// Output directory (when written).
    pub output: Option<PathBuf>,
}

/// Runs a scenario; `simulate = false` skips its simulated makespans.
///
/// # Examples
///
/// Two 16-node networks, the binomial broadcast in ring order and after two-opt:
///
/// ```
/// use jumpnet::report::{run_scenario, Scenario};
///
/// let scenario = Scenario::from_json(
///     r#"{
///         "title": "tiny",
///         "topologies": [
///             { "label": "circulant", "spec": "gcirculant n=16" },
///             { "label": "torus", "spec": "torus k=4,4" }
///         ],
///         "collectives": ["bcast"], "ranks": [16], "mappings": ["ring"],
///         "two_opt_from": ["ring"], "two_opt_iterations": 1000, "seed": 1
///     }"#,
///     "tiny",
/// )
/// .unwrap();
/// let report = run_scenario(&scenario, None, false, false).unwrap();
/// let diameters: Vec<u32> = report.topologies.iter().map(|t| t.diameter).collect();
/// assert_eq!(diameters, [2, 4]);
/// let hops: Vec<(u64, Option<u64>)> = report.hops.iter().map(|h| (h.total_hops, h.two_opt)).collect();
/// assert_eq!(hops, [(15, Some(15)), (20, Some(16))]);
/// assert!(report.makespans.is_none());
/// ```
pub fn run_scenario(
    scenario: &Scenario,
    iterations_override: Option<u64>,
    simulate: bool,
    progress: bool,
) -> Result<Report> {
    let started = std::time::Instant::now();
    let iterations = iterations_override.unwrap_or(scenario.two_opt_iterations);
    let collectives: Vec<Algorithm> = parse_values("collective", &scenario.collectives)?;
    let mappings: Vec<MapStrategy> = parse_values("mapping", &scenario.mappings)?;
    let from: Vec<MapStrategy> = parse_values("mapping", &scenario.two_opt_from)?;
    if let (Some(sim), true) = (&scenario.simulation, simulate) {
        sim.check(&scenario.ranks, &scenario.two_opt_from)?;
    }
    let nets = build_networks(&scenario.topologies)?;
    // Structure, distances and all-pairs distance matrices (for the hop objective).
    let mut rows = Vec::new();
    let mut matrices = Vec::new();
    for (net, t) in nets.iter().zip(&scenario.topologies) {
        let (row, matrix) = measure_topology(net, &t.label)?;
        rows.push(row);
        matrices.push(matrix);
    }
    let tasks = plan_tasks(
        nets.len(),
        &collectives,
        &scenario.ranks,
        &mappings,
        &from,
        iterations,
    );
    let bar = Progress::new("report", tasks.len() as u64, progress);
    let done = AtomicU64::new(0);
    let hops: Vec<Result<(HopRow, Option<Vec<u32>>)>> = tasks
        .par_iter()
        .map(|task| {
            let row = count_hops(
                task,
                &nets[task.topo],
                &matrices[task.topo],
                &rows[task.topo].label,
                iterations,
                scenario.seed,
            );
            if row.is_ok() {
                bar.set(done.fetch_add(1, Ordering::Relaxed) + 1);
            }
            row
        })
        .collect();
    bar.finish();
    let mut rows_out = Vec::new();
    let mut two_opt = TwoOptPlacements::default();
    for (task, result) in tasks.iter().zip(hops) {
        let (row, placement) = result?;
        if let (Some(total), Some(nodes)) = (row.two_opt, placement) {
            let key = (task.topo, row.collective.clone(), row.ranks);
            two_opt.offer(key, task.mapping, total, nodes);
        }
        rows_out.push(row);
    }
    let makespans = match (&scenario.simulation, simulate) {
        (Some(sim), true) => Some(makespan::simulate(&makespan::Inputs {
            sim,
            hop_ranks: &scenario.ranks,
            two_opt_from: &scenario.two_opt_from,
            topologies: &scenario.topologies,
            nets: &nets,
            two_opt: &two_opt,
            seed: scenario.seed,
            progress,
        })?),
        _ => None,
    };
    Ok(Report {
        scenario: Scenario {
            two_opt_iterations: iterations,
            ..scenario.clone()
        },
        topologies: rows,
        hops: rows_out,
        makespans,
        seconds: started.elapsed().as_secs_f64(),
        output: None,
    })
}

/// Reads the scenario file at `path`, or the embedded default scenario.
pub fn load_scenario(path: Option<&Path>) -> Result<Scenario> {
    match path {
        Some(p) => {
            let text = crate::io::read::read_text(p, crate::io::read::Limit::SCENARIO)?;
            Scenario::from_json(&text, &p.display().to_string())
        }
        None => Scenario::from_json(DEFAULT_SCENARIO, "(embedded default)"),
    }
}
