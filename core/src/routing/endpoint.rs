//! The part every arithmetic routing shares: validate the current switch, locate the
//! destination terminal, and eject at its switch on the terminal's port (spec/routing.md:
//! a route ends at the destination router; the terminal link is the ejection).

use crate::topology::{PortIndex, SwitchId, TerminalId, Topology};

use super::error::RoutingError;
use super::{terminal_location, PacketState};

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
