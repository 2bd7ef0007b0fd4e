//! Distance summary of a vertex-transitive switch graph from a single BFS
//! (docs/routing.md §1; docs/topologies.md §2 uses it for `G(n, log2 n)`).
//!
//! In a vertex-transitive graph every switch sees the same distance distribution, so the BFS
//! from switch 0 gives every eccentricity (all equal), the diameter, and the all-pairs
//! histogram, sum and pair count as `n` times the single-source ones. ASPL is over ordered
//! pairs of distinct switches, as everywhere.

use super::bfs::{self, eccentricity};
use super::{Csr, DistanceOutputs, DistanceSummary, MetricsError};

/// All-pairs summary of a graph the caller guarantees to be vertex-transitive, from one BFS
/// from switch 0. `dist` and `queue` need `n` entries; when given, every entry of
/// `eccentricities` (`n` entries) receives the common eccentricity.
///
/// The result is wrong (not an error) for graphs that are not vertex-transitive; use
/// [`super::bit_bfs`] for those.
pub fn summary_from_switch_zero(
    csr: &Csr<'_>,
    dist: &mut [u32],
    queue: &mut [u32],
    mut outputs: DistanceOutputs<'_>,
) -> Result<DistanceSummary, MetricsError> {
    let n = csr.num_vertices();
    if n == 0 {
        return Ok(DistanceSummary::empty(0));
    }
    outputs.check(n as usize, n as usize)?;
    let reach = bfs::distances(csr, 0, dist, queue)?;
    let mut one = DistanceSummary::empty(n);
    bfs::add_source_to_summary(&mut one, &dist[..n as usize], reach);
    // Every source sees the same distances: each pair of the row counts n times.
    for &d in &dist[..n as usize] {
        if d != u32::MAX {
            outputs.add_pairs_at(d, n as u64);
        }
    }
    let e = eccentricity(n, reach);
    if let Some(ecc) = outputs.eccentricities {
        ecc[..n as usize].fill(e);
    }
    let times = n as u64;
    let mut all = one;
    all.sources = n;
    all.sum = one.sum * times;
    all.pairs = one.pairs * times;
    all.unreachable_pairs = one.unreachable_pairs * times;
    for (a, b) in all.histogram.iter_mut().zip(one.histogram.iter()) {
        *a = b * times;
    }
    all.overflow = one.overflow * times;
    Ok(all)
}
