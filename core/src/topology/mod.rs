//! Network topologies (docs/topologies.md).
//!
//! A network is a set of switches `0..R` with ordered ports, plus terminals (compute nodes)
//! attached to switch ports (docs/topologies.md §0). Every port is a terminal port, a network
//! port with a peer `(switch, port)` whose peer is this port again, or unconnected. Each network
//! port carries a [`LinkClass`] so statistics can be split by class.
//!
//! Structured families answer [`Topology::port`] arithmetically; random-shortcut and arbitrary
//! graphs live in caller-provided storage ([`stored::StoredGraph`]). [`Network`] wraps every
//! family behind one enum so callers can hold "some topology" without allocation.
//!
//! # Examples
//!
//! Build a 4 × 4 torus with one terminal per switch and walk its ports (docs/topologies.md
//! §4): the network ports of dimension `i` are `2i` (`+`) and `2i + 1` (`−`), terminals come
//! after them.
//!
//! ```
//! use jumpnet_core::topology::{LinkClass, Port, Topology, Torus};
//!
//! let torus = Torus::torus(&[4, 4], 1)?;
//! assert_eq!((torus.num_switches(), torus.num_terminals()), (16, 16));
//! assert_eq!(torus.degree(0), 4);
//!
//! // Switch 0 = (0, 0): its `+` neighbour in dimension 0 is (1, 0) = switch 1, and the link
//! // arrives on that switch's `−` port of the same dimension.
//! let Port::Link(link) = torus.port(0, 0) else { unreachable!() };
//! assert_eq!((link.peer, link.peer_port, link.class), (1, 1, LinkClass::Dim(0)));
//! // The wrap-around: (0, 0) − 1 in dimension 0 is (3, 0).
//! assert_eq!(torus.port(0, 1).link().map(|l| l.peer), Some(3));
//!
//! // Terminal 5 hangs off switch 5, on the first port after the network ports.
//! assert_eq!(torus.terminal_port(5), Some((5, 4)));
//! assert_eq!(torus.port(5, 4), Port::Terminal(5));
//! // Out of range is an answer, not a panic.
//! assert_eq!(torus.terminal_port(16), None);
//! assert_eq!(torus.port(99, 0), Port::Unconnected);
//! # Ok::<(), jumpnet_core::topology::TopologyError>(())
//! ```

pub mod attached;
pub mod circulant;
pub mod dragonfly;
pub mod error;
pub mod fat_tree;
pub mod field;
pub mod galaxy;
pub mod hypercube;
pub mod hyperx;
pub mod limits;
pub mod random_shortcut;
pub mod shape;
pub mod slim_fly;
pub mod spec;
pub mod stored;
pub mod torus;

#[cfg(test)]
pub(crate) mod testutil;

pub use circulant::Circulant;
pub use dragonfly::{Dragonfly, GlobalArrangement};
pub use error::TopologyError;
pub use fat_tree::FatTree;
pub use galaxy::Galaxyfly;
pub use hypercube::Hypercube;
pub use hyperx::HyperX;
pub use slim_fly::SlimFly;
pub use spec::NetworkSpec;
pub use stored::{Slot, StoredGraph};
pub use torus::Torus;

use serde::{Deserialize, Serialize};

/// Switch (router) index, `0..num_switches()`.
pub type SwitchId = u32;
/// Terminal (compute node) index, `0..num_terminals()`.
pub type TerminalId = u32;
/// Port index of a switch, `0..radix()`.
pub type PortIndex = u16;

/// What kind of link a port belongs to, so loads and hop counts can be split by class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum LinkClass {
    /// Terminal ↔ switch link.
    Terminal,
    /// Intra-group link (Dragonfly/Galaxyfly group or supernode, Slim Fly subgraph, ring
    /// links of a random-shortcut graph, links of an arbitrary graph).
    Local,
    /// Inter-group link (Dragonfly global, Galaxy inter-supernode, Slim Fly cross links).
    Global,
    /// Link of dimension / jump index `i` (torus, mesh, hypercube, HyperX, circulant jump `c_{i+1}`).
    Dim(u8),
    /// Fat-tree link seen from its lower end (toward the roots).
    Up,
    /// Fat-tree link seen from its upper end (toward the leaves).
    Down,
    /// Random shortcut link added on top of the base ring.
    Shortcut,
}

/// A network link as seen from one of its ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Link {
    /// Switch at the other end.
    pub peer: SwitchId,
    /// Port of `peer` that leads back here.
    pub peer_port: PortIndex,
    /// Class of this link (as seen from this end).
    pub class: LinkClass,
}

