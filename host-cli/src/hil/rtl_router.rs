//! The table router RTL (`hdl-harness/rtl/table_router.v` under Verilator,
//! `jumpnet_hdl::TableRouterRtl`) as the forwarding stage of one switch (`jumpnet hil
//! --rtl-router SWITCH`, cargo feature `rtl`): every head flit routed at that switch is
//! presented on input 0 of the RTL loaded with the switch's compiled table; the lookup gives
//! the port and VC, the next cycle's grant (or drop) moves the head; every other switch
//! routes with the run's routing.

use std::cell::RefCell;

use anyhow::{anyhow, Result};
use jumpnet_core::routing::{Hop, PacketState, RouteEntry, Routing, RoutingError, Run, RunTable};
use jumpnet_core::topology::{Network, Port, SwitchId, TerminalId, Topology};
use jumpnet_hdl::TableRouterRtl;

use super::switch_route::ForwardingStage;

/// Switch `switch`'s forwarding stage on the RTL (the HIL run's [`ForwardingStage`] at
/// that switch, `super::switch_route::AtSwitch`).
pub struct RtlStage<'a> {
    net: &'a Network<'a>,
    switch: SwitchId,
    rtl: RefCell<TableRouterRtl>,
}

impl<'a> RtlStage<'a> {
    /// Loads `runs` (switch `switch`'s table, one run per change) into a fresh RTL router.
    pub fn new(net: &'a Network<'a>, switch: SwitchId, runs: &[Run<RouteEntry>]) -> Result<Self> {
        let table = RunTable::new(runs, net.num_terminals())
            .map_err(|e| anyhow!("route table of switch {switch}: {e}"))?;
        let mut rtl = TableRouterRtl::new();
        rtl.load_table(&table)
            .map_err(|e| anyhow!("load the route table of switch {switch} into the RTL: {e}"))?;
        Ok(RtlStage {
            net,
            switch,
            rtl: RefCell::new(rtl),
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

impl std::fmt::Debug for RtlStage<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RtlStage")
            .field("switch", &self.switch)
            .finish_non_exhaustive()
    }
}

impl ForwardingStage for RtlStage<'_> {
    fn hop(
        &self,
        _inner: &dyn Routing,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let entry = self.rtl_entry(dst)?;
        Ok(match self.net.port(at, entry.port) {
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
        })
    }
}
