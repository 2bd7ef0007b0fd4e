//! The papers' simulated studies (docs/reference-results.md rows marked S): each
//! runs collectives on the flit-level simulator ([`crate::sim::workload::collective`]), aggregates
//! the results into the paper's metrics and checks the paper's qualitative claims.
//!
//! - [`dragonfly_bcast`]: [DF-BC] B3 — TREE / LLF / GLF / FOREST broadcasts over random
//!   allocations on a Dragonfly, minimal / Valiant / UGAL routing, with and without
//!   background traffic.
//! - [`galaxyfly_a2a`]: [GF-A2A] E1/E2 — SFATA and RFATA on the five Galaxyfly
//!   configurations: delivery (100 % exactly), redundancy, AvgTime / MaxTime / MinTime /
//!   AvgChannel beside the paper's Tables 3–4.
//! - [`ga_mapping`]: \[GA\] C2–C4 — GA node mapping variants and identity-mapping durations.
//! - [`claim`]: the one [`claim::Claim`] type every study (and the report's verdicts)
//!   states its paper's claims in, and their table.

pub mod claim;
pub mod dragonfly_bcast;
pub mod dragonfly_bcast_model;
pub mod ga_mapping;
pub mod galaxyfly_a2a;

use anyhow::{Context, Result};

use crate::builder::routing::RouteAlgo;
use crate::sim::setup::{Setup, SetupRequest};

/// Title of the claims table of the papers' studies.
pub const CLAIMS_TITLE: &str = "the paper's claims";

/// The simulation setup of `words` (topology and simulator keys, sweep axes allowed) with
/// routing `algo`.
pub fn setup(words: &[String], algo: RouteAlgo) -> Result<Setup> {
    SetupRequest {
        words: words.to_vec(),
        algo: Some(algo),
        ..SetupRequest::default()
    }
    .resolve(true)
    .with_context(|| format!("study setup '{}'", words.join(" ")))
}

/// Mean and sample standard deviation.
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (m, var.sqrt())
}