/// What a switch port is connected to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Port {
    /// Port to terminal `t`.
    Terminal(TerminalId),
    /// Network port.
    Link(Link),
    /// No cable (mesh boundary, fat-tree root up-ports, short random-graph nodes, or an index
    /// outside the switch's port range).
    Unconnected,
}

impl Port {
    /// The link, if this is a network port.
    #[inline]
    pub fn link(self) -> Option<Link> {
        match self {
            Port::Link(l) => Some(l),
            _ => None,
        }
    }
}

/// Which of a port's two channels carry flits ([`Topology::port_use`]; docs/topologies.md
/// §11): a port is an input of its switch (the channel into it), an output (the channel
/// leaving it), both, or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PortUse {
    /// Input and output: every port of a network whose links run both ways, connected or
    /// not.
    Both,
    /// Input only: a butterfly's link from the stage before, a first-stage terminal's
    /// injection port.
    In,
    /// Output only: a butterfly's link to the stage after, a last-stage terminal's ejection
    /// port.
    Out,
    /// Neither: a butterfly's unconnected port.
    Unused,
}

impl PortUse {
    /// Whether the port is an input of its switch.
    #[inline]
    pub fn is_input(self) -> bool {
        matches!(self, PortUse::Both | PortUse::In)
    }

    /// Whether the port is an output of its switch.
    #[inline]
    pub fn is_output(self) -> bool {
        matches!(self, PortUse::Both | PortUse::Out)
    }
}

/// Symmetry a topology guarantees, which lets metrics take shortcuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Symmetry {
    /// No guarantee: all-pairs metrics need a BFS per source.
    None,
    /// The switch graph is vertex-transitive: one BFS (from switch 0) gives every
    /// eccentricity and the full distance histogram.
    VertexTransitive,
}

/// The family a network belongs to (for reports and image headers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Family {
    /// Ring (docs/topologies.md §1).
    Ring,
    /// Circulant `C(n; c1..ck)` (§2).
    Circulant,
    /// `G(n, log2 n)` (§2).
    CirculantG,
    /// Ring-based random shortcut (§3).
    RandomShortcut,
    /// k-ary n-cube torus (§4).
    Torus,
    /// Mesh (§4).
    Mesh,
    /// Hypercube (§5).
    Hypercube,
    /// k-ary n-tree fat tree (§6).
    FatTree,
    /// Dragonfly (§7).
    Dragonfly,
    /// HyperX (§8).
    HyperX,
    /// Slim Fly MMS graph (§9).
    SlimFly,
    /// Galaxy graph (supernode level, §10).
    Galaxy,
    /// Galaxyfly (router level, §10).
    Galaxyfly,
    /// Loaded from an edge list.
    Arbitrary,
}

impl Family {
    /// Lower-case name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::Ring => "ring",
            Family::Circulant => "circulant",
            Family::CirculantG => "gcirculant",
            Family::RandomShortcut => "random-shortcut",
            Family::Torus => "torus",
            Family::Mesh => "mesh",
            Family::Hypercube => "hypercube",
            Family::FatTree => "fat-tree",
            Family::Dragonfly => "dragonfly",
            Family::HyperX => "hyperx",
            Family::SlimFly => "slim-fly",
            Family::Galaxy => "galaxy",
            Family::Galaxyfly => "galaxyfly",
            Family::Arbitrary => "arbitrary",
        }
    }
}

