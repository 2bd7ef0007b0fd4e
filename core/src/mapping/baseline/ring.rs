//! Ring-based consecutive mapping (docs/mapping.md §1).

use crate::mapping::{FreeNodes, MappingError, NodeId};

/// Writes the nodes `start, start+1, ...` (mod `n`) along the base ring into `out`
/// (docs/mapping.md §1, ring-based consecutive mapping), in traversal order.
///
/// Nodes that are not free are skipped (project choice; \[DISS\] always has every node free, and
/// then the result is exactly `start .. start+m-1 mod n`).
pub fn ring_mapping(
    n: u32,
    free: FreeNodes<'_>,
    start: NodeId,
    out: &mut [NodeId],
) -> Result<(), MappingError> {
    free.check_room(n, out.len())?;
    if start >= n {
        return Err(MappingError::NodeOutOfRange {
            node: start as u64,
            n: n as u64,
        });
    }
    let mut v = start;
    for slot in out.iter_mut() {
        while !free.is_free(v) {
            v = if v + 1 == n { 0 } else { v + 1 };
        }
        *slot = v;
        v = if v + 1 == n { 0 } else { v + 1 };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_with_wrap() {
        let mut out = [0u32; 5];
        ring_mapping(8, FreeNodes::All, 6, &mut out).unwrap();
        assert_eq!(out, [6, 7, 0, 1, 2]);
    }

    #[test]
    fn skips_busy_nodes() {
        let mask = [true, false, true, true, false, true];
        let mut out = [0u32; 4];
        ring_mapping(6, FreeNodes::Mask(&mask), 3, &mut out).unwrap();
        assert_eq!(out, [3, 5, 0, 2]);
        assert!(ring_mapping(6, FreeNodes::Mask(&mask), 6, &mut out).is_err());
        let mut big = [0u32; 5];
        assert!(ring_mapping(6, FreeNodes::Mask(&mask), 0, &mut big).is_err());
    }
}
