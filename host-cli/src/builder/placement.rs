//! Process mappings on the host: choose the job's nodes and rank order (spec/mapping.md §1)
//! and optimise the rank placement for a collective's total hops (§2–§4).
//!
//! Nodes are switches with one compute node each (the \[DISS\] model). Rank orders default to
//! the ones that reproduce \[DISS\]'s numbers (reference-results.md A5): the random mapping
//! places ranks in random order, the hierarchical-tree mapping in BFS order, ring and
//! circulant mappings in traversal order. `RankOrderChoice::Ascending` gives the spec's
//! ascending-node-id variant.

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use jumpnet_core::analysis::{distance_hops, flatten, StepBuffers};
use jumpnet_core::collective::Schedule;
use jumpnet_core::mapping::{
    anneal, bfs_mapping, circulant_mapping, random_free_node, random_mapping, ring_mapping,
    two_opt, AnnealConfig, BfsBuffers, DistanceMatrix, FreeNodes, HopObjective, Message, NodeId,
    OptimiseOutcome, RankIndex, TwoOptConfig,
};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::{Network, Topology};

/// Baseline mappings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MapStrategy {
    /// m distinct random nodes.
    Random,
    /// Hierarchical tree: BFS from a random root.
    Tree,
    /// Ring-consecutive nodes from a random start.
    Ring,
    /// Circulant: stride n/m from a random start (m a power of two).
    Circulant,
}

impl MapStrategy {
    /// Name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            MapStrategy::Random => "random",
            MapStrategy::Tree => "tree",
            MapStrategy::Ring => "ring",
            MapStrategy::Circulant => "circulant",
        }
    }
}

/// How ranks are assigned to the mapped nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankOrderChoice {
    /// The order that reproduces \[DISS\]: random for random mappings, BFS order for trees,
    /// traversal order for ring and circulant mappings.
    Paper,
    /// Ascending node id (spec/mapping.md §1 for random and tree mappings).
    Ascending,
}

/// Placement optimisers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Optimiser {
    /// Keep the baseline placement.
    None,
    /// Random pairwise swaps, strict improvement (spec/mapping.md §3).
    TwoOpt,
    /// Simulated annealing with geometric cooling (§4).
    Anneal,
}

/// Checks the \[DISS\] node model: one terminal per switch.
pub fn check_one_node_per_switch(net: &Network<'_>) -> Result<()> {
    if net.num_terminals() != net.num_switches() {
        bail!(
            "process mapping works on the [DISS] model of one compute node per switch, but this topology has {} terminals on {} switches (use p=1 / t=1)",
            net.num_terminals(),
            net.num_switches()
        );
    }
    Ok(())
}

/// Chooses `m` nodes with `strategy` and orders them by `order` (`rank → node`).
pub fn initial(
    net: &Network<'_>,
    strategy: MapStrategy,
    order: RankOrderChoice,
    m: u32,
    seed: u64,
) -> Result<Vec<NodeId>> {
    let n = net.num_switches();
    if m == 0 || m > n {
        bail!("--ranks {m} is invalid: the topology has {n} nodes (use 1..={n})");
    }
    let mut rng = Rng::new(seed);
    let mut out = vec![0; m as usize];
    match strategy {
        MapStrategy::Random => {
            random_mapping(n, FreeNodes::All, &mut rng, &mut out).context("mapping")?;
            if order == RankOrderChoice::Paper {
                rng.shuffle(&mut out);
            }
        }
        MapStrategy::Tree => {
            let root = random_free_node(n, FreeNodes::All, &mut rng).context("mapping")?;
            let (mut queue, mut seen) = (vec![0; n as usize], vec![false; n as usize]);
            bfs_mapping(
                net,
                FreeNodes::All,
                root,
                &mut out,
                BfsBuffers {
                    queue: &mut queue,
                    seen: &mut seen,
                },
            )
            .context("mapping")?;
            if order == RankOrderChoice::Ascending {
                out.sort_unstable();
            }
        }
        // Ring and circulant mappings start at node 0 (spec/mapping.md §1 allows a random
        // start or 0; node 0 keeps group-structured topologies aligned, as in [DISS] §5).
        MapStrategy::Ring => {
            ring_mapping(n, FreeNodes::All, 0, &mut out).context("mapping")?;
        }
        MapStrategy::Circulant => {
            circulant_mapping(n, FreeNodes::All, 0, &mut out).context("mapping")?;
        }
    }
    Ok(out)
}

