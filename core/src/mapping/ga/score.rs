//! GA scores and the three ranking methods sc / ah / ml (docs/mapping.md §5, \[GA\] §4.2).
//!
//! All keys are exact: avg.hop is kept as the rational `hops / pairs` and compared by
//! cross-multiplication in `u128`, so rankings are identical on every target.

use core::cmp::Ordering;

/// Mean physical distance over all source→destination pairs, as the exact fraction
/// `hops / pairs` (0 when there are no pairs).
#[derive(Clone, Copy, Debug)]
pub struct AvgHop {
    /// Sum of hops over all pairs.
    pub hops: u64,
    /// Number of pairs.
    pub pairs: u64,
}

impl AvgHop {
    /// Numerator and denominator with `0/0` read as `0/1`.
    #[inline]
    fn parts(self) -> (u128, u128) {
        if self.pairs == 0 {
            (0, 1)
        } else {
            (self.hops as u128, self.pairs as u128)
        }
    }

    /// The mean as `f64` (for reports only; never used for ranking).
    pub fn as_f64(self) -> f64 {
        let (h, p) = self.parts();
        h as f64 / p as f64
    }
}

impl PartialEq for AvgHop {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for AvgHop {}

impl PartialOrd for AvgHop {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for AvgHop {
    fn cmp(&self, other: &Self) -> Ordering {
        let (h1, p1) = self.parts();
        let (h2, p2) = other.parts();
        (h1 * p2).cmp(&(h2 * p1))
    }
}

/// What a [`super::Fitness`] reports for one gene: duration (cycles, summed over the applied
/// patterns) and avg.hop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Duration in cycles.
    pub duration: u64,
    /// Mean physical distance of all source→destination pairs.
    pub avg_hop: AvgHop,
}

/// How genes are ranked before selection (\[GA\] §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ranking {
    /// sc, duration first: key `(duration, avg.hop)`.
    DurationFirst,
    /// ah, avg.hop first: key `(avg.hop, duration)`.
    AvgHopFirst,
    /// ml, multiplication: key `duration · avg.hop` (exact rational).
    Product,
}

impl Ranking {
    /// All rankings in \[GA\] Table 3 column order.
    pub const ALL: [Ranking; 3] = [
        Ranking::DurationFirst,
        Ranking::AvgHopFirst,
        Ranking::Product,
    ];

    /// Short name of \[GA\] (`sc`, `ah`, `ml`).
    pub fn name(self) -> &'static str {
        match self {
            Ranking::DurationFirst => "sc",
            Ranking::AvgHopFirst => "ah",
            Ranking::Product => "ml",
        }
    }

    /// Ranking with the given short name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Orders two scores, better (smaller key) first.
    pub fn compare(self, a: &Score, b: &Score) -> Ordering {
        match self {
            Ranking::DurationFirst => a
                .duration
                .cmp(&b.duration)
                .then_with(|| a.avg_hop.cmp(&b.avg_hop)),
            Ranking::AvgHopFirst => a
                .avg_hop
                .cmp(&b.avg_hop)
                .then_with(|| a.duration.cmp(&b.duration)),
            Ranking::Product => {
                let (h1, p1) = a.avg_hop.parts();
                let (h2, p2) = b.avg_hop.parts();
                // d1·h1/p1 vs d2·h2/p2 ⇔ d1·h1·p2 vs d2·h2·p1; saturating keeps the order
                // total even for absurd inputs.
                let l = (a.duration as u128).saturating_mul(h1).saturating_mul(p2);
                let r = (b.duration as u128).saturating_mul(h2).saturating_mul(p1);
                l.cmp(&r)
            }
        }
    }
}
