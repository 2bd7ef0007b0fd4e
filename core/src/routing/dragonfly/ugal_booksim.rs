//! BookSim2's UGAL rule for the Dragonfly (`ugal_dragonflynew` in BookSim2's
//! `networks/dragonfly.cpp`; docs/routing.md §4, docs/booksim.md §3), next to jumpnet's own
//! UGAL ([`super::ugal`], `df-ugal-l`), which differs in three ways BookSim2's numbers show:
//!
//! * **Intermediate**: a random *terminal* of the whole network, drawn per packet; the packet
//!   routes minimally to that terminal's router (phase 0), then minimally to its destination.
//!   An intermediate in the source group means the minimal path without a decision; one in
//!   the destination group is allowed (a detour inside that group). jumpnet's UGAL hashes an
//!   intermediate *group* per (source, destination) pair outside both end groups and
//!   continues from wherever the packet enters it.
//! * **Decision**: minimal iff `q_min ≤ 2·q_val + T`, `q` the source router's occupancy
//!   (unreturned credits, all VCs) of the output port toward each path's first hop and `T`
//!   the threshold (BookSim2 hard-codes 30): fixed weights 1 and 2 instead of the two paths'
//!   hop counts.
//! * **VCs**: phase 0 uses VC 0 all the way to the intermediate router, then VC 1 until the
//!   global hop, VC 2 after it; packets within one group use VC 2 (BookSim2's phase 2).
//!
//! The random draw: the caller fills [`PacketState::coin`] with random bits once per packet
//! ([`Routing::random_ties`]); the intermediate terminal is a seeded hash of (source router,
//! destination, coin) — 256 intermediates per (source router, destination), spread uniformly
//! over the network. Until its source router decides, a packet is in phase
//! [`DragonflyUgalBookSim::UNDECIDED`] with its destination in `via`.

use crate::error::CapacityError;
use crate::rng::hash64;
use crate::routing::adaptive::{Candidate, CongestionScope};
use crate::routing::dragonfly::minimal::{locate, step_toward_router};
use crate::routing::dragonfly::valiant::VALIANT_VCS;
use crate::routing::error::RoutingError;
use crate::routing::{terminal_location, Hop, PacketState, Routing};
use crate::topology::{Dragonfly, SwitchId, TerminalId, Topology};

/// BookSim2's UGAL threshold (`adaptive_threshold = 30` in `ugal_dragonflynew`).
pub const BOOKSIM_THRESHOLD: u32 = 30;

/// BookSim2's UGAL on a borrowed [`Dragonfly`] (module documentation).
#[derive(Clone, Copy, Debug)]
pub struct DragonflyUgalBookSim<'a> {
    topo: &'a Dragonfly,
    seed: u64,
    threshold: u32,
}

/// [`Candidate::choice`] of the minimal candidate.
const MINIMAL: u8 = 0;
/// [`Candidate::choice`] of the Valiant candidate.
const VALIANT: u8 = 1;

impl<'a> DragonflyUgalBookSim<'a> {
    /// `PacketState::phase` of a packet whose source router has not decided yet.
    pub const UNDECIDED: u8 = 3;

    /// BookSim2's UGAL on `topo`, intermediates hashed with `seed`, threshold `threshold`
    /// ([`BOOKSIM_THRESHOLD`] is BookSim2's).
    pub fn new(topo: &'a Dragonfly, seed: u64, threshold: u32) -> Self {
        DragonflyUgalBookSim {
            topo,
            seed,
            threshold,
        }
    }

    /// The intermediate router of an undecided packet, or `None` when it lies in the
    /// source group (minimal path, no decision).
    pub fn intermediate(&self, state: &PacketState) -> Result<Option<SwitchId>, RoutingError> {
        let df = self.topo;
        let n = df.num_terminals();
        let key = (u64::from(state.src_switch) << 40)
            | (u64::from(state.via) << 8)
            | u64::from(state.coin);
        let h = hash64(self.seed, key);
        let term = ((h as u128 * n as u128) >> 64) as u32;
        let (r, _) = terminal_location(df, term)?;
        let (g_r, _) = locate(df, r)?;
        let (g_s, _) = locate(df, state.src_switch)?;
        Ok((g_r != g_s).then_some(r))
    }

    /// Commits packet `state` at its source router to the minimal path, or to the Valiant
    /// path through router `via`.
    fn commit(state: &mut PacketState, via: Option<SwitchId>) {
        match via {
            Some(r) => {
                state.phase = 0;
                state.via = r;
            }
            None => {
                state.phase = 1;
                state.via = PacketState::NO_VIA;
            }
        }
    }
}

