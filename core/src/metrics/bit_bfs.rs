//! Bit-parallel all-pairs BFS over a [`Csr`] (docs/routing.md §1: diameter / ASPL by BFS from
//! every vertex), for graphs without symmetry.
//!
//! Sources are processed in batches of `64·W`: every vertex owns `W` machine words per bitset
//! (bit `k` = source `batch_start + k`), and one level of all those BFS runs at once is
//!
//! ```text
//! next[v] = (OR over neighbours u of frontier[u]) AND NOT visited[v];  visited[v] |= next[v]
//! ```
//!
//! The popcount of `next` over all vertices is the number of ordered pairs at this distance,
//! which gives the histogram, the distance sum and the diameter; the OR of `next` over all
//! vertices says which sources were still active (their eccentricity is at least this
//! level). Levels with a small frontier push it along its arcs instead (top-down; same
//! result), and in pull levels vertices whose `visited` word is already full are skipped.
//! Word arrays have the fixed size `W` so the compiler unrolls and vectorises the inner
//! loops.
//!
//! Batches are independent: [`run_batches`] covers a sub-range, so the host can split the
//! work over threads and combine the results with [`DistanceSummary::merge`].

use crate::error::{CapacityError, InvalidParam};
use core::ops::Range;

use super::{Csr, DistanceOutputs, DistanceSummary, MetricsError};

/// Sources per batch with `W` words per vertex.
pub const fn batch_size<const W: usize>() -> u32 {
    64 * W as u32
}

/// Number of batches covering the `n` sources.
pub const fn batch_count<const W: usize>(n: u32) -> u32 {
    if W == 0 {
        0
    } else {
        n.div_ceil(batch_size::<W>())
    }
}

/// Entries of the word buffer [`run_batches`] needs for `n` switches (three bitsets:
/// visited, frontier, next).
pub const fn words_needed(n: u32) -> usize {
    3 * n as usize
}

/// Source ids covered by `batches`, clamped to `0..n`.
pub fn sources_of<const W: usize>(n: u32, batches: &Range<u32>) -> Range<u32> {
    let b = batch_size::<W>() as u64;
    let start = (batches.start as u64 * b).min(n as u64) as u32;
    let end = (batches.end as u64 * b).min(n as u64) as u32;
    start..end.max(start)
}

/// All-pairs summary of the graph: [`run_batches`] over every batch.
pub fn all_pairs<const W: usize>(
    csr: &Csr<'_>,
    words: &mut [[u64; W]],
    outputs: DistanceOutputs<'_>,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<DistanceSummary, MetricsError> {
    let batches = 0..batch_count::<W>(csr.num_vertices());
    run_batches(csr, batches, words, outputs, progress)
}

/// Runs the source batches `batches` (batch `b` = sources `b·64W .. (b+1)·64W`, clamped to
/// `n`) and returns their summary (complete only when all batches are covered).
///
/// * `words`: [`words_needed`]`(n)` entries of scratch.
/// * `outputs.eccentricities`: when given, entry `i` receives the eccentricity of source
///   `sources_of(n, &batches).start + i` (`u32::MAX` when it cannot reach every switch); it
///   needs as many entries as the range has sources.
/// * `outputs.histogram`: when given (`n` entries), the range's pairs at each distance are
///   added to it.
/// * `progress(done, total)`: called after each batch with the sources done so far and the
///   sources of the range.
pub fn run_batches<const W: usize>(
    csr: &Csr<'_>,
    batches: Range<u32>,
    words: &mut [[u64; W]],
    mut outputs: DistanceOutputs<'_>,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<DistanceSummary, MetricsError> {
    if W == 0 {
        return Err(MetricsError::Invalid(InvalidParam {
            param: "W",
            value: 0,
            rule: "the bit-parallel BFS needs at least one word per vertex",
        }));
    }
    let n = csr.num_vertices();
    if batches.end > batch_count::<W>(n) || batches.start > batches.end {
        return Err(MetricsError::Invalid(InvalidParam {
            param: "batches",
            value: batches.end as u64,
            rule: "batch ranges must be ascending and end at most at batch_count(n)",
        }));
    }
    CapacityError::check("bit-BFS words", words_needed(n), words.len())?;
    let sources = sources_of::<W>(n, &batches);
    let total = sources.end - sources.start;
    outputs.check(total as usize, n as usize)?;
    let (visited, rest) = words.split_at_mut(n as usize);
    let (frontier, rest) = rest.split_at_mut(n as usize);
    let next = &mut rest[..n as usize];
    let mut summary = DistanceSummary::empty(n);
    let mut ecc = [[0u32; 64]; W];
    for b in batches {
        let first = b * batch_size::<W>();
        let count = (n - first).min(batch_size::<W>());
        let mut bufs = Bitsets {
            visited: &mut *visited,
            frontier: &mut *frontier,
            next: &mut *next,
        };
        let mut record = Record {
            summary: &mut summary,
            histogram: &mut outputs,
        };
        run_batch(csr, first, count, &mut bufs, &mut record, &mut ecc);
        if let Some(e) = outputs.eccentricities.as_deref_mut() {
            for k in 0..count {
                let at = (first + k - sources.start) as usize;
                if let Some(cell) = e.get_mut(at) {
                    *cell = ecc[k as usize / 64][k as usize % 64];
                }
            }
        }
        progress(first + count - sources.start, total);
    }
    Ok(summary)
}

