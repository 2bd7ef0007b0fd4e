//! Dimension-order routing on HyperX (docs/routing.md §2).
//!
//! Every dimension is a complete graph, so the lowest dimension `i` with `x_i != t_i` is
//! corrected in a single hop, directly to `x[i := t_i]`, on trunk 0 of the `K` parallel
//! links (project choice). Routes are minimal (one hop per differing coordinate) and each
//! dimension is traversed once in increasing order, so the channel dependency graph is
//! acyclic with one VC. O(dimensions) per hop.

use crate::topology::{HyperX, PortIndex, SwitchId, TerminalId};

use crate::routing::endpoint::{check_switches, forward_on_vc0, inject_state};
use crate::routing::error::RoutingError;
use crate::routing::{Hop, PacketState, Routing};

/// Dimension-order routing on a HyperX, trunk 0, one VC.
#[derive(Clone, Copy, Debug)]
pub struct HyperXDor<'a> {
    hyperx: &'a HyperX,
}

impl<'a> HyperXDor<'a> {
    /// DOR on `hyperx`.
    pub fn new(hyperx: &'a HyperX) -> Self {
        HyperXDor { hyperx }
    }

    /// The topology.
    pub fn hyperx(&self) -> &'a HyperX {
        self.hyperx
    }

    /// Output port of the next hop from switch `at` toward switch `t` (trunk 0 of the link
    /// to `at[i := t_i]` for the lowest differing dimension `i`); `None` when `at == t`.
    pub fn port_toward(
        &self,
        at: SwitchId,
        t: SwitchId,
    ) -> Result<Option<PortIndex>, RoutingError> {
        let shape = self.hyperx.shape();
        check_switches(shape.count(), at, t)?;
        let Some((dim, _, y, _)) = shape.first_difference(at, t) else {
            return Ok(None);
        };
        self.hyperx
            .port_to(at, dim, y, 0)
            .map(Some)
            .ok_or(RoutingError::Unreachable { from: at, to: t })
    }
}

impl Routing for HyperXDor<'_> {
    fn num_vcs(&self) -> u8 {
        1
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        inject_state(self.hyperx, src, dst)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        forward_on_vc0(self.hyperx, at, state, dst, |at, t| self.port_toward(at, t))
    }
}
