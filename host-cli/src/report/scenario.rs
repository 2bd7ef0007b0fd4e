//! The scenario of `jumpnet report`: which topologies, collectives, job sizes and mappings
//! it compares, read from JSON (the embedded default or `--scenario FILE`).

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::makespan::SimScenario;
use crate::builder::routing::{algo_ignore_case, RouteAlgo};

/// One topology of a scenario.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioTopology {
    /// Label in tables and charts.
    pub label: String,
    /// Topology specification (`family key=value ...`).
    pub spec: String,
    /// Routing of the simulated makespans (as `jumpnet route --algo`; default: `df-minimal`
    /// on Dragonflies, `dfsssp` elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routing: Option<String>,
}

/// What a report compares.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Title.
    pub title: String,
    /// Topologies (one compute node per switch).
    pub topologies: Vec<ScenarioTopology>,
    /// Rank-space collectives (bcast, allreduce, alltoall, ...).
    pub collectives: Vec<String>,
    /// Job sizes.
    pub ranks: Vec<u32>,
    /// Baseline mappings (ring, random, tree, circulant).
    pub mappings: Vec<String>,
    /// Mappings two-opt starts from.
    pub two_opt_from: Vec<String>,
    /// Two-opt iterations.
    pub two_opt_iterations: u64,
    /// Seed of mappings and two-opt.
    pub seed: u64,
    /// Simulated makespans (docs/reference-results.md A8); none when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulation: Option<SimScenario>,
}

/// Parses one scenario name (`kind`: what it names, for the error message).
pub(super) fn parse_value<T: clap::ValueEnum>(kind: &str, s: &str) -> Result<T> {
    T::from_str(s, true).map_err(|_| {
        let allowed: Vec<String> = T::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        unknown(kind, s, &allowed)
    })
}

/// Parses a scenario's routing name (core's names, any case), as [`parse_value`] the others.
pub(super) fn parse_routing(s: &str) -> Result<RouteAlgo> {
    algo_ignore_case(s).ok_or_else(|| unknown("routing", s, &RouteAlgo::ALL.map(RouteAlgo::name)))
}

fn unknown(kind: &str, s: &str, allowed: &[impl AsRef<str>]) -> anyhow::Error {
    let allowed: Vec<&str> = allowed.iter().map(AsRef::as_ref).collect();
    anyhow!(
        "scenario: unknown {kind} `{s}` (allowed: {})",
        allowed.join(", ")
    )
}

impl Scenario {
    /// Parses a scenario from JSON.
    pub fn from_json(text: &str, name: &str) -> Result<Self> {
        let s: Scenario =
            serde_json::from_str(text).with_context(|| format!("reading scenario {name}"))?;
        if s.topologies.is_empty()
            || s.collectives.is_empty()
            || s.ranks.is_empty()
            || s.mappings.is_empty()
        {
            bail!("scenario {name}: topologies, collectives, ranks and mappings must not be empty");
        }
        Ok(s)
    }
}

/// Parses scenario names (`kind`: what they name, for the error message) into values.
pub(super) fn parse_values<T: clap::ValueEnum>(kind: &str, names: &[String]) -> Result<Vec<T>> {
    names.iter().map(|s| parse_value::<T>(kind, s)).collect()
}
