//! Minimal Dragonfly routing (docs/routing.md §4; Kim et al. ISCA 2008; \[DF-BC\] §II-A-2;
//! BookSim `min_dragonflynew` / `dragonfly_port`).
//!
//! A packet at router `(G, r)` heading to a terminal of router `(G_d, r_d)`:
//!
//! * same router → eject; same group → one local hop to `r_d`;
//! * otherwise the router `(G, r_o)` owning the global link toward `G_d` is found with the
//!   topology's O(1) connectivity oracle ([`Dragonfly::global_link`], arrangement-aware; the
//!   lowest link index when several links join the pair): local hop to `r_o` if `r_o ≠ r`,
//!   global hop to `(G_d, r_i)`, local hop to `r_d` if `r_i ≠ r_d`.
//!
//! Router hops 1–3 (2 terminal links not counted, docs/routing.md §8). "Minimal" is meant as
//! in the Dragonfly literature: the shortest path with at most one global hop. The switch
//! graph can be shorter still through a third group (two global hops, e.g. when both routers
//! own links to the same group), which BFS routing (docs/routing.md §1) would take and
//! `walk::check_all` with distances reports as non-minimal. With surplus links
//! (`g < a·h + 1`, e.g. the \[DISS\] 64 × 16 × 4 network) the oracle names the lowest-index
//! link of a group pair even where a second link would save a local hop (results on those
//! networks are arrangement-dependent).
//!
//! Virtual channels ([`MinimalVcs`]): BookSim's "optical dateline" uses VC0 until the global
//! hop and VC1 from the global channel on, which makes the channel dependency graph acyclic
//! (local VC0 → global VC1 → local VC1). With a single VC the dependencies
//! local → global → local close cycles through three groups whose links land on different
//! routers, so single-VC minimal routing deadlocks on every Dragonfly with `a ≥ 2` and
//! `g ≥ 3` (routing::tests checks one); with `a = 1` there are no local links and the CDG is
//! empty.
//!
//! The output port depends only on (router, destination terminal), so every router has a
//! forwarding table ([`DragonflyMinimal::switch_table`], [`DragonflyMinimal::tables`]); the
//! VC is not part of it: it follows the rule [`MinimalVcs::out_vc`] (input VC, raised to 1
//! on a global port), which a router applies per packet.

use crate::error::InvalidParam;
use crate::topology::{Dragonfly, PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::endpoint::inject_state;
use crate::routing::error::RoutingError;
use crate::routing::tables::run_table::{RouteEntry, RunTableBuilder};
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::{terminal_location, Hop, PacketState, Routing, Vc};

/// One router hop of a minimal Dragonfly route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DragonflyStep {
    /// Output network port.
    pub port: PortIndex,
    /// Whether the port is a global (inter-group) port.
    pub global: bool,
}

/// Next hop of a minimal route from router `at` toward any router of group `group`
/// (docs/routing.md §4): the global port when `at` owns the link to `group`, else the local
/// port to the owner. `None` when `at` already is in `group`. O(1).
pub fn step_toward_group(
    df: &Dragonfly,
    at: SwitchId,
    group: u32,
) -> Result<Option<DragonflyStep>, RoutingError> {
    let (g_at, r_at) = locate(df, at)?;
    if g_at == group {
        return Ok(None);
    }
    let (owner, port, _, _) =
        df.global_link(g_at, group)
            .ok_or(RoutingError::Invalid(InvalidParam {
                param: "group",
                value: group as u64,
                rule: "the target group must be a group of the Dragonfly (0..g)",
            }))?;
    if owner == at {
        return Ok(Some(DragonflyStep { port, global: true }));
    }
    let r_owner = owner % df.a();
    let port = df
        .local_port(r_at, r_owner)
        .ok_or(RoutingError::Unreachable {
            from: at,
            to: owner,
        })?;
    Ok(Some(DragonflyStep {
        port,
        global: false,
    }))
}

/// Next hop of a minimal route from router `at` to router `t` (docs/routing.md §4); `None`
/// when `at == t`. O(1).
pub fn step_toward_router(
    df: &Dragonfly,
    at: SwitchId,
    t: SwitchId,
) -> Result<Option<DragonflyStep>, RoutingError> {
    let (g_at, r_at) = locate(df, at)?;
    let (g_t, r_t) = locate(df, t)?;
    if g_at != g_t {
        return step_toward_group(df, at, g_t);
    }
    if r_at == r_t {
        return Ok(None);
    }
    let port = df
        .local_port(r_at, r_t)
        .ok_or(RoutingError::Unreachable { from: at, to: t })?;
    Ok(Some(DragonflyStep {
        port,
        global: false,
    }))
}

/// Group and offset of router `s`, or [`RoutingError::SwitchOutOfRange`].
pub(crate) fn locate(df: &Dragonfly, s: SwitchId) -> Result<(u32, u32), RoutingError> {
    match (df.group_of(s), df.offset_in_group(s)) {
        (Some(g), Some(r)) => Ok((g, r)),
        _ => Err(RoutingError::SwitchOutOfRange {
            switch: s,
            switches: df.num_switches(),
        }),
    }
}

/// Virtual-channel policy of minimal Dragonfly routing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MinimalVcs {
    /// Every hop on VC 0 (deadlocks in general, see the module docs).
    Single,
    /// BookSim `min_dragonflynew`: VC 0 until the global hop, VC 1 from the global channel
    /// on (deadlock-free).
    #[default]
    Dateline,
}

