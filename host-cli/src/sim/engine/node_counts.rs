//! Per-terminal counts of a run as BookSim2 keeps them for its statistics block
//! (docs/booksim.md §1): flits and packets each terminal sent into the network (its
//! injection channel, not its source queue) and flits and packets ejected at it, per
//! traffic class; and the fragmentation of each packet's flits at its destination. A
//! measurement window is the difference of two snapshots (`NodeCounts::snapshot`); its
//! rates are BookSim2's "Injected/Accepted packet/flit rate" with their minimum and maximum
//! over the terminals ([`NodeRates`]).

use serde::Serialize;

/// Index of flits sent into the network in a terminal's counts.
const SENT_FLITS: usize = 0;
/// Index of packets (heads) sent into the network.
const SENT_PACKETS: usize = 1;
/// Index of flits ejected.
const ACCEPTED_FLITS: usize = 2;
/// Index of packets (tails) ejected.
const ACCEPTED_PACKETS: usize = 3;

/// The counts of every (class, terminal): `counts[class · terminals + terminal]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeCounts {
    terminals: usize,
    counts: Vec<[u64; 4]>,
    /// Per packet-pool id: the cycle its head flit was ejected (fragmentation).
    head_at: Vec<u64>,
}

impl NodeCounts {
    /// Zero counts for `classes` classes of `terminals` terminals.
    pub fn new(classes: usize, terminals: usize) -> Self {
        NodeCounts {
            terminals,
            counts: vec![[0; 4]; classes.max(1) * terminals],
            head_at: Vec::new(),
        }
    }

    /// Terminal `t` sent a flit of a class-`class` packet into the network (`head`: its
    /// first).
    #[inline]
    pub fn sent(&mut self, class: u8, t: usize, head: bool) {
        let c = &mut self.counts[usize::from(class) * self.terminals + t];
        c[SENT_FLITS] += 1;
        c[SENT_PACKETS] += u64::from(head);
    }

    /// A flit of packet `id` (class `class`, `len` flits) was ejected at terminal `t` at
    /// `now`: `seq` is its place in the packet. Returns, for its tail, BookSim2's
    /// fragmentation of the packet: the cycles between the head's and the tail's ejection
    /// beyond the `len − 1` of back-to-back flits.
    #[inline]
    pub fn accepted(
        &mut self,
        (id, class): (u32, u8),
        t: usize,
        (seq, len): (u16, u16),
        now: u64,
    ) -> Option<u64> {
        let c = &mut self.counts[usize::from(class) * self.terminals + t];
        c[ACCEPTED_FLITS] += 1;
        let tail = seq + 1 == len;
        c[ACCEPTED_PACKETS] += u64::from(tail);
        let id = id as usize;
        if seq == 0 {
            if id >= self.head_at.len() {
                self.head_at.resize(id + 1, 0);
            }
            self.head_at[id] = now;
        }
        // A flit out of order is a conservation error the engine counts; it is not
        // fragmentation.
        let head = self.head_at.get(id).copied().unwrap_or(now);
        tail.then(|| (now.saturating_sub(head)).saturating_sub(u64::from(len - 1)))
    }

    /// The counts now (for a window's start or end).
    pub fn snapshot(&self) -> Vec<[u64; 4]> {
        self.counts.clone()
    }

    /// Zero counts of the same shape (the start of a run).
    pub fn zero(&self) -> Vec<[u64; 4]> {
        vec![[0; 4]; self.counts.len()]
    }

    /// Flits of class `class` received by all terminals up to the snapshot `at`.
    pub fn accepted_flits(&self, at: &[[u64; 4]], class: usize) -> u64 {
        let n = self.terminals;
        at[class * n..(class + 1) * n]
            .iter()
            .map(|c| c[ACCEPTED_FLITS])
            .sum()
    }

    /// Forgets every count (engine reuse).
    pub fn clear(&mut self) {
        self.counts.fill([0; 4]);
        self.head_at.clear();
    }

