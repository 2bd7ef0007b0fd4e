//! Ring, circulant C(n; jumps) and G(n, log2 n) (spec/topologies.md §1–2) — placeholder until implemented.

#[allow(unused_imports)]
use super::TopologyError;
use super::{Family, Port, PortIndex, SwitchId, TerminalId, Topology};

/// Ring, circulant C(n; jumps) and G(n, log2 n) (spec/topologies.md §1–2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circulant {
    _todo: (),
}

impl Circulant {
    /// Ring of n switches.
    pub fn ring(_n: u32) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
    /// C(n; jumps).
    pub fn new(_n: u32, _jumps: &[u32]) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
    /// G(n, log2 n).
    pub fn g(_n: u32) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
}

impl Topology for Circulant {
    fn family(&self) -> Family {
        Family::Circulant
    }
    fn num_switches(&self) -> u32 {
        0
    }
    fn num_terminals(&self) -> u32 {
        0
    }
    fn radix(&self) -> PortIndex {
        0
    }
    fn port(&self, _switch: SwitchId, _port: PortIndex) -> Port {
        Port::Unconnected
    }
    fn terminal_port(&self, _t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        None
    }
}
