//! Synthetic traffic a device could also run (docs/mapping.md §5 for the bit
//! patterns, BookSim2 `traffic.cpp` for tornado and neighbour): Bernoulli and batch
//! injection with the rate in fixed point, and destination patterns. Allocation-free: a
//! random permutation lives in a caller buffer. Host and MCU draw the same packets from the
//! same seed ([`crate::rng::Rng`]).

pub mod injection;
pub mod pattern;

pub use injection::{Bernoulli, Rate};
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
}

impl core::fmt::Display for TrafficError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            TrafficError::NotPowerOfTwo => "bit pattern needs a power-of-two node count",
            TrafficError::OddBits => "transpose needs an even number of address bits",
            TrafficError::NotKAryNCube => "digit pattern needs nodes = k^n",
            TrafficError::BufferSize => "permutation buffer must have one entry per node",
            TrafficError::BadHotspot => "hotspot node out of range",
            TrafficError::TooFewNodes => "traffic needs at least 2 nodes",
        })
    }
}

impl core::error::Error for TrafficError {}