impl MinimalVcs {
    /// Number of VCs the policy uses.
    pub fn count(self) -> u8 {
        match self {
            MinimalVcs::Single => 1,
            MinimalVcs::Dateline => 2,
        }
    }

    /// VC of the next channel of a packet that arrived on `in_vc` (0 for a packet coming
    /// from its terminal), when the next channel is global (`global`) or local.
    pub fn out_vc(self, in_vc: Vc, global: bool) -> Vc {
        match self {
            MinimalVcs::Single => 0,
            MinimalVcs::Dateline => in_vc.max(global as Vc).min(1),
        }
    }
}

/// Minimal Dragonfly routing (docs/routing.md §4) over a borrowed [`Dragonfly`]; keeps
/// `PacketState::phase` = 1 once the packet has taken its global hop.
#[derive(Clone, Copy, Debug)]
pub struct DragonflyMinimal<'a> {
    topo: &'a Dragonfly,
    vcs: MinimalVcs,
}

impl<'a> DragonflyMinimal<'a> {
    /// Minimal routing on `topo` with the VC policy `vcs`.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
    /// use jumpnet_core::routing::paths::walk::walk;
    /// use jumpnet_core::topology::{Dragonfly, GlobalArrangement, LinkClass};
    ///
    /// let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive)?;
    /// let min = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    /// // Terminal 0 sits on router (0, 0), terminal 29 on router 14 = (3, 2). Router (0, 1)
    /// // owns group 0's link to group 3: local, global, local hops; VC 0 before the global hop,
    /// // VC 1 from it on.
    /// let (mut hops, mut len) = ([(0u32, LinkClass::Terminal, 0u8); 3], 0);
    /// walk(&df, &min, 0, 29, 8, |s| {
    ///     hops[len] = (s.to, s.class, s.vc);
    ///     len += 1;
    /// })?;
    /// assert_eq!(
    ///     hops,
    ///     [(1, LinkClass::Local, 0), (12, LinkClass::Global, 1), (14, LinkClass::Local, 1)]
    /// );
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new(topo: &'a Dragonfly, vcs: MinimalVcs) -> Self {
        DragonflyMinimal { topo, vcs }
    }

    /// The network.
    pub fn topology(&self) -> &'a Dragonfly {
        self.topo
    }

    /// The VC policy.
    pub fn vcs(&self) -> MinimalVcs {
        self.vcs
    }

    /// Output port of router `at` toward terminal `dst`: the terminal port at the
    /// destination router, else the next network port of the minimal route.
    pub fn port(&self, at: SwitchId, dst: TerminalId) -> Result<PortIndex, RoutingError> {
        let (t, tport) = terminal_location(self.topo, dst)?;
        match step_toward_router(self.topo, at, t)? {
            Some(step) => Ok(step.port),
            None => Ok(tport),
        }
    }

    /// Forwarding table of router `s` (one entry per terminal, in order; VC 0, see
    /// [`MinimalVcs::out_vc`]) into `out`. Computes one step per destination group or
    /// router, so a table costs O(g + a + terminals) and compresses to a few runs per
    /// group owner (every terminal of a remote group shares one port).
    pub fn switch_table(
        &self,
        s: SwitchId,
        out: &mut RunTableBuilder<'_, RouteEntry>,
    ) -> Result<(), RoutingError> {
        self.for_each_entry(s, |e| out.push(e))
    }

    /// Forwarding tables of every router, in order, into `out` (built for
    /// `num_switches()` switches and `num_terminals()` destinations).
    pub fn tables(&self, out: &mut TableSetBuilder<'_, RouteEntry>) -> Result<(), RoutingError> {
        for s in 0..self.topo.num_switches() {
            self.for_each_entry(s, |e| out.push(e))?;
        }
        Ok(())
    }

    /// Calls `push` with the table entry of router `s` for every terminal in order.
    fn for_each_entry<F>(&self, s: SwitchId, mut push: F) -> Result<(), RoutingError>
    where
        F: FnMut(RouteEntry) -> Result<(), RoutingError>,
    {
        let df = self.topo;
        let (g_s, _) = locate(df, s)?;
        let (a, p) = (df.a(), df.p());
        for group in 0..df.g() {
            if group != g_s {
                let step = step_toward_group(df, s, group)?.ok_or(RoutingError::NoRoute {
                    switch: s,
                    terminal: group * a * p,
                })?;
                let e = RouteEntry {
                    port: step.port,
                    vc: 0,
                };
                for _ in 0..a * p {
                    push(e)?;
                }
                continue;
            }
            for r in 0..a {
                let t = group * a + r;
                match step_toward_router(df, s, t)? {
                    Some(step) => {
                        let e = RouteEntry {
                            port: step.port,
                            vc: 0,
                        };
                        for _ in 0..p {
                            push(e)?;
                        }
                    }
                    None => {
                        for port in 0..p {
                            push(RouteEntry {
                                port: port as PortIndex,
                                vc: 0,
                            })?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl Routing for DragonflyMinimal<'_> {
    fn num_vcs(&self) -> u8 {
        self.vcs.count()
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        inject_state(self.topo, src, dst)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let (t, tport) = terminal_location(self.topo, dst)?;
        let Some(step) = step_toward_router(self.topo, at, t)? else {
            return Ok(Hop::Eject { port: tport });
        };
        if step.global {
            state.phase = 1;
        }
        let vc = self.vcs.out_vc(state.phase, step.global);
        state.vc = vc;
        Ok(Hop::Forward {
            port: step.port,
            vc,
        })
    }
}
