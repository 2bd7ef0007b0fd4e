//! Dimension-order routing on tori and meshes (docs/routing.md §2).
//!
//! Dimensions are resolved in increasing index (dimension 0 first). In a dimension `i` with
//! `x_i != t_i`:
//!
//! * mesh: one hop at a time toward `t_i`;
//! * torus: the shorter way round, `d+ = (t_i - x_i) mod k_i`, `d- = k_i - d+`; `+` if
//!   `d+ < d-`, `-` if `d- < d+`, and `+` on a tie (even `k_i`, project choice). A dimension
//!   with `k_i = 2` has a single link (port `2i`), which serves both directions.
//!
//! The route is a function of (switch, destination); each hop costs O(dimensions).
//! Virtual channels ([`TorusVcs`]): one VC (plain DOR — deadlock-free on a mesh, but on a
//! torus ring of `k >= 4` the wrap-around closes a channel dependency cycle), or dateline
//! VC0/VC1 per dimension ([`crate::routing::dimension_order::dateline`]), which makes torus DOR deadlock-free.

use crate::error::InvalidParam;
use crate::topology::{PortIndex, SwitchId, TerminalId, Torus};

use crate::routing::dimension_order::dateline::{dateline_vc, RingHop, DATELINE_VCS};
use crate::routing::endpoint::{check_switches, inject_state, locate, Endpoint};
use crate::routing::error::RoutingError;
use crate::routing::{Hop, PacketState, Routing};

/// Virtual-channel policy of [`TorusDor`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TorusVcs {
    /// Every hop on VC 0. Deadlock-free on a mesh; deadlocks on torus rings of `k >= 4`.
    Single,
    /// Dateline VC0/VC1 per dimension ring (docs/routing.md §2); torus only.
    Dateline,
}

/// Dimension-order routing on a torus or mesh (docs/routing.md §2).
#[derive(Clone, Copy, Debug)]
pub struct TorusDor<'a> {
    torus: &'a Torus,
    vcs: TorusVcs,
}

impl<'a> TorusDor<'a> {
    /// DOR on `torus` (a torus or a mesh) with VC policy `vcs`. Dateline VCs need
    /// wrap-around links: [`TorusVcs::Dateline`] on a mesh is rejected.
    pub fn new(torus: &'a Torus, vcs: TorusVcs) -> Result<Self, RoutingError> {
        if vcs == TorusVcs::Dateline && !torus.wraps() {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "vcs",
                value: DATELINE_VCS as u64,
                rule: "dateline VCs need a torus (wrap-around links); mesh DOR uses 1 VC",
            }));
        }
        Ok(TorusDor { torus, vcs })
    }

    /// The topology.
    pub fn torus(&self) -> &'a Torus {
        self.torus
    }

    /// The VC policy.
    pub fn vcs(&self) -> TorusVcs {
        self.vcs
    }

    /// The next hop from switch `at` toward switch `t` as a ring hop: the lowest
    /// dimension where they differ, the direction by the rule of the module docs, and the
    /// coordinate it leaves. `None` when `at == t`.
    pub fn next_ring_hop(
        &self,
        at: SwitchId,
        t: SwitchId,
    ) -> Result<Option<RingHop>, RoutingError> {
        let shape = self.torus.shape();
        check_switches(shape.count(), at, t)?;
        let Some((dim, x, y, k)) = shape.first_difference(at, t) else {
            return Ok(None);
        };
        let forward = if self.torus.wraps() {
            let plus = if y > x { y - x } else { y + k - x };
            plus <= k - plus
        } else {
            y > x
        };
        Ok(Some(RingHop { dim, forward, x, k }))
    }

    /// Dimension and direction (`true` = `+`) of the next hop from switch `at` toward
    /// switch `t`; `None` when `at == t`.
    pub fn next_dim(
        &self,
        at: SwitchId,
        t: SwitchId,
    ) -> Result<Option<(usize, bool)>, RoutingError> {
        Ok(self.next_ring_hop(at, t)?.map(|h| (h.dim, h.forward)))
    }

    /// Output port of `hop`: `2·dim` for `+`, `2·dim + 1` for `-`, except in a torus
    /// dimension of size 2, whose single link is on port `2·dim` (docs/topologies.md §4).
    fn port_of(&self, hop: RingHop) -> PortIndex {
        let single_link = self.torus.wraps() && hop.k == 2;
        (2 * hop.dim + (!hop.forward && !single_link) as usize) as PortIndex
    }

    /// Output port of the next hop from switch `at` toward switch `t`; `None` when
    /// `at == t`.
    pub fn port_toward(
        &self,
        at: SwitchId,
        t: SwitchId,
    ) -> Result<Option<PortIndex>, RoutingError> {
        Ok(self.next_ring_hop(at, t)?.map(|h| self.port_of(h)))
    }
}

impl Routing for TorusDor<'_> {
    fn num_vcs(&self) -> u8 {
        match self.vcs {
            TorusVcs::Single => 1,
            TorusVcs::Dateline => DATELINE_VCS,
        }
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        inject_state(self.torus, src, dst)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let t = match locate(self.torus, at, dst)? {
            Endpoint::Eject(port) => return Ok(Hop::Eject { port }),
            Endpoint::Toward(t) => t,
        };
        let hop = self
            .next_ring_hop(at, t)?
            .ok_or(RoutingError::Unreachable { from: at, to: t })?;
        let port = self.port_of(hop);
        let vc = match self.vcs {
            TorusVcs::Single => {
                state.vc = 0;
                0
            }
            TorusVcs::Dateline => dateline_vc(hop, state),
        };
        Ok(Hop::Forward { port, vc })
    }
}
