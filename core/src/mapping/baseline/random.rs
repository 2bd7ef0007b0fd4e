//! Random mapping (docs/mapping.md §1).

use crate::mapping::{FreeNodes, MappingError, NodeId};
use crate::rng::Rng;

/// Chooses `out.len()` distinct free nodes of `0..n` uniformly at random (docs/mapping.md §1,
/// random mapping) and writes them in ascending order.
///
/// Uses selection sampling (Knuth's Algorithm S): one pass over the free nodes, node taken with
/// probability `still_needed / free_left`, decided by an integer draw, so every `m`-subset is
/// equally likely and no scratch storage is needed. Because the output is ascending it is
/// already the ascending-order rank placement.
///
/// # Examples
///
/// ```
/// use jumpnet_core::mapping::{random_mapping, FreeNodes};
/// use jumpnet_core::rng::Rng;
///
/// // 8 of 32 nodes while nodes 0..16 are busy: distinct free nodes, in ascending order.
/// let mut free = [true; 32];
/// free[..16].fill(false);
/// let mut nodes = [0u32; 8];
/// random_mapping(32, FreeNodes::Mask(&free), &mut Rng::new(1), &mut nodes)?;
/// assert!(nodes.windows(2).all(|w| w[0] < w[1]));
/// assert!(nodes.iter().all(|v| (16..32).contains(v)));
/// // The same seed maps the same nodes; more ranks than free nodes is an error.
/// let mut again = [0u32; 8];
/// random_mapping(32, FreeNodes::Mask(&free), &mut Rng::new(1), &mut again)?;
/// assert_eq!(nodes, again);
/// assert!(random_mapping(32, FreeNodes::Mask(&free), &mut Rng::new(1), &mut [0; 17]).is_err());
/// # Ok::<(), jumpnet_core::mapping::MappingError>(())
/// ```
pub fn random_mapping(
    n: u32,
    free: FreeNodes<'_>,
    rng: &mut Rng,
    out: &mut [NodeId],
) -> Result<(), MappingError> {
    free.check_room(n, out.len())?;
    let mut left = free.count(n) as u64;
    let mut needed = out.len() as u64;
    let mut slots = out.iter_mut();
    for v in 0..n {
        if needed == 0 {
            break;
        }
        if !free.is_free(v) {
            continue;
        }
        if rng.below(left) < needed {
            if let Some(slot) = slots.next() {
                *slot = v;
            }
            needed -= 1;
        }
        left -= 1;
    }
    Ok(())
}

/// A free node of `0..n` drawn uniformly at random (root of the hierarchical-tree mapping).
pub fn random_free_node(
    n: u32,
    free: FreeNodes<'_>,
    rng: &mut Rng,
) -> Result<NodeId, MappingError> {
    free.check_room(n, 1)?;
    let mut k = rng.below(free.count(n) as u64);
    for v in 0..n {
        if free.is_free(v) {
            if k == 0 {
                return Ok(v);
            }
            k -= 1;
        }
    }
    Err(MappingError::NotEnoughFree {
        requested: 1,
        free: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_ascending_and_free() {
        let mask: std::vec::Vec<bool> = (0..100).map(|v| v % 3 != 0).collect();
        let mut rng = Rng::new(5);
        for m in [0usize, 1, 10, 66] {
            let mut out = std::vec![0u32; m];
            random_mapping(100, FreeNodes::Mask(&mask), &mut rng, &mut out).unwrap();
            assert!(out.windows(2).all(|w| w[0] < w[1]), "{out:?}");
            assert!(out.iter().all(|&v| v < 100 && v % 3 != 0));
        }
    }

    #[test]
    fn every_node_is_picked_about_equally() {
        // Each of 20 nodes must be chosen with probability 5/20 = 1/4.
        let mut rng = Rng::new(11);
        let mut hits = [0u32; 20];
        let mut out = [0u32; 5];
        for _ in 0..8000 {
            random_mapping(20, FreeNodes::All, &mut rng, &mut out).unwrap();
            for &v in &out {
                hits[v as usize] += 1;
            }
        }
        for h in hits {
            assert!((1800..2200).contains(&h), "{hits:?}");
        }
    }

    #[test]
    fn errors() {
        let mut rng = Rng::new(1);
        let mut out = [0u32; 4];
        assert_eq!(
            random_mapping(3, FreeNodes::All, &mut rng, &mut out),
            Err(MappingError::NotEnoughFree {
                requested: 4,
                free: 3
            })
        );
        let mask = [true, false, true, true, false];
        assert_eq!(
            random_mapping(5, FreeNodes::Mask(&mask), &mut rng, &mut out),
            Err(MappingError::NotEnoughFree {
                requested: 4,
                free: 3
            })
        );
        assert!(matches!(
            random_mapping(6, FreeNodes::Mask(&mask), &mut rng, &mut out[..1]),
            Err(MappingError::Capacity(..))
        ));
        for _ in 0..50 {
            let v = random_free_node(5, FreeNodes::Mask(&mask), &mut rng).unwrap();
            assert!(mask[v as usize]);
        }
    }
}
