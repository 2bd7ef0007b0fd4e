//! UGAL decision for the Dragonfly (issue 9; spec/routing.md §4 for minimal and Valiant
//! Dragonfly routing): choose the minimal path or the Valiant path by queue occupancy × hops.
//! The occupancies are an argument, so the same function runs in the host simulator and on
//! a switch MCU.
//!
//! * UGAL-L (local): the occupancy of each candidate is the occupancy (flits or credits in
//!   use) of the source switch's output queue toward the candidate's first hop.
//! * UGAL-G (global, idealised): the occupancy of each candidate is the sum of the queue
//!   occupancies of the global channels the candidate path uses.
//!
//! Both then pick minimal iff `q_min · h_min ≤ q_val · h_val + bias` (ties go to the
//! minimal path; `bias ≥ 0` favours it further).

/// Which path a packet takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UgalChoice {
    /// The minimal path.
    Minimal,
    /// The Valiant path through the intermediate group.
    Valiant,
}

/// One candidate path: queue occupancy and hop count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UgalCandidate {
    /// Queue occupancy seen for this path (flits).
    pub occupancy: u32,
    /// Router-to-router hops of the whole path.
    pub hops: u32,
}

/// The core comparison: minimal iff `min.occupancy · min.hops ≤ val.occupancy · val.hops
/// + bias` (in `u64`, no overflow).
#[inline]
pub fn decide(min: UgalCandidate, val: UgalCandidate, bias: u32) -> UgalChoice {
    let lhs = u64::from(min.occupancy) * u64::from(min.hops);
    let rhs = u64::from(val.occupancy) * u64::from(val.hops) + u64::from(bias);
    if lhs <= rhs {
        UgalChoice::Minimal
    } else {
        UgalChoice::Valiant
    }
}

/// UGAL-L: `q_min`, `q_val` are the source switch's output-queue occupancies toward the
/// first hop of the minimal and of the Valiant path; `h_min`, `h_val` the path lengths.
#[inline]
pub fn ugal_l(q_min: u32, h_min: u32, q_val: u32, h_val: u32, bias: u32) -> UgalChoice {
    decide(
        UgalCandidate {
            occupancy: q_min,
            hops: h_min,
        },
        UgalCandidate {
            occupancy: q_val,
            hops: h_val,
        },
        bias,
    )
}

/// UGAL-G: `min_globals`, `val_globals` are the occupancies of the global channels on the
/// minimal and on the Valiant path (each summed, saturating); `h_min`, `h_val` the lengths.
#[inline]
pub fn ugal_g(
    min_globals: &[u32],
    h_min: u32,
    val_globals: &[u32],
    h_val: u32,
    bias: u32,
) -> UgalChoice {
    let sum = |q: &[u32]| q.iter().fold(0u32, |a, &b| a.saturating_add(b));
    ugal_l(sum(min_globals), h_min, sum(val_globals), h_val, bias)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ugal_l_exact_boundary() {
        // 3 hops × 10 = 30 vs 5 hops × 6 = 30: tie → minimal; one more flit → Valiant.
        assert_eq!(ugal_l(10, 3, 6, 5, 0), UgalChoice::Minimal);
        assert_eq!(ugal_l(11, 3, 6, 5, 0), UgalChoice::Valiant);
        // bias 3 absorbs 33 - 30.
        assert_eq!(ugal_l(11, 3, 6, 5, 3), UgalChoice::Minimal);
        assert_eq!(ugal_l(0, 3, 0, 5, 0), UgalChoice::Minimal);
    }

    #[test]
    fn ugal_g_sums_global_queues() {
        // min: 1 global at 20 → 20·3 = 60; val: 2 globals 4 + 7 = 11 → 11·5 = 55.
        assert_eq!(ugal_g(&[20], 3, &[4, 7], 5, 0), UgalChoice::Valiant);
        assert_eq!(ugal_g(&[18], 3, &[4, 7], 5, 0), UgalChoice::Minimal);
        assert_eq!(
            ugal_g(&[u32::MAX, 5], 3, &[u32::MAX], 5, 0),
            UgalChoice::Minimal
        );
    }
}
