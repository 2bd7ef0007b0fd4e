//! Slim Fly MMS (spec/topologies.md §9) — placeholder until implemented.

#[allow(unused_imports)]
use super::TopologyError;
use super::{Family, Port, PortIndex, SwitchId, TerminalId, Topology};

/// Slim Fly MMS (spec/topologies.md §9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlimFly {
    _todo: (),
}

impl SlimFly {
    /// Slim Fly with prime q and p terminals per router (None = ceil(k'/2)).
    pub fn new(_q: u32, _p: Option<u16>) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
}

impl Topology for SlimFly {
    fn family(&self) -> Family {
        Family::SlimFly
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
