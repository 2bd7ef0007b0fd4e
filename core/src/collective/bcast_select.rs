//! MPICH broadcast algorithm selection, `MPIR_Bcast_intra_auto` (docs/collectives.md §5).
//!
//! ```text
//! if nbytes < 12288 or n < 8:                  binomial
//! elif nbytes < 524288 and n is a power of two: scatter + recursive-doubling allgather
//! else:                                        scatter + ring allgather
//! ```
//! (all comparisons strict, as in the MPICH code).

use super::binomial::Binomial;
use super::message::Rank;
use super::scatter_allgather::{AllgatherKind, ScatterAllgather};
use super::schedule::{delegate_schedule, ScheduleError};

/// MPICH `BCAST_SHORT_MSG_SIZE`.
pub const BCAST_SHORT_MSG_SIZE: u64 = 12288;
/// MPICH `BCAST_LONG_MSG_SIZE`.
pub const BCAST_LONG_MSG_SIZE: u64 = 524288;
/// MPICH `BCAST_MIN_PROCS`.
pub const BCAST_MIN_PROCS: u32 = 8;

/// The broadcast algorithms MPICH chooses between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BcastAlgorithm {
    /// Binomial tree (§1).
    Binomial,
    /// Binomial scatter + recursive-doubling allgather.
    ScatterRecursiveDoubling,
    /// Binomial scatter + ring allgather.
    ScatterRing,
}

/// The algorithm MPICH picks for `nbytes` bytes over `n` ranks.
///
/// # Examples
///
/// ```
/// use jumpnet_core::collective::bcast_select::select;
/// use jumpnet_core::collective::BcastAlgorithm::{Binomial, ScatterRecursiveDoubling, ScatterRing};
///
/// // All comparisons are strict, as in MPICH.
/// assert_eq!(select(12_287, 64), Binomial);
/// assert_eq!(select(12_288, 64), ScatterRecursiveDoubling);
/// assert_eq!(select(12_288, 7), Binomial);
/// assert_eq!(select(12_288, 48), ScatterRing);
/// assert_eq!(select(524_288, 64), ScatterRing);
/// ```
pub fn select(nbytes: u64, n: u32) -> BcastAlgorithm {
    if nbytes < BCAST_SHORT_MSG_SIZE || n < BCAST_MIN_PROCS {
        BcastAlgorithm::Binomial
    } else if nbytes < BCAST_LONG_MSG_SIZE && n.is_power_of_two() {
        BcastAlgorithm::ScatterRecursiveDoubling
    } else {
        BcastAlgorithm::ScatterRing
    }
}

/// A broadcast with the algorithm MPICH would select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broadcast {
    /// Short messages or few ranks.
    Binomial(Binomial),
    /// Medium or long messages.
    Scatter(ScatterAllgather),
}

impl Broadcast {
    /// The broadcast MPICH runs for `nbytes` bytes from `root` over `n` ranks.
    pub fn auto(n: u32, root: Rank, nbytes: u64) -> Result<Self, ScheduleError> {
        Self::with(select(nbytes, n), n, root, nbytes)
    }

    /// A broadcast with an explicitly chosen algorithm.
    pub fn with(
        alg: BcastAlgorithm,
        n: u32,
        root: Rank,
        nbytes: u64,
    ) -> Result<Self, ScheduleError> {
        Ok(match alg {
            BcastAlgorithm::Binomial => Broadcast::Binomial(Binomial::new(n, root, nbytes)?),
            BcastAlgorithm::ScatterRecursiveDoubling => Broadcast::Scatter(ScatterAllgather::new(
                n,
                root,
                nbytes,
                AllgatherKind::RecursiveDoubling,
            )?),
            BcastAlgorithm::ScatterRing => {
                Broadcast::Scatter(ScatterAllgather::new(n, root, nbytes, AllgatherKind::Ring)?)
            }
        })
    }
}

delegate_schedule!(Broadcast {
    Broadcast::Binomial,
    Broadcast::Scatter,
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_strict() {
        assert_eq!(select(12287, 64), BcastAlgorithm::Binomial);
        assert_eq!(select(12288, 64), BcastAlgorithm::ScatterRecursiveDoubling);
        assert_eq!(select(12288, 7), BcastAlgorithm::Binomial);
        assert_eq!(select(12288, 8), BcastAlgorithm::ScatterRecursiveDoubling);
        assert_eq!(select(524287, 64), BcastAlgorithm::ScatterRecursiveDoubling);
        assert_eq!(select(524288, 64), BcastAlgorithm::ScatterRing);
        assert_eq!(select(100_000, 12), BcastAlgorithm::ScatterRing);
    }
}
