//! HyperX (spec/topologies.md §8) — placeholder until implemented.

#[allow(unused_imports)]
use super::TopologyError;
use super::{Family, Port, PortIndex, SwitchId, TerminalId, Topology};

/// HyperX (spec/topologies.md §8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HyperX {
    _todo: (),
}

impl HyperX {
    /// HyperX with sizes S, trunking K, T terminals per switch.
    pub fn new(_sizes: &[u32], _trunk: u16, _terminals: u16) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
}

impl Topology for HyperX {
    fn family(&self) -> Family {
        Family::HyperX
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
