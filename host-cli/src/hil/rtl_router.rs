//! The table router RTL (`hdl-harness/rtl/table_router.v` under Verilator,
//! `jumpnet_hdl::TableRouterRtl`) as the forwarding stage of one switch (`jumpnet hil
//! --rtl-router SWITCH`, cargo feature `rtl`): every head flit routed at that switch is
//! presented on input 0 of the RTL loaded with the switch's compiled table; the lookup gives
//! the port and VC, the next cycle's grant (or drop) moves the head; every other switch
//! routes with the run's routing.

use std::cell::{Cell, RefCell};

use anyhow::{anyhow, Result};
use jumpnet_core::routing::{Hop, PacketState, RouteEntry, Routing, RoutingError, Run, RunTable};
use jumpnet_core::topology::{Network, Port, SwitchId, TerminalId, Topology};
use jumpnet_hdl::TableRouterRtl;

use super::switch_route::SwitchRouting;

/// The run's routing with switch `switch`'s forwarding stage on the RTL.
pub struct RtlSwitchRouting<'a> {
    net: &'a Network<'a>,
    inner: &'a dyn Routing,
    switch: SwitchId,
    rtl: RefCell<TableRouterRtl>,
    lookups: Cell<u64>,
    hops: RefCell<Vec<(TerminalId, Hop)>>,
}

impl<'a> RtlSwitchRouting<'a> {
    /// Loads `runs` (switch `switch`'s table, one run per change) into a fresh RTL router.
    pub fn new(
        net: &'a Network<'a>,
        inner: &'a dyn Routing,
        switch: SwitchId,
        runs: &[Run<RouteEntry>],
    ) -> Result<Self> {
        let table = RunTable::new(runs, net.num_terminals())
            .map_err(|e| anyhow!("route table of switch {switch}: {e}"))?;
        let mut rtl = TableRouterRtl::new();
        rtl.load_table(&table)
            .map_err(|e| anyhow!("load the route table of switch {switch} into the RTL: {e}"))?;
        Ok(RtlSwitchRouting {
            net,
            inner,
            switch,
            rtl: RefCell::new(rtl),
            lookups: Cell::new(0),
            hops: RefCell::new(Vec::new()),
        })
    }

    /// One head flit through the RTL: the lookup cycle, then the cycle that moves it.
    fn rtl_entry(&self, dst: TerminalId) -> Result<RouteEntry, RoutingError> {
        let s = self.switch;
        let no_route = RoutingError::NoRoute {
            switch: s,
            terminal: dst,
        };
        if dst >= 1 << TableRouterRtl::DST_BITS {
            return Err(no_route);
        }
        let mut rtl = self.rtl.borrow_mut();
        let heads = [dst, 0, 0, 0];
        let lookup = rtl.step(1, heads, 0xFFFF).lookup;
        let entry = match lookup {
            Some(lk) if lk.input == 0 && lk.dst == dst => lk.entry,
            _ => return Err(no_route),
        };
        self.lookups.set(self.lookups.get() + 1);
        let moved = rtl.step(1, heads, 0xFFFF);
        let granted = moved
            .requests
            .get(usize::from(entry.port))
            .copied()
            .flatten()
            == Some((0, entry.vc));
        if moved.in_ready & 1 == 0 || moved.drop & 1 == 1 || !granted {
            return Err(no_route);
        }
        Ok(entry)
    }
}

impl std::fmt::Debug for RtlSwitchRouting<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RtlSwitchRouting")
            .field("switch", &self.switch)
            .field("lookups", &self.lookups.get())
            .finish_non_exhaustive()
    }
}

impl Routing for RtlSwitchRouting<'_> {
    fn ugal(&self) -> Option<&jumpnet_core::routing::dragonfly::ugal::DragonflyUgal<'_>> {
        self.inner.ugal()
    }
    fn num_vcs(&self) -> u8 {
        self.inner.num_vcs()
    }
    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        self.inner.inject(src, dst)
    }
    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        if at != self.switch {
            return self.inner.next_hop(at, state, dst);
        }
        let entry = self.rtl_entry(dst)?;
        let hop = match self.net.port(at, entry.port) {
            Port::Terminal(_) => Hop::Eject { port: entry.port },
            Port::Link(_) => {
                state.vc = entry.vc;
                Hop::Forward {
                    port: entry.port,
                    vc: entry.vc,
                }
            }
            Port::Unconnected => {
                return Err(RoutingError::NotALink {
                    switch: at,
                    port: entry.port,
                })
            }
        };
        self.hops.borrow_mut().push((dst, hop));
        Ok(hop)
    }
}

impl SwitchRouting for RtlSwitchRouting<'_> {
    fn lookups(&self) -> u64 {
        self.lookups.get()
    }
    fn hops(&self) -> Vec<(TerminalId, Hop)> {
        self.hops.borrow().clone()
    }
}
