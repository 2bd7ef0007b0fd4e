//! All-pairs distance summary: diameter, ASPL, distance histogram (docs/routing.md §1).

use super::MetricsError;
use crate::error::InvalidParam;

/// Number of histogram bins kept in a [`DistanceSummary`]: distances `0..HISTOGRAM_BINS` are
/// counted one by one, larger ones in [`DistanceSummary::overflow`]. The whole histogram, for
/// graphs of any diameter, goes to a caller buffer ([`DistanceOutputs::histogram`]).
pub const HISTOGRAM_BINS: usize = 64;

/// Distance statistics over the ordered pairs `(s, v)` for the sources `s` covered so far
/// (all switches once complete) and every switch `v` (docs/routing.md §1: diameter and ASPL
/// over ordered pairs of distinct vertices).
///
/// Summaries of disjoint source sets combine with [`DistanceSummary::merge`], so the host can
/// split the sources over threads or machines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistanceSummary {
    /// Number of switches of the graph.
    pub switches: u32,
    /// Number of sources covered (equals `switches` once complete).
    pub sources: u32,
    /// Largest finite distance seen (the diameter once complete and connected).
    pub diameter: u32,
    /// Smallest eccentricity among the sources; `u32::MAX` while no source has a finite one
    /// (a source that cannot reach every switch has infinite eccentricity).
    pub radius: u32,
    /// Sum of the distances of all reached ordered pairs of distinct switches.
    pub sum: u64,
    /// Number of reached ordered pairs of distinct switches.
    pub pairs: u64,
    /// Number of ordered pairs `(s, v)` with `v` unreachable from `s`.
    pub unreachable_pairs: u64,
    /// `histogram[k]` = ordered pairs at distance `k`; bin 0 counts the pairs `(s, s)`, so it
    /// equals `sources`.
    pub histogram: [u64; HISTOGRAM_BINS],
    /// Ordered pairs at distance `>= HISTOGRAM_BINS`.
    pub overflow: u64,
    /// Whether every covered source reaches every switch (the graph is connected once the
    /// summary is complete).
    pub connected: bool,
}

/// Optional outputs of the all-pairs computations beyond the [`DistanceSummary`], written to
/// caller buffers ([`super::distance_summary`], [`super::bit_bfs::run_batches`],
/// [`super::bfs::all_pairs`], [`super::transitive::summary_from_switch_zero`]).
#[derive(Debug, Default)]
pub struct DistanceOutputs<'a> {
    /// Entry `i` receives the eccentricity of the `i`-th source covered (`u32::MAX` when it
    /// cannot reach every switch); as many entries as sources.
    pub eccentricities: Option<&'a mut [u32]>,
    /// The whole distance histogram: the ordered pairs at distance `k` are *added* to entry
    /// `k` (entry 0 counts the pairs `(s, s)`), nothing folded; `n` entries (a finite
    /// distance is below `n`). Callers that split the sources add their parts up.
    pub histogram: Option<&'a mut [u64]>,
}

impl<'a> DistanceOutputs<'a> {
    /// No outputs beyond the summary.
    pub fn none() -> Self {
        DistanceOutputs::default()
    }

    /// Eccentricities only.
    pub fn with_eccentricities(eccentricities: &'a mut [u32]) -> Self {
        DistanceOutputs {
            eccentricities: Some(eccentricities),
            histogram: None,
        }
    }

    /// Checks the buffer lengths: `sources` eccentricities, `n` histogram entries.
    pub(crate) fn check(&self, sources: usize, n: usize) -> Result<(), MetricsError> {
        if let Some(e) = self.eccentricities.as_deref() {
            crate::error::CapacityError::check("eccentricities", sources, e.len())?;
        }
        if let Some(h) = self.histogram.as_deref() {
            crate::error::CapacityError::check("distance histogram", n, h.len())?;
        }
        Ok(())
    }

    /// Adds `count` ordered pairs at distance `level` to the histogram, if any.
    #[inline]
    pub(crate) fn add_pairs_at(&mut self, level: u32, count: u64) {
        if let Some(bin) = self
            .histogram
            .as_deref_mut()
            .and_then(|h| h.get_mut(level as usize))
        {
            *bin += count;
        }
    }
}

impl DistanceSummary {
    /// The summary of no source yet, for a graph of `switches` switches.
    pub fn empty(switches: u32) -> Self {
        DistanceSummary {
            switches,
            sources: 0,
            diameter: 0,
            radius: u32::MAX,
            sum: 0,
            pairs: 0,
            unreachable_pairs: 0,
            histogram: [0; HISTOGRAM_BINS],
            overflow: 0,
            connected: true,
        }
    }

