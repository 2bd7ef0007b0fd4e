//! One switch's forwarding stage in a HIL run (`jumpnet hil --rtl-router SWITCH`): which routings can be replaced by a table at one switch, that switch's
//! compiled table (core's `switch_table`, `VcMode::InTable`), the deliberate wrong entry of
//! the testing aid, and [`AtSwitch`], the run's routing with one switch's head flits
//! forwarded by a [`ForwardingStage`] — the in-process routing in the reference run
//! ([`HeadCounter`]), the RTL table router in the HIL run — logging the hops chosen there.

use std::cell::RefCell;

use anyhow::{anyhow, bail, Context, Result};
use jumpnet_core::routing::tables::compile::{switch_table, VcMode};
use jumpnet_core::routing::{
    Candidate, CongestionScope, Hop, PacketState, RouteEntry, Routing, RoutingError, Run,
    RunTableBuilder,
};
use jumpnet_core::topology::{Network, Port, SwitchId, TerminalId, Topology};

use crate::builder::routing::RouteAlgo;

/// How one switch of a HIL run forwards its head flits.
pub trait ForwardingStage {
    /// The hop of a head flit to `dst` at switch `at`; `inner` is the run's routing (whose
    /// packet state the stage updates).
    fn hop(
        &self,
        inner: &dyn Routing,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError>;
}

impl<T: ForwardingStage + ?Sized> ForwardingStage for Box<T> {
    fn hop(
        &self,
        inner: &dyn Routing,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        (**self).hop(inner, at, state, dst)
    }
}

/// The run's routing itself as the forwarding stage (the reference run).
#[derive(Clone, Copy, Debug, Default)]
pub struct InProcess;

impl ForwardingStage for InProcess {
    fn hop(
        &self,
        inner: &dyn Routing,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        inner.next_hop(at, state, dst)
    }
}

/// The first head flit routed differently at `switch` by the run (`got`) than by the
/// reference (`want`), or a different number of heads; `None` if equal.
pub fn first_hop_difference(
    switch: SwitchId,
    want: &[(TerminalId, Hop)],
    got: &[(TerminalId, Hop)],
) -> Option<String> {
    if let Some(k) = want.iter().zip(got).position(|(w, g)| w != g) {
        return Some(format!(
            "head flit {k} at switch {switch}: the reference routed terminal {} {:?}, the RTL \
             routed terminal {} {:?}",
            want[k].0, want[k].1, got[k].0, got[k].1
        ));
    }
    (want.len() != got.len()).then(|| {
        format!(
            "the reference routed {} head flits at switch {switch}, the RTL {}",
            want.len(),
            got.len()
        )
    })
}

/// Whether `algo`'s next hop (port and VC) at a switch is a function of (switch,
/// destination) alone, so one compiled table per switch routes every packet as it does.
/// Dateline and input-VC rules (`dor-dateline`, `df-minimal`), Valiant/UGAL phases and PARX
/// LIDs depend on the packet's history; DFSSSP's VC is the path's layer (`VcMode::PerPath`).
pub fn table_routable(algo: RouteAlgo) -> bool {
    algo.destination_based() && algo != RouteAlgo::Dfsssp
}

/// `Ok` if `algo` can run with a table at one switch, else an error naming the allowed ones.
pub fn check_table_routable(algo: RouteAlgo) -> Result<()> {
    if table_routable(algo) {
        return Ok(());
    }
    let allowed: Vec<&str> = RouteAlgo::ALL
        .into_iter()
        .filter(|&a| table_routable(a))
        .map(RouteAlgo::name)
        .collect();
    bail!(
        "--rtl-router needs a routing whose next hop (port and VC) at a switch depends on the \
         switch and the destination alone, but --algo {} depends on the packet's path \
         (VC rule, phase or layer); allowed: {}",
        algo.name(),
        allowed.join(", ")
    )
}

/// The compiled forwarding entries of switch `s`, one per terminal (core's `switch_table`,
/// `VcMode::InTable`).
pub fn switch_entries(
    net: &Network<'_>,
    routing: &dyn Routing,
    s: SwitchId,
) -> Result<Vec<RouteEntry>> {
    let dests = net.num_terminals();
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE,
        };
        dests as usize
    ];
    let mut b = RunTableBuilder::new(&mut runs);
    switch_table(net, routing, s, VcMode::InTable, &mut b)
        .with_context(|| format!("compile the route table of switch {s}"))?;
    let table = b.finish();
    Ok((0..dests)
        .map(|d| table.lookup(d).unwrap_or(RouteEntry::NONE))
        .collect())
}

