//! Size limits shared by the structured topology families, and the checked arithmetic that
//! enforces them (docs/topologies.md §0: ids are `u32`, port indices `u16`).
//!
//! Constructors compute switch and terminal counts in `u64` with saturating products and
//! reject anything above these limits, so no later id computation (`id + offset`,
//! `switch · terminals_per_switch + i`) can overflow `u32`.

use super::{PortIndex, TopologyError};
use crate::error::InvalidParam;

/// Largest number of switches a structured topology may have (2^30).
pub const MAX_SWITCHES: u32 = 1 << 30;

/// Largest number of terminals a structured topology may have (2^30).
pub const MAX_TERMINALS: u32 = 1 << 30;

/// Largest number of dimensions of a torus, mesh or HyperX.
pub const MAX_DIMS: usize = 16;

/// Checks a switch count against [`MAX_SWITCHES`].
pub(crate) fn check_switches(count: u64) -> Result<u32, TopologyError> {
    if count > MAX_SWITCHES as u64 {
        return Err(TopologyError::Invalid(InvalidParam {
            param: "switches",
            value: count,
            rule: "a network may have at most 2^30 switches",
        }));
    }
    Ok(count as u32)
}

/// Checks a terminal count against [`MAX_TERMINALS`].
pub(crate) fn check_terminals(count: u64) -> Result<u32, TopologyError> {
    if count > MAX_TERMINALS as u64 {
        return Err(TopologyError::Invalid(InvalidParam {
            param: "terminals",
            value: count,
            rule: "a network may have at most 2^30 terminals",
        }));
    }
    Ok(count as u32)
}

/// Checks that a switch radix (number of port indices) fits a [`PortIndex`].
pub(crate) fn check_radix(ports: u64) -> Result<PortIndex, TopologyError> {
    if ports > PortIndex::MAX as u64 {
        return Err(TopologyError::Invalid(InvalidParam {
            param: "radix",
            value: ports,
            rule: "a switch may have at most 65535 ports",
        }));
    }
    Ok(ports as PortIndex)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_accept_the_boundary_and_reject_beyond() {
        assert_eq!(check_switches(1 << 30), Ok(1 << 30));
        assert!(matches!(
            check_switches((1 << 30) + 1),
            Err(TopologyError::Invalid(InvalidParam {
                param: "switches",
                ..
            }))
        ));
        assert_eq!(check_terminals(0), Ok(0));
        assert!(matches!(
            check_terminals(u64::MAX),
            Err(TopologyError::Invalid(InvalidParam {
                param: "terminals",
                ..
            }))
        ));
        assert_eq!(check_radix(65535), Ok(65535));
        assert!(matches!(
            check_radix(65536),
            Err(TopologyError::Invalid(InvalidParam { param: "radix", .. }))
        ));
    }
}
