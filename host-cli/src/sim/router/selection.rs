//! Adaptive-routing selection: how a router chooses among the candidate outputs an adaptive
//! core routing writes (`jumpnet_core::routing::adaptive`). The router provides a
//! `CongestionView` — the occupancy of a channel as it sees it — and `select` takes the
//! candidate of least cost `occupancy · hops + bias`, the earlier one on ties (routings list
//! their minimal candidate first).
//!
//! With the input-queued router's view (unreturned credits summed over a port's VCs) this is
//! UGAL as Kim et al. (ISCA 2008) and BookSim2 (`ugal_dragonflynew`, `GetUsedCredit`) have
//! it: UGAL-L compares the source router's two first-hop output ports, UGAL-G the global
//! channels of the two paths (it knows the queues of every global channel; the Valiant
//! path's second global channel is in the intermediate group). A routing whose candidates
//! weigh other routers' channels (`CongestionScope::Remote`) needs a view of every router,
//! so the engine keeps its routers in one partition.

use jumpnet_core::routing::adaptive::{Candidate, OutputChannel};

/// The occupancy of channels as a router sees it.
pub(crate) trait CongestionView {
    /// Flits counted against `channel` (buffered downstream or on their way); 0 for a channel
    /// the view does not cover.
    fn occupancy(&self, channel: OutputChannel) -> u32;
}

/// Occupancy of a candidate's weighed channels together (saturating).
fn weighed<V: CongestionView + ?Sized>(c: &Candidate, view: &V) -> u32 {
    c.weighed()
        .iter()
        .map(|&ch| view.occupancy(ch))
        .fold(0u32, u32::saturating_add)
}

/// The index of the cheapest of `candidates` under `view` (`None` if there are none).
pub(crate) fn select<V: CongestionView + ?Sized>(
    candidates: &[Candidate],
    view: &V,
) -> Option<usize> {
    let mut best: Option<(usize, u64)> = None;
    for (i, c) in candidates.iter().enumerate() {
        let cost = c.cost(weighed(c, view));
        if best.is_none_or(|(_, b)| cost < b) {
            best = Some((i, cost));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(&'static [(OutputChannel, u32)]);

    impl CongestionView for Fixed {
        fn occupancy(&self, channel: OutputChannel) -> u32 {
            self.0
                .iter()
                .find(|(c, _)| *c == channel)
                .map_or(0, |(_, q)| *q)
        }
    }

    #[test]
    fn cheapest_wins_and_ties_go_to_the_first() {
        let min = Candidate::new(1, 3, &[(0, 1)], 0, 0).unwrap();
        let val = Candidate::new(2, 5, &[(0, 2), (7, 4)], 4, 1).unwrap();
        // 10·3 = 30 ≤ (2 + 4)·5 + 4 = 34: minimal.
        let view = Fixed(&[((0, 1), 10), ((0, 2), 2), ((7, 4), 4)]);
        assert_eq!(select(&[min, val], &view), Some(0));
        // 12·3 = 36 > 34: Valiant.
        let view = Fixed(&[((0, 1), 12), ((0, 2), 2), ((7, 4), 4)]);
        assert_eq!(select(&[min, val], &view), Some(1));
        // 34 = 34: the first.
        let tie = Candidate::new(1, 2, &[(0, 1)], 0, 0).unwrap();
        let view = Fixed(&[((0, 1), 17), ((0, 2), 2), ((7, 4), 4)]);
        assert_eq!(select(&[tie, val], &view), Some(0));
        assert_eq!(select(&[], &view), None);
    }
}
