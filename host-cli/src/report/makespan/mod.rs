//! Simulated makespans of the scenario's collectives (docs/reference-results.md A8): every
//! (topology, collective, message size, mapping) runs on the flit-level simulator with the
//! physical parameters of the scenario mapped onto cycles by [`TimeScale`], and the report
//! says whether the circulant network wins at the largest message size as \[DISS\] claims.
//!
//! Routing: a topology's `routing` in the scenario, else Dragonfly minimal routing
//! (`df-minimal`) on Dragonflies and DFSSSP (balanced minimal routes with deadlock-free
//! layers, up to 16) elsewhere — the deadlock-free counterpart of \[DISS\]'s Floyd minimal
//! routing in SimGrid.

pub mod mapping_comparison;
mod render;
mod run;
mod verdict;

use std::collections::HashMap;

use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};

use super::scenario::{parse_value, ScenarioTopology};
use crate::builder::network::OwnedNetwork;
use crate::builder::placement::MapStrategy;
use crate::builder::schedule::Algorithm;
use crate::io::bytes::parse_size;
use crate::runs::collective::NicModel;
use crate::sim::time_scale::TimeScale;

pub(super) use render::size_label;
pub(super) use run::simulate;

fn default_max_message_flits() -> u32 {
    TimeScale::DISS.max_message_flits
}

fn default_min_flit_bytes() -> u32 {
    TimeScale::DISS.min_flit_bytes
}

/// Virtual-layer limit of DFSSSP in the simulated runs (the `booksim` preset has 16 VCs).
const MAX_LAYERS: u8 = 16;

/// The simulated part of a scenario.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimScenario {
    /// Ranks of the simulated jobs.
    pub ranks: u32,
    /// Rank-space collectives (as `jumpnet sched`: bcast, allreduce, alltoall, ...).
    pub collectives: Vec<String>,
    /// Message sizes as `--bytes` takes them (`256B`, `1MiB`; per block for alltoall).
    pub messages: Vec<String>,
    /// Mappings: ring, random, tree, circulant, `two-opt` (the best two-opt placement of
    /// the hop comparison for the same collective and ranks) and `two-opt-<start>` (the
    /// two-opt placement from one starting mapping, e.g. `two-opt-random`).
    pub mappings: Vec<String>,
    /// Link bandwidth, Gb/s.
    pub link_gbps: f64,
    /// Switch latency, ns.
    pub switch_latency_ns: f64,
    /// Flits of the largest message of a run (the granularity, see [`TimeScale`]).
    #[serde(default = "default_max_message_flits")]
    pub max_message_flits: u32,
    /// Smallest flit, bytes.
    #[serde(default = "default_min_flit_bytes")]
    pub min_flit_bytes: u32,
    /// NIC model (as `jumpnet sim --nic`: `mpi` or `simple`, docs/smpi.md §3; default
    /// `mpi`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nic: Option<String>,
}

/// A mapping of the simulated runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SimMapping {
    Base(MapStrategy),
    /// The best two-opt placement over the starting mappings.
    TwoOpt,
    /// The two-opt placement from one starting mapping (`two-opt-random`, …).
    TwoOptFrom(MapStrategy),
}

impl SimMapping {
    fn name(self) -> String {
        match self {
            SimMapping::Base(m) => m.name().to_string(),
            SimMapping::TwoOpt => "two-opt".into(),
            SimMapping::TwoOptFrom(m) => format!("two-opt-{}", m.name()),
        }
    }
}

/// The parsed simulated part of a scenario.
struct Plan {
    collectives: Vec<Algorithm>,
    messages: Vec<u64>,
    mappings: Vec<SimMapping>,
    scale: TimeScale,
    nic: NicModel,
}

impl SimScenario {
    /// Checks names, sizes and parameters before anything runs (see [`SimScenario::plan`]).
    pub(in crate::report) fn check(
        &self,
        hop_ranks: &[u32],
        two_opt_from: &[String],
    ) -> Result<()> {
        self.plan(hop_ranks, two_opt_from).map(|_| ())
    }

