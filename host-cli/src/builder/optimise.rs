//! Placement optimisation on the host: two-opt or annealing (docs/mapping.md §3–§4) on one
//! of the objectives of §2 — total hops, possible contention or the busiest channel per
//! step — over a collective's traffic.
//!
//! Total hops need only the all-pairs distances. The channel objectives need the routes:
//! the optimisers swap ranks among the job's nodes and never change the set of nodes, so
//! [`JobRoutes`] routes every ordered pair of the job's nodes once (with the network's
//! deterministic routing), and the optimiser works on positions in that list.

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use jumpnet_core::mapping::{
    anneal, two_opt, AnnealConfig, ContentionObjective, DistanceMatrix, HopObjective,
    MaxLoadObjective, NodeId, OptimiseOutcome, PathOracle, RankIndex, SwapObjective, TwoOptConfig,
};
use jumpnet_core::routing::Routing;
use jumpnet_core::topology::Network;

use crate::builder::placement::{Optimiser, Traffic};
use crate::builder::routed_paths::RoutedPaths;

/// What two-opt and annealing minimise (docs/mapping.md §2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlacementObjective {
    /// Total hops of the collective's messages (\[DISS\]'s two-opt).
    #[default]
    Hops,
    /// Possible contention: per step and directed channel, the messages beyond the first.
    Contention,
    /// Per step, the messages on the busiest directed channel, summed over the steps: the
    /// schedule's length in message times when bandwidth dominates.
    MaxLinkLoad,
}

impl PlacementObjective {
    /// Name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PlacementObjective::Hops => "hops",
            PlacementObjective::Contention => "contention",
            PlacementObjective::MaxLinkLoad => "max-link-load",
        }
    }
}

/// An optimiser run: which optimiser, on which objective, how long and its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Optimisation {
    /// The optimiser.
    pub optimiser: Optimiser,
    /// What it minimises.
    pub objective: PlacementObjective,
    /// Two-opt swaps, or annealing temperature steps.
    pub iterations: u64,
    /// Seed of the optimiser.
    pub seed: u64,
}

/// The routes between the job's nodes, for the channel objectives.
#[derive(Debug)]
pub struct JobRoutes {
    /// The job's nodes (switches), sorted: the oracle's node `i` is `nodes[i]`.
    nodes: Vec<NodeId>,
    paths: RoutedPaths,
}

impl JobRoutes {
    /// Routes every ordered pair of `placement`'s nodes on `net` (one terminal per switch,
    /// `terminal_of[switch]`) with `routing`.
    pub fn build(
        net: &Network<'_>,
        routing: &dyn Routing,
        terminal_of: &[u32],
        placement: &[NodeId],
    ) -> Result<Self> {
        let mut nodes = placement.to_vec();
        nodes.sort_unstable();
        nodes.dedup();
        let endpoints = nodes
            .iter()
            .map(|&s| {
                terminal_of
                    .get(s as usize)
                    .copied()
                    .filter(|&t| t != u32::MAX)
                    .ok_or_else(|| anyhow!("switch {s} has no terminal"))
            })
            .collect::<Result<Vec<u32>>>()?;
        // One start offset per ordered pair, and the routes' channels: counted as four per
        // route here (routes on the networks jumpnet places on are shorter on average).
        let pairs = (endpoints.len() as u128).pow(2);
        crate::budget::check_alloc::<u32>(
            &format!(
                "the routes between the {} job nodes of the placement objective (--ranks)",
                endpoints.len()
            ),
            pairs * 5,
        )?;
        let paths = RoutedPaths::between(net, routing, &endpoints)
            .context("routing the job's node pairs for the placement objective")?;
        Ok(JobRoutes { nodes, paths })
    }

    /// `placement` as positions in the job's node list.
    fn local(&self, placement: &[NodeId]) -> Result<Vec<NodeId>> {
        placement
            .iter()
            .map(|s| {
                self.nodes
                    .binary_search(s)
                    .map(|i| i as NodeId)
                    .map_err(|_| anyhow!("node {s} is not one of the routed job nodes"))
            })
            .collect()
    }
}

