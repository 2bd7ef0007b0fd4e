//! Hypercube (spec/topologies.md §5) — placeholder until implemented.

#[allow(unused_imports)]
use super::TopologyError;
use super::{Family, Port, PortIndex, SwitchId, TerminalId, Topology};

/// Hypercube (spec/topologies.md §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hypercube {
    _todo: (),
}

impl Hypercube {
    /// Hypercube of dimension dim.
    pub fn new(_dim: u32, _terminals_per_switch: u16) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
}

impl Topology for Hypercube {
    fn family(&self) -> Family {
        Family::Hypercube
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
