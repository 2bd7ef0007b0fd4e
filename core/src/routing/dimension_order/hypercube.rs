//! E-cube routing on the hypercube (docs/routing.md §2 dimension order, applied to the
//! hypercube of docs/topologies.md §5): correct the lowest differing address bit first.
//!
//! From switch `u` toward switch `t`, the next hop uses port `i = ctz(u XOR t)` (port `i` is
//! dimension `i`). Routes are minimal (one hop per differing bit, Hamming distance) and use
//! dimensions in increasing order, so the channel dependency graph is acyclic: one VC.
//! O(1) per hop.

use crate::topology::{Hypercube, PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::endpoint::{check_switches, forward_on_vc0, inject_state};
use crate::routing::error::RoutingError;
use crate::routing::{Hop, PacketState, Routing};

/// E-cube (lowest dimension first) routing on a hypercube, one VC.
#[derive(Clone, Copy, Debug)]
pub struct HypercubeEcube<'a> {
    cube: &'a Hypercube,
}

impl<'a> HypercubeEcube<'a> {
    /// E-cube routing on `cube`.
    pub fn new(cube: &'a Hypercube) -> Self {
        HypercubeEcube { cube }
    }

    /// The topology.
    pub fn cube(&self) -> &'a Hypercube {
        self.cube
    }

    /// Port (= dimension) of the next hop from switch `at` toward switch `t`: the lowest bit
    /// where they differ; `None` when `at == t`.
    pub fn port_toward(
        &self,
        at: SwitchId,
        t: SwitchId,
    ) -> Result<Option<PortIndex>, RoutingError> {
        let n = self.cube.num_switches();
        check_switches(n, at, t)?;
        let diff = at ^ t;
        if diff == 0 {
            return Ok(None);
        }
        let dim = diff.trailing_zeros();
        self.cube
            .dim_port(dim)
            .map(Some)
            .ok_or(RoutingError::NotALink {
                switch: at,
                port: dim as PortIndex,
            })
    }
}

impl Routing for HypercubeEcube<'_> {
    fn num_vcs(&self) -> u8 {
        1
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        inject_state(self.cube, src, dst)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        forward_on_vc0(self.cube, at, state, dst, |at, t| self.port_toward(at, t))
    }
}