/// Where a batch records its pairs: the summary and the optional whole histogram.
struct Record<'r, 'o> {
    summary: &'r mut DistanceSummary,
    histogram: &'r mut DistanceOutputs<'o>,
}

impl Record<'_, '_> {
    fn add_pairs_at(&mut self, level: u32, count: u64) {
        self.summary.add_pairs_at(level, count);
        self.histogram.add_pairs_at(level, count);
    }
}

/// The three per-vertex bitsets of one batch.
struct Bitsets<'w, const W: usize> {
    visited: &'w mut [[u64; W]],
    frontier: &'w mut [[u64; W]],
    next: &'w mut [[u64; W]],
}

/// One batch: sources `first .. first + count` (`count <= 64·W`). Adds the pairs to `summary`
/// and leaves each source's eccentricity in `ecc[k / 64][k % 64]` for `k < count`.
fn run_batch<const W: usize>(
    csr: &Csr<'_>,
    first: u32,
    count: u32,
    bufs: &mut Bitsets<'_, W>,
    record: &mut Record<'_, '_>,
    ecc: &mut [[u32; 64]; W],
) {
    let n = csr.num_vertices();
    let mut full = [0u64; W];
    for k in 0..count {
        full[k as usize / 64] |= 1 << (k % 64);
    }
    bufs.visited.fill([0; W]);
    bufs.frontier.fill([0; W]);
    for k in 0..count {
        let (w, m) = (k as usize / 64, 1u64 << (k % 64));
        if let Some(v) = bufs.visited.get_mut((first + k) as usize) {
            v[w] |= m;
        }
        if let Some(f) = bufs.frontier.get_mut((first + k) as usize) {
            f[w] |= m;
        }
    }
    *ecc = [[0; 64]; W];
    record.add_pairs_at(0, count as u64);
    let mut reached = count as u64;
    let mut level = 0u32;
    let (mut frontier, mut next) = (&mut *bufs.frontier, &mut *bufs.next);
    let mut frontier_arcs: u64 = (first..first + count)
        .map(|s| csr.neighbors(s).len() as u64)
        .sum();
    loop {
        level += 1;
        // Direction choice (same result either way): push from a small frontier, pull once
        // the frontier covers a good part of the arcs.
        let step = if frontier_arcs * PUSH_RATIO < csr.num_arcs() as u64 {
            push_level(csr, frontier, next, bufs.visited)
        } else {
            pull_level(csr, frontier, next, bufs.visited, &full)
        };
        if step.new_pairs == 0 {
            break;
        }
        record.add_pairs_at(level, step.new_pairs);
        reached += step.new_pairs;
        frontier_arcs = step.frontier_arcs;
        for (w, &mask) in step.active.iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                ecc[w][m.trailing_zeros() as usize] = level;
                m &= m - 1;
            }
        }
        core::mem::swap(&mut frontier, &mut next);
    }
    // Sources that reach everything have their bit set in every visited word.
    let mut complete = full;
    for v in bufs.visited.iter() {
        for (c, x) in complete.iter_mut().zip(v) {
            *c &= x;
        }
    }
    for k in 0..count as usize {
        let reaches_all = complete[k / 64] >> (k % 64) & 1 == 1;
        if !reaches_all {
            ecc[k / 64][k % 64] = u32::MAX;
        }
        let e = ecc[k / 64][k % 64];
        record.summary.add_source((e != u32::MAX).then_some(e), 0);
    }
    record.summary.unreachable_pairs += count as u64 * n as u64 - reached;
    record.summary.connected &= reached == count as u64 * n as u64;
}

/// The frontier is pushed along its arcs when it has fewer than `1 / PUSH_RATIO` of all arcs
/// (measured: 2 beats 1 and 4 on random shortcut graphs).
const PUSH_RATIO: u64 = 2;

/// Outcome of one BFS level of a batch.
struct LevelStep<const W: usize> {
    /// Newly reached (source, vertex) pairs.
    new_pairs: u64,
    /// OR of all new bits: the sources still active at this level.
    active: [u64; W],
    /// Arcs leaving the new frontier (sum of its vertices' degrees).
    frontier_arcs: u64,
}

