//! Reference breadth-first search over a [`Csr`] (docs/routing.md §1): single-source distances
//! into a caller buffer, and the all-pairs summary by one BFS per source.
//!
//! This is the plain, obviously-correct path; [`super::bit_bfs`] is the fast one and is
//! tested against it.

use super::{Csr, DistanceOutputs, DistanceSummary, MetricsError};
use crate::error::{CapacityError, InvalidParam};

/// A distance cell type: `u16` (half the memory, for all-pairs matrices) or `u32`.
pub trait Distance: Copy + Eq + core::fmt::Debug {
    /// Marker of an unreachable switch (the type's maximum value).
    const UNREACHABLE: Self;
    /// The distance `level`, or `None` when it does not fit below [`Distance::UNREACHABLE`].
    fn from_level(level: u32) -> Option<Self>;
    /// The distance as `u32`, or `None` for [`Distance::UNREACHABLE`].
    fn level(self) -> Option<u32>;
}

impl Distance for u16 {
    const UNREACHABLE: u16 = u16::MAX;
    #[inline]
    fn from_level(level: u32) -> Option<u16> {
        u16::try_from(level).ok().filter(|&l| l != u16::MAX)
    }
    #[inline]
    fn level(self) -> Option<u32> {
        (self != u16::MAX).then_some(self as u32)
    }
}

impl Distance for u32 {
    const UNREACHABLE: u32 = u32::MAX;
    #[inline]
    fn from_level(level: u32) -> Option<u32> {
        (level != u32::MAX).then_some(level)
    }
    #[inline]
    fn level(self) -> Option<u32> {
        (self != u32::MAX).then_some(self)
    }
}

/// What one BFS found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceReach {
    /// Switches reached, the source included.
    pub reached: u32,
    /// Largest distance to a reached switch.
    pub max_distance: u32,
    /// Sum of the distances to the reached switches.
    pub sum: u64,
}

/// BFS from `source`: writes the hop distance of every switch into `dist` (`n` entries;
/// [`Distance::UNREACHABLE`] where unreachable), using `queue` (`n` entries) as scratch.
///
/// Errors: `source >= n`, short buffers, or a distance that does not fit in `D`.
pub fn distances<D: Distance>(
    csr: &Csr<'_>,
    source: u32,
    dist: &mut [D],
    queue: &mut [u32],
) -> Result<SourceReach, MetricsError> {
    let n = csr.num_vertices();
    if source >= n {
        return Err(MetricsError::Invalid(InvalidParam {
            param: "source",
            value: source as u64,
            rule: "the BFS source must be a switch id below the number of switches",
        }));
    }
    CapacityError::check("BFS distances", n as usize, dist.len())?;
    CapacityError::check("BFS queue", n as usize, queue.len())?;
    let dist = &mut dist[..n as usize];
    dist.fill(D::UNREACHABLE);
    let mut reach = SourceReach {
        reached: 1,
        max_distance: 0,
        sum: 0,
    };
    dist[source as usize] = D::from_level(0).ok_or(too_far(0))?;
    queue[0] = source;
    let (mut head, mut tail) = (0usize, 1usize);
    while head < tail {
        let u = queue[head];
        head += 1;
        let next = dist[u as usize].level().unwrap_or(0) + 1;
        for &v in csr.neighbors(u) {
            let Some(cell) = dist.get_mut(v as usize) else {
                continue;
            };
            if *cell == D::UNREACHABLE {
                *cell = D::from_level(next).ok_or(too_far(next))?;
                if let Some(q) = queue.get_mut(tail) {
                    *q = v;
                }
                tail += 1;
                reach.reached += 1;
                reach.max_distance = next;
                reach.sum += next as u64;
            }
        }
    }
    Ok(reach)
}

fn too_far(level: u32) -> MetricsError {
    MetricsError::Invalid(InvalidParam {
        param: "distance",
        value: level as u64,
        rule: "distances must fit in the chosen distance type (use u32 cells)",
    })
}

/// All-pairs summary by one BFS per source (the reference for [`super::bit_bfs`]).
/// `dist` and `queue` need `n` entries; when given, `outputs.eccentricities` (`n` entries)
/// receives each switch's eccentricity (`u32::MAX` when it cannot reach every switch) and
/// `outputs.histogram` (`n` entries) the pairs at each distance.
pub fn all_pairs(
    csr: &Csr<'_>,
    dist: &mut [u32],
    queue: &mut [u32],
    mut outputs: DistanceOutputs<'_>,
) -> Result<DistanceSummary, MetricsError> {
    let n = csr.num_vertices();
    outputs.check(n as usize, n as usize)?;
    let mut summary = DistanceSummary::empty(n);
    for s in 0..n {
        let reach = distances(csr, s, dist, queue)?;
        add_source_to_summary(&mut summary, &dist[..n as usize], reach);
        for &d in &dist[..n as usize] {
            if d != u32::MAX {
                outputs.add_pairs_at(d, 1);
            }
        }
        if let Some(e) = outputs
            .eccentricities
            .as_deref_mut()
            .and_then(|e| e.get_mut(s as usize))
        {
            *e = eccentricity(n, reach);
        }
    }
    Ok(summary)
}

