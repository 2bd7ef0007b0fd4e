//! Degree statistics, switch/terminal/link counts and links by [`LinkClass`]
//! (docs/topologies.md §0: ports, link classes).
//!
//! The degree of a switch is its number of connected network ports (parallel links counted,
//! as [`Topology::degree`]). Each link is counted once, from its canonical end: the end with
//! the smaller `(switch, port)`; its class is the class seen from that end, except that the
//! fat-tree classes [`LinkClass::Up`] and [`LinkClass::Down`] both count as fat-tree links.

use super::MetricsError;
use crate::error::CapacityError;
use crate::topology::{LinkClass, Port, Topology};

/// Number of `LinkClass::Dim(i)` classes counted one by one; higher dimensions share
/// [`LinkClassCounts::dim_beyond`].
pub const DIM_CLASSES: usize = 32;

/// Links per class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkClassCounts {
    /// Terminal ↔ switch links.
    pub terminal: u64,
    /// [`LinkClass::Local`] links.
    pub local: u64,
    /// [`LinkClass::Global`] links.
    pub global: u64,
    /// [`LinkClass::Shortcut`] links.
    pub shortcut: u64,
    /// Fat-tree links ([`LinkClass::Up`] / [`LinkClass::Down`]).
    pub fat_tree: u64,
    /// `dims[i]` = [`LinkClass::Dim`]`(i)` links for `i < DIM_CLASSES`.
    pub dims: [u64; DIM_CLASSES],
    /// [`LinkClass::Dim`]`(i)` links with `i >= DIM_CLASSES`.
    pub dim_beyond: u64,
}

impl LinkClassCounts {
    const ZERO: LinkClassCounts = LinkClassCounts {
        terminal: 0,
        local: 0,
        global: 0,
        shortcut: 0,
        fat_tree: 0,
        dims: [0; DIM_CLASSES],
        dim_beyond: 0,
    };

    /// Links of `class` (`Up` and `Down` both give the fat-tree links).
    pub fn get(&self, class: LinkClass) -> u64 {
        match class {
            LinkClass::Terminal => self.terminal,
            LinkClass::Local => self.local,
            LinkClass::Global => self.global,
            LinkClass::Shortcut => self.shortcut,
            LinkClass::Up | LinkClass::Down => self.fat_tree,
            LinkClass::Dim(i) => self
                .dims
                .get(i as usize)
                .copied()
                .unwrap_or(self.dim_beyond),
        }
    }

    fn add(&mut self, class: LinkClass) {
        let slot = match class {
            LinkClass::Terminal => &mut self.terminal,
            LinkClass::Local => &mut self.local,
            LinkClass::Global => &mut self.global,
            LinkClass::Shortcut => &mut self.shortcut,
            LinkClass::Up | LinkClass::Down => &mut self.fat_tree,
            LinkClass::Dim(i) => match self.dims.get_mut(i as usize) {
                Some(c) => c,
                None => &mut self.dim_beyond,
            },
        };
        *slot += 1;
    }
}

/// Degree and link statistics of a topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DegreeStats {
    /// Number of switches.
    pub switches: u32,
    /// Number of terminals.
    pub terminals: u32,
    /// Switch-to-switch links (each counted once; parallel links counted).
    pub links: u64,
    /// Smallest switch degree (0 when there is no switch).
    pub min_degree: u32,
    /// Largest switch degree.
    pub max_degree: u32,
    /// Sum of switch degrees (`2 · links`).
    pub degree_sum: u64,
    /// Links by class (terminal links included).
    pub by_class: LinkClassCounts,
}

impl DegreeStats {
    /// Mean degree as the exact ratio `(degree_sum, switches)`.
    pub fn mean_degree_ratio(&self) -> (u64, u32) {
        (self.degree_sum, self.switches)
    }

    /// Mean degree (0 when there is no switch).
    pub fn mean_degree(&self) -> f64 {
        if self.switches == 0 {
            0.0
        } else {
            self.degree_sum as f64 / self.switches as f64
        }
    }

    /// Whether every switch has the same degree.
    pub fn is_regular(&self) -> bool {
        self.min_degree == self.max_degree
    }
}