    /// The rates of class `class` (`None`: all classes together) over the window between
    /// snapshots `start` and `end`, `cycles` long.
    pub fn rates(
        &self,
        start: &[[u64; 4]],
        end: &[[u64; 4]],
        class: Option<usize>,
        cycles: u64,
    ) -> NodeRates {
        let n = self.terminals;
        let classes = self.counts.len() / n.max(1);
        let per_node = |k: usize| -> Vec<u64> {
            (0..n)
                .map(|t| {
                    let cls = class.map_or(0..classes, |c| c..c + 1);
                    cls.map(|c| end[c * n + t][k] - start[c * n + t][k]).sum()
                })
                .collect()
        };
        let range = |k: usize| RateRange::of(&per_node(k), cycles);
        NodeRates {
            injected_packets: range(SENT_PACKETS),
            accepted_packets: range(ACCEPTED_PACKETS),
            injected_flits: range(SENT_FLITS),
            accepted_flits: range(ACCEPTED_FLITS),
        }
    }
}

/// A rate per terminal and cycle over a measurement window: the mean over the terminals,
/// and the lowest and highest terminal's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RateRange {
    /// Mean over the terminals.
    pub mean: f64,
    /// The lowest terminal's rate.
    pub min: f64,
    /// The highest terminal's rate.
    pub max: f64,
}

impl RateRange {
    /// The range of `counts` (one per terminal) over `cycles` cycles. The mean divides by
    /// the cycles first and the terminals second, as BookSim2's `_UpdateOverallStats` does,
    /// so that its last bit, and the packet sizes printed as ratios of two means, round as
    /// BookSim2's do.
    fn of(counts: &[u64], cycles: u64) -> Self {
        let c = cycles.max(1) as f64;
        let n = counts.len().max(1) as f64;
        RateRange {
            mean: counts.iter().sum::<u64>() as f64 / c / n,
            min: counts.iter().copied().min().unwrap_or(0) as f64 / c,
            max: counts.iter().copied().max().unwrap_or(0) as f64 / c,
        }
    }
}

/// BookSim2's four rates of a measurement window, per terminal and cycle (docs/booksim.md
/// §1): packets and flits the terminals sent into the network ("injected") and received
/// ("accepted"). Injected counts what left the source queue, so past saturation it is the
/// rate the network took, not the rate offered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct NodeRates {
    /// Packets sent into the network.
    pub injected_packets: RateRange,
    /// Packets received.
    pub accepted_packets: RateRange,
    /// Flits sent into the network.
    pub injected_flits: RateRange,
    /// Flits received.
    pub accepted_flits: RateRange,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_per_terminal_and_cycle_with_their_extremes() {
        let mut n = NodeCounts::new(2, 3);
        let start = n.zero();
        // Terminal 0 sends one 2-flit class-0 packet, terminal 2 a 1-flit class-1 packet.
        n.sent(0, 0, true);
        n.sent(0, 0, false);
        n.sent(1, 2, true);
        assert_eq!(n.accepted((5, 0), 1, (0, 2), 10), None);
        assert_eq!(n.accepted((5, 0), 1, (1, 2), 11), Some(0));
        assert_eq!(n.accepted((6, 1), 0, (0, 1), 12), Some(0));
        let end = n.snapshot();
        let all = n.rates(&start, &end, None, 10);
        assert_eq!(all.injected_flits.mean, 3.0 / 10.0 / 3.0);
        assert_eq!((all.injected_flits.min, all.injected_flits.max), (0.0, 0.2));
        assert_eq!(all.injected_packets.max, 0.1);
        assert_eq!(all.accepted_flits.max, 0.2);
        assert_eq!(
            (n.accepted_flits(&end, 0), n.accepted_flits(&end, 1)),
            (2, 1)
        );
        let c1 = n.rates(&start, &end, Some(1), 10);
        assert_eq!(c1.injected_flits.mean, 1.0 / 10.0 / 3.0);
        assert_eq!(
            (c1.accepted_packets.min, c1.accepted_packets.max),
            (0.0, 0.1)
        );
    }

    #[test]
    fn fragmentation_counts_the_cycles_a_packets_flits_spread_beyond_back_to_back() {
        let mut n = NodeCounts::new(1, 2);
        // A 4-flit packet whose flits arrive at 20, 21, 24, 26: 6 cycles for 3 gaps.
        let arrivals = [20, 21, 24, 26];
        let frag: Vec<_> = (0..4)
            .map(|s| n.accepted((3, 0), 1, (s, 4), arrivals[usize::from(s)]))
            .collect();
        assert_eq!(frag, [None, None, None, Some(3)]);
        // Back to back: none.
        let frag = (0..3)
            .map(|s| n.accepted((0, 0), 0, (s, 3), 40 + u64::from(s)))
            .last();
        assert_eq!(frag, Some(Some(0)));
    }
}
