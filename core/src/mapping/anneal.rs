//! Simulated annealing over rank placements (docs/mapping.md §4, project choice).

use super::{MappingError, NodeId, OptimiseOutcome, Rank, SwapObjective};
use crate::error::CapacityError;
use crate::rng::Rng;

/// Parameters of [`anneal`] (docs/mapping.md §4 project choice).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnnealConfig {
    /// Temperature steps ("iterations" in \[DISS\] §3.5: 72, 1,000, 10,000).
    pub temperature_steps: u32,
    /// Proposed swaps per temperature step; `None` means `m` (the number of ranks).
    pub moves_per_step: Option<u32>,
    /// Geometric cooling factor: `T_{i+1} = cooling · T_i` (0.95).
    pub cooling: f64,
    /// Random moves whose mean `|Δ|` sets `T_0` (100).
    pub calibration_moves: u32,
    /// PRNG seed; the same seed, objective and start placement give the same result.
    pub seed: u64,
    /// Call the progress callback every this many temperature steps (0: only at the end).
    pub report_every: u32,
}

impl AnnealConfig {
    /// The project's SA: `steps` temperature steps of `m` moves, cooling 0.95, `T_0` from 100
    /// calibration moves.
    pub fn new(steps: u32, seed: u64) -> Self {
        AnnealConfig {
            temperature_steps: steps,
            moves_per_step: None,
            cooling: 0.95,
            calibration_moves: 100,
            seed,
            report_every: 0,
        }
    }
}

/// Simulated annealing with the two-opt swap move (docs/mapping.md §4): worse moves are
/// accepted with probability `exp(−Δ/T)`, `T` cools geometrically from `T_0` = mean `|Δ|` of
/// `calibration_moves` random moves (each undone).
///
/// The best placement seen is returned in `placement` (its value in `best`); `scratch` (length
/// `m`) holds a copy of it while the walk moves away. All arithmetic is integer or IEEE-754
/// `f64` basic operations plus [`exp_neg`], so runs are bit-identical across targets.
/// `progress(step, best)` is called every `report_every` temperature steps and at the end.
pub fn anneal<O: SwapObjective + ?Sized>(
    objective: &mut O,
    placement: &mut [NodeId],
    scratch: &mut [NodeId],
    config: &AnnealConfig,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<OptimiseOutcome, MappingError> {
    let m = placement.len();
    CapacityError::check("annealing best-placement scratch", m, scratch.len())?;
    let scratch = &mut scratch[..m];
    let initial = objective.evaluate(placement)?;
    let mut rng = Rng::new(config.seed);
    let mut current = initial;
    let mut best = initial;
    let mut accepted = 0;
    if m < 2 {
        progress(config.temperature_steps as u64, best);
        return Ok(OptimiseOutcome {
            initial,
            best,
            accepted,
        });
    }

    let mut sum_abs = 0u64;
    for _ in 0..config.calibration_moves {
        if let Some((a, b)) = rng.distinct_pair(m) {
            let (a, b) = (a as Rank, b as Rank);
            let new = objective.apply_swap(placement, a, b);
            sum_abs += new.abs_diff(current);
            objective.undo_swap(placement, a, b, current);
        }
    }
    let mut temperature = if config.calibration_moves == 0 {
        0.0
    } else {
        sum_abs as f64 / config.calibration_moves as f64
    };

    // Whether `placement` currently holds a best-valued state; when not, `scratch` does.
    let mut best_in_placement = true;
    let moves = config.moves_per_step.unwrap_or(m as u32);
    for step in 0..config.temperature_steps {
        for _ in 0..moves {
            let Some((a, b)) = rng.distinct_pair(m) else {
                break;
            };
            let (a, b) = (a as Rank, b as Rank);
            let new = objective.apply_swap(placement, a, b);
            let accept = new <= current || {
                let delta = (new - current) as f64;
                temperature > 0.0 && rng.unit_f64() < exp_neg(delta / temperature)
            };
            if !accept {
                objective.undo_swap(placement, a, b, current);
                continue;
            }
            accepted += 1;
            if new <= best {
                best = new;
                best_in_placement = true;
            } else if best_in_placement {
                // Leaving the best state: save it (the placement before this swap).
                scratch.copy_from_slice(placement);
                scratch.swap(a as usize, b as usize);
                best_in_placement = false;
            }
            current = new;
        }
        temperature *= config.cooling;
        if config.report_every != 0 && (step + 1) % config.report_every == 0 {
            progress(step as u64 + 1, best);
        }
    }
    if !best_in_placement {
        placement.copy_from_slice(scratch);
        objective.evaluate(placement)?;
    }
    progress(config.temperature_steps as u64, best);
    Ok(OptimiseOutcome {
        initial,
        best,
        accepted,
    })
}

/// `e^{−x}` for `x ≥ 0` using only IEEE-754 basic operations (so it is bit-identical on every
/// target, unlike a platform `exp`): `x = k·ln 2 + r` (Cody–Waite reduction), a degree-20 Taylor series for `e^{−r}`
/// and an exact scaling by `2^{−k}`. Relative error below `1e-15`; negative or NaN `x` give 1.
pub fn exp_neg(x: f64) -> f64 {
    // Cody–Waite split of ln 2 (fdlibm): `k · LN2_HI` is exact for the k used here.
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    if x.is_nan() || x <= 0.0 {
        return 1.0;
    }
    if x > 745.0 {
        return 0.0;
    }
    let k = (x / core::f64::consts::LN_2) as i32; // truncation = floor for x > 0
    let r = (x - k as f64 * LN2_HI) - k as f64 * LN2_LO;
    let mut term = 1.0;
    let mut sum = 1.0;
    for i in 1..=20 {
        term = term * (-r) / i as f64;
        sum += term;
    }
    // Multiply by 2^-k in two exact steps so subnormal results stay correct.
    let half = k / 2;
    sum * pow2_neg(half) * pow2_neg(k - half)
}

/// `2^{−k}` for `0 ≤ k ≤ 1022`, built from the exponent bits.
fn pow2_neg(k: i32) -> f64 {
    let k = k.clamp(0, 1022);
    f64::from_bits(((1023 - k) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_neg_matches_std() {
        for i in 0..1800 {
            let x = i as f64 * 0.37;
            let want = (-x).exp();
            let got = exp_neg(x);
            assert!(
                (got - want).abs() <= 1e-14 * want.max(1e-300),
                "x = {x}: {got} vs {want}"
            );
        }
        assert_eq!(exp_neg(0.0), 1.0);
        assert_eq!(exp_neg(-3.0), 1.0);
        assert_eq!(exp_neg(1e9), 0.0);
    }
}