/// Optimises `placement` in place with `how`: total hops from `dm`, the channel objectives
/// from `routes` (required for them); `progress(done, total, best)`. Returns the
/// optimiser's outcome (`initial` and `best` are the objective's values; for
/// max-link-load the busiest-channel sum without its tie-breaker), `None` for
/// [`Optimiser::None`].
pub fn optimise(
    dm: &DistanceMatrix<'_>,
    routes: Option<&JobRoutes>,
    traffic: &Traffic,
    placement: &mut [NodeId],
    how: &Optimisation,
    progress: &mut dyn FnMut(u64, u64, u64),
) -> Result<Option<OptimiseOutcome>> {
    if how.optimiser == Optimiser::None {
        return Ok(None);
    }
    let mut offsets = vec![0u32; traffic.ranks as usize + 1];
    let mut items = vec![0u32; RankIndex::items_needed(&traffic.messages)];
    let index = RankIndex::build(&traffic.messages, traffic.ranks, &mut offsets, &mut items)?;
    let msgs = &traffic.messages;
    if how.objective == PlacementObjective::Hops {
        let mut obj = HopObjective::new(*dm, msgs, index)?;
        return run(&mut obj, placement, how, progress).map(Some);
    }
    let Some(routes) = routes else {
        bail!(
            "the {} objective needs the job's routes",
            how.objective.name()
        );
    };
    let mut local = routes.local(placement)?;
    let paths = &routes.paths;
    let counters = if how.objective == PlacementObjective::Contention {
        ContentionObjective::<&RoutedPaths>::loads_needed(msgs, paths.num_channels())
    } else {
        MaxLoadObjective::<&RoutedPaths>::storage_needed(msgs, paths.num_channels())
    };
    crate::budget::check_alloc::<u32>(
        &format!(
            "the per-(step, channel) counters of the {} objective",
            how.objective.name()
        ),
        counters as u128,
    )?;
    let outcome = if how.objective == PlacementObjective::Contention {
        let mut loads = vec![0u32; counters];
        let mut obj = ContentionObjective::new(paths, msgs, index, &mut loads)?;
        run(&mut obj, &mut local, how, progress)?
    } else {
        let mut storage = vec![0u32; counters];
        let mut obj = MaxLoadObjective::new(paths, msgs, index, &mut storage)?;
        let o = run(&mut obj, &mut local, how, progress)?;
        // Report the busiest-channel sum, without the tie-breaking second key.
        OptimiseOutcome {
            initial: o.initial >> 32,
            best: o.best >> 32,
            ..o
        }
    };
    for (p, &l) in placement.iter_mut().zip(&local) {
        *p = routes.nodes[l as usize];
    }
    Ok(Some(outcome))
}

/// Runs the chosen optimiser on `obj`.
fn run<O: SwapObjective>(
    obj: &mut O,
    placement: &mut [NodeId],
    how: &Optimisation,
    progress: &mut dyn FnMut(u64, u64, u64),
) -> Result<OptimiseOutcome> {
    let iterations = how.iterations;
    match how.optimiser {
        Optimiser::TwoOpt => {
            let cfg = TwoOptConfig {
                iterations,
                seed: how.seed,
                report_every: (iterations / 200).max(1),
            };
            two_opt(obj, placement, &cfg, &mut |i, best| {
                progress(i, iterations, best)
            })
            .context("optimiser")
        }
        Optimiser::Anneal => {
            let steps = u32::try_from(iterations)
                .map_err(|_| anyhow!("--iterations {iterations} is too large for annealing (temperature steps, at most 2^32-1)"))?;
            let mut scratch = vec![0; placement.len()];
            let cfg = AnnealConfig::new(steps, how.seed);
            anneal(obj, placement, &mut scratch, &cfg, &mut |i, best| {
                progress(i, iterations, best)
            })
            .context("optimiser")
        }
        Optimiser::None => bail!("no optimiser to run"),
    }
}