/// Eccentricity of a source from its reach (`u32::MAX` unless it reaches all `n` switches).
pub(crate) fn eccentricity(n: u32, reach: SourceReach) -> u32 {
    if reach.reached == n {
        reach.max_distance
    } else {
        u32::MAX
    }
}

/// Adds one source's distance row to `summary`.
pub(crate) fn add_source_to_summary(
    summary: &mut DistanceSummary,
    dist: &[u32],
    reach: SourceReach,
) {
    for &d in dist {
        if d != u32::MAX {
            summary.add_pairs_at(d, 1);
        }
    }
    let n = dist.len() as u32;
    let finite = (reach.reached == n).then_some(reach.max_distance);
    summary.add_source(finite, (n - reach.reached) as u64);
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::topology::stored::from_edges;
    use crate::topology::Slot;
    use std::vec;

    #[test]
    fn path_graph_distances() {
        // Path 0-1-2-3-4: distances from 1 are 1,0,1,2,3.
        let mut slots = [Slot::EMPTY; 10];
        let mut deg = [0u16; 5];
        let g = from_edges(
            5,
            2,
            0,
            [(0, 1), (1, 2), (2, 3), (3, 4)],
            &mut slots,
            &mut deg,
        )
        .unwrap();
        let (mut off, mut tg) = (vec![0; 6], vec![0; 8]);
        let csr = Csr::build(&g, &mut off, &mut tg).unwrap();
        let mut d16 = [0u16; 5];
        let mut q = [0u32; 5];
        let r = distances(&csr, 1, &mut d16, &mut q).unwrap();
        assert_eq!(d16, [1, 0, 1, 2, 3]);
        assert_eq!(
            r,
            SourceReach {
                reached: 5,
                max_distance: 3,
                sum: 7
            }
        );
        let mut d = [0u32; 5];
        let s = all_pairs(&csr, &mut d, &mut q, DistanceOutputs::none()).unwrap();
        // Path P5: sum over ordered pairs = 2 · (4·1 + 3·2 + 2·3 + 1·4) = 40, 20 pairs.
        assert_eq!((s.diameter, s.radius, s.sum, s.pairs), (4, 2, 40, 20));
        assert_eq!(s.distance_histogram(), &[5, 8, 6, 4, 2]);
        assert!(s.connected && s.is_complete());
        assert!(distances(&csr, 5, &mut d, &mut q).is_err());
        assert!(distances(&csr, 0, &mut d[..4], &mut q).is_err());
    }

    #[test]
    fn disconnected_graph_marks_unreachable() {
        let mut slots = [Slot::EMPTY; 5];
        let mut deg = [0u16; 5];
        let g = from_edges(5, 1, 0, [(0, 1), (2, 3)], &mut slots, &mut deg).unwrap();
        let (mut off, mut tg) = (vec![0; 6], vec![0; 4]);
        let csr = Csr::build(&g, &mut off, &mut tg).unwrap();
        let mut d = [0u32; 5];
        let mut q = [0u32; 5];
        distances(&csr, 2, &mut d, &mut q).unwrap();
        assert_eq!(d, [u32::MAX, u32::MAX, 0, 1, u32::MAX]);
        let mut ecc = [0u32; 5];
        let s = all_pairs(
            &csr,
            &mut d,
            &mut q,
            DistanceOutputs::with_eccentricities(&mut ecc),
        )
        .unwrap();
        assert!(!s.connected);
        assert_eq!(ecc, [u32::MAX; 5]);
        assert_eq!(
            (s.diameter, s.pairs, s.unreachable_pairs),
            (1, 4, 25 - 5 - 4)
        );
    }

    #[test]
    fn u16_cells_reject_too_long_paths() {
        assert_eq!(<u16 as Distance>::from_level(65_534), Some(65_534));
        assert_eq!(<u16 as Distance>::from_level(65_535), None);
        assert_eq!(<u16 as Distance>::UNREACHABLE.level(), None);
        assert_eq!(<u32 as Distance>::from_level(7), Some(7));
    }
}