    /// Parses names and sizes; `hop_ranks` and `two_opt_from` are the hop comparison's
    /// (the `two-opt` mapping needs the job size among its ranks and a starting mapping).
    fn plan(&self, hop_ranks: &[u32], two_opt_from: &[String]) -> Result<Plan> {
        let collectives = self
            .collectives
            .iter()
            .map(|c| parse_value::<Algorithm>("collective", c))
            .collect::<Result<Vec<_>>>()?;
        if let Some(c) = collectives.iter().find(|c| c.needs_topology()) {
            bail!(
                "scenario simulation: collective `{}` is topology-aware; the report simulates rank-space collectives (bcast, allreduce, alltoall, ...)",
                c.name()
            );
        }
        let messages = self
            .messages
            .iter()
            .map(|m| {
                parse_size(m).map_err(|e| anyhow!("scenario simulation: message size `{m}`: {e}"))
            })
            .collect::<Result<Vec<_>>>()?;
        let mappings = self
            .mappings
            .iter()
            .map(|m| {
                if m == "two-opt" {
                    if !hop_ranks.contains(&self.ranks) || two_opt_from.is_empty() {
                        bail!(
                            "scenario simulation: mapping `two-opt` needs {} among the scenario's ranks and a non-empty two_opt_from",
                            self.ranks
                        );
                    }
                    Ok(SimMapping::TwoOpt)
                } else if let Some(start) = m.strip_prefix("two-opt-") {
                    let s = parse_value::<MapStrategy>("two-opt starting mapping", start)?;
                    if !hop_ranks.contains(&self.ranks) || !two_opt_from.iter().any(|f| f == start) {
                        bail!(
                            "scenario simulation: mapping `{m}` needs {} among the scenario's ranks and `{start}` in two_opt_from",
                            self.ranks
                        );
                    }
                    Ok(SimMapping::TwoOptFrom(s))
                } else {
                    parse_value::<MapStrategy>("mapping", m)
                        .map(SimMapping::Base)
                        .map_err(|e| anyhow!("{e}, two-opt or two-opt-<mapping>"))
                }
            })
            .collect::<Result<Vec<_>>>()?;
        if collectives.is_empty() || messages.is_empty() || mappings.is_empty() {
            bail!("scenario simulation: collectives, messages and mappings must not be empty");
        }
        let scale = TimeScale {
            link_gbps: self.link_gbps,
            switch_latency_ns: self.switch_latency_ns,
            max_message_flits: self.max_message_flits,
            min_flit_bytes: self.min_flit_bytes,
        };
        scale
            .validate()
            .map_err(|e| anyhow!("scenario simulation: {e}"))?;
        let nic = match &self.nic {
            Some(n) => parse_value::<NicModel>("NIC model", n)?,
            None => NicModel::Mpi,
        };
        Ok(Plan {
            collectives,
            messages,
            mappings,
            scale,
            nic,
        })
    }
}

/// One simulated run.
#[derive(Clone, Debug, Serialize)]
pub struct MakespanRow {
    /// Topology label.
    pub topology: String,
    /// Routing algorithm.
    pub routing: String,
    /// Collective name.
    pub collective: String,
    /// Message size, bytes.
    pub message_bytes: u64,
    /// Mapping.
    pub mapping: String,
    /// Makespan, cycles.
    pub makespan_cycles: u64,
    /// Makespan, µs.
    pub makespan_us: f64,
    /// Bytes per flit of the run.
    pub flit_bytes: u32,
    /// Cycle length, ns.
    pub cycle_ns: f64,
    /// Cycles per hop.
    pub hop_cycles: u16,
    /// Messages.
    pub messages: u64,
    /// Flits delivered.
    pub flits: u64,
    /// Router-to-router hops of all messages as routed.
    pub routed_hops: u64,
    /// Sum over the steps of the busiest channel's messages
    /// ([`crate::analysis::step_contention`]).
    pub contention: u64,
}

