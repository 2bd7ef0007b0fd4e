//! Valiant (non-minimal, oblivious) Dragonfly routing with a deterministic intermediate group
//! (docs/routing.md §4; Kim et al. ISCA 2008; CODES / \[DF-BC\]; VCs as BookSim
//! `ugal_dragonflynew`).
//!
//! An inter-group packet from group `G_s` to group `G_d` first routes minimally to an
//! intermediate group `G_i ∉ {G_s, G_d}` (phase 0), then, from the router where it entered
//! `G_i`, minimally to its destination (phase 1); the final global hop starts phase 2. Up to
//! 2 global and 5 router hops. VC = phase: local VC0 → global VC0 → local VC1 → global VC2
//! → local VC2, a strictly increasing order of channel classes, so the channel dependency
//! graph is acyclic with 3 VCs.
//!
//! The intermediate is a seeded hash ([`hash64`]) instead of a random draw, so every packet's
//! route is reproducible everywhere ([`Intermediate`]):
//!
//! * [`Intermediate::PerPair`] hashes (source terminal, destination terminal) and picks
//!   uniformly among the `g − 2` groups `∉ {G_s, G_d}`. Different sources spread their
//!   traffic to one destination over different groups, but the phase-0 hops depend on the
//!   source: a router cannot route them from the destination alone. The packet must carry
//!   the intermediate group (here `PacketState::via`); a router then needs a per-group table
//!   (`g` entries) for phase 0 and a per-destination table for phases 1–2.
//! * [`Intermediate::PerDestination`] hashes the destination only and picks among the
//!   `g − 1` groups `≠ G_d`; when that is the source group the packet routes minimally. All
//!   traffic to one destination then crosses the same intermediate group (less load
//!   spreading), but every hop is a function of (router, arrival VC, destination): the
//!   routes fit per-(VC, destination) tables ([`DragonflyValiant::table_entry`],
//!   [`DragonflyValiant::tables`]), as a router's input-VC-indexed forwarding tables.
//!
//! Both variants route intra-group traffic (`G_s = G_d`) minimally (one local hop, as
//! BookSim's UGAL does) and fall back to minimal routing when `g ≤ 2` (no group outside
//! `{G_s, G_d}`). Minimally routed packets start in phase 1 (local VC1, global VC2).

use crate::error::InvalidParam;
use crate::rng::hash64;
use crate::topology::{Dragonfly, PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::dragonfly::minimal::{locate, step_toward_group, step_toward_router};
use crate::routing::error::RoutingError;
use crate::routing::tables::run_table::RouteEntry;
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::{terminal_location, Hop, PacketState, Routing, Vc};

/// Number of VCs of Valiant routing (one per phase).
pub const VALIANT_VCS: u8 = 3;

/// How the intermediate group is derived (see the module docs for what each can do).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Intermediate {
    /// Hash of (source terminal, destination terminal), among groups `∉ {G_s, G_d}`.
    #[default]
    PerPair,
    /// Hash of the destination terminal, among groups `≠ G_d`; minimal when it is `G_s`.
    PerDestination,
}

/// Where a packet came from when it reaches a router: its terminal (injection) or a
/// network channel on a VC. Selects the forwarding table of the destination-based variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arrival {
    /// Injected by a terminal of this router.
    Terminal,
    /// Arrived on a network channel on this VC (`0..3`).
    Vc(Vc),
}

/// Valiant routing on a borrowed [`Dragonfly`] (docs/routing.md §4); state in
/// `PacketState::phase` (0, 1, 2) and `PacketState::via` (intermediate group).
#[derive(Clone, Copy, Debug)]
pub struct DragonflyValiant<'a> {
    topo: &'a Dragonfly,
    choice: Intermediate,
    seed: u64,
}

/// Uniform index in `0..k` from a 64-bit hash (multiply-high; `k > 0`).
#[inline]
fn pick(h: u64, k: u32) -> u32 {
    ((h as u128 * k as u128) >> 64) as u32
}

impl<'a> DragonflyValiant<'a> {
    /// Valiant routing on `topo` choosing intermediates by `choice`, hashed with `seed`.
    pub fn new(topo: &'a Dragonfly, choice: Intermediate, seed: u64) -> Self {
        DragonflyValiant { topo, choice, seed }
    }

