//! UGAL decision for the Dragonfly (docs/routing.md §4 for minimal and Valiant
//! Dragonfly routing): choose the minimal path or the Valiant path by queue occupancy × hops.
//! The occupancies are an argument, so the same function runs in the host simulator and on
//! a switch MCU.
//!
//! * UGAL-L (local): the occupancy of each candidate is the occupancy (flits or credits in
//!   use) of the source switch's output queue toward the candidate's first hop.
//! * UGAL-G (global, idealised): the occupancy of each candidate is the sum of the queue
//!   occupancies of the global channels the candidate path uses.
//!
//! Both then pick minimal iff `q_min · h_min ≤ q_val · h_val + bias` (ties go to the
//! minimal path; `bias ≥ 0` favours it further).
//!
//! [`DragonflyUgal`] is the routing around the decision: candidate paths, the decision on
//! the caller's occupancies, then minimal or Valiant hops with BookSim's VCs. Through the
//! [`Routing`] trait it is an adaptive routing ([`crate::routing::adaptive`]): at the source
//! router its candidates are the minimal and the Valiant path, weighed by the channels above
//! with the bias as the Valiant candidate's penalty, so the cheapest candidate (the minimal
//! one on ties) is exactly the decision above.

use crate::error::CapacityError;
use crate::routing::adaptive::{Candidate, CongestionScope};
use crate::routing::dragonfly::minimal::{step_toward_group, step_toward_router, DragonflyStep};
use crate::routing::dragonfly::valiant::{DragonflyValiant, Intermediate, VALIANT_VCS};
use crate::routing::error::RoutingError;
use crate::routing::{terminal_location, Hop, PacketState, Routing};
use crate::topology::{Dragonfly, PortIndex, SwitchId, TerminalId, Topology};

/// Which path a packet takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UgalChoice {
    /// The minimal path.
    Minimal,
    /// The Valiant path through the intermediate group.
    Valiant,
}

/// One candidate path: queue occupancy and hop count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UgalCandidate {
    /// Queue occupancy seen for this path (flits).
    pub occupancy: u32,
    /// Router-to-router hops of the whole path.
    pub hops: u32,
}

/// The core comparison: minimal iff `min.occupancy · min.hops ≤ val.occupancy · val.hops
/// + bias` (in `u64`, no overflow).
///
/// # Examples
///
/// ```
/// use jumpnet_core::routing::dragonfly::ugal::{decide, UgalCandidate, UgalChoice};
///
/// // Minimal path: 3 hops behind 10 queued flits; Valiant path: 5 hops behind 4.
/// let min = UgalCandidate { occupancy: 10, hops: 3 };
/// let val = UgalCandidate { occupancy: 4, hops: 5 };
/// // 10·3 = 30 > 4·5 = 20: Valiant, unless a bias of 10 or more favours the minimal path.
/// assert_eq!(decide(min, val, 0), UgalChoice::Valiant);
/// assert_eq!(decide(min, val, 10), UgalChoice::Minimal);
/// // Empty queues tie, and ties go to the minimal path.
/// let idle_min = UgalCandidate { occupancy: 0, hops: 3 };
/// let idle_val = UgalCandidate { occupancy: 0, hops: 5 };
/// assert_eq!(decide(idle_min, idle_val, 0), UgalChoice::Minimal);
/// ```
#[inline]
pub fn decide(min: UgalCandidate, val: UgalCandidate, bias: u32) -> UgalChoice {
    let lhs = u64::from(min.occupancy) * u64::from(min.hops);
    let rhs = u64::from(val.occupancy) * u64::from(val.hops) + u64::from(bias);
    if lhs <= rhs {
        UgalChoice::Minimal
    } else {
        UgalChoice::Valiant
    }
}

/// UGAL-L: `q_min`, `q_val` are the source switch's output-queue occupancies toward the
/// first hop of the minimal and of the Valiant path; `h_min`, `h_val` the path lengths.
#[inline]
pub fn ugal_l(q_min: u32, h_min: u32, q_val: u32, h_val: u32, bias: u32) -> UgalChoice {
    decide(
        UgalCandidate {
            occupancy: q_min,
            hops: h_min,
        },
        UgalCandidate {
            occupancy: q_val,
            hops: h_val,
        },
        bias,
    )
}

/// UGAL-G: `min_globals`, `val_globals` are the occupancies of the global channels on the
/// minimal and on the Valiant path (each summed, saturating); `h_min`, `h_val` the lengths.
#[inline]
pub fn ugal_g(
    min_globals: &[u32],
    h_min: u32,
    val_globals: &[u32],
    h_val: u32,
    bias: u32,
) -> UgalChoice {
    let sum = |q: &[u32]| q.iter().fold(0u32, |a, &b| a.saturating_add(b));
    ugal_l(sum(min_globals), h_min, sum(val_globals), h_val, bias)
}

/// Which occupancies a [`DragonflyUgal`] router compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UgalMode {
    /// UGAL-L: the source router's output queues toward the two first hops ([`ugal_l`]).
    Local,
    /// UGAL-G: the global channels of the two paths ([`ugal_g`]).
    Global,
}

