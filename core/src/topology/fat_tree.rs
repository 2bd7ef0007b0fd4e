//! k-ary n-tree (spec/topologies.md §6) — placeholder until implemented.

#[allow(unused_imports)]
use super::TopologyError;
use super::{Family, Port, PortIndex, SwitchId, TerminalId, Topology};

/// k-ary n-tree (spec/topologies.md §6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FatTree {
    _todo: (),
}

impl FatTree {
    /// k-ary n-tree.
    pub fn new(_k: u32, _n: u32) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
}

impl Topology for FatTree {
    fn family(&self) -> Family {
        Family::FatTree
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
