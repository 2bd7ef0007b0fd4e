//! Hop analysis through a distance oracle: the \[DISS\] convention (docs/routing.md §8,
//! docs/mapping.md §2), where a message costs the minimal-path distance between the nodes of
//! its ranks and routes are never walked.
//!
//! Any [`DistanceOracle`] works: the routing module's all-pairs matrix, arithmetic distances
//! of a structured topology, or a table injected by a test (docs/reference-results.md A4).
//! Nodes are switches with one compute node each, as in the mapping module.

use crate::collective::Schedule;
use crate::mapping::{DistanceOracle, NodeId};

use super::error::AnalysisError;
use super::route::{check_placement, placed, try_for_each_message};
use super::steps::{HopSummary, HopTally, StepBuffers};

/// Sums `oracle.distance(placement[src], placement[dst])` over the messages of `schedule`
/// (`placement[rank]` = node, exactly one entry per rank), overall and per step.
pub fn distance_hops<D, S>(
    oracle: &D,
    schedule: &S,
    placement: &[NodeId],
    steps: StepBuffers<'_>,
) -> Result<HopSummary, AnalysisError>
where
    D: DistanceOracle + ?Sized,
    S: Schedule + ?Sized,
{
    check_placement(placement, schedule.ranks())?;
    let mut tally = HopTally::new(schedule.num_steps(), steps)?;
    try_for_each_message(schedule, |m| {
        let a = placed(placement, m.src)?;
        let b = placed(placement, m.dst)?;
        let hops = if a == b { 0 } else { oracle.distance(a, b) };
        tally.record(m.step, hops, a != b)
    })?;
    Ok(tally.summary)
}
