//! Dragonfly (spec/topologies.md §7) — placeholder until implemented.

#[allow(unused_imports)]
use super::TopologyError;
use super::{Family, Port, PortIndex, SwitchId, TerminalId, Topology};

/// Dragonfly (spec/topologies.md §7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dragonfly {
    _todo: (),
}

/// Global-link arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalArrangement {
    /// Consecutive / absolute.
    Consecutive,
    /// Palm tree.
    PalmTree,
    /// Relative.
    Relative,
}
impl Dragonfly {
    /// Dragonfly (g, a, p, h).
    pub fn new(
        _g: u32,
        _a: u32,
        _p: u32,
        _h: u32,
        _arr: GlobalArrangement,
    ) -> Result<Self, TopologyError> {
        Err(TopologyError::Invalid {
            param: "family",
            value: 0,
            rule: "not implemented yet",
        })
    }
}

impl Topology for Dragonfly {
    fn family(&self) -> Family {
        Family::Dragonfly
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
