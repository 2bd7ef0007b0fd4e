//! The part every arithmetic routing shares: validate the current switch, locate the
//! destination terminal, and eject at its switch on the terminal's port (docs/routing.md:
//! a route ends at the destination router; the terminal link is the ejection).

use crate::topology::{PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::error::RoutingError;
use crate::routing::{terminal_location, Hop, PacketState};

/// What a switch must do with a packet before any family-specific decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Endpoint {
    /// The packet is at its destination switch: eject on this terminal port.
    Eject(PortIndex),
    /// The packet must still travel to this destination switch.
    Toward(SwitchId),
}

/// Checks `at` and `dst` and tells whether the packet ejects at `at` or must continue.
#[inline]
pub(crate) fn locate<T: Topology>(
    topo: &T,
    at: SwitchId,
    dst: TerminalId,
) -> Result<Endpoint, RoutingError> {
    let n = topo.num_switches();
    if at >= n {
        return Err(RoutingError::SwitchOutOfRange {
            switch: at,
            switches: n,
        });
    }
    let (t, port) = terminal_location(topo, dst)?;
    Ok(if t == at {
        Endpoint::Eject(port)
    } else {
        Endpoint::Toward(t)
    })
}

/// Fresh state (VC 0, phase 0) of a packet from terminal `src` to terminal `dst`, after
/// checking both ids.
pub(crate) fn inject_state<T: Topology>(
    topo: &T,
    src: TerminalId,
    dst: TerminalId,
) -> Result<PacketState, RoutingError> {
    let (s, _) = terminal_location(topo, src)?;
    terminal_location(topo, dst)?;
    Ok(PacketState::new(s))
}

/// Checks that the switches `at` and `t` are below `n`.
#[inline]
pub(crate) fn check_switches(n: u32, at: SwitchId, t: SwitchId) -> Result<(), RoutingError> {
    match [at, t].into_iter().find(|&s| s >= n) {
        Some(switch) => Err(RoutingError::SwitchOutOfRange {
            switch,
            switches: n,
        }),
        None => Ok(()),
    }
}

/// `next_hop` of a one-VC routing given by its switch-level rule `port_toward(at, t)`
/// (`None` when `at == t`): eject at the destination switch, otherwise forward on VC 0.
#[inline]
pub(crate) fn forward_on_vc0<T: Topology>(
    topo: &T,
    at: SwitchId,
    state: &mut PacketState,
    dst: TerminalId,
    port_toward: impl FnOnce(SwitchId, SwitchId) -> Result<Option<PortIndex>, RoutingError>,
) -> Result<Hop, RoutingError> {
    let t = match locate(topo, at, dst)? {
        Endpoint::Eject(port) => return Ok(Hop::Eject { port }),
        Endpoint::Toward(t) => t,
    };
    let port = port_toward(at, t)?.ok_or(RoutingError::Unreachable { from: at, to: t })?;
    state.vc = 0;
    Ok(Hop::Forward { port, vc: 0 })
}