    /// The network.
    pub fn topology(&self) -> &'a Dragonfly {
        self.topo
    }

    /// The intermediate choice.
    pub fn choice(&self) -> Intermediate {
        self.choice
    }

    /// Intermediate group of a packet from terminal `src` to terminal `dst`; `None` when the
    /// packet routes minimally (same group, `g ≤ 2`, or — destination-based — the hashed
    /// group is the source group).
    pub fn intermediate(
        &self,
        src: TerminalId,
        dst: TerminalId,
    ) -> Result<Option<u32>, RoutingError> {
        let (s, _) = terminal_location(self.topo, src)?;
        let (g_s, _) = locate(self.topo, s)?;
        self.intermediate_from_group(g_s, src, dst)
    }

    /// [`DragonflyValiant::intermediate`] for a packet injected in group `g_s` (`src` is
    /// only hashed by [`Intermediate::PerPair`]).
    fn intermediate_from_group(
        &self,
        g_s: u32,
        src: TerminalId,
        dst: TerminalId,
    ) -> Result<Option<u32>, RoutingError> {
        let (t, _) = terminal_location(self.topo, dst)?;
        let (g_d, _) = locate(self.topo, t)?;
        let g = self.topo.g();
        if g_s == g_d {
            return Ok(None);
        }
        match self.choice {
            Intermediate::PerPair => {
                if g <= 2 {
                    return Ok(None);
                }
                let h = hash64(self.seed, ((src as u64) << 32) | dst as u64);
                let (lo, hi) = (g_s.min(g_d), g_s.max(g_d));
                let mut gi = pick(h, g - 2);
                if gi >= lo {
                    gi += 1;
                }
                if gi >= hi {
                    gi += 1;
                }
                Ok(Some(gi))
            }
            Intermediate::PerDestination => {
                let h = hash64(self.seed, dst as u64);
                let mut gi = pick(h, g - 1);
                if gi >= g_d {
                    gi += 1;
                }
                Ok((gi != g_s).then_some(gi))
            }
        }
    }

    /// One hop from router `at` in `phase` with intermediate group `via`
    /// ([`PacketState::NO_VIA`] if none) toward router `t` (terminal port `tport`); returns
    /// the hop and the phase after it.
    fn advance(
        &self,
        at: SwitchId,
        phase: u8,
        via: u32,
        t: SwitchId,
        tport: PortIndex,
    ) -> Result<(Hop, u8), RoutingError> {
        let mut phase = phase;
        if phase == 0 {
            if via != PacketState::NO_VIA {
                if let Some(step) = step_toward_group(self.topo, at, via)? {
                    let hop = Hop::Forward {
                        port: step.port,
                        vc: 0,
                    };
                    return Ok((hop, 0));
                }
            }
            // Arrived in the intermediate group (or no intermediate): route minimally.
            phase = 1;
        }
        match step_toward_router(self.topo, at, t)? {
            None => Ok((Hop::Eject { port: tport }, phase)),
            Some(step) => {
                if step.global {
                    phase = 2;
                }
                let vc = phase.min(VALIANT_VCS - 1);
                Ok((
                    Hop::Forward {
                        port: step.port,
                        vc,
                    },
                    vc,
                ))
            }
        }
    }

    /// Forwarding entry of router `at` for a packet to terminal `dst` that arrived as
    /// `arrival`, for [`Intermediate::PerDestination`] only: the hop is a function of
    /// (router, arrival, destination), so these are the router's per-(VC, destination)
    /// tables. Terminal ports eject (VC 0 in the entry). Fails with
    /// [`RoutingError::Invalid`] for [`Intermediate::PerPair`], whose phase-0 hops depend on
    /// the source.
    pub fn table_entry(
        &self,
        at: SwitchId,
        arrival: Arrival,
        dst: TerminalId,
    ) -> Result<RouteEntry, RoutingError> {
        if self.choice != Intermediate::PerDestination {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "intermediate choice",
                value: 0,
                rule: "only destination-based Valiant routes fit per-(VC, destination) tables",
            }));
        }
        let (t, tport) = terminal_location(self.topo, dst)?;
        let (g_at, _) = locate(self.topo, at)?;
        let via = self
            .intermediate_from_group(g_at, 0, dst)?
            .unwrap_or(PacketState::NO_VIA);
        let (phase, via) = match arrival {
            // At injection the router's own group is the source group.
            Arrival::Terminal => (if via == PacketState::NO_VIA { 1 } else { 0 }, via),
            // A phase-0 packet is in its source group or heading to its intermediate group,
            // which is `via` when the hash does not pick this group.
            Arrival::Vc(0) => (0, via),
            Arrival::Vc(vc) if vc < VALIANT_VCS => (vc, PacketState::NO_VIA),
            Arrival::Vc(vc) => {
                return Err(RoutingError::Invalid(InvalidParam {
                    param: "arrival VC",
                    value: vc as u64,
                    rule: "Valiant routing uses VCs 0..3",
                }))
            }
        };
        // A phase-0 packet arriving where the hash names this very group has reached its
        // intermediate group: route it minimally in phase 1.
        let (hop, _) = self.advance(at, phase, via, t, tport)?;
        Ok(match hop {
            Hop::Forward { port, vc } => RouteEntry { port, vc },
            Hop::Eject { port } => RouteEntry { port, vc: 0 },
        })
    }

    /// Per-`arrival` forwarding tables of every router (in order) for
    /// [`Intermediate::PerDestination`] into `out` (built for `num_switches()` switches and
    /// `num_terminals()` destinations); see [`DragonflyValiant::table_entry`].
    pub fn tables(
        &self,
        arrival: Arrival,
        out: &mut TableSetBuilder<'_, RouteEntry>,
    ) -> Result<(), RoutingError> {
        for s in 0..self.topo.num_switches() {
            for d in 0..self.topo.num_terminals() {
                out.push(self.table_entry(s, arrival, d)?)?;
            }
        }
        Ok(())
    }
}

impl Routing for DragonflyValiant<'_> {
    fn num_vcs(&self) -> u8 {
        VALIANT_VCS
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        let (s, _) = terminal_location(self.topo, src)?;
        let mut st = PacketState::new(s);
        match self.intermediate(src, dst)? {
            Some(g) => {
                st.via = g;
                st.phase = 0;
            }
            None => st.phase = 1,
        }
        Ok(st)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let (t, tport) = terminal_location(self.topo, dst)?;
        let (hop, phase) = self.advance(at, state.phase, state.via, t, tport)?;
        state.phase = phase;
        if let Hop::Forward { vc, .. } = hop {
            state.vc = vc;
        }
        Ok(hop)
    }
}
