//! Graph metrics of a topology: distances (diameter, ASPL, histogram, eccentricities —
//! docs/routing.md §1), degrees and link classes, cable length and cost (docs/mapping.md §6).
//!
//! Distance metrics work on a compact adjacency ([`Csr`]) built once in caller buffers:
//!
//! * [`bfs`] — reference single-source BFS and all-pairs by BFS per source;
//! * [`bit_bfs`] — fast bit-parallel all-pairs BFS (64·W sources per pass), splittable into
//!   batch ranges for threads;
//! * [`transitive`] — one BFS for vertex-transitive graphs.
//!
//! [`distance_summary`] picks the fast path from [`Topology::symmetry`].

pub mod bfs;
pub mod bit_bfs;
pub mod cable;
pub mod cost;
pub mod csr;
pub mod degree;
mod error;
mod summary;
pub mod transitive;

pub use cable::{cable_stats, CabinetLayout, CabinetOrder, CableStats};
pub use cost::{network_cost, CostBreakdown, CostModel, LinearPrice};
pub use csr::{csr_size, Csr, CsrSize};
pub use degree::{degree_histogram, degree_stats, DegreeStats, LinkClassCounts};
pub use error::MetricsError;
pub use summary::{DistanceOutputs, DistanceSummary, HISTOGRAM_BINS};

use crate::error::InvalidParam;
use crate::topology::{Symmetry, Topology};

/// Scratch buffers of [`distance_summary`]; sizes from [`DistanceSizes::of`].
#[derive(Debug)]
pub struct DistanceBuffers<'a, const W: usize> {
    /// Bitsets of the bit-parallel BFS ([`bit_bfs::words_needed`] entries; unused, may be
    /// empty, for vertex-transitive topologies).
    pub words: &'a mut [[u64; W]],
    /// BFS distances (`n` entries for vertex-transitive topologies, else unused).
    pub dist: &'a mut [u32],
    /// BFS queue (`n` entries for vertex-transitive topologies, else unused).
    pub queue: &'a mut [u32],
}

/// Entries each buffer of [`DistanceBuffers`] needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistanceSizes {
    /// Entries of `words`.
    pub words: usize,
    /// Entries of `dist`.
    pub dist: usize,
    /// Entries of `queue`.
    pub queue: usize,
}

impl DistanceSizes {
    /// Buffer sizes [`distance_summary`] needs for `t` (depends on its symmetry).
    pub fn of<T: Topology + ?Sized>(t: &T) -> Self {
        let n = t.num_switches() as usize;
        match t.symmetry() {
            Symmetry::VertexTransitive => DistanceSizes {
                words: 0,
                dist: n,
                queue: n,
            },
            Symmetry::None => DistanceSizes {
                words: bit_bfs::words_needed(t.num_switches()),
                dist: 0,
                queue: 0,
            },
        }
    }
}

/// Diameter, ASPL and distance histogram of `t`'s switch graph, and optionally its
/// eccentricities and whole histogram ([`DistanceOutputs`]); the graph is compiled into `csr`
/// beforehand ([`Csr::build`]). Vertex-transitive topologies take one
/// BFS ([`transitive`]); all others the bit-parallel all-pairs BFS ([`bit_bfs`]), which
/// reports `progress(done, total)` in sources after each batch.
///
/// # Examples
///
/// `G(16, 4)` is vertex-transitive, so one BFS gives everything: diameter 2 and ASPL
/// `368 / 240 = 23/15 ≈ 1.5333` over ordered pairs (docs/topologies.md §2).
///
/// ```
/// use jumpnet_core::metrics::{
///     csr_size, distance_summary, Csr, DistanceBuffers, DistanceOutputs, DistanceSizes,
/// };
/// use jumpnet_core::topology::Circulant;
///
/// let g = Circulant::g(16)?;
/// let size = csr_size(&g);
/// assert_eq!((size.offsets, size.targets), (17, 112));
/// let (mut offsets, mut targets) = ([0u32; 17], [0u32; 112]);
/// let csr = Csr::build(&g, &mut offsets, &mut targets)?;
///
/// let sizes = DistanceSizes::of(&g);
/// assert_eq!((sizes.words, sizes.dist, sizes.queue), (0, 16, 16));
/// let (mut dist, mut queue) = ([0u32; 16], [0u32; 16]);
/// let scratch = DistanceBuffers::<1> { words: &mut [], dist: &mut dist, queue: &mut queue };
/// let s = distance_summary(&g, &csr, scratch, DistanceOutputs::none(), &mut |_, _| {})?;
/// assert_eq!((s.diameter, s.sum, s.pairs), (2, 368, 240));
/// assert_eq!((s.pairs_at(1), s.pairs_at(2)), (Some(112), Some(128)));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn distance_summary<T: Topology + ?Sized, const W: usize>(
    t: &T,
    csr: &Csr<'_>,
    scratch: DistanceBuffers<'_, W>,
    outputs: DistanceOutputs<'_>,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<DistanceSummary, MetricsError> {
    let n = t.num_switches();
    if csr.num_vertices() != n {
        return Err(MetricsError::Invalid(InvalidParam {
            param: "csr",
            value: csr.num_vertices() as u64,
            rule: "the CSR must be built from the same topology (one row per switch)",
        }));
    }
    outputs.check(n as usize, n as usize)?;
    match t.symmetry() {
        Symmetry::VertexTransitive => {
            let s =
                transitive::summary_from_switch_zero(csr, scratch.dist, scratch.queue, outputs)?;
            progress(n, n);
            Ok(s)
        }
        Symmetry::None => bit_bfs::all_pairs(csr, scratch.words, outputs, progress),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