/// Run-length form of `entries` (one run per change).
pub fn entry_runs(entries: &[RouteEntry]) -> Result<Vec<Run<RouteEntry>>> {
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE,
        };
        entries.len()
    ];
    let mut b = RunTableBuilder::new(&mut runs);
    for e in entries {
        b.push(*e).map_err(|e| anyhow!("run table: {e}"))?;
    }
    let used = b.runs_used();
    runs.truncate(used);
    Ok(runs)
}

/// Testing aid: points the entry of `dst` at switch `s` to the next link port of `s` after
/// its own (cyclically); returns what was changed.
pub fn mutate_entry(
    net: &Network<'_>,
    s: SwitchId,
    entries: &mut [RouteEntry],
    dst: TerminalId,
) -> Result<String> {
    let e = entries
        .get_mut(dst as usize)
        .ok_or_else(|| anyhow!("no entry for terminal {dst}"))?;
    let radix = net.radix();
    let links: Vec<u16> = (0..radix)
        .filter(|&p| matches!(net.port(s, p), Port::Link(_)))
        .collect();
    let wrong = links
        .iter()
        .copied()
        .find(|&p| p > e.port)
        .or_else(|| links.first().copied())
        .filter(|&p| p != e.port)
        .ok_or_else(|| anyhow!("switch {s} has no other link port to misroute {dst} to"))?;
    let text = format!(
        "switch {s}'s table sends terminal {dst} to port {wrong} instead of port {}",
        e.port
    );
    e.port = wrong;
    Ok(text)
}

/// The run's routing with the head flits at switch `switch` forwarded by `stage`, logging
/// the hops chosen there in order.
pub struct AtSwitch<'a, S> {
    inner: &'a dyn Routing,
    switch: SwitchId,
    stage: S,
    hops: RefCell<Vec<(TerminalId, Hop)>>,
}

/// The in-process routing logging its decisions at one switch: the reference run's head
/// flits there (the first destination it forwards is the target of the testing aid's wrong
/// entry).
pub type HeadCounter<'a> = AtSwitch<'a, InProcess>;

impl<'a, S> AtSwitch<'a, S> {
    /// `inner` with switch `switch` forwarding through `stage`.
    pub fn new(inner: &'a dyn Routing, switch: SwitchId, stage: S) -> Self {
        AtSwitch {
            inner,
            switch,
            stage,
            hops: RefCell::new(Vec::new()),
        }
    }

    /// Head flits routed at the switch.
    pub fn heads(&self) -> u64 {
        self.hops.borrow().len() as u64
    }

    /// The hops chosen at the switch, in order.
    pub fn hops(&self) -> Vec<(TerminalId, Hop)> {
        self.hops.borrow().clone()
    }

    /// The first destination forwarded (not ejected) at the switch.
    pub fn first_forward(&self) -> Option<TerminalId> {
        self.hops
            .borrow()
            .iter()
            .find(|(_, h)| matches!(h, Hop::Forward { .. }))
            .map(|(d, _)| *d)
    }
}

impl<S> std::fmt::Debug for AtSwitch<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtSwitch")
            .field("switch", &self.switch)
            .field("heads", &self.heads())
            .finish_non_exhaustive()
    }
}

impl<S: ForwardingStage> Routing for AtSwitch<'_, S> {
    fn congestion_scope(&self) -> CongestionScope {
        self.inner.congestion_scope()
    }
    fn candidates(
        &self,
        at: SwitchId,
        state: &PacketState,
        dst: TerminalId,
        out: &mut [Candidate],
    ) -> Result<usize, RoutingError> {
        self.inner.candidates(at, state, dst, out)
    }
    fn commit_candidate(&self, state: &mut PacketState, chosen: &Candidate) {
        self.inner.commit_candidate(state, chosen)
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
        let hop = self.stage.hop(self.inner, at, state, dst)?;
        self.hops.borrow_mut().push((dst, hop));
        Ok(hop)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "switch_route_tests.rs"]
mod tests;
