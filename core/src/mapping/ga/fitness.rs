//! GA fitness: the pluggable [`Fitness`] trait and the contention proxy of docs/mapping.md §5.

use super::{Address, AvgHop, PatternSet, Score, NO_DEST};
use crate::error::CapacityError;
use crate::mapping::{MappingError, PathOracle};

/// Packets every node sends per pattern (\[GA\] §5.1).
pub const PACKETS_PER_NODE: u64 = 4;
/// Flits per packet (\[GA\] §5.1).
pub const FLITS_PER_PACKET: u64 = 8;
/// Injection cost in cycles.
pub const INJECTION_CYCLES: u64 = 1;
/// Reception cost in cycles.
pub const RECEPTION_CYCLES: u64 = 1;
/// Duration of one pattern without interference: `1 + 4·8 + 1 = 34` cycles
/// (docs/reference-results.md C1); `k` patterns take at least `34·k`.
pub const IDEAL_PATTERN_CYCLES: u64 =
    INJECTION_CYCLES + PACKETS_PER_NODE * FLITS_PER_PACKET + RECEPTION_CYCLES;

/// Scores a gene (`physical position → logical address`, a permutation of `0..N`).
///
/// Implementations may be the proxy below, a flit-level simulator on the host, or anything
/// else that returns a duration and avg.hop; they must be deterministic for the GA to be.
pub trait Fitness {
    /// Duration (cycles, summed over the applied patterns) and avg.hop of `gene`.
    fn evaluate(&mut self, gene: &[Address]) -> Score;
}

impl<T: Fitness + ?Sized> Fitness for &mut T {
    fn evaluate(&mut self, gene: &[Address]) -> Score {
        (**self).evaluate(gene)
    }
}

/// Scores many genes at once, so a host can spread one generation over several cores
/// (docs/mapping.md §5: every gene of a generation is evaluated independently).
///
/// `genes` holds the whole population (gene `i` is `genes[i·N .. (i+1)·N]`, `N = nodes`);
/// for every slot `i` in `slots` the implementation writes the gene's score to `scores[i]`.
/// Results must not depend on how the work is split, so the GA stays deterministic. Every
/// [`Fitness`] is a `BatchFitness` that scores the slots one after another.
pub trait BatchFitness {
    /// Scores the genes in `slots` into `scores` (same indices).
    fn evaluate_batch(
        &mut self,
        genes: &[Address],
        nodes: usize,
        slots: &[u32],
        scores: &mut [Score],
    );
}

/// Gene `slot` of a population laid out as [`BatchFitness`] takes it (gene `i` is
/// `genes[i·N .. (i+1)·N]`, `N = nodes`; docs/mapping.md §5); `None` when the population
/// does not hold it.
pub fn population_gene(genes: &[Address], nodes: usize, slot: u32) -> Option<&[Address]> {
    let start = (slot as usize).checked_mul(nodes)?;
    genes.get(start..start.checked_add(nodes)?)
}

impl<F: Fitness> BatchFitness for F {
    fn evaluate_batch(
        &mut self,
        genes: &[Address],
        nodes: usize,
        slots: &[u32],
        scores: &mut [Score],
    ) {
        for &slot in slots {
            let (Some(gene), Some(out)) = (
                population_gene(genes, nodes, slot),
                scores.get_mut(slot as usize),
            ) else {
                continue;
            };
            *out = self.evaluate(gene);
        }
    }
}

/// Proxy duration of one pattern whose most loaded channel carries `max_load` flows:
/// `2 + 32·max_load` (docs/mapping.md §5 proxy, project choice: two fully interfering packet
/// streams double the transfer time).
#[inline]
pub fn proxy_pattern_duration(max_load: u32) -> u64 {
    INJECTION_CYCLES + RECEPTION_CYCLES + PACKETS_PER_NODE * FLITS_PER_PACKET * max_load as u64
}

/// The contention proxy of docs/mapping.md §5 (documented as a proxy, not \[GA\]'s simulator):
/// per pattern, route every flow `Γ⁻¹(s) → Γ⁻¹(d)` with the path oracle, count flows per
/// channel, and add [`proxy_pattern_duration`] of the maximum; avg.hop is the mean route
/// length over all flows of all patterns.
#[derive(Debug)]
pub struct ProxyFitness<'a, P> {
    paths: P,
    patterns: PatternSet<'a>,
    loads: &'a mut [u32],
    inverse: &'a mut [Address],
}

impl<'a, P: PathOracle> ProxyFitness<'a, P> {
    /// Proxy over `patterns` routed by `paths` (physical positions are the oracle's nodes);
    /// `loads` needs one counter per channel, `inverse` one entry per address.
    pub fn new(
        paths: P,
        patterns: PatternSet<'a>,
        loads: &'a mut [u32],
        inverse: &'a mut [Address],
    ) -> Result<Self, MappingError> {
        CapacityError::check(
            "channel load counters",
            paths.num_channels() as usize,
            loads.len(),
        )?;
        CapacityError::check(
            "inverse gene scratch (N entries)",
            patterns.nodes(),
            inverse.len(),
        )?;
        let channels = paths.num_channels() as usize;
        let nodes = patterns.nodes();
        Ok(ProxyFitness {
            paths,
            patterns,
            loads: &mut loads[..channels],
            inverse: &mut inverse[..nodes],
        })
    }
}

impl<P: PathOracle> Fitness for ProxyFitness<'_, P> {
    fn evaluate(&mut self, gene: &[Address]) -> Score {
        self.inverse.fill(NO_DEST);
        for (p, &l) in gene.iter().enumerate() {
            if let Some(slot) = self.inverse.get_mut(l as usize) {
                *slot = p as Address;
            }
        }
        let mut duration = 0;
        let mut hops = 0u64;
        let mut pairs = 0u64;
        for k in 0..self.patterns.count() {
            self.loads.fill(0);
            let mut max_load = 0u32;
            for (s, &d) in self.patterns.pattern(k).iter().enumerate() {
                if d == NO_DEST {
                    continue;
                }
                let (Some(&ps), Some(&pd)) = (self.inverse.get(s), self.inverse.get(d as usize))
                else {
                    continue;
                };
                if ps == NO_DEST || pd == NO_DEST {
                    continue;
                }
                pairs += 1;
                let loads = &mut *self.loads;
                self.paths.for_each_channel(ps as u32, pd as u32, |c| {
                    hops += 1;
                    if let Some(l) = loads.get_mut(c as usize) {
                        *l += 1;
                        max_load = max_load.max(*l);
                    }
                });
            }
            duration += proxy_pattern_duration(max_load);
        }
        Score {
            duration,
            avg_hop: AvgHop { hops, pairs },
        }
    }
}
