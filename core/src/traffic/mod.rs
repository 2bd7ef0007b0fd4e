//! Synthetic traffic a device could also run (docs/mapping.md §5 for the bit
//! patterns, BookSim2 `traffic.cpp` for tornado and neighbour): Bernoulli and batch
//! injection with the rate in fixed point, and destination patterns. Allocation-free: a
//! random permutation lives in a caller buffer. Host and MCU draw the same packets from the
//! same seed ([`crate::rng::Rng`]).

pub mod injection;
pub mod on_off;
pub mod pattern;
pub mod random_patterns;

pub use injection::{Bernoulli, Rate};
pub use on_off::OnOff;
pub use pattern::{DestPattern, Traffic};

/// Error of the traffic module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrafficError {
    /// A bit pattern (docs/mapping.md §5) needs a power-of-two node count ≥ 2.
    NotPowerOfTwo,
    /// Transpose needs an even number of address bits (docs/mapping.md §5).
    OddBits,
    /// A digit pattern needs `nodes = k^n` with `k ≥ 2`.
    NotKAryNCube,
    /// The permutation buffer does not have one entry per node.
    BufferSize,
    /// The hotspot node is not a node.
    BadHotspot,
    /// A network with fewer than 2 nodes has no destinations.
    TooFewNodes,
    /// BookSim2's `taper64` needs exactly 64 nodes (docs/booksim.md §3).
    NotSixtyFour,
    /// On/off injection needs exactly one of `alpha`, `beta`, `r1` negative (derived) and
    /// the others at most 1 (docs/booksim.md §2).
    OnOffParams,
    /// BookSim2's `bad_dragon` needs `k ≥ 1` terminals per router (docs/booksim.md §3).
    BadGroup,
}

impl core::fmt::Display for TrafficError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            TrafficError::NotPowerOfTwo => "bit pattern needs a power-of-two node count",
            TrafficError::OddBits => "transpose needs an even number of address bits",
            TrafficError::NotKAryNCube => "digit pattern needs nodes = k^n",
            TrafficError::BufferSize => "permutation buffer must have one entry per node",
            TrafficError::BadHotspot => {
                "hotspot node out of range, or a hotspot list empty or with a zero weight"
            }
            TrafficError::TooFewNodes => "traffic needs at least 2 nodes",
            TrafficError::OnOffParams => {
                "on_off needs exactly one of burst_alpha, burst_beta, burst_r1 negative and the others <= 1"
            }
            TrafficError::NotSixtyFour => "taper64 needs exactly 64 nodes",
            TrafficError::BadGroup => "bad_dragon needs k >= 1 terminals per router",
        })
    }
}

impl core::error::Error for TrafficError {}
