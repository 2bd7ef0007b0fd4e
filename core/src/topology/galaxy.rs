//! Galaxy graph and Galaxyfly (spec/topologies.md §10) — placeholder until implemented.

#[allow(unused_imports)]
use super::TopologyError;
use super::{Family, Port, PortIndex, SwitchId, TerminalId, Topology};

/// Galaxy graph and Galaxyfly (spec/topologies.md §10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Galaxyfly {
    _todo: (),
}

impl Galaxyfly {
    /// Galaxyfly (n, q, a, p, h).
    pub fn new(_n: u32, _q: u32, _a: u32, _p: u32, _h: Option<u32>) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
}

impl Topology for Galaxyfly {
    fn family(&self) -> Family {
        Family::Galaxyfly
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
