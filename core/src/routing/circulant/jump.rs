//! Signed jumps and offsets shared by the circulant routings (docs/routing.md §3): a hop of
//! a circulant `C(n; c1..ck)` follows one signed jump `±c_i`, and both algorithms decide
//! from the offset `x = (t - u) mod n` of the destination switch `t` seen from `u`.

use crate::topology::{Circulant, PortIndex, SwitchId};

use crate::routing::endpoint::check_switches;
use crate::routing::error::RoutingError;

/// A signed jump of a circulant: jump `c_{index+1}`, forward (`+c`) or backward (`-c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    /// Index of the jump in the jump sequence (0-based).
    pub index: usize,
    /// `true` for `+c`, `false` for `-c`.
    pub forward: bool,
}

/// Offset `(t - at) mod n` between two switches of `c`, after checking both.
pub(crate) fn offset(c: &Circulant, at: SwitchId, t: SwitchId) -> Result<u32, RoutingError> {
    let n = c.n();
    check_switches(n, at, t)?;
    Ok(((t as u64 + n as u64 - at as u64) % n as u64) as u32)
}

/// Output port of the next hop from switch `at` toward switch `t` of `c` by the signed
/// jump `jump` picks at the offset `(t - at) mod n`; `None` when `at == t`.
pub(crate) fn port_by_jump(
    c: &Circulant,
    at: SwitchId,
    t: SwitchId,
    jump: impl FnOnce(u32) -> Result<Option<Jump>, RoutingError>,
) -> Result<Option<PortIndex>, RoutingError> {
    let Some(j) = jump(offset(c, at, t)?)? else {
        return Ok(None);
    };
    c.jump_port(j.index, j.forward)
        .map(Some)
        .ok_or(RoutingError::Unreachable { from: at, to: t })
}

/// Implements `port_toward` and [`Routing`](crate::routing::Routing) for a circulant routing
/// struct with a `circulant` field and a `jump(x)` rule (the signed jump taken at offset `x`,
/// docs/routing.md §3): one VC, the port of that jump, eject at the destination.
macro_rules! jump_routing {
    ($ty:ident) => {
        impl $ty<'_> {
            /// Output port of the next hop from switch `at` toward switch `t`; `None` when
            /// `at == t`.
            pub fn port_toward(
                &self,
                at: crate::topology::SwitchId,
                t: crate::topology::SwitchId,
            ) -> Result<Option<crate::topology::PortIndex>, crate::routing::RoutingError> {
                crate::routing::circulant::jump::port_by_jump(self.circulant, at, t, |x| {
                    self.jump(x)
                })
            }
        }

        impl crate::routing::Routing for $ty<'_> {
            fn num_vcs(&self) -> u8 {
                1
            }

            fn inject(
                &self,
                src: crate::topology::TerminalId,
                dst: crate::topology::TerminalId,
            ) -> Result<crate::routing::PacketState, crate::routing::RoutingError> {
                crate::routing::endpoint::inject_state(self.circulant, src, dst)
            }

            fn next_hop(
                &self,
                at: crate::topology::SwitchId,
                state: &mut crate::routing::PacketState,
                dst: crate::topology::TerminalId,
            ) -> Result<crate::routing::Hop, crate::routing::RoutingError> {
                crate::routing::endpoint::forward_on_vc0(self.circulant, at, state, dst, |at, t| {
                    self.port_toward(at, t)
                })
            }
        }
    };
}
pub(crate) use jump_routing;
