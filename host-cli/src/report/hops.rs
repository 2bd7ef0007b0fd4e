//! Total hop counts of the scenario's collectives under each mapping, and two-opt from the
//! starting mappings (docs/reference-results.md A5/A6).

use anyhow::{Context, Result};
use serde::Serialize;

use jumpnet_core::collective::Schedule;
use jumpnet_core::topology::Topology;

use super::Report;
use crate::builder::network::OwnedNetwork;
use crate::builder::optimise::{optimise, Optimisation, PlacementObjective};
use crate::builder::placement::{self, MapStrategy, Optimiser, RankOrderChoice, Traffic};
use crate::builder::schedule::rank_schedule;
use crate::builder::schedule::Algorithm;
use crate::io::output::Section;
use crate::io::svg::BarChart;

/// Hop count of one (topology, collective, ranks, mapping).
#[derive(Clone, Debug, Serialize)]
pub struct HopRow {
    /// Topology label.
    pub topology: String,
    /// Collective name.
    pub collective: String,
    /// Ranks.
    pub ranks: u32,
    /// Baseline mapping.
    pub mapping: String,
    /// Messages (lower bound).
    pub messages: u64,
    /// Total hops of the baseline placement.
    pub total_hops: u64,
    /// Largest hop count of one message.
    pub max_hops: u32,
    /// Total hops after two-opt from this mapping (when requested).
    pub two_opt: Option<u64>,
}

/// One (topology, collective, ranks, mapping) of the hop comparison.
pub(super) struct Task {
    /// Index of the topology in the scenario.
    pub topo: usize,
    /// Collective.
    pub collective: Algorithm,
    /// Ranks.
    pub ranks: u32,
    /// Baseline mapping.
    pub mapping: MapStrategy,
    /// Whether two-opt runs from this mapping.
    pub two_opt: bool,
}

/// One task per (topology, collective, ranks, mapping); the two-opt starting mappings are
/// added to the baseline mappings, and two-opt runs only from them (and only when
/// `iterations > 0`).
pub(super) fn plan_tasks(
    topologies: usize,
    collectives: &[Algorithm],
    ranks: &[u32],
    mappings: &[MapStrategy],
    from: &[MapStrategy],
    iterations: u64,
) -> Vec<Task> {
    let mut tasks = Vec::new();
    for ti in 0..topologies {
        for &c in collectives {
            for &r in ranks {
                let mut maps: Vec<MapStrategy> = mappings.to_vec();
                for f in from {
                    if !maps.contains(f) {
                        maps.push(*f);
                    }
                }
                for &m in &maps {
                    tasks.push(Task {
                        topo: ti,
                        collective: c,
                        ranks: r,
                        mapping: m,
                        two_opt: from.contains(&m) && iterations > 0,
                    });
                }
            }
        }
    }
    tasks
}

/// Total hops of one task: the collective's schedule under the task's mapping on the
/// topology `net` (labelled `label`, all-pairs distances `matrix`), and the best total after
/// two-opt when the task asks for it, with the placement (rank → node) two-opt reached.
pub(super) fn count_hops(
    task: &Task,
    net: &OwnedNetwork,
    matrix: &[u16],
    label: &str,
    iterations: u64,
    seed: u64,
) -> Result<(HopRow, Option<Vec<u32>>)> {
    let net = net.network();
    let n = net.num_switches();
    let dm = jumpnet_core::routing::DistanceMatrix::new(n, matrix)?;
    let owned = rank_schedule(task.collective, task.ranks, 0)?;
    let schedule = owned.schedule()?;
    let mut pl = placement::initial(&net, task.mapping, RankOrderChoice::Paper, task.ranks, seed)
        .with_context(|| {
        format!(
            "{} mapping of {} ranks on {}",
            task.mapping.name(),
            task.ranks,
            label
        )
    })?;
    let before = placement::hop_stats(&dm, &schedule, &pl)?;
    let (two_opt, optimised) = if task.two_opt {
        let traffic = Traffic::of(&schedule)?;
        let out = optimise(
            &dm,
            None,
            &traffic,
            &mut pl,
            &Optimisation {
                optimiser: Optimiser::TwoOpt,
                objective: PlacementObjective::Hops,
                iterations,
                seed,
            },
            &mut |_, _, _| {},
        )?;
        (out.map(|o| o.best), Some(pl))
    } else {
        (None, None)
    };
    let row = HopRow {
        topology: label.to_string(),
        collective: task.collective.name(),
        ranks: task.ranks,
        mapping: task.mapping.name().into(),
        messages: schedule.num_messages(),
        total_hops: before.total_hops,
        max_hops: before.max_hops,
        two_opt,
    };
    Ok((row, optimised))
}

