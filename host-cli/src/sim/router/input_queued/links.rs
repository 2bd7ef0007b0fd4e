//! The two ends of every port's channels, as switch traversal uses them: where a flit sent
//! on an output port arrives (the downstream input VCs or terminal) after which latency, and
//! where the credit of a flit received on an input port goes back (the upstream output
//! VCs) after which latency — one record per port, read once per flit instead of the
//! fabric's port kind and latency arrays and the downstream index arithmetic.

use crate::sim::network::{Fabric, PortKind};

/// What port `s·radix + p` connects to ([`PortLink::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LinkKind {
    /// No cable.
    Unconnected,
    /// A terminal's injection and ejection channels ([`PortLink::peer`] is the terminal).
    Terminal,
    /// A link to another switch ([`PortLink::peer`] is the first VC of its port).
    Link,
}

/// One port's channel ends (12 bytes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PortLink {
    /// With [`LinkKind::Link`]: the global index `(peer·radix + peer_port)·vcs` of VC 0 of
    /// the peer's port — the input VCs a flit sent here enters, and the output VCs the
    /// credits of flits received here return to. With [`LinkKind::Terminal`]: the terminal.
    pub peer: u32,
    /// Latency (cycles) of the channel leaving this port (a flit's arrival after it
    /// departs).
    pub out_latency: u16,
    /// Latency of the channel entering this port, which a credit travels back along: with
    /// [`LinkKind::Link`] the peer port's channel, with [`LinkKind::Terminal`] the
    /// terminal's injection channel (as long as its ejection channel).
    pub in_latency: u16,
    /// What the port connects to.
    pub kind: LinkKind,
}

/// The channel ends of every port of `fabric` with `vcs` VCs per channel.
pub(crate) fn port_links(fabric: &Fabric, vcs: usize) -> Vec<PortLink> {
    let radix = fabric.radix;
    fabric
        .ports
        .iter()
        .zip(&fabric.latency)
        .map(|(&kind, &out_latency)| match kind {
            PortKind::Unconnected => PortLink {
                peer: 0,
                out_latency,
                in_latency: 0,
                kind: LinkKind::Unconnected,
            },
            PortKind::Terminal(term) => PortLink {
                peer: term,
                out_latency,
                in_latency: out_latency,
                kind: LinkKind::Terminal,
            },
            PortKind::Link { peer, peer_port } => {
                let up = peer as usize * radix + usize::from(peer_port);
                PortLink {
                    peer: (up * vcs) as u32,
                    out_latency,
                    in_latency: fabric.latency.get(up).copied().unwrap_or(out_latency),
                    kind: LinkKind::Link,
                }
            }
        })
        .collect()
}
