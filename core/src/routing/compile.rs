//! Compiling any destination-based [`Routing`] into route tables (and per-path virtual
//! layers), the InfiniBand way: one forwarding table per switch (LFT), plus per
//! (source switch, destination) layers beside it (SL/VL per path).
//!
//! The port a switch chooses must depend only on the switch and the destination (and, for
//! layered routings, the output VC only on the path's layer); routings whose port depends on
//! the packet's history (Valiant phases, torus datelines) cannot be expressed as such tables.
//! The result should be checked with [`super::walk`] against the original routing.

use crate::topology::{Port, PortIndex, SwitchId, Topology};

use super::error::RoutingError;
use super::table::RouteEntry;
use super::table_set::TableSetBuilder;
use super::{terminal_location, Hop, PacketState, Routing};

/// Where the VC of a compiled route lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VcMode {
    /// The VC is part of the forwarding entry (a function of switch and destination).
    InTable,
    /// The VC is the path's virtual layer, stored per (source switch, destination) in layer
    /// tables; forwarding entries hold VC 0.
    PerPath,
}

/// Compiles the forwarding table of switch `s` for all destinations into `out`.
fn compile_switch<T: Topology, R: Routing + ?Sized>(
    topo: &T,
    routing: &R,
    s: SwitchId,
    mode: VcMode,
    out: &mut TableSetBuilder<'_, RouteEntry>,
) -> Result<(), RoutingError> {
    for d in 0..topo.num_terminals() {
        let mut st = PacketState::new(s);
        let entry = match routing.next_hop(s, &mut st, d) {
            Ok(Hop::Forward { port, vc }) => RouteEntry {
                port,
                vc: if mode == VcMode::InTable { vc } else { 0 },
            },
            Ok(Hop::Eject { port }) => RouteEntry { port, vc: 0 },
            Err(RoutingError::Unreachable { .. }) | Err(RoutingError::NoRoute { .. }) => {
                RouteEntry::NONE
            }
            Err(e) => return Err(e),
        };
        out.push(entry)?;
    }
    Ok(())
}

/// First terminal attached to switch `s`, if any.
fn first_terminal<T: Topology>(topo: &T, s: SwitchId) -> Option<u32> {
    (0..topo.radix()).find_map(|p: PortIndex| match topo.port(s, p) {
        Port::Terminal(t) => Some(t),
        _ => None,
    })
}

/// Compiles `routing` into forwarding tables of every switch (`routes`) and, in
/// [`VcMode::PerPath`], into per-(source switch, destination) layer tables (`layers`,
/// required in that mode): the layer of a path is the one [`Routing::inject`] assigns to a
/// packet from the first terminal of the source switch (switches without terminals get
/// layer 0). Missing routes become [`RouteEntry::NONE`].
pub fn compile_tables<T: Topology, R: Routing + ?Sized>(
    topo: &T,
    routing: &R,
    mode: VcMode,
    routes: &mut TableSetBuilder<'_, RouteEntry>,
    mut layers: Option<&mut TableSetBuilder<'_, u8>>,
) -> Result<(), RoutingError> {
    if mode == VcMode::PerPath && layers.is_none() {
        return Err(RoutingError::Invalid {
            param: "layers",
            value: 0,
            rule: "per-path VC mode needs layer tables",
        });
    }
    for s in 0..topo.num_switches() {
        compile_switch(topo, routing, s, mode, routes)?;
        if let Some(lb) = layers.as_deref_mut() {
            let src = first_terminal(topo, s);
            for d in 0..topo.num_terminals() {
                terminal_location(topo, d)?;
                let layer = match src {
                    Some(src) if src != d => routing.inject(src, d)?.layer,
                    _ => 0,
                };
                lb.push(layer)?;
            }
        }
    }
    Ok(())
}