    /// Average shortest-path length over reached ordered pairs of distinct switches
    /// (`sum / pairs`; 0 when there is no pair).
    pub fn aspl(&self) -> f64 {
        if self.pairs == 0 {
            0.0
        } else {
            self.sum as f64 / self.pairs as f64
        }
    }

    /// The ASPL as an exact ratio `(sum, pairs)`.
    pub fn aspl_ratio(&self) -> (u64, u64) {
        (self.sum, self.pairs)
    }

    /// Ordered pairs at exactly distance `k`, `None` when `k` is beyond the histogram.
    pub fn pairs_at(&self, k: u32) -> Option<u64> {
        self.histogram.get(k as usize).copied()
    }

    /// The histogram bins `0..=diameter` (those that can be non-zero), capped at the bins kept.
    pub fn distance_histogram(&self) -> &[u64] {
        let end = (self.diameter as usize + 1).min(HISTOGRAM_BINS);
        &self.histogram[..end]
    }

    /// Whether every switch has been a source.
    pub fn is_complete(&self) -> bool {
        self.sources == self.switches
    }

    /// Adds the statistics of a disjoint set of sources of the same graph.
    ///
    /// Errors when the summaries describe graphs of different sizes or together cover more
    /// sources than there are switches.
    pub fn merge(&mut self, other: &DistanceSummary) -> Result<(), MetricsError> {
        if other.switches != self.switches {
            return Err(MetricsError::Invalid(InvalidParam {
                param: "switches",
                value: other.switches as u64,
                rule: "only summaries of the same graph (same number of switches) merge",
            }));
        }
        let sources = self.sources as u64 + other.sources as u64;
        if sources > self.switches as u64 {
            return Err(MetricsError::Invalid(InvalidParam {
                param: "sources",
                value: sources,
                rule: "merged summaries must cover disjoint sources (at most one per switch)",
            }));
        }
        self.sources = sources as u32;
        self.diameter = self.diameter.max(other.diameter);
        self.radius = self.radius.min(other.radius);
        self.sum += other.sum;
        self.pairs += other.pairs;
        self.unreachable_pairs += other.unreachable_pairs;
        for (a, b) in self.histogram.iter_mut().zip(other.histogram.iter()) {
            *a += b;
        }
        self.overflow += other.overflow;
        self.connected &= other.connected;
        Ok(())
    }

    /// Records `count` ordered pairs at distance `level` (self pairs when `level == 0`).
    pub(crate) fn add_pairs_at(&mut self, level: u32, count: u64) {
        if count == 0 {
            return;
        }
        match self.histogram.get_mut(level as usize) {
            Some(bin) => *bin += count,
            None => self.overflow += count,
        }
        if level > 0 {
            self.pairs += count;
            self.sum += level as u64 * count;
            self.diameter = self.diameter.max(level);
        }
    }

    /// Records that one more source was processed, with its eccentricity (`None` = infinite)
    /// and the number of switches it could not reach.
    pub(crate) fn add_source(&mut self, eccentricity: Option<u32>, unreachable: u64) {
        self.sources += 1;
        if let Some(e) = eccentricity {
            self.radius = self.radius.min(e);
        }
        self.unreachable_pairs += unreachable;
        if unreachable > 0 {
            self.connected = false;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_and_checks() {
        let mut a = DistanceSummary::empty(3);
        a.add_pairs_at(0, 1);
        a.add_pairs_at(1, 2);
        a.add_source(Some(1), 0);
        let mut b = DistanceSummary::empty(3);
        b.add_pairs_at(0, 1);
        b.add_pairs_at(1, 1);
        b.add_pairs_at(2, 1);
        b.add_source(Some(2), 0);
        a.merge(&b).unwrap();
        assert_eq!(
            (a.sources, a.diameter, a.radius, a.sum, a.pairs),
            (2, 2, 1, 5, 4)
        );
        assert_eq!(a.distance_histogram(), &[2, 3, 1]);
        assert_eq!(a.aspl_ratio(), (5, 4));
        assert!(!a.is_complete() && a.connected);
        let mut c = DistanceSummary::empty(3);
        c.add_source(None, 2);
        c.add_pairs_at(70, 1);
        assert_eq!(c.overflow, 1);
        a.merge(&c).unwrap();
        assert!(a.is_complete() && !a.connected);
        assert_eq!(a.unreachable_pairs, 2);
        assert!(a.merge(&c).is_err(), "more sources than switches");
        assert!(a.merge(&DistanceSummary::empty(4)).is_err());
    }
}
