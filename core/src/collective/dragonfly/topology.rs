//! The [`GroupLinks`] oracle of a [`Dragonfly`] topology (docs/topologies.md §7), so the
//! topology-aware broadcasts run on the real global-link arrangement.

use super::GroupLinks;
use crate::topology::Dragonfly;

impl GroupLinks for Dragonfly {
    /// Router offsets (within their groups) of the lowest-index global link between `g1` and
    /// `g2`; `(0, 0)` for a pair without a link (not produced by any supported arrangement,
    /// where every group pair is linked).
    fn link(&self, g1: u32, g2: u32) -> (u32, u32) {
        match self.global_link(g1, g2) {
            Some((r1, _, r2, _)) => (
                self.offset_in_group(r1).unwrap_or(0),
                self.offset_in_group(r2).unwrap_or(0),
            ),
            None => (0, 0),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::topology::{GlobalArrangement, Port, Topology};

    #[test]
    fn link_routers_carry_a_global_link_between_the_groups() {
        for arr in [GlobalArrangement::Consecutive, GlobalArrangement::PalmTree] {
            let df = Dragonfly::new(9, 4, 2, 2, arr).unwrap();
            for g1 in 0..9 {
                for g2 in 0..9 {
                    if g1 == g2 {
                        continue;
                    }
                    let (r1, r2) = df.link(g1, g2);
                    let s1 = df.router(g1, r1).unwrap();
                    let s2 = df.router(g2, r2).unwrap();
                    let linked = (0..df.radix())
                        .any(|p| matches!(df.port(s1, p), Port::Link(l) if l.peer == s2));
                    assert!(linked, "groups {g1}-{g2}: routers {s1} and {s2} not linked");
                    assert_eq!(df.link(g2, g1), (r2, r1));
                }
            }
        }
    }
}
