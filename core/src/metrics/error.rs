//! Errors of metric computations.

use crate::error::{CapacityError, InvalidParam};
use core::fmt;

/// Why a metric could not be computed. Every variant names the offending parameter or buffer
/// and what is allowed, so the host can print it verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricsError {
    /// A caller-provided buffer is too small.
    Capacity(CapacityError),
    /// `param = value` breaks `rule`.
    Invalid(InvalidParam),
}

impl fmt::Display for MetricsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MetricsError::Capacity(e) => e.fmt(f),
            MetricsError::Invalid(e) => e.fmt(f),
        }
    }
}

crate::error::from_shared!(MetricsError, Capacity, Invalid);

impl core::error::Error for MetricsError {}
