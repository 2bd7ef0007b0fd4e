//! Errors of metric computations.

use core::fmt;

/// Why a metric could not be computed. Every variant names the offending parameter or buffer
/// and what is allowed, so the host can print it verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricsError {
    /// A caller-provided buffer is too small.
    Capacity {
        /// Which buffer ran out (e.g. "CSR targets").
        what: &'static str,
        /// How many entries are needed.
        needed: u64,
        /// How many are available.
        available: u64,
    },
    /// `param = value` breaks `rule`.
    Invalid {
        /// Parameter name (`source`, `batches`, `switches`, ...).
        param: &'static str,
        /// The rejected value.
        value: u64,
        /// What is allowed.
        rule: &'static str,
    },
}

impl fmt::Display for MetricsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MetricsError::Capacity {
                what,
                needed,
                available,
            } => write!(
                f,
                "capacity exceeded: {what} needs {needed} entries, {available} available"
            ),
            MetricsError::Invalid { param, value, rule } => {
                write!(f, "{rule}, got {param} = {value}")
            }
        }
    }
}

impl core::error::Error for MetricsError {}

/// `Err(Capacity)` unless `available >= needed`.
pub(crate) fn need(
    what: &'static str,
    needed: usize,
    available: usize,
) -> Result<(), MetricsError> {
    if available < needed {
        Err(MetricsError::Capacity {
            what,
            needed: needed as u64,
            available: available as u64,
        })
    } else {
        Ok(())
    }
}
