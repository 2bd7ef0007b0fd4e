//! The link-count model of \[DF-BC\]'s preliminary study (Fig. 2, docs/reference-results.md
//! B3) on the study's own allocations: the makespan of each broadcast in link-count units
//! ([`crate::analysis::link_count_makespan`]) under minimal routing, so the claims the paper
//! draws from that model are checked on it, and those from its CODES runs on the
//! packet-level runs.

use anyhow::{anyhow, Result};
use clap::ValueEnum;
use serde::Serialize;

use super::dragonfly_bcast::{Params, ALGORITHMS};
use super::mean_sd;
use crate::analysis::link_count_makespan::link_count_makespan;
use crate::builder::routing::{self, RouteAlgo, RouteOptions, RouteStore};
use crate::builder::schedule::Algorithm;
use crate::runs::collective::{prepare, CollectiveOptions, CollectiveRun, Mapping};
use crate::sim::setup::Setup;

/// One (mapping, size, algorithm) cell of the model over the study's allocations.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelRow {
    /// Job placement.
    pub mapping: String,
    /// Allocation size.
    pub ranks: u32,
    /// Broadcast.
    pub algorithm: String,
    /// Mean makespan, link-count units.
    pub mean: f64,
    /// Sample standard deviation.
    pub sd: f64,
    /// Smallest and largest makespan.
    pub min: u64,
    /// Largest makespan.
    pub max: u64,
}

/// The model's makespans for every mapping, size and algorithm of `p`, over the same
/// random allocations (seeds `1..=p.seeds`) as the packet-level runs.
pub fn model_rows(p: &Params, setup: &Setup) -> Result<Vec<ModelRow>> {
    let mut rows = Vec::new();
    let minimal = RouteOptions {
        algo: RouteAlgo::DfMinimal,
        ..setup.route
    };
    for mapping in &p.mappings {
        let map =
            Mapping::from_str(mapping, true).map_err(|e| anyhow!("mapping '{mapping}': {e}"))?;
        for &ranks in &p.sizes {
            for name in ALGORITHMS {
                let algorithm = Algorithm::from_str(name, true)
                    .map_err(|e| anyhow!("algorithm '{name}': {e}"))?;
                let mut spans = Vec::new();
                for seed in 1..=u64::from(p.seeds) {
                    let run = CollectiveRun {
                        algorithm,
                        options: CollectiveOptions {
                            mapping: map,
                            ranks: Some(ranks),
                            map_seed: seed,
                            msg_bytes: p.msg_bytes,
                            check_data: false,
                            ..CollectiveOptions::default()
                        },
                    };
                    let prepared = prepare(setup, &run)?;
                    let net = prepared.owned.network();
                    let mut store = RouteStore::default();
                    let (r, _) = routing::build(&net, &minimal, &mut store)?;
                    let s = prepared.sched.schedule()?;
                    spans.push(link_count_makespan(
                        &net,
                        r.as_ref(),
                        &s,
                        &prepared.terminals,
                    )?);
                }
                let xs: Vec<f64> = spans.iter().map(|&x| x as f64).collect();
                let (mean, sd) = mean_sd(&xs);
                rows.push(ModelRow {
                    mapping: mapping.clone(),
                    ranks,
                    algorithm: name.to_string(),
                    mean,
                    sd,
                    min: spans.iter().copied().min().unwrap_or(0),
                    max: spans.iter().copied().max().unwrap_or(0),
                });
            }
        }
    }
    Ok(rows)
}

/// The algorithm with the lowest mean at `ranks` under `mapping`.
pub fn best(rows: &[ModelRow], mapping: &str, ranks: u32) -> Option<(String, f64)> {
    rows.iter()
        .filter(|r| r.mapping == mapping && r.ranks == ranks)
        .min_by(|a, b| a.mean.total_cmp(&b.mean))
        .map(|r| (r.algorithm.clone(), r.mean))
}

/// The row of `algorithm` at `ranks` under `mapping`.
pub fn row<'a>(
    rows: &'a [ModelRow],
    mapping: &str,
    ranks: u32,
    algorithm: &str,
) -> Option<&'a ModelRow> {
    rows.iter()
        .find(|r| r.mapping == mapping && r.ranks == ranks && r.algorithm == algorithm)
}