/// Degree statistics and link counts of `t` (one pass over all ports).
pub fn degree_stats<T: Topology + ?Sized>(t: &T) -> DegreeStats {
    let n = t.num_switches();
    let radix = t.radix();
    let mut st = DegreeStats {
        switches: n,
        terminals: t.num_terminals(),
        links: 0,
        min_degree: if n == 0 { 0 } else { u32::MAX },
        max_degree: 0,
        degree_sum: 0,
        by_class: LinkClassCounts::ZERO,
    };
    for s in 0..n {
        let mut deg = 0u32;
        for p in 0..radix {
            match t.port(s, p) {
                Port::Link(l) => {
                    deg += 1;
                    if (s, p) < (l.peer, l.peer_port) {
                        st.links += 1;
                        st.by_class.add(l.class);
                    }
                }
                Port::Terminal(_) => st.by_class.add(LinkClass::Terminal),
                Port::Unconnected => {}
            }
        }
        st.min_degree = st.min_degree.min(deg);
        st.max_degree = st.max_degree.max(deg);
        st.degree_sum += deg as u64;
    }
    st
}

/// Writes `hist[k]` = number of switches of degree `k` (entries beyond the largest degree
/// are zeroed). Errors when `hist` has no entry for some switch's degree.
pub fn degree_histogram<T: Topology + ?Sized>(t: &T, hist: &mut [u64]) -> Result<(), MetricsError> {
    hist.fill(0);
    for s in 0..t.num_switches() {
        let d = t.degree(s) as usize;
        match hist.get_mut(d) {
            Some(c) => *c += 1,
            None => CapacityError::check("degree histogram bins", d + 1, hist.len())?,
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::topology::stored::{from_edges, StoredGraphBuilder};
    use crate::topology::{Family, Slot};

    #[test]
    fn counts_on_a_small_graph() {
        // Star with centre 0 plus a parallel link 1–2 (degrees 3,2,2,1), 2 terminals each.
        let mut slots = [Slot::EMPTY; 12];
        let mut deg = [0u16; 4];
        let edges = [(0, 1), (0, 2), (0, 3), (1, 2)];
        let g = from_edges(4, 3, 2, edges, &mut slots, &mut deg).unwrap();
        let st = degree_stats(&g);
        assert_eq!((st.switches, st.terminals, st.links), (4, 8, 4));
        assert_eq!((st.min_degree, st.max_degree, st.degree_sum), (1, 3, 8));
        assert_eq!(st.mean_degree_ratio(), (8, 4));
        assert_eq!(st.mean_degree(), 2.0);
        assert!(!st.is_regular());
        assert_eq!(st.by_class.get(LinkClass::Local), 4);
        assert_eq!(st.by_class.get(LinkClass::Terminal), 8);
        assert_eq!(st.by_class.get(LinkClass::Shortcut), 0);
        let mut hist = [9u64; 5];
        degree_histogram(&g, &mut hist).unwrap();
        assert_eq!(hist, [0, 1, 2, 1, 0]);
        let mut short = [0u64; 3];
        assert!(matches!(
            degree_histogram(&g, &mut short),
            Err(MetricsError::Capacity(CapacityError {
                needed: 4,
                available: 3,
                ..
            }))
        ));
    }

    #[test]
    fn classes_are_counted_once_per_link() {
        let mut slots = [Slot::EMPTY; 12];
        let mut deg = [0u16; 4];
        let mut b =
            StoredGraphBuilder::new(Family::Arbitrary, 4, 3, 0, &mut slots, &mut deg).unwrap();
        b.add_link(0, 1, LinkClass::Dim(0)).unwrap();
        b.add_link(1, 2, LinkClass::Dim(40)).unwrap();
        b.add_link(2, 3, LinkClass::Global).unwrap();
        b.add_link(3, 0, LinkClass::Shortcut).unwrap();
        b.add_link(0, 2, LinkClass::Dim(1)).unwrap();
        let g = b.finish();
        let st = degree_stats(&g);
        assert_eq!(st.links, 5);
        assert_eq!(st.by_class.dims[0], 1);
        assert_eq!(st.by_class.get(LinkClass::Dim(1)), 1);
        assert_eq!(st.by_class.get(LinkClass::Dim(40)), 1);
        assert_eq!(st.by_class.global, 1);
        assert_eq!(st.by_class.shortcut, 1);
        assert_eq!(st.by_class.terminal, 0);
    }
}
