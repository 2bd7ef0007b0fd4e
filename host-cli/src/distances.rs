//! All-pairs distance metrics on the host: the core's fast paths (one BFS for
//! vertex-transitive networks, bit-parallel BFS otherwise) with the source batches spread over
//! all cores, and the plain reference BFS for cross-checking.

use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result};
use rayon::prelude::*;

use jumpnet_core::metrics::{
    self, bit_bfs, csr_size, transitive, Csr, DistanceOutputs, DistanceSummary,
};
use jumpnet_core::topology::{Symmetry, Topology};

use crate::io::progress::Progress;

/// Machine words per vertex of the bit-parallel BFS (64·W sources per pass).
const W: usize = 4;

/// A compiled adjacency owning its buffers.
#[derive(Debug)]
pub struct OwnedCsr {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl OwnedCsr {
    /// Compiles `t`'s switch graph.
    pub fn build<T: Topology + ?Sized>(t: &T) -> Result<Self> {
        let size = csr_size(t);
        crate::builder::network::check_alloc::<u32>(
            &format!(
                "the adjacency ({} switches, {} arcs)",
                t.num_switches(),
                size.targets
            ),
            size.offsets as u128 + size.targets as u128,
        )?;
        let mut offsets = vec![0u32; size.offsets];
        let mut targets = vec![0u32; size.targets];
        let n = Csr::build(t, &mut offsets, &mut targets)
            .context("compiling the adjacency")?
            .num_arcs();
        targets.truncate(n);
        Ok(OwnedCsr { offsets, targets })
    }

    /// The adjacency view.
    pub fn csr(&self) -> Result<Csr<'_>> {
        Csr::from_parts(&self.offsets, &self.targets).context("adjacency")
    }
}

/// Distance summary plus per-switch eccentricities.
#[derive(Debug, Clone)]
pub struct Distances {
    /// Summary over all ordered pairs.
    pub summary: DistanceSummary,
    /// Eccentricity of every switch (`u32::MAX` if it cannot reach all).
    pub eccentricities: Vec<u32>,
    /// The whole distance histogram: entry `k` = ordered pairs at distance `k` (`n` entries;
    /// the summary keeps only the first [`metrics::HISTOGRAM_BINS`]).
    pub histogram: Vec<u64>,
    /// Whether the vertex-transitive single-BFS path was used.
    pub single_bfs: bool,
}

/// Fast all-pairs distances of `t`, in parallel over the available cores.
pub fn fast<T: Topology + Sync + ?Sized>(t: &T, show_progress: bool) -> Result<Distances> {
    let owned = OwnedCsr::build(t)?;
    let csr = owned.csr()?;
    let n = csr.num_vertices();
    if t.symmetry() == Symmetry::VertexTransitive {
        let mut dist = vec![0u32; n as usize];
        let mut queue = vec![0u32; n as usize];
        let mut ecc = vec![0u32; n as usize];
        let mut histogram = vec![0u64; n as usize];
        let outputs = DistanceOutputs {
            eccentricities: Some(&mut ecc),
            histogram: Some(&mut histogram),
        };
        let summary = transitive::summary_from_switch_zero(&csr, &mut dist, &mut queue, outputs)?;
        return Ok(Distances {
            summary,
            eccentricities: ecc,
            histogram,
            single_bfs: true,
        });
    }
    let batches = bit_bfs::batch_count::<W>(n);
    let threads = rayon::current_num_threads().max(1) as u32;
    // A few chunks per thread balance uneven batches; each chunk owns its scratch.
    let chunks = (threads * 4).min(batches.max(1));
    let per = batches.div_ceil(chunks.max(1)).max(1);
    let bar = Progress::new("distances", n as u64, show_progress && n >= 4096);
    let done = AtomicU64::new(0);
    type Part = (u32, DistanceSummary, Vec<u32>, Vec<u64>);
    let parts: Vec<Result<Part>> = (0..batches.div_ceil(per))
        .into_par_iter()
        .map(|c| {
            let range = c * per..((c + 1) * per).min(batches);
            let sources = bit_bfs::sources_of::<W>(n, &range);
            let mut words = vec![[0u64; W]; bit_bfs::words_needed(n)];
            let mut ecc = vec![0u32; (sources.end - sources.start) as usize];
            let mut histogram = vec![0u64; n as usize];
            let mut last = 0u32;
            let mut report = |d: u32, _total: u32| {
                let total =
                    done.fetch_add((d - last) as u64, Ordering::Relaxed) + (d - last) as u64;
                last = d;
                bar.set(total);
            };
            let outputs = DistanceOutputs {
                eccentricities: Some(&mut ecc),
                histogram: Some(&mut histogram),
            };
            let s = bit_bfs::run_batches::<W>(&csr, range, &mut words, outputs, &mut report)?;
            Ok((sources.start, s, ecc, histogram))
        })
        .collect();
    bar.finish();
    let mut summary = DistanceSummary::empty(n);
    let mut eccentricities = vec![0u32; n as usize];
    let mut histogram = vec![0u64; n as usize];
    for part in parts {
        let (start, s, ecc, hist) = part?;
        summary.merge(&s)?;
        eccentricities[start as usize..start as usize + ecc.len()].copy_from_slice(&ecc);
        for (total, h) in histogram.iter_mut().zip(hist) {
            *total += h;
        }
    }
    Ok(Distances {
        summary,
        eccentricities,
        histogram,
        single_bfs: false,
    })
}

/// Reference all-pairs distances: one plain BFS per source (slow; for `--check`).
pub fn reference<T: Topology + ?Sized>(t: &T) -> Result<Distances> {
    let owned = OwnedCsr::build(t)?;
    let csr = owned.csr()?;
    let n = csr.num_vertices() as usize;
    let mut dist = vec![0u32; n];
    let mut queue = vec![0u32; n];
    let mut ecc = vec![0u32; n];
    let mut histogram = vec![0u64; n];
    let outputs = DistanceOutputs {
        eccentricities: Some(&mut ecc),
        histogram: Some(&mut histogram),
    };
    let summary = metrics::bfs::all_pairs(&csr, &mut dist, &mut queue, outputs)?;
    Ok(Distances {
        summary,
        eccentricities: ecc,
        histogram,
        single_bfs: false,
    })
}
