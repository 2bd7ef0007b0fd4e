//! Directed channels and their dense numbering (docs/topologies.md §0: routing works on
//! directed channels, one per direction of each link).
//!
//! Channel `(switch, port)` is the direction of the link on `port` leaving `switch`. Dense
//! index: `switch · radix + port` (terminal and unconnected ports get indices too and simply
//! never carry dependencies), and with virtual channels `(switch · radix + port) · vcs + vc`.

use crate::topology::{PortIndex, SwitchId, Topology};

use crate::routing::Vc;

/// A directed channel on one virtual channel: the link on `port` leaving `switch`, VC `vc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ChannelVc {
    /// Switch the channel leaves.
    pub switch: SwitchId,
    /// Output port of `switch`.
    pub port: PortIndex,
    /// Virtual channel.
    pub vc: Vc,
}

/// Number of dense channel indices of `topo` (`switches · radix`).
pub fn num_channels<T: Topology>(topo: &T) -> u64 {
    topo.num_switches() as u64 * topo.radix() as u64
}

/// Dense index of channel `(switch, port)`.
#[inline]
pub fn channel_index(radix: PortIndex, switch: SwitchId, port: PortIndex) -> usize {
    switch as usize * radix as usize + port as usize
}