/// A collective's messages flattened for the mapping objective.
#[derive(Debug)]
pub struct Traffic {
    /// Messages `(step, src_rank, dst_rank)`.
    pub messages: Vec<Message>,
    ranks: u32,
}

impl Traffic {
    /// Flattens `schedule`.
    pub fn of<S: Schedule>(schedule: &S) -> Result<Self> {
        let mut messages = vec![
            Message {
                step: 0,
                src_rank: 0,
                dst_rank: 0
            };
            schedule.num_messages() as usize
        ];
        let n = flatten(schedule, &mut messages)?;
        messages.truncate(n);
        Ok(Traffic {
            messages,
            ranks: schedule.ranks(),
        })
    }
}

/// Hop statistics of a placement.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct HopStats {
    /// Total router hops (\[DISS\] total hop count).
    pub total_hops: u64,
    /// Messages.
    pub messages: u64,
    /// Largest hop count of one message.
    pub max_hops: u32,
    /// Router hops per step (step 1 first).
    pub hops_per_step: Vec<u64>,
    /// Largest message hop count per step.
    pub max_per_step: Vec<u32>,
}

/// Hop statistics of `placement` for `schedule` under the distances `dm`.
pub fn hop_stats<S: Schedule>(
    dm: &DistanceMatrix<'_>,
    schedule: &S,
    placement: &[NodeId],
) -> Result<HopStats> {
    let steps = schedule.num_steps() as usize + 1;
    let mut hops = vec![0u64; steps];
    let mut max = vec![0u32; steps];
    let s = distance_hops(
        dm,
        schedule,
        placement,
        StepBuffers {
            hops: Some(&mut hops),
            max_hops: Some(&mut max),
            ..StepBuffers::default()
        },
    )?;
    Ok(HopStats {
        total_hops: s.total_hops,
        messages: s.messages,
        max_hops: s.max_hops,
        hops_per_step: hops[1..].to_vec(),
        max_per_step: max[1..].to_vec(),
    })
}

/// Optimises `placement` in place for total hops; `progress(done, total, best)`.
pub fn optimise(
    dm: &DistanceMatrix<'_>,
    traffic: &Traffic,
    placement: &mut [NodeId],
    optimiser: Optimiser,
    iterations: u64,
    seed: u64,
    progress: &mut dyn FnMut(u64, u64, u64),
) -> Result<Option<OptimiseOutcome>> {
    let mut offsets = vec![0u32; traffic.ranks as usize + 1];
    let mut items = vec![0u32; RankIndex::items_needed(&traffic.messages)];
    let index = RankIndex::build(&traffic.messages, traffic.ranks, &mut offsets, &mut items)?;
    let mut obj = HopObjective::new(*dm, &traffic.messages, index)?;
    Ok(match optimiser {
        Optimiser::None => None,
        Optimiser::TwoOpt => {
            let cfg = TwoOptConfig {
                iterations,
                seed,
                report_every: (iterations / 200).max(1),
            };
            Some(
                two_opt(&mut obj, placement, &cfg, &mut |i, best| {
                    progress(i, iterations, best)
                })
                .context("optimiser")?,
            )
        }
        Optimiser::Anneal => {
            let steps = u32::try_from(iterations)
                .map_err(|_| anyhow!("--iterations {iterations} is too large for annealing (temperature steps, at most 2^32-1)"))?;
            let mut scratch = vec![0; placement.len()];
            let cfg = AnnealConfig::new(steps, seed);
            Some(
                anneal(&mut obj, placement, &mut scratch, &cfg, &mut |i, best| {
                    progress(i, iterations, best)
                })
                .context("optimiser")?,
            )
        }
    })
}