/// Keeps the bits of `next[v]` not yet in `visited[v]` (the new frontier), marks them
/// visited and counts them.
#[inline(always)]
fn settle<const W: usize>(
    nx: &mut [u64; W],
    vis: &mut [u64; W],
    degree: usize,
    step: &mut LevelStep<W>,
) {
    let mut count = 0u32;
    for w in 0..W {
        let fresh = nx[w] & !vis[w];
        nx[w] = fresh;
        vis[w] |= fresh;
        step.active[w] |= fresh;
        count += fresh.count_ones();
    }
    if count > 0 {
        step.new_pairs += count as u64;
        step.frontier_arcs += degree as u64;
    }
}

/// Bottom-up level: every vertex not yet reached by all sources ORs its neighbours'
/// frontier words.
#[inline(never)]
fn pull_level<const W: usize>(
    csr: &Csr<'_>,
    frontier: &[[u64; W]],
    next: &mut [[u64; W]],
    visited: &mut [[u64; W]],
    full: &[u64; W],
) -> LevelStep<W> {
    let mut step = LevelStep {
        new_pairs: 0,
        active: [0; W],
        frontier_arcs: 0,
    };
    for (v, (nx, vis)) in next.iter_mut().zip(visited.iter_mut()).enumerate() {
        if *vis == *full {
            *nx = [0; W];
            continue;
        }
        let row = csr.neighbors(v as u32);
        let mut acc = [0u64; W];
        for &u in row {
            if let Some(f) = frontier.get(u as usize) {
                for (a, x) in acc.iter_mut().zip(f) {
                    *a |= x;
                }
            }
        }
        *nx = acc;
        settle(nx, vis, row.len(), &mut step);
    }
    step
}

/// Top-down level: every frontier vertex ORs its word into its neighbours' `next` words.
#[inline(never)]
fn push_level<const W: usize>(
    csr: &Csr<'_>,
    frontier: &[[u64; W]],
    next: &mut [[u64; W]],
    visited: &mut [[u64; W]],
) -> LevelStep<W> {
    next.fill([0; W]);
    for (u, f) in frontier.iter().enumerate() {
        if *f == [0; W] {
            continue;
        }
        for &v in csr.neighbors(u as u32) {
            if let Some(nx) = next.get_mut(v as usize) {
                for (a, x) in nx.iter_mut().zip(f) {
                    *a |= x;
                }
            }
        }
    }
    let mut step = LevelStep {
        new_pairs: 0,
        active: [0; W],
        frontier_arcs: 0,
    };
    for (v, (nx, vis)) in next.iter_mut().zip(visited.iter_mut()).enumerate() {
        settle(nx, vis, csr.neighbors(v as u32).len(), &mut step);
    }
    step
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn batch_arithmetic() {
        assert_eq!(batch_size::<4>(), 256);
        assert_eq!(batch_count::<4>(256), 1);
        assert_eq!(batch_count::<4>(257), 2);
        assert_eq!(batch_count::<1>(0), 0);
        assert_eq!(sources_of::<1>(100, &(1..5)), 64..100);
        assert_eq!(sources_of::<1>(100, &(2..2)), 100..100);
    }

    #[test]
    fn push_and_pull_levels_agree() {
        use crate::metrics::csr_size;
        use crate::rng::Rng;
        use crate::topology::{random_shortcut, Slot};
        use std::vec;

        let need = random_shortcut::RandomShortcutSizes::of(300, 7);
        let mut slots = vec![Slot::EMPTY; need.slots];
        let mut deg = vec![0u16; need.degree];
        let (g, _) =
            random_shortcut::build(300, 7, &mut Rng::new(4), &mut slots, &mut deg).unwrap();
        let size = csr_size(&g);
        let (mut off, mut tg) = (vec![0; size.offsets], vec![0; size.targets]);
        let csr = Csr::build(&g, &mut off, &mut tg).unwrap();
        let mut rng = Rng::new(9);
        let full = [u64::MAX, u64::MAX >> 3];
        for density in [1u64, 8, 40] {
            // Random visited sets, and frontiers that are sparse subsets of them.
            let visited: Vec<[u64; 2]> = (0..300)
                .map(|_| [rng.next() & rng.next(), rng.next() & rng.next() & full[1]])
                .collect();
            let frontier: Vec<[u64; 2]> = visited
                .iter()
                .map(|v| {
                    if rng.below(100) < density {
                        [v[0] & rng.next(), v[1] & rng.next()]
                    } else {
                        [0, 0]
                    }
                })
                .collect();
            let (mut v1, mut v2) = (visited.clone(), visited.clone());
            let (mut n1, mut n2) = (vec![[7u64; 2]; 300], vec![[9u64; 2]; 300]);
            let a = push_level(&csr, &frontier, &mut n1, &mut v1);
            let b = pull_level(&csr, &frontier, &mut n2, &mut v2, &full);
            assert_eq!(
                (a.new_pairs, a.active, a.frontier_arcs),
                (b.new_pairs, b.active, b.frontier_arcs)
            );
            assert!(a.new_pairs > 0);
            assert_eq!(n1, n2);
            assert_eq!(v1, v2);
        }
    }
}
