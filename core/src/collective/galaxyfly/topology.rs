//! The [`GalaxyGraph`] oracle of a [`Galaxyfly`] topology (docs/topologies.md §10), so the
//! all-to-all broadcasts run on the topology's own router assignment.

use super::GalaxyGraph;
use crate::topology::Galaxyfly;

impl GalaxyGraph for Galaxyfly {
    fn supernodes(&self) -> u32 {
        self.num_supernodes()
    }

    fn routers_per_supernode(&self) -> u32 {
        self.a()
    }

    fn degree(&self, _u: u32) -> u32 {
        self.supernode_degree()
    }

    fn neighbor(&self, u: u32, i: u32) -> u32 {
        self.supernode_neighbor(u, i).unwrap_or(u32::MAX)
    }

    /// The router offset the topology itself uses for the edge `u–v` (round-robin or
    /// cluster-split assignment).
    fn link_router(&self, u: u32, v: u32) -> Option<u32> {
        self.edge_routers(u, v)
            .and_then(|(r, _, _, _)| self.router_offset(r))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::topology::Topology;

    #[test]
    fn oracle_matches_topology_ports() {
        let g = Galaxyfly::new(3, 5, 4, 1, None).unwrap();
        assert_eq!(g.supernodes(), 15);
        for u in 0..15 {
            for i in 0..GalaxyGraph::degree(&g, u) {
                let v = g.neighbor(u, i);
                assert!(v < 15);
                let t = g.link_router(u, v).unwrap();
                assert_eq!(t, i % 4, "round-robin assignment");
                let r = g.router(u, t).unwrap();
                let linked = (0..g.radix()).any(|p| {
                    g.port(r, p)
                        .link()
                        .is_some_and(|l| g.supernode_of(l.peer) == Some(v))
                });
                assert!(linked);
            }
        }
    }
}