/// A global channel: the router it leaves and its output port.
pub type GlobalChannel = (SwitchId, PortIndex);

/// The two candidate paths of a packet at its source router (all that a UGAL decision
/// needs besides the occupancies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UgalPaths {
    /// First hop (output port of the source router) of the minimal path.
    pub min_port: PortIndex,
    /// Router-to-router hops of the minimal path.
    pub min_hops: u32,
    /// The minimal path's global channel.
    pub min_global: GlobalChannel,
    /// First hop of the Valiant path.
    pub val_port: PortIndex,
    /// Router-to-router hops of the Valiant path.
    pub val_hops: u32,
    /// The Valiant path's two global channels (to the intermediate group, then to the
    /// destination group).
    pub val_globals: [GlobalChannel; 2],
}

/// UGAL routing on a Dragonfly (Kim et al. ISCA 2008; BookSim `ugal_dragonflynew`): at the
/// source router a packet between two groups takes the minimal path or the Valiant path
/// through a hashed intermediate group ([`DragonflyValiant`], [`Intermediate::PerPair`]),
/// decided by [`ugal_l`] / [`ugal_g`] on queue occupancies the caller supplies
/// ([`DragonflyUgal::paths`], [`DragonflyUgal::commit`]); every hop is then routed by
/// [`DragonflyValiant`] with its VCs (VC = phase: Valiant packets local VC0 → global VC0 →
/// local VC1 → global VC2 → local VC2; minimal packets start in phase 1: local VC1 → global
/// VC2 → local VC2), 3 VCs, deadlock-free.
///
/// A packet whose decision is pending is in phase [`DragonflyUgal::UNDECIDED`] (its `via`
/// holds the intermediate group). Without occupancies ([`Routing::next_hop`] on an
/// undecided packet) all queues count as empty and the packet takes the minimal path.
#[derive(Clone, Copy, Debug)]
pub struct DragonflyUgal<'a> {
    valiant: DragonflyValiant<'a>,
    mode: UgalMode,
    bias: u32,
}

impl<'a> DragonflyUgal<'a> {
    /// `PacketState::phase` of a packet waiting for its decision.
    pub const UNDECIDED: u8 = 3;

    /// UGAL in `mode` on `topo`, intermediates hashed with `seed`, decision bias `bias`
    /// (flits × hops in favour of the minimal path).
    pub fn new(topo: &'a Dragonfly, mode: UgalMode, seed: u64, bias: u32) -> Self {
        DragonflyUgal {
            valiant: DragonflyValiant::new(topo, Intermediate::PerPair, seed),
            mode,
            bias,
        }
    }

    /// The mode.
    pub fn mode(&self) -> UgalMode {
        self.mode
    }

    /// The decision bias.
    pub fn bias(&self) -> u32 {
        self.bias
    }

    /// The candidate paths of a packet at router `at` heading to `dst`, or `None` when no
    /// decision is pending (the packet is decided already, or routes minimally anyway).
    pub fn paths(
        &self,
        at: SwitchId,
        state: &PacketState,
        dst: TerminalId,
    ) -> Result<Option<UgalPaths>, RoutingError> {
        if state.phase != Self::UNDECIDED {
            return Ok(None);
        }
        let df = self.valiant.topology();
        let (t, _) = terminal_location(df, dst)?;
        let mut min_g = [(0, 0); 2];
        let mut val_g = [(0, 0); 2];
        let (min_port, min_hops, _) = walk(df, at, None, t, &mut min_g)?;
        let (val_port, val_hops, _) = walk(df, at, Some(state.via), t, &mut val_g)?;
        Ok(Some(UgalPaths {
            min_port,
            min_hops,
            min_global: min_g[0],
            val_port,
            val_hops,
            val_globals: val_g,
        }))
    }

    /// The decision on the occupancies `min` and `val` (UGAL-L: the output queues toward
    /// the first hops; UGAL-G: the sums over the paths' global channels).
    pub fn decide(&self, paths: &UgalPaths, min: u32, val: u32) -> UgalChoice {
        ugal_l(min, paths.min_hops, val, paths.val_hops, self.bias)
    }

    /// Records the decision in the packet's state.
    pub fn commit(&self, state: &mut PacketState, choice: UgalChoice) {
        if state.phase != Self::UNDECIDED {
            return;
        }
        match choice {
            UgalChoice::Minimal => {
                state.via = PacketState::NO_VIA;
                state.phase = 1;
            }
            UgalChoice::Valiant => state.phase = 0,
        }
    }
}

