//! Routing driven by route tables (user-supplied or compiled): the forwarding table of the
//! current switch gives the port, the VC comes from the entry or — when per-path layer
//! tables are present — from the layer of the path fixed at injection (InfiniBand SL/VL).

use crate::error::InvalidParam;
use crate::topology::{Port, SwitchId, TerminalId, Topology};

use crate::routing::endpoint::inject_state;
use crate::routing::error::RoutingError;
use crate::routing::tables::run_table::RouteEntry;
use crate::routing::tables::table_set::TableSet;
use crate::routing::{terminal_location, Hop, PacketState, Routing};

/// A [`Routing`] that looks every hop up in tables.
#[derive(Clone, Copy, Debug)]
pub struct TableRouting<'a, T> {
    topo: &'a T,
    routes: TableSet<'a, RouteEntry>,
    layers: Option<TableSet<'a, u8>>,
    num_vcs: u8,
}

impl<'a, T: Topology> TableRouting<'a, T> {
    /// Routing from forwarding tables `routes` (one per switch, one entry per terminal) and
    /// optional per-(source switch, destination) `layers`; `num_vcs` is the number of VCs the
    /// tables may use.
    pub fn new(
        topo: &'a T,
        routes: TableSet<'a, RouteEntry>,
        layers: Option<TableSet<'a, u8>>,
        num_vcs: u8,
    ) -> Result<Self, RoutingError> {
        let check = |switches: u32, dests: u32, what: &'static str| {
            if switches != topo.num_switches() || dests != topo.num_terminals() {
                Err(RoutingError::Invalid(InvalidParam {
                    param: what,
                    value: switches as u64,
                    rule: "tables need one table per switch and one entry per terminal",
                }))
            } else {
                Ok(())
            }
        };
        check(routes.switches(), routes.destinations(), "route tables")?;
        if let Some(l) = &layers {
            check(l.switches(), l.destinations(), "layer tables")?;
        }
        if num_vcs == 0 {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "num_vcs",
                value: 0,
                rule: "a routing needs at least 1 virtual channel",
            }));
        }
        Ok(TableRouting {
            topo,
            routes,
            layers,
            num_vcs,
        })
    }

    /// The forwarding tables.
    pub fn routes(&self) -> TableSet<'a, RouteEntry> {
        self.routes
    }

    /// The per-path layer tables, if any.
    pub fn layers(&self) -> Option<TableSet<'a, u8>> {
        self.layers
    }
}

impl<T: Topology> Routing for TableRouting<'_, T> {
    fn num_vcs(&self) -> u8 {
        self.num_vcs
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        match &self.layers {
            Some(l) => inject_on_layer(self.topo, src, dst, |s| {
                l.lookup(s, dst).ok_or(RoutingError::NoRoute {
                    switch: s,
                    terminal: dst,
                })
            }),
            None => inject_state(self.topo, src, dst),
        }
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let layered = self.layers.is_some();
        hop_from_entry(
            self.topo,
            at,
            dst,
            self.routes.lookup(at, dst),
            state,
            |e, st| {
                if layered {
                    st.layer
                } else {
                    e.vc
                }
            },
        )
    }
}

/// Initial state of a packet from terminal `src` to terminal `dst` on the virtual layer
/// `layer_of(source switch)` gives (the packet's VC on every hop), after checking both ids.
pub(crate) fn inject_on_layer<T: Topology>(
    topo: &T,
    src: TerminalId,
    dst: TerminalId,
    layer_of: impl FnOnce(SwitchId) -> Result<u8, RoutingError>,
) -> Result<PacketState, RoutingError> {
    let (s, _) = terminal_location(topo, src)?;
    terminal_location(topo, dst)?;
    let layer = layer_of(s)?;
    let mut st = PacketState::new(s);
    st.layer = layer;
    st.vc = layer;
    Ok(st)
}

/// The hop that forwarding-table `entry` of switch `at` gives toward terminal `dst`: eject
/// on a terminal port, forward on a network port with VC `vc(entry, state)` (recorded in
/// `state`). A switch out of range, a missing or empty entry, and an entry naming an
/// unconnected port are errors.
pub(crate) fn hop_from_entry<T: Topology>(
    topo: &T,
    at: SwitchId,
    dst: TerminalId,
    entry: Option<RouteEntry>,
    state: &mut PacketState,
    vc: impl FnOnce(RouteEntry, &PacketState) -> u8,
) -> Result<Hop, RoutingError> {
    let n = topo.num_switches();
    if at >= n {
        return Err(RoutingError::SwitchOutOfRange {
            switch: at,
            switches: n,
        });
    }
    let entry = match entry {
        Some(e) if e.is_route() => e,
        _ => {
            return Err(RoutingError::NoRoute {
                switch: at,
                terminal: dst,
            })
        }
    };
    match topo.port(at, entry.port) {
        Port::Terminal(_) => Ok(Hop::Eject { port: entry.port }),
        Port::Link(_) => {
            let vc = vc(entry, state);
            state.vc = vc;
            Ok(Hop::Forward {
                port: entry.port,
                vc,
            })
        }
        Port::Unconnected => Err(RoutingError::NotALink {
            switch: at,
            port: entry.port,
        }),
    }
}