/// Whether the circulant network has the shortest makespan of one collective at one size.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// Collective name.
    pub collective: String,
    /// Message size, bytes.
    pub message_bytes: u64,
    /// Label of the circulant topology.
    pub circulant: String,
    /// Its best makespan (over the mappings), µs, and the mapping.
    pub circulant_best: (f64, String),
    /// Every other topology: label, best makespan µs and mapping, and how much longer its
    /// best, its `random` and its `two-opt` makespans are than the circulant's best, %.
    pub others: Vec<OtherTopology>,
    /// The circulant network's best is strictly the shortest.
    pub circulant_wins: bool,
}

/// Another topology in a [`Verdict`].
#[derive(Clone, Debug, Serialize)]
pub struct OtherTopology {
    /// Label.
    pub label: String,
    /// Best makespan over the mappings, µs.
    pub best_us: f64,
    /// Mapping of the best.
    pub best_mapping: String,
    /// `best / circulant best − 1`, %.
    pub best_slower_pct: f64,
    /// `random / circulant best − 1`, % (when `random` was simulated).
    pub random_slower_pct: Option<f64>,
    /// `two-opt / circulant best − 1`, % (when `two-opt` was simulated).
    pub two_opt_slower_pct: Option<f64>,
}

/// The simulated makespans of a report.
#[derive(Clone, Debug, Serialize)]
pub struct Makespans {
    /// Ranks of every job.
    pub ranks: u32,
    /// Physical parameters and granularity.
    pub scale: TimeScale,
    /// The NIC model of every run.
    pub nic: NicModel,
    /// One row per run, in (topology, collective, message, mapping) order.
    pub rows: Vec<MakespanRow>,
    /// At the largest message size, per collective (when the scenario has a circulant).
    pub verdicts: Vec<Verdict>,
    /// \[DISS\] §4.5.2's comparison of mappings on the circulant network (when the
    /// scenario simulates them).
    pub mapping_comparison: Vec<mapping_comparison::MappingComparison>,
    /// The `jumpnet sim` command of one cell and its makespan in µs (every cell of a
    /// baseline mapping is such a command).
    pub reproduce: Option<(String, f64)>,
}

/// Best two-opt placements (rank → node) of the hop comparison, by (topology index,
/// collective name, ranks): the smallest total wins, the first task on ties.
#[derive(Debug, Default)]
pub(super) struct TwoOptPlacements {
    best: HashMap<(usize, String, u32), (u64, Vec<u32>)>,
    from: HashMap<(usize, String, u32, MapStrategy), Vec<u32>>,
}

impl TwoOptPlacements {
    /// Offers the placement two-opt reached from `start` with `total` hops.
    pub(super) fn offer(
        &mut self,
        (topo, collective, ranks): (usize, String, u32),
        start: MapStrategy,
        total: u64,
        nodes: Vec<u32>,
    ) {
        self.from
            .insert((topo, collective.clone(), ranks, start), nodes.clone());
        let e = self
            .best
            .entry((topo, collective, ranks))
            .or_insert((u64::MAX, Vec::new()));
        if total < e.0 {
            *e = (total, nodes);
        }
    }

    fn get_from(
        &self,
        topo: usize,
        collective: &str,
        ranks: u32,
        start: MapStrategy,
    ) -> Option<&[u32]> {
        self.from
            .get(&(topo, collective.to_string(), ranks, start))
            .map(Vec::as_slice)
    }

    fn get(&self, topo: usize, collective: &str, ranks: u32) -> Option<&[u32]> {
        self.best
            .get(&(topo, collective.to_string(), ranks))
            .map(|(_, v)| v.as_slice())
    }
}

/// What the simulated runs share.
pub(super) struct Inputs<'a> {
    /// The simulated part of the scenario.
    pub sim: &'a SimScenario,
    /// The hop comparison's ranks and two-opt starting mappings.
    pub hop_ranks: &'a [u32],
    /// Two-opt starting mappings of the scenario.
    pub two_opt_from: &'a [String],
    /// Topologies and their networks.
    pub topologies: &'a [ScenarioTopology],
    /// Built networks, as `topologies`.
    pub nets: &'a [OwnedNetwork],
    /// Two-opt placements of the hop comparison.
    pub two_opt: &'a TwoOptPlacements,
    /// Seed of the baseline mappings.
    pub seed: u64,
    /// Show a progress bar.
    pub progress: bool,
}
