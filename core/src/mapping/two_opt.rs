//! "Two-opt" rank placement: random pairwise-swap hill climbing (docs/mapping.md §3,
//! \[DISS\] §3.3.2).

use super::{MappingError, NodeId, Rank, SwapObjective};
use crate::rng::Rng;

/// Parameters of [`two_opt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwoOptConfig {
    /// Number of proposed swaps (\[DISS\]: 200,000 for Tables 3.4–3.6, 1,000,000 for the
    /// convergence figures, 5,000 for the SA comparison).
    pub iterations: u64,
    /// PRNG seed; the same seed, objective and start placement give the same result.
    pub seed: u64,
    /// Call the progress callback every this many iterations (0: only at the end).
    pub report_every: u64,
}

/// Result of a placement optimiser run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimiseOutcome {
    /// Objective of the start placement.
    pub initial: u64,
    /// Objective of the returned placement.
    pub best: u64,
    /// Number of accepted moves.
    pub accepted: u64,
}

/// Improves the rank placement `placement` (`rank → node`, updated in place) by random
/// pairwise swaps, keeping a swap only when it strictly lowers the objective
/// (docs/mapping.md §3).
///
/// Each iteration draws two distinct ranks uniformly (equivalently two distinct job nodes),
/// swaps them through [`SwapObjective::apply_swap`] and undoes the swap unless the value
/// dropped. `progress(iterations_done, best)` is called every `report_every` iterations and
/// once at the end.
pub fn two_opt<O: SwapObjective + ?Sized>(
    objective: &mut O,
    placement: &mut [NodeId],
    config: &TwoOptConfig,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<OptimiseOutcome, MappingError> {
    let initial = objective.evaluate(placement)?;
    let mut best = initial;
    let mut accepted = 0;
    let mut rng = Rng::new(config.seed);
    let m = placement.len();
    for iter in 0..config.iterations {
        if let Some((a, b)) = rng.distinct_pair(m) {
            let (a, b) = (a as Rank, b as Rank);
            let new = objective.apply_swap(placement, a, b);
            if new < best {
                best = new;
                accepted += 1;
            } else {
                objective.undo_swap(placement, a, b, best);
            }
        }
        if config.report_every != 0 && (iter + 1) % config.report_every == 0 {
            progress(iter + 1, best);
        }
    }
    progress(config.iterations, best);
    Ok(OptimiseOutcome {
        initial,
        best,
        accepted,
    })
}