/// Walks the minimal route from `at` (through group `via` first, if any) to router `t`:
/// first port (0 when `at == t`), hops, and the global channels taken (into `globals`).
fn walk(
    df: &Dragonfly,
    at: SwitchId,
    via: Option<u32>,
    t: SwitchId,
    globals: &mut [GlobalChannel; 2],
) -> Result<(PortIndex, u32, usize), RoutingError> {
    let mut cur = at;
    let (mut first, mut hops, mut ng) = (0, 0u32, 0usize);
    let mut take = |cur: &mut SwitchId, step: DragonflyStep| -> Result<(), RoutingError> {
        if hops == 0 {
            first = step.port;
        }
        if step.global && ng < 2 {
            globals[ng] = (*cur, step.port);
            ng += 1;
        }
        hops += 1;
        *cur = df
            .port(*cur, step.port)
            .link()
            .ok_or(RoutingError::Unreachable { from: *cur, to: t })?
            .peer;
        if hops > 8 {
            return Err(RoutingError::Unreachable { from: at, to: t });
        }
        Ok(())
    };
    if let Some(g) = via {
        while let Some(step) = step_toward_group(df, cur, g)? {
            take(&mut cur, step)?;
        }
    }
    while let Some(step) = step_toward_router(df, cur, t)? {
        take(&mut cur, step)?;
    }
    Ok((first, hops, ng))
}

impl Routing for DragonflyUgal<'_> {
    fn num_vcs(&self) -> u8 {
        VALIANT_VCS
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        let mut st = self.valiant.inject(src, dst)?;
        if st.phase == 0 && st.via != PacketState::NO_VIA {
            st.phase = Self::UNDECIDED;
        }
        Ok(st)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        // No occupancies known: every queue is empty, the minimal path wins.
        self.commit(state, UgalChoice::Minimal);
        self.valiant.next_hop(at, state, dst)
    }

    /// UGAL-L decides on the source router's own output channels, UGAL-G on the global
    /// channels of the paths, most of which leave other routers.
    fn congestion_scope(&self) -> CongestionScope {
        match self.mode {
            UgalMode::Local => CongestionScope::Local,
            UgalMode::Global => CongestionScope::Remote,
        }
    }

    /// At the source router of an undecided packet: the minimal candidate, then the
    /// Valiant one (cost penalty [`DragonflyUgal::bias`]). UGAL-L weighs each by the source
    /// router's output channel of its first hop, UGAL-G by its global channels (one on the
    /// minimal path, two on the Valiant path). Elsewhere: none.
    fn candidates(
        &self,
        at: SwitchId,
        state: &PacketState,
        dst: TerminalId,
        out: &mut [Candidate],
    ) -> Result<usize, RoutingError> {
        if state.phase != Self::UNDECIDED {
            return Ok(0);
        }
        let Some(p) = self.paths(at, state, dst)? else {
            return Ok(0);
        };
        let available = out.len() as u64;
        let [min, val, ..] = out else {
            return Err(RoutingError::Capacity(CapacityError::new(
                "UGAL candidates",
                2,
                available,
            )));
        };
        let (min_weighed, val_weighed): (&[GlobalChannel], &[GlobalChannel]) = match self.mode {
            UgalMode::Local => (&[(at, p.min_port)], &[(at, p.val_port)]),
            UgalMode::Global => (&[p.min_global], &p.val_globals),
        };
        *min = Candidate::new(p.min_port, p.min_hops, min_weighed, 0, MINIMAL)?;
        *val = Candidate::new(p.val_port, p.val_hops, val_weighed, self.bias, VALIANT)?;
        Ok(2)
    }

    /// Commits the minimal path or the Valiant path ([`DragonflyUgal::commit`]).
    fn commit_candidate(&self, state: &mut PacketState, chosen: &Candidate) {
        let choice = if chosen.choice == MINIMAL {
            UgalChoice::Minimal
        } else {
            UgalChoice::Valiant
        };
        self.commit(state, choice);
    }
}

/// [`Candidate::choice`] of the minimal candidate.
const MINIMAL: u8 = 0;
/// [`Candidate::choice`] of the Valiant candidate.
const VALIANT: u8 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ugal_l_exact_boundary() {
        // 3 hops × 10 = 30 vs 5 hops × 6 = 30: tie → minimal; one more flit → Valiant.
        assert_eq!(ugal_l(10, 3, 6, 5, 0), UgalChoice::Minimal);
        assert_eq!(ugal_l(11, 3, 6, 5, 0), UgalChoice::Valiant);
        // bias 3 absorbs 33 - 30.
        assert_eq!(ugal_l(11, 3, 6, 5, 3), UgalChoice::Minimal);
        assert_eq!(ugal_l(0, 3, 0, 5, 0), UgalChoice::Minimal);
    }

    #[test]
    fn ugal_g_sums_global_queues() {
        // min: 1 global at 20 → 20·3 = 60; val: 2 globals 4 + 7 = 11 → 11·5 = 55.
        assert_eq!(ugal_g(&[20], 3, &[4, 7], 5, 0), UgalChoice::Valiant);
        assert_eq!(ugal_g(&[18], 3, &[4, 7], 5, 0), UgalChoice::Minimal);
        assert_eq!(
            ugal_g(&[u32::MAX, 5], 3, &[u32::MAX], 5, 0),
            UgalChoice::Minimal
        );
    }
}