impl Report {
    fn hop(&self, topo: &str, coll: &str, ranks: u32, mapping: &str) -> Option<&HopRow> {
        self.hops.iter().find(|h| {
            h.topology == topo && h.collective == coll && h.ranks == ranks && h.mapping == mapping
        })
    }

    /// Best two-opt total of a (topology, collective, ranks), and the mapping it started from.
    pub(super) fn best_two_opt(&self, topo: &str, coll: &str, ranks: u32) -> Option<(u64, &str)> {
        self.hops
            .iter()
            .filter(|h| h.topology == topo && h.collective == coll && h.ranks == ranks)
            .filter_map(|h| h.two_opt.map(|v| (v, h.mapping.as_str())))
            .min()
    }

    pub(super) fn hop_table(&self, ranks: u32) -> Section {
        let mut headers: Vec<String> =
            vec!["collective".into(), "topology".into(), "messages".into()];
        headers.extend(self.scenario.mappings.iter().cloned());
        if !self.scenario.two_opt_from.is_empty() {
            headers.push("two-opt (best)".into());
        }
        let mut sec = Section {
            title: format!("total hops, {ranks} ranks"),
            headers,
            rows: Vec::new(),
        };
        for c in &self.scenario.collectives {
            for t in &self.scenario.topologies {
                let mut row = vec![c.clone(), t.label.clone()];
                let msgs = self
                    .hop(&t.label, c, ranks, &self.scenario.mappings[0])
                    .map_or(0, |h| h.messages);
                row.push(msgs.to_string());
                for m in &self.scenario.mappings {
                    row.push(
                        self.hop(&t.label, c, ranks, m)
                            .map_or("-".into(), |h| h.total_hops.to_string()),
                    );
                }
                if !self.scenario.two_opt_from.is_empty() {
                    row.push(
                        self.best_two_opt(&t.label, c, ranks)
                            .map_or("-".into(), |(v, from)| format!("{v} (from {from})")),
                    );
                }
                sec.rows.push(row);
            }
        }
        sec
    }

    pub(super) fn hop_chart(&self, coll: &str, ranks: u32) -> BarChart {
        let categories: Vec<String> = self
            .scenario
            .topologies
            .iter()
            .map(|t| t.label.clone())
            .collect();
        let mut series: Vec<(String, Vec<f64>)> = self
            .scenario
            .mappings
            .iter()
            .map(|m| {
                let v = self
                    .scenario
                    .topologies
                    .iter()
                    .map(|t| {
                        self.hop(&t.label, coll, ranks, m)
                            .map_or(0.0, |h| h.total_hops as f64)
                    })
                    .collect();
                (m.clone(), v)
            })
            .collect();
        if !self.scenario.two_opt_from.is_empty() {
            let v = self
                .scenario
                .topologies
                .iter()
                .map(|t| {
                    self.best_two_opt(&t.label, coll, ranks)
                        .map_or(0.0, |(x, _)| x as f64)
                })
                .collect();
            series.push(("two-opt (best)".into(), v));
        }
        BarChart {
            title: format!("{coll}: total hops, {ranks} ranks"),
            y_label: "total router hops".into(),
            categories,
            series,
        }
    }
}