/// A network of switches with ordered ports and attached terminals (docs/topologies.md §0).
///
/// Implementations must be total: any `(switch, port)` outside the valid range answers
/// [`Port::Unconnected`], any terminal outside the range answers `None`; nothing panics.
pub trait Topology {
    /// Family of this network.
    fn family(&self) -> Family;
    /// Number of switches `R`.
    fn num_switches(&self) -> u32;
    /// Number of terminals.
    fn num_terminals(&self) -> u32;
    /// Number of port indices of every switch (`0..radix()`); some may be unconnected.
    fn radix(&self) -> PortIndex;
    /// What port `port` of switch `switch` is connected to.
    fn port(&self, switch: SwitchId, port: PortIndex) -> Port;
    /// The switch and port terminal `t` is attached to.
    fn terminal_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)>;
    /// Symmetry guarantee of the switch graph.
    fn symmetry(&self) -> Symmetry {
        Symmetry::None
    }

    /// The latency (cycles) of the channel leaving port `port` of `switch` when the network
    /// gives it per channel (a stored graph with
    /// [`attached::Attachments`], docs/topologies.md §11); `None`: the latency of the
    /// link's class.
    fn port_latency(&self, _switch: SwitchId, _port: PortIndex) -> Option<u16> {
        None
    }

    /// The switch terminal `t` is attached to.
    fn terminal_switch(&self, t: TerminalId) -> Option<SwitchId> {
        self.terminal_port(t).map(|(s, _)| s)
    }

    /// The switch and port where terminal `t` injects: its [`Topology::terminal_port`]
    /// (where it ejects) unless the network gives it an injection port of its own (a
    /// butterfly's first stage, [`attached::Attachments::injection_port`];
    /// docs/topologies.md §11).
    fn injection_port(&self, t: TerminalId) -> Option<(SwitchId, PortIndex)> {
        self.terminal_port(t)
    }

    /// Which of the channels of port `port` of `switch` carry flits: [`PortUse::Both`]
    /// unless the network's links run one way (a butterfly, [`attached::Attachments::one_way`];
    /// docs/topologies.md §11).
    fn port_use(&self, _switch: SwitchId, _port: PortIndex) -> PortUse {
        PortUse::Both
    }

    /// The switch of [`Topology::injection_port`]: where terminal `t`'s packets start.
    fn injection_switch(&self, t: TerminalId) -> Option<SwitchId> {
        self.injection_port(t).map(|(s, _)| s)
    }

    /// Number of connected network ports of `switch` (its degree in the switch graph,
    /// parallel links counted).
    fn degree(&self, switch: SwitchId) -> u32 {
        let mut d = 0;
        for p in 0..self.radix() {
            if let Port::Link(_) = self.port(switch, p) {
                d += 1;
            }
        }
        d
    }

    /// Calls `f(port, link)` for every connected network port of `switch`, in port order.
    fn for_each_link<F: FnMut(PortIndex, Link)>(&self, switch: SwitchId, mut f: F)
    where
        Self: Sized,
    {
        for p in 0..self.radix() {
            if let Port::Link(l) = self.port(switch, p) {
                f(p, l);
            }
        }
    }
}

/// Any jumpnet topology, as one enum (no allocation; stored graphs borrow caller storage).
#[derive(Clone, Debug)]
pub enum Network<'a> {
    /// Ring, circulant or `G(n, log2 n)`.
    Circulant(Circulant),
    /// Torus or mesh.
    Torus(Torus),
    /// Hypercube.
    Hypercube(Hypercube),
    /// k-ary n-tree.
    FatTree(FatTree),
    /// Dragonfly.
    Dragonfly(Dragonfly),
    /// HyperX.
    HyperX(HyperX),
    /// Slim Fly.
    SlimFly(SlimFly),
    /// Galaxy graph or Galaxyfly.
    Galaxyfly(Galaxyfly),
    /// Random shortcut or arbitrary graph in caller storage.
    Stored(StoredGraph<'a>),
}

macro_rules! dispatch {
    ($self:ident, $t:ident => $e:expr) => {
        match $self {
            Network::Circulant($t) => $e,
            Network::Torus($t) => $e,
            Network::Hypercube($t) => $e,
            Network::FatTree($t) => $e,
            Network::Dragonfly($t) => $e,
            Network::HyperX($t) => $e,
            Network::SlimFly($t) => $e,
            Network::Galaxyfly($t) => $e,
            Network::Stored($t) => $e,
        }
    };
}

impl Topology for Network<'_> {
    fn family(&self) -> Family {
        dispatch!(self, t => t.family())
    }
    fn num_switches(&self) -> u32 {
        dispatch!(self, t => t.num_switches())
    }
    fn num_terminals(&self) -> u32 {
        dispatch!(self, t => t.num_terminals())
    }
    fn radix(&self) -> PortIndex {
        dispatch!(self, t => t.radix())
    }
    #[inline]
    fn port(&self, switch: SwitchId, port: PortIndex) -> Port {
        dispatch!(self, t => t.port(switch, port))
    }
    fn terminal_port(&self, term: TerminalId) -> Option<(SwitchId, PortIndex)> {
        dispatch!(self, t => t.terminal_port(term))
    }
    fn injection_port(&self, term: TerminalId) -> Option<(SwitchId, PortIndex)> {
        dispatch!(self, t => t.injection_port(term))
    }
    fn symmetry(&self) -> Symmetry {
        dispatch!(self, t => t.symmetry())
    }
    #[inline]
    fn port_latency(&self, switch: SwitchId, port: PortIndex) -> Option<u16> {
        dispatch!(self, t => t.port_latency(switch, port))
    }
    fn port_use(&self, switch: SwitchId, port: PortIndex) -> PortUse {
        dispatch!(self, t => t.port_use(switch, port))
    }
}
