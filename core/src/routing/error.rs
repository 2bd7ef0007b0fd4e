//! Errors of routing, table handling and deadlock analysis.

use crate::error::{CapacityError, InvalidParam};
use core::fmt;

use crate::topology::{PortIndex, SwitchId, TerminalId};

use crate::routing::Vc;

/// Why a route could not be computed, followed, checked or stored. Every variant names the
/// switch, terminal, port or buffer concerned and what is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutingError {
    /// A terminal id outside `0..terminals`.
    TerminalOutOfRange {
        /// The terminal id.
        terminal: TerminalId,
        /// Number of terminals.
        terminals: u32,
    },
    /// A switch id outside `0..switches`.
    SwitchOutOfRange {
        /// The switch id.
        switch: SwitchId,
        /// Number of switches.
        switches: u32,
    },
    /// The route table of `switch` has no entry for `terminal`.
    NoRoute {
        /// Switch whose table was consulted.
        switch: SwitchId,
        /// Destination terminal.
        terminal: TerminalId,
    },
    /// The destination switch cannot be reached from `from` (disconnected graph).
    Unreachable {
        /// Switch the packet is at.
        from: SwitchId,
        /// Destination switch.
        to: SwitchId,
    },
    /// The routing chose a port that is not a network link of the switch.
    NotALink {
        /// Switch.
        switch: SwitchId,
        /// Chosen port.
        port: PortIndex,
    },
    /// The routing ejected on a port that is not the destination terminal's port.
    WrongEject {
        /// Switch.
        switch: SwitchId,
        /// Chosen port.
        port: PortIndex,
        /// Destination terminal.
        terminal: TerminalId,
    },
    /// A hop used a virtual channel outside `0..num_vcs`.
    VcOutOfRange {
        /// Switch.
        switch: SwitchId,
        /// Output port.
        port: PortIndex,
        /// VC used.
        vc: Vc,
        /// Number of VCs of the routing.
        num_vcs: u8,
    },
    /// A packet from `src` to `dst` was not delivered within `limit` hops (routing loop).
    HopLimit {
        /// Source terminal.
        src: TerminalId,
        /// Destination terminal.
        dst: TerminalId,
        /// Hop limit.
        limit: u32,
    },
    /// A route is longer than the shortest path (when minimality is required).
    NonMinimal {
        /// Source terminal.
        src: TerminalId,
        /// Destination terminal.
        dst: TerminalId,
        /// Router hops taken.
        hops: u32,
        /// BFS distance.
        distance: u32,
    },
    /// The routing needs more virtual layers than allowed.
    TooManyLayers {
        /// Layers needed.
        needed: u16,
        /// Configured limit.
        limit: u8,
    },
    /// The layer search gave up: even `searched` layers leave a dependency cycle.
    LayerSearchExhausted {
        /// Layers tried.
        searched: u16,
        /// Configured limit.
        limit: u8,
    },
    /// A caller-provided buffer (or a fixed capacity) is too small.
    Capacity(CapacityError),
    /// `param = value` breaks `rule`.
    Invalid(InvalidParam),
}

impl fmt::Display for RoutingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RoutingError::TerminalOutOfRange {
                terminal,
                terminals,
            } => write!(
                f,
                "terminal {terminal} is out of range: terminals are 0..{terminals} (exclusive)"
            ),
            RoutingError::SwitchOutOfRange { switch, switches } => write!(
                f,
                "switch {switch} is out of range: switches are 0..{switches} (exclusive)"
            ),
            RoutingError::NoRoute { switch, terminal } => write!(
                f,
                "switch {switch} has no route to terminal {terminal} (table entry missing)"
            ),
            RoutingError::Unreachable { from, to } => write!(
                f,
                "switch {to} cannot be reached from switch {from} (graph is disconnected)"
            ),
            RoutingError::NotALink { switch, port } => write!(
                f,
                "switch {switch} routes to port {port}, which is not a network link"
            ),
            RoutingError::WrongEject {
                switch,
                port,
                terminal,
            } => write!(
                f,
                "switch {switch} ejects on port {port}, which is not the port of terminal {terminal}"
            ),
            RoutingError::VcOutOfRange {
                switch,
                port,
                vc,
                num_vcs,
            } => write!(
                f,
                "switch {switch} port {port} uses VC {vc}, but the routing has only {num_vcs} VCs"
            ),
            RoutingError::HopLimit { src, dst, limit } => write!(
                f,
                "packet from terminal {src} to terminal {dst} not delivered within {limit} hops (routing loop)"
            ),
            RoutingError::NonMinimal {
                src,
                dst,
                hops,
                distance,
            } => write!(
                f,
                "route from terminal {src} to terminal {dst} takes {hops} hops, shortest path is {distance}"
            ),
            RoutingError::TooManyLayers { needed, limit } => write!(
                f,
                "routing needs {needed} virtual layers, limit is {limit}"
            ),
            RoutingError::LayerSearchExhausted { searched, limit } => write!(
                f,
                "routing needs more than {searched} virtual layers, limit is {limit}"
            ),
            RoutingError::Capacity(e) => e.fmt(f),
            RoutingError::Invalid(e) => e.fmt(f),
        }
    }
}

crate::error::from_shared!(RoutingError, Capacity, Invalid);

impl core::error::Error for RoutingError {}
