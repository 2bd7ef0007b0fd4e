//! The set of free nodes a mapping may choose from (docs/mapping.md §1).

use super::{MappingError, NodeId};
use crate::error::CapacityError;

/// Which of the `n` nodes are free for a new job.
///
/// \[DISS\] runs every experiment on an empty machine ([`FreeNodes::All`]); a mask lets the host
/// map a job next to running ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeNodes<'a> {
    /// Every node `0..n` is free.
    All,
    /// Node `v` is free iff `mask[v]`; the mask must have exactly `n` entries.
    Mask(&'a [bool]),
}

impl FreeNodes<'_> {
    /// Whether `node` is free (nodes outside the mask are not).
    #[inline]
    pub fn is_free(&self, node: NodeId) -> bool {
        match self {
            FreeNodes::All => true,
            FreeNodes::Mask(mask) => mask.get(node as usize).copied().unwrap_or(false),
        }
    }

    /// Number of free nodes among `0..n`.
    pub fn count(&self, n: u32) -> u32 {
        match self {
            FreeNodes::All => n,
            FreeNodes::Mask(mask) => mask.iter().take(n as usize).filter(|&&f| f).count() as u32,
        }
    }

    /// Checks that the set describes exactly `n` nodes.
    pub fn check(&self, n: u32) -> Result<(), MappingError> {
        match self {
            FreeNodes::All => Ok(()),
            FreeNodes::Mask(mask) if mask.len() == n as usize => Ok(()),
            FreeNodes::Mask(mask) => Err(MappingError::Capacity(CapacityError {
                what: "free-node mask (one entry per node)",
                needed: n as u64,
                available: mask.len() as u64,
            })),
        }
    }

    /// Checks the set against `n` and that at least `m` nodes are free.
    pub(crate) fn check_room(&self, n: u32, m: usize) -> Result<(), MappingError> {
        self.check(n)?;
        let free = self.count(n);
        if m > free as usize {
            return Err(MappingError::NotEnoughFree {
                requested: m as u64,
                free: free as u64,
            });
        }
        Ok(())
    }
}
