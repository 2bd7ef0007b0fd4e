//! The seeds' simulated studies (issue 10, spec/reference-results.md rows marked S): each
//! runs collectives on the flit-level simulator ([`crate::sim::workload::collective`]), aggregates
//! the results into the paper's metrics and checks the paper's qualitative claims.
//!
//! - [`dragonfly_bcast`]: [DF-BC] B3 — TREE / LLF / GLF / FOREST broadcasts over random
//!   allocations on a Dragonfly, minimal / Valiant / UGAL routing, with and without
//!   background traffic.
//! - [`galaxyfly_a2a`]: [GF-A2A] E1/E2 — SFATA and RFATA on the five Galaxyfly
//!   configurations: delivery (100 % exactly), redundancy, AvgTime / MaxTime / MinTime /
//!   AvgChannel beside the paper's Tables 3–4.

pub mod dragonfly_bcast;
pub mod ga_mapping;
pub mod galaxyfly_a2a;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::builder::routing::RouteAlgo;
use crate::io::output::Section;
use crate::sim::setup::{Setup, SetupRequest};

/// One qualitative claim of a paper and whether our figures bear it out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Claim {
    /// The claim, as the paper states it (condensed).
    pub claim: String,
    /// Whether it holds in our simulation.
    pub holds: bool,
    /// The figures behind the verdict.
    pub evidence: String,
}

/// The verdict of the claim that starts with `prefix` (study tests).
#[cfg(test)]
pub(crate) fn verdict(claims: &[Claim], prefix: &str) -> bool {
    claims
        .iter()
        .find(|c| c.claim.starts_with(prefix))
        .map(|c| c.holds)
        .unwrap_or_else(|| panic!("no claim starts with {prefix:?}"))
}

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

/// The claims as a table section.
pub fn claims_section(claims: &[Claim]) -> Section {
    let mut c = Section::new("the paper's claims", &["claim", "holds", "evidence"]);
    for k in claims {
        c.row([k.claim.clone(), k.holds.to_string(), k.evidence.clone()]);
    }
    c
}
