//! Dimension-order routing on HyperX (spec/routing.md §2).
//!
//! Every dimension is a complete graph, so the lowest dimension `i` with `x_i != t_i` is
//! corrected in a single hop, directly to `x[i := t_i]`, on trunk 0 of the `K` parallel
//! links (project choice). Routes are minimal (one hop per differing coordinate) and each
//! dimension is traversed once in increasing order, so the channel dependency graph is
//! acyclic with one VC. O(dimensions) per hop.

use crate::topology::{HyperX, PortIndex, SwitchId, TerminalId};

use super::endpoint::{inject_state, locate, Endpoint};
use super::error::RoutingError;
use super::{Hop, PacketState, Routing};

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
        let n = shape.count();
        for s in [at, t] {
            if s >= n {
                return Err(RoutingError::SwitchOutOfRange {
                    switch: s,
                    switches: n,
                });
            }
        }
        let (mut a, mut b) = (at, t);
        for (dim, &k) in shape.sizes().iter().enumerate() {
            let (x, y) = (a % k, b % k);
            if x != y {
                return self
                    .hyperx
                    .port_to(at, dim, y, 0)
                    .map(Some)
                    .ok_or(RoutingError::Unreachable { from: at, to: t });
            }
            a /= k;
            b /= k;
        }
        Ok(None)
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
        let t = match locate(self.hyperx, at, dst)? {
            Endpoint::Eject(port) => return Ok(Hop::Eject { port }),
            Endpoint::Toward(t) => t,
        };
        let port = self
            .port_toward(at, t)?
            .ok_or(RoutingError::Unreachable { from: at, to: t })?;
        state.vc = 0;
        Ok(Hop::Forward { port, vc: 0 })
    }
}
