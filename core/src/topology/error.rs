//! Errors of topology construction.

use crate::error::{CapacityError, InvalidParam};
use core::fmt;

/// Why a topology could not be built. Every variant names the offending parameter and what
/// is allowed, so the host can print it verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyError {
    /// `param = value` breaks `rule` (a sentence such as "G(n, log2 n) needs n a power of two").
    Invalid(InvalidParam),
    /// `param = value` must be prime.
    NotPrime {
        /// Parameter name.
        param: &'static str,
        /// The rejected value.
        value: u64,
    },
    /// A caller-provided buffer (or a fixed capacity of the core) is too small.
    Capacity(CapacityError),
    /// An edge refers to a switch outside `0..n`.
    SwitchOutOfRange {
        /// The switch id.
        switch: u64,
        /// Number of switches.
        n: u64,
    },
    /// An edge connects a switch to itself.
    SelfLoop {
        /// The switch id.
        switch: u32,
    },
    /// A switch would get more network ports than allowed.
    DegreeExceeded {
        /// The switch id.
        switch: u32,
        /// Maximum number of network ports.
        max: u32,
    },
}

impl fmt::Display for TopologyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TopologyError::Invalid(e) => e.fmt(f),
            TopologyError::NotPrime { param, value } => write!(
                f,
                "{param} = {value} is not prime (only prime {param} is supported)"
            ),
            TopologyError::Capacity(e) => e.fmt(f),
            TopologyError::SwitchOutOfRange { switch, n } => write!(
                f,
                "switch {switch} is out of range: switches are 0..{n} (exclusive)"
            ),
            TopologyError::SelfLoop { switch } => {
                write!(
                    f,
                    "self loop at switch {switch}: links must join two different switches"
                )
            }
            TopologyError::DegreeExceeded { switch, max } => write!(
                f,
                "switch {switch} would have more than {max} network ports"
            ),
        }
    }
}

crate::error::from_shared!(TopologyError, Capacity, Invalid);

impl core::error::Error for TopologyError {}
