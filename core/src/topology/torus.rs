//! Torus and mesh (spec/topologies.md §4) — placeholder until implemented.

#[allow(unused_imports)]
use super::TopologyError;
use super::{Family, Port, PortIndex, SwitchId, TerminalId, Topology};

/// Torus and mesh (spec/topologies.md §4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Torus {
    _todo: (),
}

#[allow(clippy::self_named_constructors)]
impl Torus {
    /// Torus with the given radices.
    pub fn torus(_radices: &[u32], _terminals_per_switch: u16) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
    /// Mesh with the given radices.
    pub fn mesh(_radices: &[u32], _terminals_per_switch: u16) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
}

impl Topology for Torus {
    fn family(&self) -> Family {
        Family::Torus
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
