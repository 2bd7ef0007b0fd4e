//! Circulant mapping for `G(n, log2 n)` (docs/mapping.md §1, \[DISS\] Algorithm 4.1).

use crate::error::InvalidParam;
use crate::mapping::{FreeNodes, MappingError, NodeId};

/// Writes the nodes `start, start + stride, start + 2·stride, ...` (mod `n`), with
/// `stride = n / m` and `m = out.len()`, into `out` in traversal order (docs/mapping.md §1,
/// circulant mapping; \[DISS\] draws `start = rand() mod n`).
///
/// `m` must be a power of two with `1 ≤ m ≤ n`. When `m` divides `n` (always for
/// `G(n, log2 n)`, where `n` is a power of two) the chosen nodes induce `G(m, log2 m)`: ranks
/// `r` and `r ± 2^j` sit `stride·2^j` apart, which is a jump of the host graph. Every chosen
/// node must be free.
///
/// # Examples
///
/// ```
/// use jumpnet_core::mapping::{circulant_mapping, invert, FreeNodes, UNMAPPED};
///
/// // 4 ranks on G(16, 4) from node 3: stride 16/4 = 4.
/// let mut nodes = [0u32; 4];
/// circulant_mapping(16, FreeNodes::All, 3, &mut nodes)?;
/// assert_eq!(nodes, [3, 7, 11, 15]);
/// // A placement is one-to-one: its inverse exists, and a repeated node is refused.
/// let mut rank_of = [0u32; 16];
/// invert(&nodes, &mut rank_of)?;
/// assert_eq!((rank_of[11], rank_of[0]), (2, UNMAPPED));
/// assert!(invert(&[3, 7, 3], &mut rank_of).is_err());
/// // The number of ranks must be a power of two.
/// assert!(circulant_mapping(16, FreeNodes::All, 0, &mut [0; 3]).is_err());
/// # Ok::<(), jumpnet_core::mapping::MappingError>(())
/// ```
pub fn circulant_mapping(
    n: u32,
    free: FreeNodes<'_>,
    start: NodeId,
    out: &mut [NodeId],
) -> Result<(), MappingError> {
    let m = out.len();
    if m == 0 || !m.is_power_of_two() {
        return Err(MappingError::Invalid(InvalidParam {
            param: "m",
            value: m as u64,
            rule: "the circulant mapping needs m a power of two, at least 1",
        }));
    }
    free.check_room(n, m)?;
    if start >= n {
        return Err(MappingError::NodeOutOfRange {
            node: start as u64,
            n: n as u64,
        });
    }
    let stride = (n as u64) / (m as u64);
    for (k, slot) in out.iter_mut().enumerate() {
        let v = ((start as u64 + k as u64 * stride) % n as u64) as NodeId;
        if !free.is_free(v) {
            return Err(MappingError::NodeNotFree { node: v as u64 });
        }
        *slot = v;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_with_wrap() {
        let mut out = [0u32; 4];
        circulant_mapping(16, FreeNodes::All, 13, &mut out).unwrap();
        assert_eq!(out, [13, 1, 5, 9]);
    }

    #[test]
    fn errors() {
        let mut out = [0u32; 3];
        assert!(matches!(
            circulant_mapping(16, FreeNodes::All, 0, &mut out),
            Err(MappingError::Invalid(InvalidParam { param: "m", .. }))
        ));
        let mut out = [0u32; 4];
        let mut mask = [true; 8];
        mask[6] = false;
        assert_eq!(
            circulant_mapping(8, FreeNodes::Mask(&mask), 0, &mut out),
            Err(MappingError::NodeNotFree { node: 6 })
        );
        let mut big = [0u32; 16];
        assert!(matches!(
            circulant_mapping(8, FreeNodes::All, 0, &mut big),
            Err(MappingError::NotEnoughFree { .. })
        ));
    }
}
