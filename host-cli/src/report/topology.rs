//! Structure, distances and cable lengths of the scenario's topologies.

use anyhow::{Context, Result};
use serde::Serialize;

use super::scenario::ScenarioTopology;
use crate::analysis::topology as topo;
use crate::builder::network::OwnedNetwork;
use crate::builder::placement;
use crate::builder::routing;
use crate::builder::topology::TopologySpec;
use crate::distances;

/// Structural and distance facts of one topology.
#[derive(Clone, Debug, Serialize)]
pub struct TopologyRow {
    /// Label.
    pub label: String,
    /// Canonical spec.
    pub spec: String,
    /// Switches (= nodes).
    pub switches: u32,
    /// Links.
    pub links: u64,
    /// Smallest degree.
    pub degree_min: u32,
    /// Largest degree.
    pub degree_max: u32,
    /// Diameter.
    pub diameter: u32,
    /// ASPL.
    pub aspl: f64,
    /// `(distance, ordered pairs)`.
    pub distance_histogram: Vec<(u32, u64)>,
    /// Average cable, row-major cabinets, m.
    pub cable_avg_m: f64,
    /// Average cable, boustrophedon cabinets, m.
    pub cable_avg_boustrophedon_m: f64,
    /// Total cable, row-major, m.
    pub cable_total_m: f64,
    /// Construction notes.
    pub notes: Vec<String>,
}

/// Builds every scenario topology, then checks each has one compute node per switch.
pub(super) fn build_networks(topologies: &[ScenarioTopology]) -> Result<Vec<OwnedNetwork>> {
    let nets: Vec<OwnedNetwork> = topologies
        .iter()
        .map(|t| {
            let words: Vec<String> = t.spec.split_whitespace().map(String::from).collect();
            OwnedNetwork::build(&TopologySpec::parse(&words)?)
                .with_context(|| format!("scenario topology `{}`", t.label))
        })
        .collect::<Result<_>>()?;
    for (net, t) in nets.iter().zip(topologies) {
        placement::check_one_node_per_switch(&net.network())
            .with_context(|| format!("scenario topology `{}`", t.label))?;
    }
    Ok(nets)
}

/// Structure, distances and cables of one topology, and its all-pairs distance matrix.
pub(super) fn measure_topology(net: &OwnedNetwork, label: &str) -> Result<(TopologyRow, Vec<u16>)> {
    let n = net.network();
    let info = topo::info(net);
    let d = distances::fast(&n, false)?;
    let cables = topo::cables(&n)?;
    let (mut dist, mut queue) = (Vec::new(), Vec::new());
    routing::distance_matrix(&n, &mut dist, &mut queue)?;
    let row = TopologyRow {
        label: label.to_string(),
        spec: net.spec().to_string(),
        switches: info.switches,
        links: info.links,
        degree_min: info.degree_min,
        degree_max: info.degree_max,
        diameter: d.summary.diameter,
        aspl: d.summary.aspl(),
        distance_histogram: d
            .summary
            .distance_histogram()
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| (k as u32, c))
            .collect(),
        cable_avg_m: cables[0].average_m,
        cable_avg_boustrophedon_m: cables[1].average_m,
        cable_total_m: cables[0].total_m,
        notes: info.notes.clone(),
    };
    Ok((row, dist))
}