impl Routing for DragonflyUgalBookSim<'_> {
    fn num_vcs(&self) -> u8 {
        VALIANT_VCS
    }

    /// Packets within one group start in phase 2 (BookSim2 routes them on VC 2); others wait
    /// for their source router's decision, their destination in `via`.
    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        let df = self.topo;
        let (s, _) = terminal_location(df, src)?;
        let (t, _) = terminal_location(df, dst)?;
        let mut st = PacketState::new(s);
        if locate(df, s)?.0 == locate(df, t)?.0 {
            st.phase = 2;
        } else {
            st.phase = Self::UNDECIDED;
            st.via = dst;
        }
        Ok(st)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        if state.phase == Self::UNDECIDED {
            // No occupancies known: every queue is empty, the minimal path wins.
            Self::commit(state, None);
        }
        let df = self.topo;
        if state.phase == 0 && state.via == at {
            state.phase = 1;
            state.via = PacketState::NO_VIA;
        }
        let (t, tport) = terminal_location(df, dst)?;
        let target = if state.phase == 0 { state.via } else { t };
        let Some(step) = step_toward_router(df, at, target)? else {
            // BookSim2 ejects on the phase's VC too (`out_vc = f->ph`): the caller that
            // honours the routing's ejection VC reads it here.
            state.vc = state.phase;
            return Ok(Hop::Eject { port: tport });
        };
        if state.phase == 1 && step.global {
            state.phase = 2;
        }
        state.vc = state.phase;
        Ok(Hop::Forward {
            port: step.port,
            vc: state.phase,
        })
    }

    fn congestion_scope(&self) -> CongestionScope {
        CongestionScope::Local
    }

    fn random_ties(&self) -> bool {
        true
    }

    /// At the source router of an undecided packet whose intermediate lies outside its
    /// group: the minimal candidate (weight 1) and the Valiant one (weight 2, penalty the
    /// threshold), each weighing the source router's output toward its first hop; the
    /// selection's `q·hops + bias` is then BookSim2's `q_min ≤ 2·q_val + T` (minimal on
    /// ties). Elsewhere: none.
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
        let Some(via) = self.intermediate(state)? else {
            return Ok(0);
        };
        let df = self.topo;
        let (t, _) = terminal_location(df, dst)?;
        let first = |target| -> Result<_, RoutingError> {
            Ok(step_toward_router(df, at, target)?.map_or(0, |s| s.port))
        };
        let available = out.len() as u64;
        let [min, val, ..] = out else {
            return Err(RoutingError::Capacity(CapacityError::new(
                "UGAL candidates",
                2,
                available,
            )));
        };
        let (pm, pv) = (first(t)?, first(via)?);
        *min = Candidate::new(pm, 1, &[(at, pm)], 0, MINIMAL)?;
        *val = Candidate::new(pv, 2, &[(at, pv)], self.threshold, VALIANT)?;
        Ok(2)
    }

    /// Commits the minimal path or the Valiant path through the packet's intermediate.
    fn commit_candidate(&self, state: &mut PacketState, chosen: &Candidate) {
        if state.phase != Self::UNDECIDED {
            return;
        }
        let via = if chosen.choice == VALIANT {
            self.intermediate(state).ok().flatten()
        } else {
            None
        };
        Self::commit(state, via);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::adaptive::MAX_CANDIDATES;
    use crate::topology::GlobalArrangement;
    use std::vec::Vec;

    /// BookSim2's `dragonflynew` with `k = 2`: p = 2, a = 4, h = 2, g = 9.
    fn df() -> Dragonfly {
        Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap()
    }

    /// Follows `next_hop` from the source to the destination: (routers, VCs taken).
    fn walk(r: &DragonflyUgalBookSim<'_>, st: &mut PacketState, dst: u32) -> Vec<(u32, u8)> {
        let df = r.topo;
        let mut at = st.src_switch;
        let mut path = Vec::new();
        for _ in 0..10 {
            match r.next_hop(at, st, dst).unwrap() {
                Hop::Eject { .. } => return path,
                Hop::Forward { port, vc } => {
                    at = df.port(at, port).link().unwrap().peer;
                    path.push((at, vc));
                }
            }
        }
        panic!("no arrival");
    }

    #[test]
    fn booksim_decision_weights_and_threshold() {
        let d = df();
        let r = DragonflyUgalBookSim::new(&d, 1, BOOKSIM_THRESHOLD);
        // Terminal 0 (router 0, group 0) to terminal 70 (router 35, group 8).
        let mut found = false;
        for coin in 0..=255u8 {
            let mut st = r.inject(0, 70).unwrap();
            st.coin = coin;
            let mut c = [Candidate::default(); MAX_CANDIDATES];
            let n = r.candidates(0, &st, 70, &mut c).unwrap();
            let via = r.intermediate(&st).unwrap();
            assert_eq!(n == 2, via.is_some(), "coin {coin}");
            if n == 0 {
                continue;
            }
            found = true;
            // q_min = 40, q_val = 5: 40 ≤ 2·5 + 30 → minimal; q_min = 41 → Valiant.
            assert_eq!((c[0].cost(40), c[1].cost(5)), (40, 40));
            assert!(c[0].cost(41) > c[1].cost(5));
            // Valiant: VC 0 to the intermediate router, then 1, then 2 after the global hop.
            r.commit_candidate(&mut st, &c[1]);
            let path = walk(&r, &mut st, 70);
            let mid = via.unwrap();
            let k = path.iter().position(|&(s, _)| s == mid).unwrap();
            assert!(path[..=k].iter().all(|&(_, vc)| vc == 0), "{path:?}");
            assert!(
                path[k + 1..].windows(2).all(|w| w[0].1 <= w[1].1),
                "{path:?}"
            );
            // At the destination, after the intermediate (which may be router 35 itself).
            assert_eq!(path.last().unwrap().0, 35, "{path:?}");
            assert!(mid == 35 || path.last().unwrap().1 >= 1, "{path:?}");
        }
        assert!(found);
    }

    #[test]
    fn minimal_and_intra_group_paths_use_booksims_vcs() {
        let d = df();
        let r = DragonflyUgalBookSim::new(&d, 1, BOOKSIM_THRESHOLD);
        // Undecided without occupancies: minimal, local VC 1, global VC 2, local VC 2.
        let mut st = r.inject(0, 70).unwrap();
        let path = walk(&r, &mut st, 70);
        assert!(path.windows(2).all(|w| w[0].1 <= w[1].1), "{path:?}");
        assert_eq!((path[0].1, path.last().unwrap()), (1, &(35, 2)), "{path:?}");
        // Within group 0 (terminal 0 → terminal 6, router 3): one local hop on VC 2.
        let mut st = r.inject(0, 6).unwrap();
        assert_eq!(walk(&r, &mut st, 6), [(3, 2)]);
    }
}
